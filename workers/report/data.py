"""A batch's tidy tables (:mod:`workers.tidy`) opened in DuckDB: :class:`BatchData`, what the batch
report (:mod:`workers.report.batch`), the findings (:mod:`workers.findings`) and the research commands
query, each with group-bys within a fixed memory limit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from scenarios.inputs import InputFileError, check_input
from workers.report.tables import ReportError
from workers.tidy import PARTS, part_path

MEMORY_LIMIT = "512MB"


def quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


class BatchData:
    """A batch's tables as DuckDB views: ``campaigns`` and, when their files exist, ``metrics``,
    ``factions``, ``seasons``, ``decisions``, ``convoys``."""

    def __init__(self, path: Path) -> None:
        import duckdb

        if not path.exists():
            raise ReportError(f"{path}: no such file")
        self.path = path
        self.con = duckdb.connect()
        self.con.execute(f"SET memory_limit='{MEMORY_LIMIT}'")
        self.con.execute("SET threads=2")
        self.con.execute("SET preserve_insertion_order=false")
        self.parts: set[str] = set()
        self._view("campaigns_raw", path)
        cols = self.columns("campaigns_raw")
        if "seed" not in cols:
            raise ReportError(f"{path}: not a realmsim batch table (no 'seed' column)")
        if "campaign" in cols:
            self.con.execute("CREATE VIEW campaigns AS SELECT * FROM campaigns_raw")
        else:  # a table written before the tidy tables: its rows in order
            self.con.execute("CREATE VIEW campaigns AS SELECT row_number() OVER () - 1 AS campaign, * FROM campaigns_raw")
        for part in PARTS:
            p = part_path(path, part)
            if p.exists() and p.stat().st_size > 0:
                self._view(part, p)
                self.parts.add(part)
        if "metrics" not in self.parts:
            self._metrics_from_campaigns()

    def _view(self, name: str, p: Path) -> None:
        try:  # a regular file under its cap, never a FIFO or /dev/zero (issue 30)
            check_input(p, "table")
        except InputFileError as e:
            raise ReportError(str(e)) from None
        src = str(p).replace("'", "''")
        try:
            if p.suffix.lower() == ".parquet":
                self.con.execute(f"CREATE VIEW {name} AS SELECT * FROM read_parquet('{src}')")
            else:
                self.con.execute(f"CREATE VIEW {name} AS SELECT * FROM read_csv('{src}', header=true, sample_size=-1)")
            self.con.execute(f"SELECT * FROM {name} LIMIT 0")
        except Exception as e:  # noqa: BLE001 - any unreadable file is the user's input
            raise ReportError(f"{p}: not a readable {p.suffix} table ({type(e).__name__}: {str(e).splitlines()[0]})") from None

    def _metrics_from_campaigns(self) -> None:
        from workers.signals import is_tally_column

        skip = {"campaign", "seed", "rotation", "events", "invariants"}
        numeric = [c for c, t in self.types("campaigns").items()
                   if c not in skip and not is_tally_column(c) and "[" not in c and is_number(t)]
        if numeric:
            sel = " UNION ALL ".join(f"SELECT campaign, seed, {sql_str(c)} AS metric, CAST({quoted(c)} AS DOUBLE) AS value "
                                     f"FROM campaigns" for c in numeric)
        else:
            sel = "SELECT 0 AS campaign, 0 AS seed, '' AS metric, 0.0 AS value WHERE false"
        self.con.execute(f"CREATE VIEW metrics AS {sel}")
        self.parts.add("metrics")

    # ---- queries ---------------------------------------------------------------------------------
    def df(self, sql: str, params: list[Any] | None = None) -> Any:
        return self.con.execute(sql, params or []).df()

    def one(self, sql: str, params: list[Any] | None = None) -> Any:
        row = self.con.execute(sql, params or []).fetchone()
        return None if row is None else row[0]

    def types(self, view: str) -> dict[str, str]:
        return {r[0]: str(r[1]) for r in self.con.execute(f"DESCRIBE {view}").fetchall()}

    def columns(self, view: str) -> list[str]:
        return list(self.types(view))

    def campaigns(self) -> Any:
        """The campaign table (a row per campaign, tens of columns) as a DataFrame."""
        return self.df("SELECT * FROM campaigns ORDER BY campaign")

    @property
    def count(self) -> int:
        return int(self.one("SELECT count(*) FROM campaigns") or 0)

    def scenario(self) -> str:
        names = [r[0] for r in self.con.execute("SELECT DISTINCT scenario FROM campaigns").fetchall()
                 if "scenario" in self.columns("campaigns")]
        return str(names[0]) if len(names) == 1 else ", ".join(sorted(map(str, names)))

    def seeds(self) -> list[int]:
        return [int(r[0]) for r in self.con.execute("SELECT DISTINCT seed FROM campaigns ORDER BY seed").fetchall()]

    def set_columns(self) -> list[str]:
        return [c for c in self.columns("campaigns") if c.startswith("set[")]


def is_number(t: str) -> bool:
    t = t.upper()
    return any(t.startswith(x) for x in ("BIGINT", "INTEGER", "DOUBLE", "FLOAT", "DECIMAL", "HUGEINT", "SMALLINT",
                                         "TINYINT", "UBIGINT", "UINTEGER", "REAL"))


def sql_str(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"
