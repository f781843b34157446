"""The OpenAPI schema fuzzed with schemathesis against a real server: no input gets a 5xx.

Every operation of the schema gets a bounded number of generated requests: bodies and parameters
that fit the schema and ones that do not, with random ids and with the ids of a real campaign and
batch (so the handlers behind the 404s are fuzzed too). Each answer is checked by schemathesis's
``not_a_server_error``. (The operations are driven from one test: schemathesis's own pytest plugin
does not load under this pytest.)"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode

from .conftest import Server

pytestmark = pytest.mark.slow

EXAMPLES = 5


def test_no_request_gets_a_server_error(server: Server) -> None:
    cid = server.post("/v1/campaigns", {"scenario": "caravan-crossing", "seed": 1}).json()["id"]
    bid = server.post("/v1/batches", {"scenario": "caravan-crossing", "seeds": "1"}).json()["id"]
    server.wait("campaigns", cid)
    server.wait("batches", bid)
    schema = schemathesis.openapi.from_url(f"{server.url}/docs/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 15
    failures: list[str] = []
    passes = [(GenerationMode.NEGATIVE, None), (GenerationMode.POSITIVE, None), (GenerationMode.POSITIVE, "real")]
    for op in operations:
        for mode, ids in passes:
            names = {p.name for p in op.path_parameters}
            real = {k: v for k, v in (("campaign_id", cid), ("batch_id", bid)) if k in names}
            if ids and not real:
                continue
            if mode == GenerationMode.NEGATIVE and not (len(op.query) or len(op.body)):
                continue  # a free-form string in the path is all it takes: nothing can be out of schema

            @given(case=op.as_strategy(generation_mode=mode, path_parameters=real if ids else None))
            @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                      suppress_health_check=list(HealthCheck))
            def fuzz(case: Any) -> None:
                case.call_and_validate(checks=[not_a_server_error], timeout=60)

            try:
                fuzz()
            except Unsatisfiable:  # hypothesis found no out-of-schema value to try: nothing to check
                pass
            except Exception as e:  # noqa: BLE001 - collect every operation's failure, then fail once
                failures.append(f"{op.method.upper()} {op.path} ({mode}{', real ids' if ids else ''}): {e}")
    assert not failures, "\n\n".join(failures)
    assert server.get("/healthz").status_code == 200
