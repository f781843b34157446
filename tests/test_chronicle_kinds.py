"""Every event kind the engine emits is told by a chronicle template, in English and French, or is
listed as silent (agents.chronicle.SILENT); no template raises on an event the engine emits, and the
chronicle never stops on an event it cannot render (issue 9 item 8: an unpaid traveler's
``TravelerLeft`` carries no ``job``)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from agents.campaign import prepare_campaign
from agents.chronicle import SILENT, line, narrated_kinds, render, transcript
from agents.variants import variant
from scenarios.loader import builtin_names, builtin_path, load_scenario, load_scenario_text
from sim.calendar import HOURS_PER_DAY, HOURS_PER_YEAR, date_of
from sim.events import Event

ROOT = Path(__file__).resolve().parent.parent
_EMIT = re.compile(r'\b_?emit(?:_check)?\(\s*[A-Za-z_."]+\s*,\s*"([A-Z][A-Za-z]+)"', re.S)


def kinds_in_source() -> set[str]:
    """Every literal kind passed to ``ledger.emit``/``emit_check`` (or a system's ``_emit``)."""
    out: set[str] = set()
    for pkg in ("sim", "agents"):
        for p in (ROOT / pkg).rglob("*.py"):
            out |= set(_EMIT.findall(p.read_text(encoding="utf-8")))
    return out


class _Renderer:
    """A ledger listener that renders each event, strictly, in both languages as it is emitted."""

    def __init__(self) -> None:
        self.model: Any = None
        self.pending: list[Event] = []
        self.kinds: set[str] = set()
        self.errors: list[str] = []

    def __call__(self, ev: Event) -> None:
        if self.model is None:
            self.pending.append(ev)
        else:
            self._render(ev)

    def attach(self, model: Any) -> None:
        self.model = model
        for ev in self.pending:
            self._render(ev)
        self.pending.clear()

    def _render(self, ev: Event) -> None:
        self.kinds.add(ev.kind)
        for lang in ("en", "fr"):
            try:
                render(self.model, ev, lang)
            except Exception as e:  # noqa: BLE001 - any error is the finding
                if len(self.errors) < 20:
                    self.errors.append(f"{ev.kind} ({lang}): {type(e).__name__}: {e}")


def _campaign(loaded: Any, seed: int, until: int | None = None) -> _Renderer:
    r = _Renderer()
    model = prepare_campaign(loaded, seed, keep_ledger=False, collect=False, listeners=[r])
    r.attach(model)
    model.run(until)
    return r


def _unpaid_caravan_crossing() -> Any:
    text = builtin_path("caravan-crossing").read_text(encoding="utf-8")
    assert "gp = 900" in text
    return load_scenario_text(text.replace("gp = 900", "gp = 5", 1), "caravan-crossing (one caravan with 5 gp)")


@pytest.mark.slow
def test_every_emitted_kind_has_a_template_or_is_silent_and_renders_in_both_languages() -> None:
    seen: set[str] = set()
    errors: list[str] = []
    runs = [(load_scenario(n), None, 2 * HOURS_PER_YEAR) for n in builtin_names()]
    runs += [(variant(load_scenario(n), policy="random", duration_hours=2 * HOURS_PER_YEAR), seed, None)
             for n in builtin_names() for seed in (1, 2)]
    runs.append((_unpaid_caravan_crossing(), None, 60 * HOURS_PER_DAY))
    for loaded, seed, until in runs:
        r = _campaign(loaded, seed if seed is not None else loaded.scenario.scenario.seed, until)
        seen |= r.kinds
        errors += r.errors
    assert errors == []
    told = set().union(*narrated_kinds().values())
    every = seen | kinds_in_source()
    assert sorted(every - told - SILENT) == [], "kinds with no template: add one, or list them in SILENT"
    assert "TravelerLeft" in seen  # the targeted scenario reached the unpaid traveler


def test_silent_kinds_have_no_template() -> None:
    told = set().union(*narrated_kinds().values())
    assert sorted(SILENT & told) == []
    assert "DecisionMade" in SILENT and "TravelerLeft" in told


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_template_missing_a_field_does_not_stop_the_chronicle(lang: str) -> None:
    """Every told kind, given an event with no data at all, yields a line (its template's, or the
    plain one naming kind and actor): the chronicle never raises."""
    model = prepare_campaign(load_scenario("realm"), 3, keep_ledger=False, collect=False)
    for system, kinds in narrated_kinds().items():
        for kind in sorted(kinds):
            ev = Event(0, 0, system, kind, "world", ())
            out = line(model, ev, lang)
            assert out is None or out.startswith(date_of(0).format(lang) + "  "), (kind, out)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_run_tells_an_unpaid_traveler_leaving(lang: str) -> None:
    """The built-in caravan-crossing with one caravan given 5 gp: the narrated run no longer dies
    with a KeyError on ``job`` (issue 9 item 8)."""
    text = transcript(_unpaid_caravan_crossing(), None, lang)
    left = [s for s in text.splitlines() if ("leaves" in s and "(unpaid)" in s) or ("quitte" in s and "faute de solde" in s)]
    assert left, "no unpaid traveler left in the targeted scenario"
    assert "?" not in left[0]


def test_realmsim_run_narrates_the_unpaid_traveler_and_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from workers.cli import main

    text = builtin_path("caravan-crossing").read_text(encoding="utf-8").replace("gp = 900", "gp = 5", 1)
    p = tmp_path / "poor.toml"
    p.write_text(text, encoding="utf-8")
    assert main(["run", str(p)]) == 0
    out = capsys.readouterr().out
    assert "leaves Amber Caravan (unpaid)." in out and out.rstrip().splitlines()[-1].startswith("  ")
