"""Schema bases and shared fields."""

from __future__ import annotations

from typing import Any

from marshmallow import INCLUDE, RAISE, Schema, fields, post_dump


class StrictSchema(Schema):
    """A request body: unknown fields are an error (422 ``unknown_field``)."""

    class Meta:
        unknown = RAISE


class PassThroughSchema(Schema):
    """A response body built by the rules core. The declared fields are dumped as usual and
    every other key of the object is kept, so nothing the core explains is silently lost."""

    class Meta:
        unknown = INCLUDE

    @post_dump(pass_original=True)
    def _keep_undeclared(
        self, data: dict[str, Any], original: Any, **_kwargs: Any
    ) -> dict[str, Any]:
        if not isinstance(original, dict):
            return data
        return {**original, **data}


class StrictBoolean(fields.Boolean):
    """``true`` or ``false`` only: not 1, "yes" or "on"."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


def seat_field(**kwargs: Any) -> fields.Integer:
    kwargs.setdefault("metadata", {}).setdefault("description", "a seat, 0 to seats-1")
    return fields.Integer(strict=True, **kwargs)


def card_field(**kwargs: Any) -> fields.String:
    kwargs.setdefault("metadata", {}).setdefault(
        "description", "a card code (RULES §1), e.g. KH, 10S, T21, FOOL"
    )
    return fields.String(**kwargs)


def cards_field(**kwargs: Any) -> fields.List[Any]:
    return fields.List(card_field(), **kwargs)
