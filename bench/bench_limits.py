"""How long the server takes to refuse a body or a scenario text too deep or too long (issue 30).

Before: a 2 MB body holding a TOML text of 248,000 values cost seconds of a validate request (tomllib
parsed it whole before the scenario's own limits looked), and JSON nested 2,000 deep was a 500. Now
both are measured in one linear pass (workers/server/limits.py) and refused before any parser runs.

Two figures for each input: the measure alone, in this process (best of 5), and the whole request
against a real ``realmsim serve`` (local mode, a free port, a temporary data directory; median of 5,
client on the same machine). Inputs, all under the 2 MiB body limit:

- JSON: an array of 248,000 items in a validate body; 2,000-deep nesting; 400,000 tiny strings;
- TOML text: 248,000 values; 240,000 one-item arrays; 60,000 comment lines; 250,000 short strings;
- and, for scale, realm.toml (a valid scenario: measured and parsed).

    .venv/bin/python bench/bench_limits.py [--rounds 5] [--no-server]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from redis_helper import ROOT, free_port  # noqa: E402

from workers.server.limits import json_shape, toml_shape  # noqa: E402


def json_inputs() -> dict[str, bytes]:
    return {
        "JSON array of 248,000 items": json.dumps({"text": [1] * 248_000}).encode(),
        "JSON nested 2,000 deep": b'{"scenario": "realm", "overrides": ' + b"[" * 2000 + b"]" * 2000 + b"}",
        "JSON of 400,000 tiny strings": json.dumps({"text": ["a"] * 400_000}, separators=(",", ":")).encode(),
    }


def toml_inputs() -> dict[str, str]:
    return {
        "TOML of 248,000 values": "x = [" + "1," * 248_000 + "]\n",
        "TOML of 240,000 one-item arrays": "x = [" + "[1]," * 240_000 + "]\n",
        "TOML of 60,000 comment lines": "# a comment line\n" * 60_000,
        "TOML of 250,000 short strings": "x = [" + "'a'," * 250_000 + "]\n",
        "realm.toml (valid, 35 KB)": (ROOT / "scenarios" / "data" / "realm.toml").read_text(encoding="utf-8"),
    }


def best(fn: object, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - t)
    return min(times)


def start_server(data: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT), REALMSIM_STATE_DIR=str(data / "state"))
    proc = subprocess.Popen([sys.executable, "-m", "workers.cli", "serve", "--port", str(port), "--data-dir",
                             str(data / "server"), "--log-level", "warning", "--max-campaigns", "1",
                             "--batch-workers", "1"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def request(client: httpx.Client, body: bytes, rounds: int) -> tuple[float, int, str]:
    times, status, what = [], 0, ""
    for _ in range(rounds):
        t = time.perf_counter()
        r = client.post("/v1/scenarios/validate", content=body, headers={"content-type": "application/json"})
        times.append(time.perf_counter() - t)
        status = r.status_code
        answer = r.json()
        problems = answer.get("problems") or [{}]
        what = answer.get("message") if status != 200 else ("valid" if answer.get("valid") else problems[0].get("found"))
    return statistics.median(times), status, str(what)[:70]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--no-server", action="store_true", help="only the in-process measure")
    args = ap.parse_args()

    bodies: dict[str, bytes] = {}
    print(f"{'input':34} {'bytes':>10} {'measure':>9}  shape")
    for name, body in json_inputs().items():
        t = best(lambda b=body: json_shape(b), args.rounds)
        print(f"{name:34} {len(body):>10,} {t * 1000:>7.1f} ms  {json_shape(body).describe()}")
        bodies[name] = body
    for name, text in toml_inputs().items():
        t = best(lambda x=text: toml_shape(x), args.rounds)
        print(f"{name:34} {len(text.encode()):>10,} {t * 1000:>7.1f} ms  {toml_shape(text).describe()}")
        bodies[name] = json.dumps({"text": text}).encode()
    if args.no_server:
        return
    print(f"\nPOST /v1/scenarios/validate, median of {args.rounds} (whole request, client included):")
    with tempfile.TemporaryDirectory(prefix="realmsim-bench-limits-") as tmp:
        proc, url = start_server(Path(tmp))
        try:
            with httpx.Client(base_url=url, timeout=120) as client:
                for name, body in bodies.items():
                    t, status, what = request(client, body, args.rounds)
                    print(f"{name:34} {len(body):>10,} {t * 1000:>7.1f} ms  {status}  {what}")
        finally:
            proc.terminate()
            proc.wait(60)


if __name__ == "__main__":
    main()
