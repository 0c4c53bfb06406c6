"""The rules calculator: stateless endpoints over the engine (FORMATS.md).

Anonymous read access, throttled. Every 400 names the field (and the rule
where one applies); every refusal of a shot is an answer, not an error.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from drf_spectacular.utils import (
    OpenApiExample,
    extend_schema,
    extend_schema_serializer,
    inline_serializer,
)
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from battles.engine.board import (
    DEFAULT_TERRAIN,
    MAX_BOARD_HEXES,
    MAX_BOARD_SIDE,
    Board,
    parse_board,
)
from battles.engine.dice import COMPONENTS
from battles.engine.errors import InvalidInput
from battles.engine.hexes import Hex
from battles.engine.los import line_of_sight, visible_from
from battles.engine.movement import reachable
from battles.engine.ruleset import describe_rulesets, parse_ruleset
from battles.engine.tohit import (
    ATTACKER_STATUSES,
    TARGET_STATUSES,
    Attacker,
    Target,
    Weapon,
    parse_range,
    to_hit,
)
from penance_site.api import request_example, validated
from penance_site.api_fields import (
    BoardField,
    DirectionField,
    HexField,
    RulesField,
    StrictIntegerField,
    StrictSerializer,
)
from penance_site.throttling import FailOpenAnonRateThrottle, FailOpenUserRateThrottle

MAX_OTHERS = 200
MAX_SP = 40


class RulesAnonThrottle(FailOpenAnonRateThrottle):
    scope = "rules_anon"


class RulesUserThrottle(FailOpenUserRateThrottle):
    scope = "rules_user"


class RulesView(APIView):
    permission_classes = (AllowAny,)
    throttle_classes = (RulesAnonThrottle, RulesUserThrottle)
    authentication_classes = ()  # stateless and anonymous: no CSRF for API clients


def _board(data: Any) -> Board:
    return parse_board(data, "board")


def _on_board(board: Board, h: Hex, field: str) -> Hex:
    if h not in board:
        raise InvalidInput(field, f"hex [{h.q}, {h.r}] is not on the board", "R-BRD-1")
    return h


def _board_and_from(data: Mapping[str, Any]) -> tuple[Board, Hex]:
    """The request's board and its `from` hex, on that board."""
    board = _board(data["board"])
    return board, _on_board(board, data["from"], "from")


def _hexes_on_board(board: Board, hexes: list[Hex], field: str) -> list[Hex]:
    return [_on_board(board, h, f"{field}[{i}]") for i, h in enumerate(hexes)]


def _placed(board: Board, data: Mapping[str, Any], field: str) -> dict[str, Any]:
    """An attacker's or target's fields as the engine's Attacker or Target takes them (the
    serializers name them alike): its hex on the board, its lists of names as sets."""
    return {
        name: frozenset(value) if isinstance(value, list) else value for name, value in data.items()
    } | {"at": _on_board(board, data["at"], f"{field}.at")}


class FromHexMixin:
    """Adds the field `from` (a Python keyword, so it cannot be declared as an attribute)."""

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields: dict[str, serializers.Field[Any, Any, Any, Any]] = super().get_fields()  # type: ignore[misc]
        return {"from": HexField(help_text="the origin hex [q, r]"), **fields}


BOARD_EXAMPLE = {
    "name": "Proving Grounds",
    "shape": {"kind": "hexagon", "radius": 6},
    "hexes": [{"q": 1, "r": -2, "terrain": "rubble"}, {"q": -2, "r": 1, "terrain": "wall"}],
}


# --- GET /api/rules/ ------------------------------------------------------------------------


class RulesIndexView(RulesView):
    @extend_schema(
        operation_id="rules_index",
        summary="Ruleset versions, their options and every ruling's title",
        responses={200: inline_serializer("RulesIndex", {"versions": serializers.DictField()})},
        tags=["rules"],
    )
    def get(self, request: Request) -> Response:
        body = describe_rulesets()
        body["terrain_defaults"] = {name: k.as_dict() for name, k in DEFAULT_TERRAIN.items()}
        body["limits"] = {
            "max_board_hexes": MAX_BOARD_HEXES,
            "max_rectangle_side": MAX_BOARD_SIDE,
            "max_others": MAX_OTHERS,
            "max_sp": MAX_SP,
        }
        return Response(body)


# --- POST /api/rules/line-of-sight ------------------------------------------------------------


