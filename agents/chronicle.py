"""A readable account of a campaign, built from its ledger events (English or French)."""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

from sim.calendar import date_of
from sim.events import Event

if TYPE_CHECKING:
    from agents.model import RealmModel

_GENERIC = {
    "CampaignStarted": {
        "en": "Campaign {scenario} begins (seed {seed}; systems: {systems}).",
        "fr": "La campagne {scenario} commence (graine {seed} ; systèmes : {systems}).",
    },
}


def line(model: RealmModel, ev: Event, lang: str = "en") -> str | None:
    text: str | None = None
    if ev.kind in _GENERIC:
        d = dict(ev.data)
        d["systems"] = ", ".join(d.get("systems", []))
        text = _GENERIC[ev.kind][lang].format(**d)
    else:
        for drv in model.drivers:
            if drv.name == ev.system:
                text = drv.chronicle(ev, lang, model)
                break
    if text is None:
        return None
    return f"{date_of(ev.t).format(lang)}  {text}"


class ChronicleWriter:
    """Subscribe to a ledger and write each tellable event as it happens."""

    def __init__(self, out: TextIO, lang: str = "en") -> None:
        self.out = out
        self.lang = lang
        self.model: RealmModel | None = None
        self.pending: list[Event] = []
        self.lines = 0

    def __call__(self, ev: Event) -> None:
        if self.model is None:
            self.pending.append(ev)
            return
        self._write(ev)

    def attach(self, model: RealmModel) -> None:
        self.model = model
        for ev in self.pending:
            self._write(ev)
        self.pending.clear()

    def _write(self, ev: Event) -> None:
        assert self.model is not None
        s = line(self.model, ev, self.lang)
        if s:
            self.out.write(s + "\n")
            self.lines += 1
