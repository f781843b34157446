"""Check a decoded TOML document against a msgspec type and report *every* problem.

msgspec stops at the first error; a person fixing a scenario wants the whole list at once. This
walks the type description of ``msgspec.inspect`` and collects a :class:`sim.errors.Problem` for
each bad value: its path (``convoys[1].wagons[0].kind``), what was expected, what was found.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import msgspec
import msgspec.inspect as mi

from scenarios.limits import DEFAULT, Limit, limit_for
from sim.errors import Problem

_MAX_SHOWN = 60
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _escape(m: re.Match[str]) -> str:
    return f"\\x{ord(m.group()):02x}"


def printable(text: str) -> str:
    """``text`` with its control characters written as ``\\x1b``: what a message may quote of a file."""
    return _CONTROL.sub(_escape, text)


def describe(value: Any) -> str:
    """How a found value is shown in a message."""
    if isinstance(value, bool):
        return f"{str(value).lower()} (a boolean)"
    if isinstance(value, int):
        return f"{value} (an integer)"
    if isinstance(value, float):
        return f"{value} (a number)"
    if isinstance(value, str):
        s = value if len(value) <= _MAX_SHOWN else value[:_MAX_SHOWN] + "…"
        return f'"{_CONTROL.sub(_escape, s)}"'  # a file's control characters never reach the terminal
    if isinstance(value, list):
        return f"a list of {len(value)} item{'s' if len(value) != 1 else ''}"
    if isinstance(value, dict):
        keys = ", ".join(str(k)[:_MAX_SHOWN] for k in list(value)[:5])
        return f"a table ({keys})" if value else "an empty table"
    if value is None:
        return "nothing"
    return type(value).__name__


def _expect(t: mi.Type) -> str:
    if isinstance(t, mi.IntType):
        return "an integer" + _bounds(t)
    if isinstance(t, mi.FloatType):
        return "a number" + _bounds(t)
    if isinstance(t, mi.BoolType):
        return "true or false"
    if isinstance(t, mi.StrType):
        return "a string"
    if isinstance(t, mi.ListType):
        return f"a list of {_expect(t.item_type)}"
    if isinstance(t, mi.DictType):
        return f"a table of {_expect(t.value_type)}"
    if isinstance(t, mi.StructType):
        return "a table"
    if isinstance(t, mi.LiteralType):
        return "one of " + ", ".join(f'"{v}"' if isinstance(v, str) else str(v) for v in t.values)
    if isinstance(t, mi.UnionType):
        return " or ".join(_expect(x) for x in t.types if not isinstance(x, mi.NoneType))
    if isinstance(t, mi.TupleType):
        return f"a list of {len(t.item_types)} values"
    if isinstance(t, mi.EnumType):
        return "one of " + ", ".join(f'"{m.value}"' for m in t.cls)
    return t.__class__.__name__


def _bounds(t: mi.IntType | mi.FloatType) -> str:
    parts = []
    if t.ge is not None:
        parts.append(f">= {t.ge}")
    if t.gt is not None:
        parts.append(f"> {t.gt}")
    if t.le is not None:
        parts.append(f"<= {t.le}")
    if t.lt is not None:
        parts.append(f"< {t.lt}")
    return (" " + " and ".join(parts)) if parts else ""


def _join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def _check_bounds(t: mi.IntType | mi.FloatType, v: float) -> bool:
    return not (
        (t.ge is not None and v < t.ge)
        or (t.gt is not None and v <= t.gt)
        or (t.le is not None and v > t.le)
        or (t.lt is not None and v >= t.lt)
    )


def _over_limit(value: Any, lim: Limit) -> str | None:
    """What a value within its type breaks of the field's limit (scenarios/limits.py), or None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        if lim.lo is not None and value < lim.lo:
            return f"a number >= {lim.lo}"
        if lim.hi is not None and value > lim.hi:
            return f"a number <= {lim.hi} (the limit of this field)"
    elif isinstance(value, str):
        if lim.chars is not None and len(value) > lim.chars:
            return f"a string of at most {lim.chars} characters (the limit of this field)"
    elif isinstance(value, list | dict):
        if lim.items is not None and len(value) > lim.items:
            return f"at most {lim.items} items (the limit of this field)"
    return None


def _found_long(value: Any) -> str:
    if isinstance(value, str):
        return f"{describe(value)} ({len(value)} characters)"
    return describe(value)


