"""Every record kind: the exported JSON Schema and the generated TypeScript types are current, and the
real output of every producer validates against the schema (and round-trips through its pydantic model)."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
import pytest_asyncio
from jsonschema import Draft202012Validator

from mcp_lab.record_schema import KINDS, SCHEMA_PATH, schema_text
from mcp_lab.records.base import mime
from tests.records.producers import Produced, produce_all

LABEXTENSION = SCHEMA_PATH.parents[1]


def test_the_exported_schema_is_current() -> None:
    assert SCHEMA_PATH.read_text(encoding="utf-8") == schema_text(), "run: python -m mcp_lab.record_schema"


def test_the_generated_typescript_types_are_current() -> None:
    node = shutil.which("node")
    if node is None or not (LABEXTENSION / "node_modules" / "json-schema-to-typescript").is_dir():
        pytest.fail("node and labextension/node_modules are needed (pip install -e . installs them)")
    done = subprocess.run(
        [node, "scripts/types.mjs", "--check"], cwd=LABEXTENSION, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def produced(tmp_path_factory: pytest.TempPathFactory) -> list[Produced]:
    return await produce_all(tmp_path_factory.mktemp("producers"))


@pytest.mark.asyncio(loop_scope="module")
async def test_every_producer_validates_against_its_schema(produced: list[Produced]) -> None:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    validator = Draft202012Validator(schema)
    assert {p.kind for p in produced} == set(KINDS), "every vendor kind is produced"
    for item in produced:
        bundle = item.bundle
        assert set(bundle) == {"text/plain", "text/html", mime(item.kind)}, item.label
        errors = [e.message for e in validator.iter_errors({mime(item.kind): item.record})]
        assert not errors, (item.label, errors[:3])
        model = KINDS[item.kind].model_validate(item.record)
        assert model.dump() == item.record, item.label


@pytest.mark.asyncio(loop_scope="module")
async def test_no_bundle_is_larger_than_its_caps_allow(produced: list[Produced]) -> None:
    for item in produced:
        size = len(json.dumps(item.bundle))
        assert size < 400_000, (item.label, size)
    huge = next(p for p in produced if p.label == "a 5 MB token, clipped")
    assert len(json.dumps(huge.bundle)) < 64 * 1024
    assert huge.record["token"]["length"] == 5_000_003 and len(huge.record["token"]["sha256"]) == 64
