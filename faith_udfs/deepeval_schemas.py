"""What a DeepEval custom model is given as `schema` and what its reply is read as.

DeepEval passes `generate(prompt, schema)` a pydantic class (`Truths`, `Claims`, `Verdicts`,
`FaithfulnessScoreReason`). faith_udfs never imports pydantic: when it is loaded (the model's
SDK loads it: OpenAI's client, instructor, LangChain), the schema is a pydantic class built
from it, as OpenAI's `parse`, instructor and `with_structured_output` require; else a
stand-in of the same names that builds from keywords, `model_validate` or
`model_validate_json`. Both describe the reply by a JSON schema with its properties, which a
confined decoder (lm-format-enforcer, outlines, a `json_schema` response format) follows.
"""

from __future__ import annotations

import json
import sys
from typing import Any, ClassVar

from faith_udfs.errors import JudgeReplyError
from faith_udfs.prompts import CLAIMS, REASON, TRUTHS, VERDICTS
from faith_udfs.replies import first_json_object

MODULE = "deepeval.metrics.faithfulness.schema"


def reply_dict(reply: Any) -> Any:
    """A DeepEval model's reply as a dict: JSON text (fenced or chatty), a `(reply, cost)`
    pair as DeepEval's native models return, or a schema object (`model_dump`, `dict`)."""
    if isinstance(reply, tuple) and len(reply) == 2 and isinstance(reply[1], int | float | None):
        reply = reply[0]
    if isinstance(reply, str):
        try:
            return json.loads(reply)
        except json.JSONDecodeError:
            return first_json_object(reply)
    for method in ("model_dump", "dict"):
        dump = getattr(reply, method, None)
        if callable(dump):
            return dump()
    if isinstance(reply, dict):
        return reply
    if hasattr(reply, "__dict__"):
        return dict(vars(reply))
    raise JudgeReplyError(f"the model replied with a {type(reply).__name__}, not JSON")


# The reply's JSON schema by our prompts' schema: DeepEval's field names, a verdict's `claim`
# number kept (verdicts numbered out of order are put back in claim order).
_STRINGS = {"type": "array", "items": {"type": "string"}}
_OPTIONAL_TEXT = {"anyOf": [{"type": "string"}, {"type": "null"}]}
_VERDICT = {
    "type": "object",
    "properties": {
        "verdict": {"type": "string"},
        "reason": _OPTIONAL_TEXT,
        "claim": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
    },
    "required": ["verdict"],
}
_FIELDS: dict[str, tuple[str, str, dict[str, Any]]] = {  # schema: (class, field, its schema)
    TRUTHS: ("Truths", "truths", _STRINGS),
    CLAIMS: ("Claims", "claims", _STRINGS),
    VERDICTS: ("Verdicts", "verdicts", {"type": "array", "items": _VERDICT}),
    REASON: ("FaithfulnessScoreReason", "reason", {"type": "string"}),
}


class SchemaStandIn:
    """What DeepEval passes as `schema` (a pydantic model class), without pydantic: named as
    DeepEval's faithfulness schemas, built from keywords, JSON or a dict, read by `model_dump`."""

    fields: tuple[str, ...] = ()
    json_schema: ClassVar[dict[str, Any]] = {}

    def __init__(self, **values: Any) -> None:
        self._values = values

    def model_dump(self) -> dict[str, Any]:
        return dict(self._values)

    @classmethod
    def model_validate(cls, value: Any) -> SchemaStandIn:
        return cls(**reply_dict(value))

    @classmethod
    def model_validate_json(cls, text: str | bytes) -> SchemaStandIn:
        return cls(**reply_dict(text if isinstance(text, str) else text.decode()))

    @classmethod
    def model_json_schema(cls) -> dict[str, Any]:
        return json.loads(json.dumps(cls.json_schema))  # the caller's own copy


def _stand_in(schema: str) -> type[SchemaStandIn]:
    name, field, shape = _FIELDS[schema]
    json_schema = {
        "title": name,
        "type": "object",
        "properties": {field: shape},
        "required": [field],
    }
    namespace = {"fields": (field,), "json_schema": json_schema, "__module__": MODULE}
    return type(name, (SchemaStandIn,), namespace)


# DeepEval's schema class for each of our prompts' schemas, when pydantic is not loaded.
STAND_INS: dict[str, type[SchemaStandIn]] = {schema: _stand_in(schema) for schema in _FIELDS}
_PYDANTIC: dict[str, type] = {}


def schema_class(schema: str) -> type:
    """The class given as `schema`: a pydantic model when pydantic is loaded, else the
    stand-in (pandas is read the same way: only when the caller has loaded it)."""
    pydantic = sys.modules.get("pydantic")
    if pydantic is None:
        return STAND_INS[schema]
    if not _PYDANTIC:
        _PYDANTIC.update(_pydantic_classes(pydantic))
    return _PYDANTIC[schema]


def _pydantic_classes(pydantic: Any) -> dict[str, type]:
    """DeepEval's faithfulness schemas as pydantic models (a verdict word any text, as our
    reading of it tolerates `Yes.`; its `claim` number kept)."""
    verdict = pydantic.create_model(
        "FaithfulnessVerdict",
        __module__=MODULE,
        verdict=(str, ...),
        reason=(str | None, None),
        claim=(int | None, None),
    )
    verdicts = list[verdict]  # type: ignore[valid-type]  # a class made at run time
    types = {TRUTHS: list[str], CLAIMS: list[str], VERDICTS: verdicts, REASON: str}
    # model_validate_json reads JSON in code fences or chatter, as the stand-in does
    base = type(
        "DeepEvalSchema",
        (pydantic.BaseModel,),
        {"__module__": MODULE, "model_validate_json": classmethod(_validate_json)},
    )
    return {
        schema: pydantic.create_model(
            name, __base__=base, __module__=MODULE, **{field: (types[schema], ...)}
        )
        for schema, (name, field, _) in _FIELDS.items()
    }


def _validate_json(cls: Any, json_data: str | bytes, **_: Any) -> Any:
    text = json_data if isinstance(json_data, str) else json_data.decode()
    return cls.model_validate(reply_dict(text))
