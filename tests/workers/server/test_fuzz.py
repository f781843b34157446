"""The OpenAPI schema checked against a real server by schemathesis, with every check it has.

``schemathesis run --checks all`` (its command line, in a subprocess: its pytest plugin does not load
under this pytest) against a ``realmsim serve`` started by the fixtures, through all its phases:
examples, coverage (each bound, each missing or unknown field, every undeclared method, wrong media
types), fuzzing (bodies and parameters that fit the schema and ones that do not) and stateful (a
campaign created, then read, forked, streamed, cancelled, deleted through the ids it returned). Every
answer is checked: no 5xx; each status, media type, header and body is one the schema documents;
``Allow`` of a 405 or an OPTIONS lists the documented methods; what the schema allows is accepted and
what it does not is refused; a deleted record is gone; a created one is there. The one setting,
``schemathesis.toml`` beside this file, says which operations may answer 422 to a request that fits the
schema (what only the scenario can tell). With ``--tokens``, ``ignored_auth`` also checks that every
operation refuses a request without the token.

    .venv/bin/python -m pytest tests/workers/server/test_fuzz.py -s   # prints schemathesis's summary
"""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import Server

pytestmark = pytest.mark.slow

CONFIG = Path(__file__).with_name("schemathesis.toml")
ST = [sys.executable, "-c", "import sys; from schemathesis.cli import schemathesis; sys.exit(schemathesis())"]
# the server's slow answers (a campaign's plots drawn while other campaigns run) are not failures here
SLOW = ["--request-timeout", "120", "--max-response-time", "300"]


def schemathesis(server: Server, tmp: Path, *extra: str, examples: int) -> str:
    """Run schemathesis with every check; its output, after asserting that it found nothing."""
    cmd = [*ST, "--config-file", str(CONFIG), "run", f"{server.url}/docs/openapi.json", "--checks", "all",
           "--seed", "1", "--max-examples", str(examples), "--workers", "1", *SLOW, "--report", "junit",
           "--report-junit-path", str(tmp / "schemathesis.xml"), *extra]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=1200, cwd=tmp)
    out = r.stdout + r.stderr
    summary = out[out.rfind("SUMMARY"):] if "SUMMARY" in out else out[-3000:]
    print(f"\n$ schemathesis run … --checks all --max-examples {examples} {' '.join(extra)}\n{summary}")
    assert r.returncode == 0, f"schemathesis found problems:\n{out[-20000:]}\n\nthe server's log:\n{server.log()[-5000:]}"
    assert re.search(r"\d+ generated, \d+ passed", out), summary
    assert "Server error" not in out and " 500 " not in server.log()
    return out


# over a thousand requests (some start campaigns): minutes on a busy machine, within schemathesis's own 1200 s
@pytest.mark.timeout(1300)
def test_schemathesis_with_every_check_finds_nothing(make_server, tmp_path: Path) -> None:
    s: Server = make_server("--max-campaigns", "1", "--queue-limit", "3", "--drain-timeout", "0").start()
    schemathesis(s, tmp_path, examples=10)
    assert s.get("/healthz").status_code == 200


@pytest.mark.timeout(1300)
def test_schemathesis_with_every_check_finds_nothing_with_tokens(make_server, tmp_path: Path) -> None:
    tokens = tmp_path / "tokens"
    tokens.write_text(f"{hashlib.sha256(b'fuzz-token').hexdigest()}  fuzzer\n")
    s: Server = make_server("--tokens", str(tokens), "--max-campaigns", "1", "--queue-limit", "3",
                            "--drain-timeout", "0").start()
    s.headers = {"Authorization": "Bearer fuzz-token"}
    schema = s.get("/docs/openapi.json").json()
    assert schema["components"]["securitySchemes"]["bearer"]["scheme"] == "bearer"
    schemathesis(s, tmp_path, "-H", "Authorization: Bearer fuzz-token", examples=2)
