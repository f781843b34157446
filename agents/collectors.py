"""Mesa's data collectors of the campaign's tables (imported only by a model that collects them)."""

from __future__ import annotations

from typing import Any

import mesa


class ConvoyCollector(mesa.DataCollector):
    """The daily table of the caravans: the model reporters, and a table (Mesa's ``tables``) with
    one row per convoy agent (not every agent of the model, which may hold kingdoms or guilds too),
    in ascending convoy id: a row a day while the convoy travels, and one last row on the day it
    arrives or is destroyed (a finished convoy does not change; recording it every day for years
    cost more than the rules themselves). ``model.frames()["cv.agents"]`` reads that table."""

    TABLE = "convoys"

    def __init__(self, *, model_reporters: dict[str, Any], agent_reporters: dict[str, Any]) -> None:
        super().__init__(model_reporters=model_reporters, tables={self.TABLE: ["Step", "AgentID", *agent_reporters]})
        self.row_reporters = agent_reporters
        self._finished: set[str] = set()

    def collect(self, model: Any) -> None:
        super().collect(model)
        for a in sorted((a for a in model.agents if getattr(a, "kind", "") == "convoy"), key=lambda a: a.cid):
            if a.convoy.status != "travelling":
                if a.cid in self._finished:
                    continue
                self._finished.add(a.cid)
            row = {"Step": model.time, "AgentID": a.unique_id}
            row.update((name, f(a)) for name, f in self.row_reporters.items())
            self.add_table_row(self.TABLE, row)

    def agents_frame(self) -> Any:
        return self.get_table_dataframe(self.TABLE).set_index(["Step", "AgentID"])