class LineOfSightView(RulesView):
    @extend_schema_serializer(component_name="LineOfSightRequest")
    class InputSerializer(FromHexMixin, StrictSerializer):
        board = BoardField()
        to = HexField()
        others = serializers.ListField(child=HexField(), required=False, max_length=MAX_OTHERS)
        rules = RulesField(required=False)

    @extend_schema(
        operation_id="rules_line_of_sight",
        summary="Exact line of sight with divided lines and cover (R-LOS-1..5, R-COV-1..4)",
        request=InputSerializer,
        responses={200: inline_serializer("LineOfSight", {"clear": serializers.BooleanField()})},
        examples=[
            request_example(
                "Past a casket",
                {"board": BOARD_EXAMPLE, "from": [0, 0], "to": [3, -2], "others": [[1, -1]]},
            ),
            OpenApiExample(
                "Answer",
                value={
                    "clear": True,
                    "distance": 3,
                    "blocked_by": None,
                    "divided": False,
                    "line": [[[1, -1]], [[2, -1]]],
                    "cover": "light",
                    "cover_sources": [
                        {"at": [1, -1], "kind": "casket", "cover": "light", "rule": "R-COV-1"}
                    ],
                    "cover_ignored_by_elevation": False,
                },
                response_only=True,
            ),
        ],
        tags=["rules"],
    )
    def post(self, request: Request) -> Response:
        data = validated(self.InputSerializer, request.data)
        board = _board(data["board"])
        parse_ruleset(data.get("rules"))
        origin = _on_board(board, data["from"], "from")
        target = _on_board(board, data["to"], "to")
        others = _hexes_on_board(board, data.get("others", []), "others")
        return Response(line_of_sight(board, origin, target, others).as_dict())


# --- POST /api/rules/to-hit --------------------------------------------------------------------


class AttackerSerializer(StrictSerializer):
    at = HexField()
    facing = DirectionField()
    moved = StrictIntegerField(min_value=0, max_value=1000, default=0)
    heat = StrictIntegerField(min_value=0, max_value=1000, default=0)
    destroyed = serializers.ListField(
        child=serializers.ChoiceField(choices=COMPONENTS), default=list, max_length=5
    )
    statuses = serializers.ListField(
        child=serializers.ChoiceField(choices=ATTACKER_STATUSES), default=list, max_length=10
    )


class TargetSerializer(StrictSerializer):
    at = HexField()
    facing = DirectionField()
    shield = serializers.ChoiceField(choices=("left", "right", "none"), default="left")
    moved_last_turn = StrictIntegerField(min_value=0, max_value=1000, default=0)
    statuses = serializers.ListField(
        child=serializers.ChoiceField(choices=TARGET_STATUSES), default=list, max_length=10
    )


class WeaponSerializer(StrictSerializer):
    range = serializers.CharField(required=False, max_length=30)
    damage = StrictIntegerField(min_value=0, max_value=100, required=False)
    card = serializers.CharField(required=False, max_length=100)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "card" in attrs:
            if "range" in attrs or "damage" in attrs:
                raise serializers.ValidationError(
                    {"card": ["give either a card id or range and damage, not both"]}
                )
            return attrs
        missing = [k for k in ("range", "damage") if k not in attrs]
        if missing:
            raise serializers.ValidationError(
                {k: ["is required unless a card id is given"] for k in missing}
            )
        return attrs


class ToHitView(RulesView):
    @extend_schema_serializer(component_name="ToHitRequest")
    class InputSerializer(StrictSerializer):
        board = BoardField()
        attacker = AttackerSerializer()
        target = TargetSerializer()
        others = serializers.ListField(child=HexField(), required=False, max_length=MAX_OTHERS)
        enemies = serializers.ListField(child=HexField(), required=False, max_length=MAX_OTHERS)
        weapon = WeaponSerializer()
        rules = RulesField(required=False)

    @extend_schema(
        operation_id="rules_to_hit",
        summary="Itemised target number, damage, defence and exact odds of one attack",
        description=(
            "Every modifier line names its ruling; the target number is their sum (R-HIT-1). "
            "A refused shot still answers 200 with `possible: false` and a `refusal` "
            "(code, message, rule). `enemies` (optional) is read only by option "
            "engaged_targets_only (R-VAR-3)."
        ),
        request=InputSerializer,
        responses={200: inline_serializer("ToHit", {"possible": serializers.BooleanField()})},
        examples=[
            OpenApiExample(
                "Rear shot past a casket",
                value={
                    "board": {"shape": {"kind": "hexagon", "radius": 8}},
                    "attacker": {
                        "at": [0, 0],
                        "facing": 1,
                        "moved": 0,
                        "heat": 0,
                        "destroyed": [],
                        "statuses": [],
                    },
                    "target": {
                        "at": [0, -5],
                        "facing": 1,
                        "shield": "left",
                        "moved_last_turn": 2,
                        "statuses": [],
                    },
                    "others": [[0, -2]],
                    "weapon": {"range": "8", "damage": 4},
                    "rules": {"version": "2.0", "options": {}},
                },
                request_only=True,
            )
        ],
        tags=["rules"],
    )
    def post(self, request: Request) -> Response:
        data = validated(self.InputSerializer, request.data)
        board = _board(data["board"])
        rules = parse_ruleset(data.get("rules"))
        a, t, w = data["attacker"], data["target"], data["weapon"]
        if "card" in w:
            # The card catalogue arrives with the campaigns issue; until then no id is known.
            raise InvalidInput("weapon.card", f"unknown card id {w['card']!r}", "R-RNG-2")
        attacker = Attacker(**_placed(board, a, "attacker"))
        target = Target(**_placed(board, t, "target"))
        weapon = Weapon(parse_range(w["range"], "weapon.range"), w["damage"])
        answer = to_hit(
            board,
            attacker,
            target,
            weapon,
            others=_hexes_on_board(board, data.get("others", []), "others"),
            enemies=_hexes_on_board(board, data.get("enemies", []), "enemies"),
            rules=rules,
        )
        return Response(answer.as_dict())


