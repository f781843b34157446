#!/usr/bin/env python3
"""Write docs/scenario-format.md: every table and field a scenario file may hold, from the schema
itself (the msgspec Structs of scenarios/schema/), so the reference never drifts from the code.

    .venv/bin/python tools/gen_scenario_doc.py            # rewrite the file
    .venv/bin/python tools/gen_scenario_doc.py --check    # exit 1 if it is out of date
"""

from __future__ import annotations

import argparse
import inspect
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import msgspec  # noqa: E402
import msgspec.inspect as mi  # noqa: E402

from scenarios.limits import FILE_CAPS, MAX_YEARS, Limit, limit_for, size_text  # noqa: E402
from scenarios.schema import Scenario  # noqa: E402
from sim.config import Config  # noqa: E402

OUT = ROOT / "docs" / "scenario-format.md"
_FIELD = re.compile(r"^\s{4}(\w+)\s*:[^#]*?(?:#\s*(.*))?$")


def type_name(t: mi.Type) -> str:
    if isinstance(t, mi.IntType):
        b = [f">= {t.ge}" if t.ge is not None else "", f"<= {t.le}" if t.le is not None else ""]
        return "integer" + (" " + ", ".join(x for x in b if x) if any(b) else "")
    if isinstance(t, mi.FloatType):
        return "number"
    if isinstance(t, mi.BoolType):
        return "boolean"
    if isinstance(t, mi.StrType):
        return "string"
    if isinstance(t, mi.LiteralType):
        return " \\| ".join(f'`"{v}"`' if isinstance(v, str) else f"`{v}`" for v in t.values)
    if isinstance(t, mi.ListType):
        return f"list of {type_name(t.item_type)}"
    if isinstance(t, mi.TupleType):
        return "[" + ", ".join(type_name(x) for x in t.item_types) + "]"
    if isinstance(t, mi.DictType):
        return f"table of {type_name(t.value_type)}"
    if isinstance(t, mi.StructType):
        return f"[{t.cls.__name__}](#{t.cls.__name__.lower()})"
    if isinstance(t, mi.UnionType):
        return " or ".join(type_name(x) for x in t.types if not isinstance(x, mi.NoneType)) + (
            " (optional)" if any(isinstance(x, mi.NoneType) for x in t.types) else "")
    if isinstance(t, mi.AnyType):
        return "any value"
    return t.__class__.__name__


def _n(v: int) -> str:
    return f"{v:,}".replace(",", " ")


def limit_text(t: mi.Type, lim: Limit) -> str:
    """The limit of a field of type ``t`` (scenarios/limits.py), as the reader needs it."""
    if isinstance(t, mi.UnionType):
        parts = [limit_text(x, lim) for x in t.types if not isinstance(x, mi.NoneType)]
        return "; ".join(dict.fromkeys(p for p in parts if p))
    if isinstance(t, mi.IntType | mi.FloatType):
        lo = max(x for x in (lim.lo, t.ge) if x is not None) if lim.lo is not None or t.ge is not None else None
        hi = min(x for x in (lim.hi, t.le) if x is not None) if lim.hi is not None or t.le is not None else None
        return f"{_n(lo)} … {_n(hi)}" if lo is not None and hi is not None else ""
    if isinstance(t, mi.StrType):
        return f"≤ {_n(lim.chars)} chars" if lim.chars is not None else ""
    if isinstance(t, mi.TupleType):
        return "each " + limit_text(t.item_types[0], lim) if t.item_types else ""
    if isinstance(t, mi.ListType | mi.SetType | mi.VarTupleType | mi.DictType):
        inner_t = t.value_type if isinstance(t, mi.DictType) else t.item_type
        inner = limit_text(inner_t, Limit(lo=lim.lo, hi=lim.hi, chars=lim.chars, items=1000))
        n = lim.items if lim.items is not None else None
        head = f"≤ {_n(n)} {'entries' if isinstance(t, mi.DictType) else 'items'}" if n is not None else ""
        if isinstance(inner_t, mi.ListType | mi.StructType):
            inner = ""
        inner = inner.removeprefix("each ")
        return head + (f", each {inner}" if inner and head else inner)
    return ""


def comments(cls: type) -> dict[str, str]:
    try:
        src = inspect.getsource(cls)
    except (OSError, TypeError):
        return {}
    out = {}
    for line in src.splitlines()[1:]:
        m = _FIELD.match(line)
        if m and m.group(2):
            out[m.group(1)] = m.group(2).strip()
    return out


