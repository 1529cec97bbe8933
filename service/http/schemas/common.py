"""Schema bases and shared fields, and the size limits of request bodies.

Every list and string a request may carry is bounded, so that no body within the 1 MiB limit
can ask for unbounded work: what a table can need is far below each limit.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

from marshmallow import INCLUDE, RAISE, Schema, ValidationError, fields, post_dump, validate

from service.domain import (
    VARIANTS,
)

#: Any string: a card code or its alias ("re di coppe"), a variant id, a kind, a name.
MAX_TEXT = 100
#: Any list of cards (a whole capture pile at most).
MAX_CARDS = 100
MAX_DECLARATIONS = 50
#: Tricks of one hand (a record's ``tricks``, an adjudication's ``history``).
MAX_TRICKS = 30
#: Capture piles of one hand, and seats of any table.
MAX_SEATS = 8
#: Options of one game.
MAX_OPTIONS = 16
#: Every name a variant answers to: its id and its aliases (the service also takes them in
#: any case). The contract lists them, so a client knows them before it asks.
VARIANT_NAMES = sorted({name for variant in VARIANTS.values()
                        for name in (variant.id, *variant.aliases)})
#: The highest seat of any table (a seat is 0 to the variant's seats - 1).
HIGHEST_SEAT = max(variant.seats for variant in VARIANTS.values()) - 1


class StrictSchema(Schema):
    """A request body: unknown fields are an error (422 ``unknown_field``)."""

    class Meta:
        unknown = RAISE


def checked_by_the_core(description: str, *, required: bool = False,
                        enum: list[str] | None = None, **kwargs: Any) -> fields.Raw:
    """A field the rules core checks whole (with every other problem of the request at
    once): any JSON value gets that far."""
    metadata: dict[str, object] = {"description": description}
    if enum is not None:
        metadata["enum"] = enum
    return fields.Raw(required=required, allow_none=True, metadata=metadata, **kwargs)


class ReadySchema(Schema):
    """``GET /ready``: the service can serve."""

    status = fields.String(required=True, metadata={"example": "ready"})


class SchemaRevisionSchema(Schema):
    """The database schema's revision (an Alembic revision id)."""

    head = fields.String(required=True, metadata={
        "description": "the revision this release reads: its newest migration",
        "example": "0016_club_ratings"})
    database = fields.String(required=True, allow_none=True, metadata={
        "description": "the revision the database was found at by this process's last "
                       "readiness check (`/ready`); null before one read it",
        "example": "0016_club_ratings"})


class HealthSchema(Schema):
    """``GET /health``: the service answers, and which release it is."""

    status = fields.String(required=True, metadata={"example": "ok"})
    version = fields.String(required=True, allow_none=True, metadata={
        "description": "the release (the installed package's version); null where the "
                       "code runs uninstalled",
        "example": "0.3.0"})
    rules_version = fields.String(required=True, metadata={
        "description": "the version of the rules the service referees by, as games record it",
        "example": "2026.11.3"})
    schema = fields.Nested(SchemaRevisionSchema, required=True)
    creation = fields.String(required=True, validate=validate.OneOf(["open", "clubs", "admin"]),
                             metadata={"description": "who may create here (CREATION): "
                                       "open, anyone; clubs, games and events only for a "
                                       "club (and clubs by the administrator); admin, only "
                                       "the administrator", "example": "open"})


#: Set while ``PassThroughSchema.field_dump`` runs: every nested dump goes field by field.
_FIELD_BY_FIELD: ContextVar[bool] = ContextVar("segnapunti_field_by_field", default=False)


class PassThroughSchema(Schema):
    """A response body built by the rules core and the views, as JSON values (strings,
    numbers, lists, objects; times already in ISO 8601). The declared fields document it; the
    body is sent as built, every key kept, so nothing the core explains is silently lost.

    Dumping is the identity: marshmallow's field-by-field dump of such a body gives it back
    unchanged and cost more than scoring the hand. ``tests/http/test_response_schemas.py``
    holds marshmallow's own dump (``field_dump``) to that on the service's real responses."""

    class Meta:
        unknown = INCLUDE

    def dump(self, obj: Any, *, many: bool | None = None) -> Any:
        many = self.many if many is None else bool(many)
        if not _FIELD_BY_FIELD.get():
            if many and isinstance(obj, list | tuple) and all(isinstance(o, dict) for o in obj):
                return list(obj)
            if not many and isinstance(obj, dict):
                return obj
        return super().dump(obj, many=many)

    def field_dump(self, obj: Any, *, many: bool | None = None) -> Any:
        """marshmallow's own dump, field by field (nested schemas too), keeping the
        undeclared keys."""
        reset = _FIELD_BY_FIELD.set(True)
        try:
            return super().dump(obj, many=many)
        finally:
            _FIELD_BY_FIELD.reset(reset)

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