def _int_pair(t: mi.Type) -> bool:
    return (isinstance(t, mi.TupleType) and len(t.item_types) == 2
            and all(isinstance(x, mi.IntType) and x.ge is None and x.le is None and x.gt is None and x.lt is None
                    for x in t.item_types))


def _fine_pair(item: Any, lim: Limit) -> bool:
    if type(item) is not list or len(item) != 2:
        return False
    a, b = item
    lo = lim.lo if lim.lo is not None else -(1 << 62)
    hi = lim.hi if lim.hi is not None else 1 << 62
    return type(a) is int and type(b) is int and lo <= a <= hi and lo <= b <= hi


def _walk(value: Any, t: mi.Type, path: str, out: list[Problem], lim: Limit = DEFAULT) -> None:
    if isinstance(t, mi.AnyType):
        return
    if isinstance(t, mi.UnionType):
        if value is None and any(isinstance(x, mi.NoneType) for x in t.types):
            return
        best: list[Problem] | None = None
        for x in t.types:
            if isinstance(x, mi.NoneType):
                continue
            sub: list[Problem] = []
            _walk(value, x, path, sub, lim)
            if not sub:
                return
            if best is None or len(sub) < len(best):
                best = sub
        # a value of the wrong kind altogether: say what the union accepts
        if best and len(best) == 1 and best[0].path == path:
            out.append(Problem(path or "(top)", _expect(t), describe(value)))
        elif best:
            out.extend(best)
        return
    if isinstance(t, mi.BoolType):
        if not isinstance(value, bool):
            out.append(Problem(path, "true or false", describe(value)))
        return
    if isinstance(t, mi.IntType):
        if isinstance(value, bool) or not isinstance(value, int):
            out.append(Problem(path, _expect(t), describe(value)))
        elif not _check_bounds(t, value):
            out.append(Problem(path, _expect(t), describe(value)))
        elif (over := _over_limit(value, lim)) is not None:
            out.append(Problem(path, over.replace("a number", "an integer"), describe(value)))
        return
    if isinstance(t, mi.FloatType):
        if isinstance(value, bool) or not isinstance(value, int | float):
            out.append(Problem(path, _expect(t), describe(value)))
        elif not _check_bounds(t, value):
            out.append(Problem(path, _expect(t), describe(value)))
        elif (over := _over_limit(value, lim)) is not None:
            out.append(Problem(path, over, describe(value)))
        return
    if isinstance(t, mi.StrType):
        if not isinstance(value, str):
            out.append(Problem(path, "a string", describe(value)))
        elif (over := _over_limit(value, lim)) is not None:
            out.append(Problem(path, over, _found_long(value)))
        elif t.pattern and not re.search(t.pattern, value):
            out.append(Problem(path, f"a string matching {t.pattern}", describe(value)))
        elif t.min_length is not None and len(value) < t.min_length:
            out.append(Problem(path, f"a string of at least {t.min_length} characters", describe(value)))
        return
    if isinstance(t, mi.LiteralType):
        if value not in t.values or isinstance(value, bool) != any(isinstance(v, bool) for v in t.values):
            found = describe(value)
            if isinstance(value, str):
                close = difflib.get_close_matches(value, [str(v) for v in t.values], n=1)
                if close:
                    found += f' (did you mean "{close[0]}"?)'
            out.append(Problem(path, _expect(t), found))
        return
    if isinstance(t, mi.EnumType):
        values = [m.value for m in t.cls]
        if value not in values:
            out.append(Problem(path, _expect(t), describe(value)))
        return
    if isinstance(t, mi.ListType | mi.SetType | mi.FrozenSetType | mi.VarTupleType):
        if not isinstance(value, list):
            out.append(Problem(path, _expect(t), describe(value)))
            return
        if t.min_length is not None and len(value) < t.min_length:
            out.append(Problem(path, f"a list of at least {t.min_length} items", describe(value)))
        if t.max_length is not None and len(value) > t.max_length:
            out.append(Problem(path, f"a list of at most {t.max_length} items", describe(value)))
        elif (over := _over_limit(value, lim)) is not None:
            out.append(Problem(path, "a list of " + over, describe(value)))
            value = value[: lim.items]  # the items past the limit are not looked at
        inner = replace(lim, items=DEFAULT.items)
        pair = _int_pair(t.item_type)
        for i, item in enumerate(value):
            if pair and _fine_pair(item, inner):  # a [col, row] (thousands in a map): the quick check
                continue
            _walk(item, t.item_type, _join(path, i), out, inner)
        return
    if isinstance(t, mi.TupleType):
        if not isinstance(value, list) or len(value) != len(t.item_types):
            out.append(Problem(path, _expect(t), describe(value)))
            return
        for i, (item, it) in enumerate(zip(value, t.item_types)):
            _walk(item, it, _join(path, i), out, lim)
        return
    if isinstance(t, mi.DictType):
        if not isinstance(value, dict):
            out.append(Problem(path, _expect(t), describe(value)))
            return
        items = list(value.items())
        if (over := _over_limit(value, lim)) is not None:
            out.append(Problem(path, "a table of " + over, f"a table of {len(value)} entries"))
            items = items[: lim.items or 0]
        inner = replace(lim, items=DEFAULT.items)
        for k, v in items:
            _walk(k, t.key_type, _join(path, str(k)[:_MAX_SHOWN]), out, inner)
            _walk(v, t.value_type, _join(path, str(k)[:_MAX_SHOWN]), out, inner)
        return
    if isinstance(t, mi.StructType):
        if not isinstance(value, dict):
            out.append(Problem(path or "(top)", "a table", describe(value)))
            return
        names = {f.encode_name: f for f in t.fields}
        for k in value:
            if k not in names:
                ks = str(k)[:_MAX_SHOWN]
                close = difflib.get_close_matches(ks, list(names), n=1)
                hint = f' (did you mean "{close[0]}"?)' if close else ""
                allowed = ", ".join(names) if len(names) <= 12 else f"one of {len(names)} known fields"
                out.append(Problem(_join(path, ks), f"a known field ({allowed})", f'unknown field "{ks}"{hint}'))
        for name, f in names.items():
            if name in value:
                _walk(value[name], f.type, _join(path, name), out, limit_for(t.cls, name))
            elif f.required:
                out.append(Problem(_join(path, name), _expect(f.type), "nothing (the field is required)"))
        return
    if isinstance(t, mi.NoneType):
        if value is not None:
            out.append(Problem(path, "nothing", describe(value)))
        return
    # any other type: let msgspec judge
    try:
        msgspec.convert(value, t.cls if hasattr(t, "cls") else object)
    except (msgspec.ValidationError, TypeError) as e:
        out.append(Problem(path, str(e), describe(value)))


