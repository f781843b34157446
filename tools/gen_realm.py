#!/usr/bin/env python3
"""Generate ``scenarios/data/realm.toml``, the built-in scenario where the four systems meet.

Deterministic (no randomness): the map is painted from a few named features (a sea with two
islands, mountains, a forest, a marsh, a desert, hills and moors), provinces are the Voronoi cells of
their seats inside each land mass, rivers and roads are least-cost paths. Everything else (kingdoms,
nations, cities, guilds, domains, convoys) is written out below. Run it from the repository root:

    .venv/bin/python tools/gen_realm.py            # writes scenarios/data/realm.toml
    .venv/bin/python tools/gen_realm.py --check    # exits 1 if the committed file differs
"""

from __future__ import annotations

import heapq
import sys
from pathlib import Path

W, H = 40, 25
OUT = Path(__file__).resolve().parent.parent / "scenarios" / "data" / "realm.toml"

# ---- hex geometry (odd-r offset, as sim.hexmap) --------------------------------------------------


def cube(c: int, r: int) -> tuple[int, int, int]:
    x = c - (r - (r & 1)) // 2
    z = r
    return x, -x - z, z


def dist(a: tuple[int, int], b: tuple[int, int]) -> int:
    ax, ay, az = cube(*a)
    bx, by, bz = cube(*b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


def neighbors(c: int, r: int) -> list[tuple[int, int]]:
    if r & 1:
        cand = [(c + 1, r), (c + 1, r - 1), (c, r - 1), (c - 1, r), (c, r + 1), (c + 1, r + 1)]
    else:
        cand = [(c + 1, r), (c, r - 1), (c - 1, r - 1), (c - 1, r), (c - 1, r + 1), (c, r + 1)]
    return [(x, y) for x, y in cand if 0 <= x < W and 0 <= y < H]


# ---- terrain -------------------------------------------------------------------------------------

grid = [["P"] * W for _ in range(H)]


def paint(center: tuple[int, int], radius: int, letter: str, *, only: str | None = None) -> None:
    for r in range(H):
        for c in range(W):
            if dist((c, r), center) <= radius and (only is None or grid[r][c] in only):
                grid[r][c] = letter


# the inner sea (Mare Internum) and the western ocean
for r in range(H):
    for c in range(W):
        if ((c - 20) / 14.5) ** 2 + ((r - 23) / 7.2) ** 2 <= 1.0:
            grid[r][c] = "W"
        if (c == 0 and r >= 11) or (c <= 1 and r >= 17) or (c <= 3 and r >= 22):
            grid[r][c] = "W"
# northern mountains and tundra
for c in range(W):
    grid[0][c] = "T" if c < 12 else "M"
    grid[1][c] = "T" if c < 6 else ("M" if c % 7 else "H")
paint((5, 3), 2, "O")  # the Westmoor
paint((33, 3), 3, "M")  # the Iron Mountains
paint((33, 3), 5, "H", only="P")
paint((37, 10), 2, "H")
paint((19, 5), 3, "H", only="P")
paint((19, 5), 1, "P")  # Draven's fields
paint((16, 12), 4, "F")  # the forest of Sylvara
paint((16, 12), 0, "P")
paint((9, 5), 2, "F", only="P")  # Thornwood
paint((4, 19), 3, "S")  # the Red Marsh
paint((35, 19), 4, "D")  # the Sun Desert
for r in range(15, H):
    for c in range(31, W):
        if grid[r][c] == "P":
            grid[r][c] = "D"
paint((31, 21), 1, "J", only="P")  # a coastal jungle
paint((24, 6), 0, "W")  # Lake Hollow
# islands
paint((20, 21), 2, "H")
paint((20, 21), 1, "P")
paint((12, 21), 1, "H")
paint((12, 21), 0, "P")

# ---- settlements ---------------------------------------------------------------------------------

SETTLEMENTS = [
    ("Camelot", (7, 10), "capital"),
    ("Westwatch", (4, 7), "town"),
    ("Southdale", (8, 15), "town"),
    ("Draven", (19, 5), "capital"),
    ("Hollowfell", (24, 3), "town"),
    ("Sylvanesti", (16, 12), "capital"),
    ("Khazad", (34, 6), "capital"),
    ("Thornwall", (11, 3), "city"),
    ("Ironhold", (29, 1), "city"),
    ("Goldhaven", (25, 9), "city"),
    ("Saltmere", (27, 15), "city"),
    ("Redmarsh", (4, 18), "city"),
    ("Sunspire", (36, 18), "city"),
    ("Tyr", (20, 21), "capital"),
    ("Corsa", (12, 21), "city"),
    ("Tyrian Factory", (32, 13), "town"),
    ("Redwatch", (21, 10), "village"),
    ("Millbrook", (13, 8), "village"),
    ("Deepvale", (36, 10), "village"),
]
AT = {n: at for n, at, _ in SETTLEMENTS}
for name, (c, r), _ in SETTLEMENTS:
    assert grid[r][c] != "W", name
    if grid[r][c] in "MT":
        grid[r][c] = "H"

# ---- provinces and regions --------------------------------------------------------------------------

PROVINCES = [  # name, region, key, seat
    ("Avalon", "Westreach", "a", (7, 10)),
    ("Westmarch", "Westreach", "w", (4, 6)),
    ("Southdale", "Westreach", "s", (8, 15)),
    ("Redmarsh", "Westreach", "r", (4, 19)),
    ("Dravenmark", "Northmark", "d", (19, 5)),
    ("Hollowfell", "Northmark", "h", (25, 3)),
    ("Thornwall", "Northmark", "t", (11, 3)),
    ("Ironhold", "Northmark", "i", (30, 1)),
    ("Sylvara", "Heartlands", "y", (16, 12)),
    ("Greenvale", "Heartlands", "g", (20, 9)),
    ("Goldhaven", "Heartlands", "o", (26, 9)),
    ("Millbrook", "Heartlands", "m", (12, 8)),
    ("Kharzul", "Eastern Marches", "k", (34, 6)),
    ("Deepvale", "Eastern Marches", "v", (36, 11)),
    ("Saltcoast", "Eastern Marches", "c", (30, 14)),
    ("Saltmere", "Eastern Marches", "l", (26, 15)),
    ("Sunspire", "Eastern Marches", "u", (36, 19)),
    ("Tyria", "Isles", "T", (20, 21)),
    ("Corsa", "Isles", "C", (12, 21)),
]


def land(c: int, r: int) -> bool:
    return grid[r][c] != "W"


# land masses
comp = [[-1] * W for _ in range(H)]
n_comp = 0
for r in range(H):
    for c in range(W):
        if land(c, r) and comp[r][c] < 0:
            stack = [(c, r)]
            comp[r][c] = n_comp
            while stack:
                x, y = stack.pop()
                for nx, ny in neighbors(x, y):
                    if land(nx, ny) and comp[ny][nx] < 0:
                        comp[ny][nx] = n_comp
                        stack.append((nx, ny))
            n_comp += 1
prow = [["."] * W for _ in range(H)]
for r in range(H):
    for c in range(W):
        if not land(c, r):
            continue
        best = None
        for _name, _, key, seat in PROVINCES:
            if comp[seat[1]][seat[0]] != comp[r][c]:
                continue
            d = dist((c, r), seat)
            if best is None or d < best[0]:
                best = (d, key)
        assert best is not None, (c, r)
        prow[r][c] = best[1]

# ---- rivers and roads (least-cost paths) -----------------------------------------------------------------

STEP = {"P": 1.0, "D": 1.5, "H": 2.0, "O": 2.0, "F": 2.5, "S": 3.0, "J": 3.0, "T": 3.0, "M": 5.0, "W": None}


def path(a: tuple[int, int], b: tuple[int, int], cost: dict[str, float | None], prefer: set[tuple[int, int]] | None = None) -> list[tuple[int, int]]:
    heap: list[tuple[float, int, tuple[int, int]]] = [(0.0, 0, a)]
    best = {a: 0.0}
    prev: dict[tuple[int, int], tuple[int, int]] = {}
    n = 0
    while heap:
        d, _, u = heapq.heappop(heap)
        if u == b:
            break
        if d > best[u]:
            continue
        for v in neighbors(*u):
            step = cost[grid[v[1]][v[0]]]
            if step is None and v != b:
                continue
            step = (step or 1.0) * (0.5 if prefer and v in prefer else 1.0)
            nd = d + step
            if nd < best.get(v, 1e18):
                best[v] = nd
                prev[v] = u
                n += 1
                heapq.heappush(heap, (nd, v[1] * W + v[0], v))
    out = [b]
    while out[-1] != a:
        out.append(prev[out[-1]])
    return out[::-1]


RIVER_COST = {k: (v if v is not None else None) for k, v in STEP.items()}
RIVERS = [
    ("Draven", [(19, 1), (19, 5), (21, 15), (21, 16)]),
    ("Silverrun", [(16, 8), (13, 11), (7, 11), (1, 12)]),
    ("Sunwater", [(33, 8), (30, 12), (28, 16)]),
]
rivers_out = []
for name, pts in RIVERS:
    full: list[tuple[int, int]] = []
    for a, b in zip(pts, pts[1:]):
        seg = path(a, b, RIVER_COST)
        full.extend(seg if not full else seg[1:])
    full = [h for h in full if land(*h)]
    rivers_out.append((name, full))

ROADS = [
    ("highway", ["Camelot", "Millbrook", "Redwatch", "Goldhaven"]),
    ("road", ["Goldhaven", "Hollowfell", "Ironhold"]),
    ("road", ["Redwatch", "Draven", "Thornwall"]),
    ("road", ["Goldhaven", "Khazad"]),
    ("road", ["Goldhaven", "Saltmere", "Tyrian Factory", "Sunspire"]),
    ("road", ["Camelot", "Sylvanesti", "Redwatch"]),
    ("road", ["Camelot", "Westwatch"]),
    ("road", ["Camelot", "Southdale", "Redmarsh"]),
    ("road", ["Khazad", "Deepvale", "Tyrian Factory"]),
    ("trail", ["Thornwall", "Westwatch"]),
]
ROAD_COST = dict(STEP)
roads_out = []
on_road: set[tuple[int, int]] = set()
for kind, names in ROADS:
    full = []
    for a, b in zip(names, names[1:]):
        seg = path(AT[a], AT[b], ROAD_COST, on_road)
        full.extend(seg if not full else seg[1:])
    on_road.update(full)
    roads_out.append((kind, full))

# ---- kingdoms' lands -------------------------------------------------------------------------------------


def around(center: tuple[int, int], radius: int) -> list[tuple[int, int]]:
    return [(c, r) for r in range(H) for c in range(W) if land(c, r) and dist((c, r), center) <= radius]


CLAIMS = {
    "avalon": around(AT["Camelot"], 1) + around(AT["Westwatch"], 1) + around(AT["Southdale"], 0),
    "dravenmark": around(AT["Draven"], 1) + around(AT["Hollowfell"], 1),
    "sylvara": around(AT["Sylvanesti"], 1) + [(14, 12)],
    "kharzul": around(AT["Khazad"], 1) + around(AT["Deepvale"], 0),
}
seen: set[tuple[int, int]] = set()
for k, hexes in CLAIMS.items():
    hexes[:] = sorted(set(hexes), key=lambda h: (h[1], h[0]))
    assert not seen & set(hexes), k
    seen |= set(hexes)

# ---- TOML helpers ---------------------------------------------------------------------------------------------


def q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def coords(hs: list[tuple[int, int]]) -> str:
    return "[" + ", ".join(f"[{c}, {r}]" for c, r in hs) + "]"


def inline(d: dict[str, object]) -> str:
    parts = []
    for k, v in d.items():
        if isinstance(v, str):
            parts.append(f"{k} = {q(v)}")
        elif isinstance(v, bool):
            parts.append(f"{k} = {'true' if v else 'false'}")
        elif isinstance(v, dict):
            parts.append(f"{k} = {inline(v)}")  # type: ignore[arg-type]
        elif isinstance(v, list):
            parts.append(f"{k} = [" + ", ".join(q(x) if isinstance(x, str) else str(x) for x in v) + "]")
        else:
            parts.append(f"{k} = {v}")
    return "{ " + ", ".join(parts) + " }"


out: list[str] = []
emit = out.append

emit("""# realm — one world: four kingdoms, three Mare Nostrum nations (two of them kingdoms too), nine free
# cities of seven peoples, eleven guilds at war and caravans on the roads, for ten years (RULES.md §5.5).
#
# Generated by tools/gen_realm.py (do not edit by hand: change the script and run it again).
#
# The links to watch (LINK-01…09): the guilds of Dravenmark, Avalon, Sylvara and Kharzul fight for the
# domains of each other's lands, so kingdoms take Unrest and lose hexes (LINK-08), and a capital
# annexed by another kingdom's guilds makes that kingdom its conqueror, free to subjugate it with a
# Vassalage edict; every assault by a guild of a nation counts as an invasion or a repulse in that
# nation's Mare Nostrum log and changes its ambassadors' tests (LINK-07); Avalon's eternal friendship
# pact with Goldhaven and the military alliances of Dravenmark and Tyria raise guild armies (LINK-06);
# Avalon and Dravenmark keep one treasury in BP for both their kingdom and their nation (LINK-03) at
# the rates of [config.link] (LINK-02); trade edicts send caravans (LINK-04) and diplomatic edicts
# envoys (LINK-05) along the roads.
#
# realm — un seul monde : quatre royaumes, trois nations de Mare Nostrum, sept cités libres, onze
# guildes en guerre et des convois sur les routes, pendant dix ans.

# LINK-02: one PO is worth one solar and a twentieth of a BP here (the defaults would make every Mare
# Nostrum amount of a faction that is both round down to 0 BP).
""")
emit("""# RES-GW-06: guilds of one faction fight as one front (a nation is also allied, as a guild, with the
# guilds affiliated with it: LINK-06)
alliances = [["black-banner", "iron-legion"], ["goldhaven-watch", "ironhold-brotherhood"]]
""")
emit("""[scenario]
name = "realm"
title = "The Realm: kingdoms, nations, guilds and caravans in one world"
title_fr = "Le Royaume : royaumes, nations, guildes et convois dans un seul monde"
description = "Four kingdoms, three nations, eleven guilds and caravans meet for ten years: guild wars cost kingdoms Unrest and hexes and count as invasions; alliances and pacts raise guild armies; trade edicts travel as caravans."
systems = ["km", "mn", "gw", "cv"]
duration = { years = 10 }
seed = 3
lang = "en"

[config.link]
gp_per_bp = 800
gp_per_po = 40
gp_per_solar = 40

[config.gw]
domain_victuals = 6

[diplomacy]
hexes_per_turn = 10
""")
emit("[map]")
emit("hex_miles = 12")
emit("rows = [")
for r in range(H):
    emit(f'  "{"".join(grid[r])}",')
emit("]")
emit("province_rows = [")
for r in range(H):
    emit(f'  "{"".join(prow[r])}",')
emit("]")
emit("provinces = [")
for name, region, key, _ in PROVINCES:
    emit(f"  {{ name = {q(name)}, region = {q(region)}, key = {q(key)} }},")
emit("]")
emit("settlements = [")
for name, (c, r), kind in SETTLEMENTS:
    emit(f"  {{ name = {q(name)}, at = [{c}, {r}], kind = {q(kind)} }},")
emit("]")
emit("")
for kind, hs in roads_out:
    emit("[[map.roads]]")
    emit(f"kind = {q(kind)}")
    emit(f"path = {coords(hs)}")
for name, hs in rivers_out:
    emit("[[map.rivers]]")
    emit(f"name = {q(name)}")
    emit(f"path = {coords(hs)}")
emit("")

# ---- KM ---------------------------------------------------------------------------------------------------
KINGDOMS = [
    dict(id="avalon", name="Avalon", name_fr="Avalon", alignment="LG", policy="heuristic", government="autocracy",
         capital="Camelot", treasury=50, economy=34, loyalty=32, stability=36, fame=3,
         edicts=dict(holiday="1", promotion="token", taxation="normal"),
         leaders=dict(ruler="Queen Guinevere", consort="Lord Lancelin", councilor="Merriel", general="Sir Bors",
                      grand_diplomat="Lady Elaine", high_priest="Father Anselm", magister="Nimue", marshal="Sir Kay",
                      spymaster="Morwen", treasurer="Sir Lucan", warden="Sir Gareth"),
         skills=dict(diplomacy=13, intimidate=4, bluff=6, knowledge_local=8, knowledge_nobility=10, sense_motive=9),
         counter_skills=dict(diplomacy=10, intimidate=5, bluff=5, knowledge_local=7, knowledge_nobility=9, sense_motive=8),
         explorers=dict(knowledge_geography=6, survival=8, stealth=5), armies=1,
         settlements=[("Camelot", 2, dict(guildhall=1, smithy=2, shop=3, tavern=1, granary=1, mansion=1, trade_shop=1, pier=1)),
                      ("Westwatch", 1, dict(shop=1, herbalist=1)), ("Southdale", 1, dict(stockyard=1, granary=1))],
         improvements=[(6, 10), (8, 10), (5, 7), (3, 7)]),
    dict(id="dravenmark", name="Dravenmark", name_fr="Dravenmark", alignment="LE", policy="heuristic", government="overlord",
         capital="Draven", treasury=45, economy=32, loyalty=32, stability=34, infamy=3,
         edicts=dict(holiday="none", promotion="token", taxation="heavy"),
         leaders=dict(ruler="Lord Voss", heir="Lady Ilse", councilor="Grell", general="Marshal Drago", grand_diplomat="Count Orsk",
                      high_priest="Mother Vey", magister="Zarek", marshal="Hauk", spymaster="Nyx", treasurer="Bastian",
                      warden="Korr", royal_enforcer="Brann"),
         skills=dict(diplomacy=7, intimidate=13, bluff=10, knowledge_local=5, knowledge_nobility=7, sense_motive=7),
         counter_skills=dict(diplomacy=6, intimidate=12, bluff=9, knowledge_local=5, knowledge_nobility=6, sense_motive=9),
         explorers=dict(knowledge_geography=3, survival=6, stealth=3), armies=3, enforcer=True, milestone_choice="infamy",
         settlements=[("Draven", 2, dict(black_market=1, tavern=1, smithy=2, mill=1, guildhall=1)), ("Hollowfell", 1, dict(shop=1, smithy=1))],
         improvements=[(18, 5), (20, 5), (23, 3), (25, 3)]),
    dict(id="sylvara", name="Sylvara", name_fr="Sylvara", alignment="CG", policy="heuristic", government="magocracy",
         capital="Sylvanesti", treasury=30, economy=24, loyalty=26, stability=28, fame=2,
         edicts=dict(holiday="6", promotion="token", taxation="light"),
         leaders=dict(ruler="Queen Aelith", councilor="Thalion", general="Faelar", grand_diplomat="Lirien", high_priest="Elder Oren",
                      magister="Sylwen", marshal="Caelan", spymaster="Vesper", treasurer="Ithil", warden="Rowan"),
         skills=dict(diplomacy=11, intimidate=2, bluff=6, knowledge_local=9, knowledge_nobility=6, sense_motive=10),
         counter_skills=dict(diplomacy=9, intimidate=2, bluff=5, knowledge_local=8, knowledge_nobility=6, sense_motive=10),
         explorers=dict(knowledge_geography=8, survival=10, stealth=9), deposition_shift=1,
         settlements=[("Sylvanesti", 1, dict(herbalist=1, alchemist=1, luxury_store=1, exotic_artisan=1, casters_tower=1))],
         improvements=[(15, 12), (17, 12)]),
    dict(id="kharzul", name="Kharzul", name_fr="Kharzul", alignment="LN", policy="heuristic", government="oligarchy",
         capital="Khazad", treasury=40, economy=27, loyalty=25, stability=30,
         edicts=dict(holiday="1", promotion="token", taxation="normal"),
         leaders=dict(ruler="Thane Durin", heir="Dagna", councilor="Balin", general="Thorin", grand_diplomat="Gloin",
                      high_priest="Stonepriest Hild", magister="Runa", marshal="Brokk", spymaster="Nali", treasurer="Orin", warden="Dwalin"),
         skills=dict(diplomacy=8, intimidate=8, bluff=3, knowledge_local=6, knowledge_nobility=5, sense_motive=6),
         counter_skills=dict(diplomacy=7, intimidate=8, bluff=3, knowledge_local=6, knowledge_nobility=5, sense_motive=7),
         explorers=dict(knowledge_geography=5, survival=6, stealth=2), armies=2,
         settlements=[("Khazad", 1, dict(smithy=2, foundry=1, granary=1, shop=1)), ("Deepvale", 1, dict(smithy=1))],
         improvements=[(33, 6), (35, 6), (34, 5)]),
]
for k in KINGDOMS:
    emit(f"# ---- kingdom {k['name']} ({k['alignment']}) " + "-" * 60)
    emit("[[kingdoms]]")
    for key in ("id", "name", "name_fr", "alignment", "policy", "government", "capital", "treasury", "economy", "loyalty", "stability",
                "fame", "infamy", "armies", "enforcer", "milestone_choice", "deposition_shift"):
        if key in k:
            v = k[key]
            emit(f"{key} = {q(v) if isinstance(v, str) else ('true' if v is True else v)}")
    emit(f"hexes = {coords(CLAIMS[k['id']])}")  # type: ignore[index]
    for key in ("edicts", "leaders", "skills", "counter_skills", "explorers"):
        emit(f"{key} = {inline(k[key])}")  # type: ignore[arg-type]
    for name, districts, buildings in k["settlements"]:  # type: ignore[attr-defined]
        emit("[[kingdoms.settlements]]")
        emit(f"name = {q(name)}")
        if districts > 1:
            emit(f"districts = {districts}")
        emit(f"buildings = {inline(buildings)}")
    for n_imp, at in enumerate(k["improvements"]):  # type: ignore[arg-type]
        assert at in CLAIMS[k["id"]], (k["id"], at)  # type: ignore[index]
        letter = grid[at[1]][at[0]]
        kind = {"P": "farm", "D": "farm", "F": "sawmill", "J": "sawmill", "M": "quarry", "C": "mine"}.get(letter) or ("mine" if n_imp % 2 else "quarry")
        emit("[[kingdoms.improvements]]")
        emit(f"at = [{at[0]}, {at[1]}]")
        emit(f"kind = {q(kind)}")
    emit("")
emit("""[[km_stances]]
kingdom = "avalon"
towards = "sylvara"
attitude = "friendly"
representative = true
[[km_stances]]
kingdom = "sylvara"
towards = "avalon"
attitude = "friendly"
[[km_stances]]
kingdom = "dravenmark"
towards = "sylvara"
attitude = "hostile"
[[km_stances]]
kingdom = "sylvara"
towards = "dravenmark"
attitude = "unfriendly"
[[km_stances]]
kingdom = "avalon"
towards = "dravenmark"
attitude = "unfriendly"
[[km_stances]]
kingdom = "kharzul"
towards = "dravenmark"
attitude = "indifferent"
[[km_relations]]
between = ["avalon", "sylvara"]
relation = "embassy"
[[km_relations]]
between = ["dravenmark", "sylvara"]
enemies = true

[[km_hidden_features]]
at = [13, 13]
name = "a moonwell"
dc = 20
[[km_hidden_features]]
at = [30, 4]
name = "a lost dwarven hold"
dc = 24
[[km_hidden_features]]
at = [6, 4]
name = "a barrow of the moor kings"
dc = 18
[[km_encounters]]
day = 4
cr = 3
name = "a band of moor goblins"
[[km_encounters]]
kingdom = "kharzul"
day = 9
cr = 6
name = "a cave troll"
""")

# ---- MN ---------------------------------------------------------------------------------------------------
PEOPLES = [("avalonians", "Avalonians", "Avaloniens"), ("draveni", "Draveni", "Dravènes"), ("elves", "Elves", "Elfes"),
           ("dwarves", "Dwarves", "Nains"), ("heartlanders", "Heartlanders", "Gens du Cœur"), ("islanders", "Islanders", "Insulaires"),
           ("lizardfolk", "Lizardfolk", "Hommes-lézards"), ("nomads", "Nomads", "Nomades"), ("hillfolk", "Hillfolk", "Montagnards")]
for pid, name, fr in PEOPLES:
    emit(f"[[peoples]]\nid = {q(pid)}\nname = {q(name)}\nname_fr = {q(fr)}")
MN_PROVINCES = {
    "Avalon": ("avalonians", ["grain", "wool"]), "Westmarch": ("avalonians", ["timber", "horses"]),
    "Southdale": ("avalonians", ["grain", "cattle"]), "Redmarsh": ("lizardfolk", ["reeds", "herbs"]),
    "Dravenmark": ("draveni", ["iron", "grain"]), "Hollowfell": ("draveni", ["stone", "silver"]),
    "Thornwall": ("hillfolk", ["wool", "horses"]), "Ironhold": ("dwarves", ["iron", "gems"]),
    "Sylvara": ("elves", ["timber", "herbs", "silk"]), "Greenvale": ("heartlanders", ["grain", "wine"]),
    "Goldhaven": ("heartlanders", ["gold", "wine", "cloth"]), "Millbrook": ("heartlanders", ["grain", "flour"]),
    "Kharzul": ("dwarves", ["iron", "coal", "gems"]), "Deepvale": ("dwarves", ["coal", "stone"]),
    "Saltcoast": ("islanders", ["salt", "fish"]), "Saltmere": ("islanders", ["salt", "fish", "pearls"]),
    "Sunspire": ("nomads", ["spices", "glass"]), "Tyria": ("islanders", ["purple", "fish", "wine"]),
    "Corsa": ("islanders", ["pearls", "coral"]),
}
for name, _, _, _ in PROVINCES:
    people, res = MN_PROVINCES[name]
    emit(f"[[mn_provinces]]\nname = {q(name)}\npeople = {q(people)}\nresources = [{', '.join(q(r) for r in res)}]")
CITIES = [  # id, name, fr, province, settlement, controller (capitals: by the nation)
    ("camelot", "Camelot", "Camelot", "Avalon", "Camelot"),
    ("draven", "Draven", "Draven", "Dravenmark", "Draven"),
    ("tyr", "Tyr", "Tyr", "Tyria", "Tyr"),
    ("thornwall", "Thornwall", "Thornwall", "Thornwall", "Thornwall"),
    ("ironhold", "Ironhold", "Fortfer", "Ironhold", "Ironhold"),
    ("goldhaven", "Goldhaven", "Havre-d'Or", "Goldhaven", "Goldhaven"),
    ("saltmere", "Saltmere", "Salmer", "Saltmere", "Saltmere"),
    ("redmarsh", "Redmarsh", "Rougemarais", "Redmarsh", "Redmarsh"),
    ("sunspire", "Sunspire", "Flèche-du-Soleil", "Sunspire", "Sunspire"),
    ("corsa", "Corsa", "Corsa", "Corsa", "Corsa"),
    ("sylvanesti", "Sylvanesti", "Sylvanesti", "Sylvara", "Sylvanesti"),  # capitals of kingdoms that are no nation:
    ("khazad", "Khazad", "Khazad", "Kharzul", "Khazad"),  # free cities for Mare Nostrum (LINK-03)
]
for cid, name, fr, prov, sett in CITIES:
    emit(f"[[cities]]\nid = {q(cid)}\nname = {q(name)}\nname_fr = {q(fr)}\nprovince = {q(prov)}\nsettlement = {q(sett)}")
emit("""[[nations]]
id = "avalon"
name = "Avalon"
name_fr = "Avalon"
capital = "camelot"
provinces = ["Westmarch", "Southdale"]
policy = "heuristic"
ambassadors = 1
[[nations]]
id = "dravenmark"
name = "Dravenmark"
name_fr = "Dravenmark"
capital = "draven"
provinces = ["Hollowfell"]
policy = "heuristic"
ambassadors = 1
[[nations]]
id = "tyria"
name = "Tyria"
name_fr = "Tyrie"
capital = "tyr"
provinces = ["Saltcoast"]
treasury = 160
policy = "random"
ambassadors = 2

[[racial_factors]]
province = "Avalon"
people = "heartlanders"
value = 5
[[racial_factors]]
province = "Dravenmark"
people = "dwarves"
value = 5
[[racial_factors]]
province = "Tyria"
people = "islanders"
value = 10
[[racial_factors]]
province = "Dravenmark"
people = "elves"
value = -10

# treaties in force at the start (an ambassador at post holds each)
[[mn_treaties]]
nation = "avalon"
partner = "goldhaven"
kind = "pact"
[[mn_treaties]]
nation = "dravenmark"
partner = "thornwall"
kind = "alliance"
[[mn_treaties]]
nation = "tyria"
partner = "saltmere"
kind = "alliance"
[[mn_treaties]]
nation = "tyria"
partner = "corsa"
kind = "commercial"

# wars of the Mare Nostrum world (SC-MN-05): Dravenmark turns on Goldhaven in the second year, which
# calls on Avalon's eternal friendship (MN-TRE-07); Tyria and Sunspire quarrel over the spice road
[[mn_events]]
turn = 6
kind = "war"
by = "dravenmark"
on = "goldhaven"
note = "Dravenmark claims the Goldhaven toll road"
[[mn_events]]
turn = 9
kind = "war"
by = "tyria"
on = "sunspire"
note = "the spice road"
[[mn_events]]
turn = 22
kind = "peace"
by = "tyria"
on = "sunspire"
[[mn_events]]
turn = 30
kind = "peace"
by = "dravenmark"
on = "goldhaven"

# ---- LINK: factions (LINK-03) and the nations' levies (LINK-06) ---------------------------------------
[[factions]]
kingdom = "avalon"
nation = "avalon"
name = "Avalon"
levy = { infantry = 5, archer = 3, knight = 2 }
[[factions]]
kingdom = "dravenmark"
nation = "dravenmark"
name = "Dravenmark"
levy = { infantry = 6, cavalry = 4 }
[[factions]]
nation = "tyria"
name = "Tyria"
levy = { infantry = 6, archer = 4 }
""")

# ---- GW ---------------------------------------------------------------------------------------------------
GUILDS = [
    dict(id="order-of-the-swan", name="Order of the Swan", name_fr="", leader="Sir Percival", policy="heuristic", solars=1100,
         victuals=40, notoriety=6, affiliation="avalon", pool=dict(infantry=20, archer=8, knight=4, siege_engine=2),
         seals=[("swan-m1", "military", "Avalon"), ("swan-m2", "military", "Avalon"), ("swan-m3", "military", "Southdale"),
                ("swan-p1", "political", "Avalon")]),
    dict(id="iron-legion", name="Iron Legion", leader="Marshal Drago", policy="heuristic", solars=1500, victuals=40, notoriety=8,
         affiliation="dravenmark", pool=dict(infantry=26, cavalry=8, knight=4, siege_engine=3),
         seals=[("legion-m1", "military", "Dravenmark"), ("legion-m2", "military", "Dravenmark"), ("legion-m3", "military", "Dravenmark"),
                ("legion-m4", "military", "Greenvale"), ("legion-p1", "political", "Dravenmark"), ("legion-p2", "political", "Greenvale")]),
    dict(id="black-banner", name="Black Banner", leader="Captain Sable", policy="random", solars=500, victuals=20, notoriety=3,
         affiliation="dravenmark", pool=dict(infantry=10, militia=10),
         seals=[("banner-m1", "military", "Hollowfell"), ("banner-m2", "military", "Hollowfell"), ("banner-p1", "political", "Hollowfell")]),
    dict(id="wardens-of-the-wood", name="Wardens of the Wood", leader="Warden Faelar", policy="heuristic", solars=700, victuals=30,
         notoriety=5, affiliation="sylvara", pool=dict(archer=14, infantry=6),
         seals=[("wardens-m1", "military", "Sylvara"), ("wardens-m2", "military", "Sylvara"), ("wardens-p1", "political", "Sylvara")]),
    dict(id="hammer-clan", name="Hammer Clan", leader="Thane Brokk", policy="random", solars=900, victuals=40, notoriety=4,
         affiliation="kharzul", pool=dict(infantry=16, knight=4, siege_engine=2),
         seals=[("hammer-m1", "military", "Kharzul"), ("hammer-m2", "military", "Deepvale"), ("hammer-p1", "political", "Kharzul")]),
    dict(id="tyrian-marines", name="Tyrian Marines", leader="Navarch Kallis", policy="heuristic", solars=800, victuals=30, notoriety=4,
         affiliation="tyria", pool=dict(infantry=14, archer=6, siege_engine=1),
         seals=[("marines-m1", "military", "Saltcoast"), ("marines-m2", "military", "Saltcoast"), ("marines-p1", "political", "Saltcoast")]),
    dict(id="red-hand", name="Red Hand Company", leader="Captain Ruga", policy="random", solars=600, victuals=20, notoriety=2,
         pool=dict(infantry=12, cavalry=6),
         seals=[("hand-m1", "military", "Greenvale"), ("hand-m2", "military", "Greenvale"), ("hand-p1", "political", "Greenvale")]),
    dict(id="goldhaven-watch", name="Goldhaven Watch", leader="Provost Amara", policy="heuristic", solars=900, victuals=60, notoriety=5,
         pool=dict(infantry=10, archer=6),
         seals=[("watch-m1", "military", "Goldhaven"), ("watch-m2", "military", "Goldhaven"), ("watch-p1", "political", "Goldhaven")]),
    dict(id="ironhold-brotherhood", name="Ironhold Brotherhood", leader="Forgemaster Hrolf", policy="heuristic", solars=700,
         victuals=50, notoriety=4, pool=dict(infantry=10, knight=2),
         seals=[("brother-m1", "military", "Ironhold"), ("brother-p1", "political", "Ironhold")]),
    dict(id="saltmere-guard", name="Saltmere Harbour Guard", leader="Harbourmaster Nell", policy="random", solars=500, victuals=40,
         notoriety=3, pool=dict(infantry=8, archer=4),
         seals=[("harbour-m1", "military", "Saltmere"), ("harbour-p1", "political", "Saltmere")]),
    dict(id="sunspire-riders", name="Sunspire Riders", leader="Emir Zafir", policy="random", solars=500, victuals=30, notoriety=3,
         pool=dict(cavalry=8, archer=4),
         seals=[("riders-m1", "military", "Sunspire"), ("riders-p1", "political", "Sunspire")]),
]
for g in GUILDS:
    emit("[[guilds]]")
    for key in ("id", "name", "leader", "policy", "solars", "victuals", "notoriety", "affiliation"):
        if key in g:
            v = g[key]
            emit(f"{key} = {q(v) if isinstance(v, str) else v}")
    emit(f"pool = {inline(g['pool'])}")  # type: ignore[arg-type]
    emit("seals = [")
    for sid, kind, prov in g["seals"]:  # type: ignore[attr-defined]
        emit(f"  {{ id = {q(sid)}, kind = {q(kind)}, province = {q(prov)} }},")
    emit("]")
DOMAINS = [  # id, name, settlement or hex, owner, fortification, garrison, buildings
    ("camelot-keep", "Camelot Keep", "Camelot", "order-of-the-swan", 2, dict(militia=6, infantry=6, archer=4), [("Great Hall", 14), ("Granary", 8)]),
    ("westwatch-hall", "Westwatch Hall", "Westwatch", "order-of-the-swan", 1, dict(militia=4, infantry=2), [("Watchtower", 6)]),
    ("southdale-manor", "Southdale Manor", "Southdale", "order-of-the-swan", 1, dict(militia=4), [("Barn", 5)]),
    ("draven-citadel", "Draven Citadel", "Draven", "iron-legion", 3, dict(infantry=10, archer=4), [("Armoury", 16), ("Barracks", 10)]),
    ("hollowfell-fort", "Hollowfell Fort", "Hollowfell", "black-banner", 1, dict(militia=6, infantry=2), [("Mine Works", 9)]),
    ("sylvanesti-grove", "Sylvanesti Grove", "Sylvanesti", "wardens-of-the-wood", 2, dict(archer=6, militia=4), [("Moon Temple", 12), ("Treehall", 7)]),
    ("elmshade-lodge", "Elmshade Lodge", (14, 12), "wardens-of-the-wood", 0, dict(militia=3), [("Lodge", 4)]),
    ("khazad-gate", "Khazad Gate", "Khazad", "hammer-clan", 3, dict(infantry=8, militia=4), [("Forge", 14), ("Vault", 12)]),
    ("deepvale-mine", "Deepvale Mine", "Deepvale", "hammer-clan", 1, dict(militia=5), [("Mine Head", 8)]),
    ("tyrian-factory", "Tyrian Factory", "Tyrian Factory", "tyrian-marines", 1, dict(infantry=4, archer=2), [("Warehouse", 10)]),
    ("tyr-arsenal", "Arsenal of Tyr", "Tyr", "tyrian-marines", 2, dict(infantry=6), [("Arsenal", 15)]),
    ("redwatch", "Redwatch", "Redwatch", "red-hand", 1, dict(militia=6, infantry=4), [("Stockade", 6)]),
    ("millbrook-mill", "Millbrook Mill", "Millbrook", "red-hand", 0, dict(militia=3), [("Mill", 6)]),
    ("goldhaven-castle", "Castle of Goldhaven", "Goldhaven", "goldhaven-watch", 3, dict(infantry=10, archer=6, militia=4), [("Counting House", 15), ("Guildhall", 12)]),
    ("ironhold-deeps", "Ironhold Deeps", "Ironhold", "ironhold-brotherhood", 3, dict(infantry=10, militia=4), [("Great Forge", 16)]),
    ("thornwall-hold", "Thornwall Hold", "Thornwall", "ironhold-brotherhood", 2, dict(militia=12), [("Hall", 6)]),
    ("saltmere-harbour", "Saltmere Harbour", "Saltmere", "saltmere-guard", 2, dict(infantry=8, archer=4), [("Docks", 12)]),
    ("redmarsh-stilts", "Redmarsh Stilts", "Redmarsh", "saltmere-guard", 1, dict(militia=6), [("Stilt Hall", 5)]),
    ("sunspire-tower", "Sunspire Tower", "Sunspire", "sunspire-riders", 2, dict(archer=6, militia=6), [("Spice Market", 12)]),
    ("corsa-citadel", "Corsa Citadel", "Corsa", "saltmere-guard", 2, dict(infantry=6), [("Lighthouse", 8)]),
]
for did, name, where, owner, fort, gar, blds in DOMAINS:
    at = AT[where] if isinstance(where, str) else where
    emit(f"[[domains]]\nid = {q(did)}\nname = {q(name)}\nat = [{at[0]}, {at[1]}]\nowner = {q(owner)}\nfortification = {fort}")
    emit(f"garrison = {inline(gar)}")
    emit("buildings = [" + ", ".join(f"{{ name = {q(b)}, sp = {sp} }}" for b, sp in blds) + "]")
emit("")

# ---- CV ---------------------------------------------------------------------------------------------------
emit("""# ---- caravans on the roads (CV) ---------------------------------------------------------------------
[[cv_jobs]]
job = "scout"
security = 1
[[cv_jobs]]
job = "guard"
attack = 1
ac = 1
[[cv_jobs]]
job = "guide"
security = 1
[[cv_jobs]]
job = "fortune_teller"
resolve = 2

[[hazards]]
id = "washout"
name = "washed-out road"
name_fr = "route emportée par les pluies"
check = "security"
dc = 14
on_fail = [{ kind = "damage", dice = "1d6" }, { kind = "block_travel" }]
[[hazards]]
id = "highwaymen"
name = "highwaymen"
name_fr = "des bandits de grand chemin"
check = "combat"
rounds = 3
enemies = [
  { id = "h1", name = "highwayman", ac = 12, hp = 6, attack = 3, damage = "1d6" },
  { id = "h2", name = "highwayman", ac = 12, hp = 6, attack = 3, damage = "1d6" },
]
on_fail = [{ kind = "lose_cargo", cargo = "trade_goods", amount = 1 }]
[[hazards]]
id = "wolves"
name = "a wolf pack"
name_fr = "une meute de loups"
check = "combat"
rounds = 3
enemies = [
  { id = "w1", name = "wolf", ac = 13, hp = 5, attack = 2, damage = "1d6" },
  { id = "w2", name = "wolf", ac = 13, hp = 5, attack = 2, damage = "1d4" },
]
on_fail = [{ kind = "lose_provisions", amount = 10 }]
[[hazards]]
id = "rockslide"
name = "a rockslide"
name_fr = "un éboulement"
check = "security"
dc = 15
on_fail = [{ kind = "damage", dice = "2d6" }]
[[hazards]]
id = "sinking_mud"
name = "sinking mud"
name_fr = "une boue mouvante"
check = "security"
dc = 14
on_fail = [{ kind = "damage", dice = "1d6" }, { kind = "block_travel" }]
[[hazards]]
id = "sandstorm"
name = "a sandstorm"
name_fr = "une tempête de sable"
check = "security"
dc = 15
on_fail = [{ kind = "lose_provisions", dice = "2d10" }, { kind = "block_travel" }]
[[hazards]]
id = "toll"
name = "a greedy toll-keeper"
name_fr = "un péager cupide"
check = "resolve"
dc = 15
on_fail = [{ kind = "lose_cargo", cargo = "trade_goods", amount = 1 }]

[[hazard_tables]]
id = "roads"
paths = ["road", "highway"]
bands = [{ from = 1, to = 86 }, { from = 87, to = 92, hazard = "washout" }, { from = 93, to = 96, hazard = "toll" }, { from = 97, to = 100, hazard = "highwaymen" }]
[[hazard_tables]]
id = "forest"
terrains = ["forest"]
bands = [{ from = 1, to = 75 }, { from = 76, to = 100, hazard = "wolves" }]
[[hazard_tables]]
id = "hills"
terrains = ["hills", "moor", "mountains", "tundra"]
bands = [{ from = 1, to = 78 }, { from = 79, to = 100, hazard = "rockslide" }]
[[hazard_tables]]
id = "marsh"
terrains = ["marsh", "jungle"]
bands = [{ from = 1, to = 70 }, { from = 71, to = 100, hazard = "sinking_mud" }]
[[hazard_tables]]
id = "desert"
terrains = ["desert"]
bands = [{ from = 1, to = 70 }, { from = 71, to = 100, hazard = "sandstorm" }]
[[hazard_tables]]
id = "open"
bands = [{ from = 1, to = 90 }, { from = 91, to = 100, hazard = "highwaymen" }]
""")
CONVOYS = [
    ("golden-road", "Golden Road Company", "heuristic", "Camelot", [], "Goldhaven", dict(trade_goods=6, treasure=1)),
    ("salt-wagons", "Salt Wagons of Saltmere", "random", "Saltmere", ["Tyrian Factory"], "Sunspire", dict(trade_goods=5)),
    ("iron-train", "Iron Train of Khazad", "heuristic", "Khazad", [], "Goldhaven", dict(trade_goods=4, repair=1)),
    ("spice-caravan", "Spice Caravan", "random", "Sunspire", ["Saltmere"], "Goldhaven", dict(trade_goods=6, treasure=2)),
]
for cid, name, pol, origin, via, dest, cargo in CONVOYS:
    emit(f"""[[convoys]]
id = {q(cid)}
name = {q(name)}
policy = {q(pol)}
origin = {q(origin)}""")
    if via:
        emit(f"via = [{', '.join(q(v) for v in via)}]")
    emit(f"""destination = {q(dest)}
offense = 2
defense = 2
mobility = 2
morale = 1
gp = 400
provisions = 80
cargo = {inline(cargo)}
wagons = [{{ kind = "covered" }}, {{ kind = "fortune_teller" }}, {{ kind = "supply" }}]
travelers = [
  {{ id = "driver", job = "driver", count = 3 }},
  {{ id = "scout", job = "scout" }},
  {{ id = "cook", job = "cook" }},
  {{ id = "guard", job = "guard", wage = 10 }},
]""")

text = "\n".join(out) + "\n"
if "--check" in sys.argv:
    if OUT.read_text(encoding="utf-8") != text:
        print(f"{OUT} differs from what tools/gen_realm.py writes", file=sys.stderr)
        sys.exit(1)
    print(f"{OUT} is up to date")
else:
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT} ({len(text.splitlines())} lines, {W}×{H} hexes)")