def _counted(name: str, key: str) -> serializers.Serializer[Any]:
    """The schema of an answer that counts the hexes it lists under `key`."""
    return inline_serializer(
        name, {"count": serializers.IntegerField(), key: serializers.ListField()}
    )


# --- POST /api/rules/visibility -------------------------------------------------------------------


class VisibilityView(RulesView):
    @extend_schema_serializer(component_name="VisibilityRequest")
    class InputSerializer(FromHexMixin, StrictSerializer):
        board = BoardField()

    @extend_schema(
        operation_id="rules_visibility",
        summary="Every hex in line of sight from one hex (R-LOS-1..4)",
        description=(
            'Answers `{"from": [q, r], "count": N, "visible": [[q, r], …]}`, the hexes '
            "sorted by (q, r), the origin included. Caskets never block (R-LOS-3), so none "
            "are asked for."
        ),
        request=InputSerializer,
        responses={200: _counted("Visibility", "visible")},
        examples=[
            request_example("From the centre", {"board": BOARD_EXAMPLE, "from": [0, 0]}),
        ],
        tags=["rules"],
    )
    def post(self, request: Request) -> Response:
        data = validated(self.InputSerializer, request.data)
        board, origin = _board_and_from(data)
        visible = sorted(visible_from(board, origin))
        return Response(
            {
                "from": [origin.q, origin.r],
                "count": len(visible),
                "visible": [[h.q, h.r] for h in visible],
                "rule": "R-LOS-1",
            }
        )


# --- POST /api/rules/reachable --------------------------------------------------------------------


class ReachableView(RulesView):
    @extend_schema_serializer(component_name="ReachableRequest")
    class InputSerializer(FromHexMixin, StrictSerializer):
        board = BoardField()
        sp = StrictIntegerField(min_value=0, max_value=MAX_SP)
        allies = serializers.ListField(child=HexField(), required=False, max_length=MAX_OTHERS)
        enemies = serializers.ListField(child=HexField(), required=False, max_length=MAX_OTHERS)
        legs_destroyed = serializers.BooleanField(default=False)
        require_sight = serializers.BooleanField(default=True)

    @extend_schema(
        operation_id="rules_reachable",
        summary="Every hex one move action can reach with the SP given (R-MOV-1..3, R-LOS-5)",
        description=(
            'Answers `{"from", "sp", "count", "reachable": [{"to": [q, r], "cost": '
            'SP, "hexes": steps, "path": [[q, r], …]}, …]}` ordered by cost. The '
            "destination must be in sight from the start (R-LOS-5); pass `require_sight: "
            "false` for the paths alone. `sp` is the budget, overspend included (R-TRN-3)."
        ),
        request=InputSerializer,
        responses={200: _counted("Reachable", "reachable")},
        examples=[
            request_example(
                "Four SP past an enemy",
                {"board": BOARD_EXAMPLE, "from": [0, 0], "sp": 4, "enemies": [[1, 0]]},
            ),
        ],
        tags=["rules"],
    )
    def post(self, request: Request) -> Response:
        data = validated(self.InputSerializer, request.data)
        board, origin = _board_and_from(data)
        result = reachable(
            board,
            origin,
            data["sp"],
            allies=_hexes_on_board(board, data.get("allies", []), "allies"),
            enemies=_hexes_on_board(board, data.get("enemies", []), "enemies"),
            legs_destroyed=data["legs_destroyed"],
            require_sight=data["require_sight"],
        )
        return Response(
            {
                "from": [origin.q, origin.r],
                "sp": data["sp"],
                "count": len(result),
                "reachable": [
                    {
                        "to": [h.q, h.r],
                        "cost": reach.cost,
                        "hexes": len(reach.path),
                        "path": [[p.q, p.r] for p in reach.path],
                    }
                    for h, reach in result.items()
                ],
                "rules": ["R-MOV-1", "R-MOV-2", "R-MOV-3", "R-LOS-5"],
            }
        )