_TYPE_INFO: dict[Any, Any] = {}  # msgspec's type information, built once per type per process (issue 12)


def type_info(typ: Any) -> Any:
    info = _TYPE_INFO.get(typ)
    if info is None:
        info = _TYPE_INFO[typ] = mi.type_info(typ)
    return info


def check_against(value: Any, typ: Any, path: str = "") -> list[Problem]:
    """Every structural problem of ``value`` against the type ``typ``."""
    out: list[Problem] = []
    _walk(value, type_info(typ), path, out)
    return out


# ---- a structurally sound copy, for the semantic checks (issue 10: validation in one round) ------

_BAD = object()  # a value conform() could not keep


def _ok(value: Any, t: mi.Type, lim: Limit) -> bool:
    sub: list[Problem] = []
    _walk(value, t, "", sub, lim)
    return not sub


def placeholder(t: mi.Type) -> Any:
    """A value of type ``t`` that passes its checks (what stands in for a missing or bad required value)."""
    if isinstance(t, mi.IntType | mi.FloatType):
        v = 0
        if t.ge is not None:
            v = max(v, t.ge)  # type: ignore[assignment]
        if t.gt is not None:
            v = max(v, int(t.gt) + 1)
        if t.le is not None:
            v = min(v, t.le)  # type: ignore[assignment]
        return v
    if isinstance(t, mi.StrType):
        return "x" * (t.min_length or 0)
    if isinstance(t, mi.BoolType):
        return False
    if isinstance(t, mi.LiteralType):
        return t.values[0]
    if isinstance(t, mi.EnumType):
        return next(iter(t.cls)).value
    if isinstance(t, mi.ListType | mi.SetType | mi.FrozenSetType | mi.VarTupleType):
        return [placeholder(t.item_type) for _ in range(t.min_length or 0)]
    if isinstance(t, mi.TupleType):
        return [placeholder(x) for x in t.item_types]
    if isinstance(t, mi.DictType):
        return {}
    if isinstance(t, mi.StructType):
        return conform({}, t)
    if isinstance(t, mi.UnionType):
        if any(isinstance(x, mi.NoneType) for x in t.types):
            return None
        return placeholder(t.types[0])
    return None


