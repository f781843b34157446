"""How long, how much memory and how many files ``realmsim report`` takes on a batch of N campaigns.

Running a thousand ``realm`` campaigns takes hours, so the input is built from a real batch's tidy
tables (``realmsim batch realm --seeds 1..20 --out b.parquet``) replicated under new seeds: copy k of
campaign c becomes campaign ``k × C + c`` with seed ``k × S + seed`` in every table (campaigns,
metrics, factions, seasons, decisions, convoys). The report then does the same work as on N real
campaigns: every group-by reads N campaigns' rows; only the values repeat.

    python bench/bench_report.py [--source b.parquet] [--campaigns 100,1000] [--out-dir /tmp/bench-report]

prints, per size: campaigns, wall time, CPU time (user + system) and peak RSS of the report process,
files written, the rows of the faction and season tables it read, and the machine's load around the
run (on a shared machine the wall time follows the load; the CPU time does not). The report runs in a
fresh process (``realmsim report``), so its peak RSS is its own (``resource.getrusage(RUSAGE_CHILDREN)``,
measured around each run in a child of its own).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from workers.tidy import PARTS, part_path  # noqa: E402


def replicate(source: Path, target: Path, campaigns: int) -> dict[str, int]:
    """Write ``campaigns`` campaigns at ``target`` from the tables at ``source`` (copies under new seeds)."""
    base = pq.read_table(source)
    n = base.num_rows
    seed_span = int(pc.max(base.column("seed")).as_py()) + 1
    copies = -(-campaigns // n)
    rows: dict[str, int] = {}
    for part in ("", *PARTS):
        src = source if not part else part_path(source, part)
        dst = target if not part else part_path(target, part)
        if not src.exists():
            if dst.exists():
                dst.unlink()
            continue
        t = pq.read_table(src)
        writer = None
        total = 0
        for k in range(copies):
            keep = pc.less(pc.add(t.column("campaign"), k * n), campaigns)
            c = t.filter(keep)
            if not c.num_rows:
                break
            c = c.set_column(c.schema.get_field_index("campaign"), "campaign", pc.add(c.column("campaign"), k * n))
            c = c.set_column(c.schema.get_field_index("seed"), "seed",
                             pc.cast(pc.add(c.column("seed"), k * seed_span), pa.int64()))
            if writer is None:
                writer = pq.ParquetWriter(dst, c.schema, compression="zstd")
            writer.write_table(c.cast(writer.schema))
            total += c.num_rows
        if writer is not None:
            writer.close()
        rows[part or "campaigns"] = total
    return rows


def run_report(table: Path, out: Path) -> tuple[float, float, float, int]:
    """(wall seconds, CPU seconds, peak RSS MiB, files) of ``realmsim report table --out out`` in a fresh
    process. On a shared machine the wall time grows with the load; the CPU time (user + system) is
    what the report itself costs."""
    code = (
        "import resource, subprocess, sys, time\n"
        "t = time.perf_counter()\n"
        "r = subprocess.run([sys.executable, '-m', 'workers.cli', 'report', sys.argv[1], '--out', sys.argv[2]],"
        " stdout=subprocess.DEVNULL)\n"
        "dt = time.perf_counter() - t\n"
        "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "print(r.returncode, dt, u.ru_utime + u.ru_stime, u.ru_maxrss / 1024)\n"
    )
    res = subprocess.run([sys.executable, "-c", code, str(table), str(out)], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[1], check=True)
    rc, dt, cpu, rss = res.stdout.split()
    if rc != "0":
        raise SystemExit(f"report failed on {table} (exit {rc})")
    files = sum(1 for p in out.rglob("*") if p.is_file())
    return float(dt), float(cpu), float(rss), files


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source", help="a batch's campaign table with its companion tables (default: a realm batch "
                                     "of seeds 1..4 with --detail, made under --out-dir the first time)")
    ap.add_argument("--campaigns", default="100,1000", help="comma list of sizes (default 100,1000)")
    ap.add_argument("--out-dir", default="/tmp/bench-report")
    args = ap.parse_args()
    root = Path(args.out_dir)
    root.mkdir(parents=True, exist_ok=True)
    source = Path(args.source) if args.source else root / "source" / "b.parquet"
    if not args.source and not source.exists():
        print(f"making the source batch: realmsim batch realm --seeds 1..4 --detail --out {source}", flush=True)
        subprocess.run([sys.executable, "-m", "workers.cli", "batch", "realm", "--seeds", "1..4", "--detail", "--out",
                        str(source)], cwd=Path(__file__).resolve().parents[1], check=True, stdout=subprocess.DEVNULL)
    print(f"{'campaigns':>9} {'wall s':>7} {'CPU s':>6} {'peak RSS MiB':>12} {'files':>5} {'faction rows':>12} "
          f"{'season rows':>11} {'load':>5}")
    for size in (int(x) for x in args.campaigns.split(",")):
        table = root / f"b{size}.parquet"
        rows = replicate(source, table, size)
        out = root / f"rep{size}"
        if out.exists():
            for p in sorted(out.rglob("*"), reverse=True):
                p.unlink() if p.is_file() else p.rmdir()
        load = os.getloadavg()[0]
        dt, cpu, rss, files = run_report(table, out)
        print(f"{rows['campaigns']:>9} {dt:>7.1f} {cpu:>6.1f} {rss:>12.0f} {files:>5} {rows.get('factions', 0):>12} "
              f"{rows.get('seasons', 0):>11} {(load + os.getloadavg()[0]) / 2:>5.1f}", flush=True)
    print(f"(CPU count {os.cpu_count()}; load: the 1-minute load average around the run)")


if __name__ == "__main__":
    main()
