"""A scenario's other files (orders files) are read next to the scenario file, once, and carried from
then on — in a job, in a save — so a worker never opens a path a job names (issue 9, finding 3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from scenarios.loader import load_scenario, load_scenario_text
from sim.errors import ScenarioError
from workers.batch import scenario_ref
from workers.job import decode, encode, make_job, run_job

from .km.test_scenario import SCRIPTED_A, text

ORDERS = 'kingdom = "a"\n[[orders]]\nturn = 1\ntaxation = "light"\n'


def with_orders(name: str) -> str:
    return text().replace("skills = { diplomacy = 10 }", f'{SCRIPTED_A}\norders_file = "{name}"', 1)


def problems_of(path: Path) -> str:
    with pytest.raises(ScenarioError) as ei:
        load_scenario(str(path))
    return str(ei.value)


def test_an_orders_file_is_read_relative_to_the_scenario_file_not_the_current_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "orders").mkdir()
    (tmp_path / "orders" / "alpha.toml").write_text(ORDERS, encoding="utf-8")
    sc = tmp_path / "mini.toml"
    sc.write_text(with_orders("orders/alpha.toml"), encoding="utf-8")
    monkeypatch.chdir(Path("/"))
    loaded = load_scenario(str(sc))
    assert loaded.files == {"orders/alpha.toml": ORDERS}
    # what a job carries: the text and the orders file's text; the worker runs it without the files
    ref, _ = scenario_ref(str(sc))
    assert ref == {"label": "mini.toml", "text": loaded.text, "files": {"orders/alpha.toml": ORDERS}}
    (tmp_path / "orders" / "alpha.toml").unlink()
    res = decode(run_job(encode(make_job(ref, 1))))
    assert res["scenario"] == "km-mini" and res["events"] > 0


@pytest.mark.parametrize(("name", "why"), [("/etc/passwd", "(an absolute path)"),
                                           ("../outside.toml", "(it leaves the scenario's folder)"),
                                           ("orders/../../outside.toml", "(it leaves the scenario's folder)"),
                                           ("~/orders.toml", "(an absolute path)")])
def test_an_absolute_or_escaping_orders_file_is_a_problem_of_its_field_and_is_never_opened(
        tmp_path: Path, name: str, why: str) -> None:
    inner = tmp_path / "inner"
    inner.mkdir()
    (tmp_path / "outside.toml").write_text(ORDERS, encoding="utf-8")
    sc = inner / "mini.toml"
    sc.write_text(with_orders(name), encoding="utf-8")
    p = problems_of(sc)
    assert (f'kingdoms[0].orders_file: expected a path relative to the scenario file, inside its folder '
            f'(e.g. orders/alpha.toml), found "{name}" {why}') in p, p
    assert "taxation" not in p


def test_a_link_out_of_the_folder_is_not_followed(tmp_path: Path) -> None:
    inner = tmp_path / "inner"
    inner.mkdir()
    (tmp_path / "secret.toml").write_text(ORDERS, encoding="utf-8")
    (inner / "alpha.toml").symlink_to(tmp_path / "secret.toml")
    sc = inner / "mini.toml"
    sc.write_text(with_orders("alpha.toml"), encoding="utf-8")
    assert "expected a file inside the scenario's folder, found a path that leads out of it" in problems_of(sc)


def test_text_without_its_files_never_reads_a_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "alpha.toml").write_text(ORDERS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # the file is right here, and still not read: the text does not carry it
    with pytest.raises(ScenarioError) as ei:
        load_scenario_text(with_orders("alpha.toml"), "km.toml")
    assert ("kingdoms[0].orders_file (alpha.toml): (file): expected a file carried with the scenario (read next to "
            "the scenario file when it is loaded; a job carries its text), found not carried") in str(ei.value)