def text_field(**kwargs: Any) -> fields.String:
    """A string of at most ``MAX_TEXT`` characters."""
    return fields.String(validate=validate.Length(max=MAX_TEXT), **kwargs)


#: The longest id a member reference carries (ids are short; this only bounds the input).
MAX_ID = 64


class SeatField(fields.Field):  # type: ignore[type-arg]
    """A seat of a game (an entrant of an event): a name, or in a club's game
    ``{"member": id}``, a member of the club."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(metadata={"oneOf": [
            {"type": "string", "maxLength": MAX_TEXT},
            {"type": "object", "required": ["member"], "additionalProperties": False,
             "properties": {"member": {"type": "string", "maxLength": MAX_ID,
                                       "description": "a member of the game's club"}}}],
            "description": "a name, or {\"member\": id} in a game of a club"}, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, str):
            if len(value) > MAX_TEXT:
                raise ValidationError(f"Longer than maximum length {MAX_TEXT}.")
            return value
        if (isinstance(value, dict) and set(value) == {"member"}
                and isinstance(value["member"], str) and len(value["member"]) <= MAX_ID):
            return {"member": value["member"]}
        raise ValidationError('a name, or {"member": id} (a member of the game\'s club)')


def list_field(item: fields.Field, maximum: int, **kwargs: Any) -> fields.List[Any]:
    """A list of at most ``maximum`` items."""
    return fields.List(item, validate=validate.Length(max=maximum), **kwargs)


class TextList(fields.List):  # type: ignore[type-arg]
    """A list of ``text_field`` strings. A well-formed one (every item a string within
    ``MAX_TEXT``) is taken in one pass; anything else is read item by item as ``fields.List``
    does, with its messages. A trick record is some eighty such strings, and marshmallow's
    per-item reading cost more than replaying the tricks."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, list) and all(
            type(item) is str and len(item) <= MAX_TEXT for item in value
        ):
            return list(value)
        return super()._deserialize(value, attr, data, **kwargs)


def text_list_field(maximum: int, item: fields.String | None = None,
                    **kwargs: Any) -> TextList:
    """A list of at most ``maximum`` strings (``item``: a ``text_field``, for its
    documentation)."""
    return TextList(item or text_field(), validate=validate.Length(max=maximum), **kwargs)


class MaxEntries(validate.Validator):
    """At most ``maximum`` entries in an object. (marshmallow's ``Length`` would do, but apispec
    documents it on an object as ``maxLength``, which means nothing there.)"""

    def __init__(self, maximum: int) -> None:
        self.maximum = maximum

    def __call__(self, value: Any) -> Any:
        if len(value) > self.maximum:
            raise ValidationError(f"At most {self.maximum} entries.")
        return value


def dict_field(maximum: int, **kwargs: Any) -> fields.Dict:
    """A JSON object of at most ``maximum`` entries, documented as ``maxProperties``. Its keys
    are names the rules check (options, seats): an unknown one is a 422 whatever its length."""
    kwargs.setdefault("metadata", {})["maxProperties"] = maximum
    return fields.Dict(keys=fields.String(), validate=MaxEntries(maximum), **kwargs)


def seat_field(**kwargs: Any) -> fields.Integer:
    """A seat: the contract says 0 to the highest seat of any table; the rules check it
    against the table's own seats (422 ``out_of_range``)."""
    metadata = kwargs.setdefault("metadata", {})
    metadata.setdefault("description", "a seat, 0 to seats-1")
    metadata.update(minimum=0, maximum=HIGHEST_SEAT)
    return fields.Integer(strict=True, **kwargs)


def variant_field(**kwargs: Any) -> fields.String:
    """A variant's id or alias: the contract lists them; one the service does not know is a
    422 ``unknown_variant`` on the field."""
    metadata = kwargs.setdefault("metadata", {})
    metadata.setdefault("description", "the variant's id (or an alias): GET /variants")
    metadata["enum"] = list(VARIANT_NAMES)  # a list of its own: no YAML alias in the file
    return text_field(**kwargs)


def card_field(**kwargs: Any) -> fields.String:
    kwargs.setdefault("metadata", {}).setdefault(
        "description", "a card code (rulebook §1), e.g. KH, 10S, T21, FOOL"
    )
    return text_field(**kwargs)


def cards_field(**kwargs: Any) -> TextList:
    return text_list_field(MAX_CARDS, card_field(), **kwargs)
