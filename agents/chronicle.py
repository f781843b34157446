"""A readable account of a campaign, built from its ledger events (English or French)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TextIO

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


def summary_lines(result: Any) -> list[str]:
    """The closing block of a chronicle: the summary metrics of a finished run."""
    out = [f"Summary of {result.scenario} (seed {result.seed}): {result.events} events, ledger sha256 {result.ledger_sha256}"]
    out += [f"  {k:<36} {v}" for k, v in result.summary.items()]
    return out


def transcript(scenario: Any, seed: int | None = None, lang: str = "en") -> str:
    """The whole readable account of a run: every chronicle line, then the summary block.

    This is what ``realmsim run`` prints and what the golden transcripts under tests/golden/ store.
    """
    import io

    from agents.campaign import finish, prepare_campaign

    buf = io.StringIO()
    writer = ChronicleWriter(buf, lang)
    model = prepare_campaign(scenario, seed, keep_ledger=False, collect=False, listeners=[writer])
    writer.attach(model)
    model.run()
    res = finish(model)
    return buf.getvalue() + "\n" + "\n".join(summary_lines(res)) + "\n"
