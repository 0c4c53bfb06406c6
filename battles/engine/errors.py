"""The engine's exceptions: every refusal names a code and the ruling behind it."""

from __future__ import annotations


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


class RuleViolation(EngineError):
    """A command or query that the rules forbid.

    >>> err = RuleViolation("out_of_range", "Target is 9 hexes away; range 1-8", "R-RNG-2")
    >>> (err.code, err.rule)
    ('out_of_range', 'R-RNG-2')
    """

    def __init__(self, code: str, message: str, rule: str | None) -> None:
        super().__init__(f"{message} ({rule})" if rule else message)
        self.code = code
        self.message = message
        self.rule = rule

    def as_dict(self) -> dict[str, str | None]:
        return {"code": self.code, "message": self.message, "rule": self.rule}

    # Refusals are values inside answers (a refused to-hit, a rejected command), so two
    # equal refusals compare equal, unlike plain exceptions.
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RuleViolation):
            return NotImplemented
        return (self.code, self.message, self.rule) == (other.code, other.message, other.rule)

    def __hash__(self) -> int:
        return hash((self.code, self.message, self.rule))


class InvalidInput(EngineError):
    """Malformed input: names the offending field (a dotted path) and, where one applies, the rule.

    >>> err = InvalidInput("board.hexes[2].terrain", "unknown terrain kind 'lava'", "R-BRD-3")
    >>> err.field
    'board.hexes[2].terrain'
    """

    def __init__(self, field: str, message: str, rule: str | None = None) -> None:
        super().__init__(f"{field}: {message}" + (f" ({rule})" if rule else ""))
        self.field = field
        self.message = message
        self.rule = rule