def conform(value: Any, t: mi.Type, lim: Limit = DEFAULT) -> Any:
    """``value`` with every part that breaks its type or limit dropped (a field with a default) or
    replaced by a placeholder (a required field, a list item): what the semantic checks read when
    the structural ones found problems. Items keep their indices, so messages keep their paths."""
    if isinstance(t, mi.StructType):
        if not isinstance(value, dict):
            value = {}
        out: dict[str, Any] = {}
        for f in t.fields:
            name = f.encode_name
            if name in value:
                v = conform(value[name], f.type, limit_for(t.cls, name))
                if v is not _BAD:
                    out[name] = v
                    continue
            if f.required:
                out[name] = placeholder(f.type)
        return out
    if isinstance(t, mi.ListType | mi.SetType | mi.FrozenSetType | mi.VarTupleType):
        if not isinstance(value, list):
            return _BAD
        if lim.items is not None:
            value = value[: lim.items]
        if t.max_length is not None:
            value = value[: t.max_length]
        inner = replace(lim, items=DEFAULT.items)
        items = []
        for item in value:
            v = conform(item, t.item_type, inner)
            items.append(placeholder(t.item_type) if v is _BAD else v)
        if t.min_length is not None and len(items) < t.min_length:
            return _BAD
        return items
    if isinstance(t, mi.DictType):
        if not isinstance(value, dict):
            return _BAD
        entries = list(value.items())[: lim.items or None]
        inner = replace(lim, items=DEFAULT.items)
        kept = {}
        for k, v in entries:
            if not _ok(k, t.key_type, inner):
                continue
            v2 = conform(v, t.value_type, inner)
            if v2 is not _BAD:
                kept[k] = v2
        return kept
    if isinstance(t, mi.TupleType):
        if not isinstance(value, list) or len(value) != len(t.item_types):
            return _BAD
        vals = [conform(x, it, lim) for x, it in zip(value, t.item_types)]
        return _BAD if any(v is _BAD for v in vals) else vals
    if isinstance(t, mi.UnionType):
        if value is None and any(isinstance(x, mi.NoneType) for x in t.types):
            return None
        for x in t.types:
            if not isinstance(x, mi.NoneType) and _ok(value, x, lim):
                return conform(value, x, lim)
        return _BAD
    return value if _ok(value, t, lim) else _BAD


def conformed(value: Any, typ: Any) -> Any:
    """:func:`conform` against a type (a Struct class)."""
    return conform(value, type_info(typ))
# ---- policy names (issue 9) -----------------------------------------------------------------------
# Which policies exist is the agents layer's knowledge (its registry, installed entry points, the
# modules a person allowed): ``agents.policies`` installs its check here when imported. Without it only
# the basic built-in names pass, so nothing that names anything else is ever taken for valid.
PolicyCheck = Callable[[str, str], "tuple[str, str] | None"]
_BASIC_POLICIES = {"kingdom": ("heuristic", "lookahead", "random", "scripted"), "nation": ("heuristic", "lookahead", "random"),
                   "guild": ("heuristic", "lookahead", "random"), "convoy": ("heuristic", "lookahead", "random")}
_policy_check: list[tuple[PolicyCheck, Callable[[], str]]] = []


def set_policy_check(check: PolicyCheck, token: Callable[[], str]) -> None:
    """Install the policy resolver's check (``check(kind, spec) -> (expected, found) | None``) and what
    its answer depends on (``token()``: the allowed modules), which keys the parsed-scenario cache."""
    _policy_check[:] = [(check, token)]


def policy_check_token() -> str:
    return _policy_check[0][1]() if _policy_check else ""


def check_policy(kind: str, spec: str, path: str, out: list[Problem], *, refuse: Sequence[str] = ()) -> None:
    """Add a problem at ``path`` when ``spec`` is not a policy an agent of ``kind`` can be played by
    here (``refuse``: names the field may not take, e.g. "scripted" for a convoy)."""
    if spec in refuse:
        allowed = [n for n in _BASIC_POLICIES.get(kind, ()) if n not in refuse]
        out.append(Problem(path, f"a {kind} policy ({', '.join(allowed)}, …), not {', '.join(refuse)}", describe(spec)))
        return
    if _policy_check:
        bad = _policy_check[0][0](kind, spec)
        if bad is not None:
            out.append(Problem(path, bad[0], bad[1]))
        return
    basic = list(_BASIC_POLICIES.get(kind, ("heuristic", "random")))
    if spec not in basic:
        found = describe(spec)
        close = difflib.get_close_matches(str(spec), basic, n=1)
        if close:
            found += f' (did you mean "{close[0]}"?)'
        out.append(Problem(path, f"a built-in {kind} policy ({', '.join(basic)})", found))
