"""Save and resume: a run saved at any season and resumed ends exactly as the run that never
stopped (same JSON, same ledger_sha256); bad save files are clear errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import msgpack
import pytest

from agents.campaign import finish, prepare_campaign, run_campaign
from agents.savefile import restore, save
from scenarios.loader import load_scenario
from sim.calendar import HOURS_PER_SEASON
from sim.errors import SaveFileError

pytestmark = pytest.mark.slow  # full campaigns: `make test-fast` leaves them to `make test`

ROOT = Path(__file__).resolve().parent.parent


def _save_at(name: str, seed: int, hour: int, path: Path) -> None:
    loaded = load_scenario(name)
    model = prepare_campaign(loaded, seed)
    model.run(hour)
    save(model, path, scenario_label=loaded.label, scenario_text=loaded.text, overrides=None)


@pytest.mark.parametrize(
    ("name", "seed", "seasons"),
    [
        ("guild-war", 3, [1, 9, 19]),
        ("stolen-lands", 5, [1, 17, 39]),
        ("mare-nostrum", 2, [1, 20, 39]),
    ],
)
def test_saved_and_resumed_runs_end_exactly_like_the_run_that_never_stopped(
    tmp_path: Path, name: str, seed: int, seasons: list[int]
) -> None:
    whole = run_campaign(name, seed)
    for k in seasons:
        p = tmp_path / f"{name}-{k}.save"
        _save_at(name, seed, k * HOURS_PER_SEASON, p)
        model, _ = restore(p)
        assert model.world.now == k * HOURS_PER_SEASON
        model.run()
        res = finish(model)
        assert res.as_json() == whole.as_json(), f"{name} saved at season {k}"
        assert res.ledger.encode() == whole.ledger.encode()


def test_caravans_resume_at_a_day_boundary(tmp_path: Path) -> None:
    whole = run_campaign("caravan-crossing", 4)
    p = tmp_path / "cc.save"
    _save_at("caravan-crossing", 4, 17 * 24, p)
    model, _ = restore(p)
    model.run()
    assert finish(model).as_json() == whole.as_json()


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "workers.cli", *args], capture_output=True, text=True, cwd=cwd)


def test_cli_run_until_save_then_resume_prints_the_same_json(tmp_path: Path) -> None:
    whole = _cli("run", "guild-war", "--seed", "8", "--json", cwd=tmp_path)
    assert whole.returncode == 0, whole.stderr
    part = _cli("run", "guild-war", "--seed", "8", "--until", "6", "--save", "g.save", "--json", cwd=tmp_path)
    assert part.returncode == 0, part.stderr
    assert json.loads(part.stdout)["stopped_at_hour"] == 6 * HOURS_PER_SEASON
    resumed = _cli("resume", "g.save", "--json", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout) == json.loads(whole.stdout)


def test_cli_resume_narrates_only_what_follows_the_save(tmp_path: Path) -> None:
    part = _cli("run", "guild-war", "--until", "2", "--save", "g.save", cwd=tmp_path)
    assert part.returncode == 0 and "Saved to g.save; continue with: realmsim resume g.save" in part.stdout
    out = _cli("resume", "g.save", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    first = out.stdout.splitlines()[0]
    assert first.startswith("Y1 autumn"), first  # season 2 (0-based) of year 1


def test_bad_until_is_a_usage_error(tmp_path: Path) -> None:
    p = _cli("run", "guild-war", "--until", "soon", cwd=tmp_path)
    assert p.returncode == 2 and "--until 'soon': expected a season number" in p.stderr and "Traceback" not in p.stderr


def test_damaged_save_file_is_a_clear_error(tmp_path: Path) -> None:
    p = tmp_path / "g.save"
    _save_at("guild-war", 1, HOURS_PER_SEASON, p)
    raw = bytearray(p.read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    p.write_bytes(bytes(raw))
    with pytest.raises(SaveFileError, match="damaged"):
        restore(p)
    out = _cli("resume", str(p), cwd=tmp_path)
    assert out.returncode == 2 and "damaged" in out.stderr and "Traceback" not in out.stderr


def test_save_from_another_code_version_is_refused(tmp_path: Path) -> None:
    p = tmp_path / "g.save"
    _save_at("guild-war", 1, HOURS_PER_SEASON, p)
    doc = msgpack.unpackb(p.read_bytes(), raw=False)
    doc["code_version"] = "0.0.1+000000000000"
    p.write_bytes(msgpack.packb(doc, use_bin_type=True))
    with pytest.raises(SaveFileError, match=r"saved by realmsim code version '0.0.1\+000000000000'; this is"):
        restore(p)


@pytest.mark.parametrize("content", [b"", b"hello", msgpack.packb({"format": "other"})])
def test_not_a_save_file(tmp_path: Path, content: bytes) -> None:
    p = tmp_path / "x.save"
    p.write_bytes(content)
    with pytest.raises(SaveFileError, match="not a realmsim save file"):
        restore(p)


def test_missing_save_file(tmp_path: Path) -> None:
    with pytest.raises(SaveFileError, match="nope.save: expected a save file, found no such file"):
        restore(tmp_path / "nope.save")