def default_of(f: mi.Field) -> str:
    if f.required:
        return "**required**"
    if f.default is not msgspec.NODEFAULT:
        d = f.default
    else:
        d = f.default_factory()
    if isinstance(d, msgspec.Struct):
        return "(see table)"
    text = repr(d) if not isinstance(d, bool) else str(d).lower()
    return f"`{text}`" if len(text) < 40 else "(long default)"


def structs(root: type) -> list[type]:
    seen: list[type] = []

    def walk(t: mi.Type) -> None:
        if isinstance(t, mi.StructType):
            if t.cls in seen:
                return
            seen.append(t.cls)
            for f in t.fields:
                walk(f.type)
        elif isinstance(t, mi.ListType | mi.SetType | mi.VarTupleType):
            walk(t.item_type)
        elif isinstance(t, mi.DictType):
            walk(t.value_type)
        elif isinstance(t, mi.UnionType):
            for x in t.types:
                walk(x)
        elif isinstance(t, mi.TupleType):
            for x in t.item_types:
                walk(x)

    walk(mi.type_info(root))
    return seen


def render() -> str:
    lines = [
        "# Scenario file format",
        "",
        "Generated from the schema by `tools/gen_scenario_doc.py` — do not edit by hand. A scenario is one",
        "TOML file; `realmsim validate FILE` reports every problem of a file at once. The built-in",
        "scenarios under `scenarios/data/` are complete examples; each system's module docstring in",
        "`scenarios/schema/` shows its tables in use. Coordinates are `[col, row]` on the map's rows",
        "(odd-r offset layout). Rule clause IDs refer to `docs/RULES.md`.",
        "",
        "**Limits.** Every field has a limit (the *limit* column, from `scenarios/limits.py`): a range for",
        "numbers, a length for strings, a number of items for lists and tables. `validate` checks them",
        "before anything is built and names the limit in its message, so a file's numbers cannot make",
        f"validation or a campaign blow up. A campaign lasts at most {MAX_YEARS} years in all. Each problem",
        "names the line of the file where the value stands; at most 50 are printed, then \"and N more\".",
        f"The file itself is at most {size_text(FILE_CAPS['scenario'].default)} and each orders file it names at most "
        f"{size_text(FILE_CAPS['orders'].default)}",
        f"(`{FILE_CAPS['scenario'].env}`, `{FILE_CAPS['orders'].env}` set others; README.md, *Limits on input files*).",
        "",
        "## Top level",
        "",
    ]
    for cls in structs(Scenario):
        info = mi.type_info(cls)
        assert isinstance(info, mi.StructType)
        if cls is not Scenario:
            lines += [f"### {cls.__name__}", ""]
            doc = inspect.getdoc(cls)
            if doc and doc != inspect.getdoc(msgspec.Struct) and "unknown keys are errors" not in doc:
                lines += [doc, ""]
        notes = comments(cls)
        lines += ["| field | type | default | limit | notes |", "| --- | --- | --- | --- | --- |"]
        for f in info.fields:
            note = notes.get(f.name, "").replace("|", "\\|")
            lim = limit_text(f.type, limit_for(cls, f.encode_name))
            lines.append(f"| `{f.encode_name}` | {type_name(f.type)} | {default_of(f)} | {lim} | {note} |")
        lines.append("")
    lines += [
        "## `[config.<system>]`: the rules' invented numbers (RULES.md §6)",
        "",
        "Any key below may be set in `[config.km]`, `[config.mn]`, `[config.gw]`, `[config.cv]` or",
        "`[config.link]`, or on the command line with `--set system.key=value` (each key once). A value",
        "outside its range is refused, in a file as on the command line.",
        "",
    ]
    cinfo = mi.type_info(Config)
    assert isinstance(cinfo, mi.StructType)
    for f in cinfo.fields:
        sub = mi.type_info(f.type.cls)  # type: ignore[union-attr]
        assert isinstance(sub, mi.StructType)
        notes = comments(f.type.cls)  # type: ignore[union-attr]
        lines += [f"### `[config.{f.name}]`", "", "| key | type | default | range | notes |", "| --- | --- | --- | --- | --- |"]
        for g in sub.fields:
            lim = limit_text(g.type, limit_for(f.type.cls, g.name))  # type: ignore[union-attr]
            lines.append(f"| `{g.name}` | {type_name(g.type)} | {default_of(g)} | {lim} | {notes.get(g.name, '')} |")
        lines.append("")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    text = render()
    if args.check:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT.relative_to(ROOT)} is out of date: run .venv/bin/python tools/gen_scenario_doc.py")
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)} ({text.count(chr(10))} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
