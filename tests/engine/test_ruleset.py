"""Versioned rulesets and their options (RULINGS.md preamble, every **option** ruling)."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from battles.engine.errors import InvalidInput
from battles.engine.ruleset import (
    DEFAULT_RULESET,
    ENGINE_VERSION,
    RULESETS,
    RULINGS,
    Ruleset,
    describe_rulesets,
    parse_ruleset,
)

RULINGS_MD = Path(__file__).resolve().parents[3] / "shared" / "rules" / "RULINGS.md"

EXPECTED_OPTIONS = {
    "melee_facing": (("side_table", "simple"), "R-ARC-4"),
    "defense_die": (("default", "v1"), "R-DMG-2"),
    "component_threshold": ((3, 8), "R-DMG-7"),
    "dice_pool_advantage": ((False, True), "R-HIT-6"),
    "taint_exploitation": ((False, True), "R-PLT-4"),
    "persistent_component_damage": ((False, True), "R-PLT-5"),
    "range_model": (("bands", "half_max"), "R-VAR-1"),
    "attacker_movement_model": (("table", "any"), "R-VAR-2"),
    "engaged_targets_only": ((False, True), "R-VAR-3"),
    "round_limit": (("none",), "R-TRN-9"),
    "grit_checks": ((False, True), "R-PLT-3"),
}


def test_version_2_0_has_every_option_rulings_md_names() -> None:
    specs = RULESETS["2.0"].options
    assert {n: (s.allowed, s.rule) for n, s in specs.items()} == EXPECTED_OPTIONS


def test_version_2_1_is_2_0_with_the_damage_pile_r_dmg_8_and_r_dmg_9() -> None:
    assert RULESETS["2.1"].options == RULESETS["2.0"].options
    assert Ruleset("2.1").damage_pile and not Ruleset("2.0").damage_pile
    assert describe_rulesets()["version_rulings"]["2.1"] == ["R-DMG-8", "R-DMG-9"]


@pytest.mark.parametrize("value", [1, 12, 200])
def test_round_limit_takes_none_or_a_whole_number_from_1_r_trn_9(value: int) -> None:
    assert Ruleset("2.0", {"round_limit": value}).round_limit == value
    assert Ruleset("2.1").round_limit is None


@pytest.mark.parametrize("value", [0, -3, True, "12", 2.5, None])
def test_a_bad_round_limit_names_the_option_and_r_trn_9(value: object) -> None:
    with pytest.raises(InvalidInput) as err:
        Ruleset("2.1", {"round_limit": value})
    assert (err.value.field, err.value.rule) == ("rules.options.round_limit", "R-TRN-9")
    assert "a whole number ≥ 1" in err.value.message


def test_default_ruleset_uses_first_value_of_each_option() -> None:
    assert DEFAULT_RULESET.version == "2.1"
    assert DEFAULT_RULESET.as_dict() == {
        "version": "2.1",
        "options": {name: allowed[0] for name, (allowed, _) in EXPECTED_OPTIONS.items()},
    }


def test_parse_empty_document_gives_defaults() -> None:
    assert parse_ruleset({}) == DEFAULT_RULESET
    assert parse_ruleset(None) == DEFAULT_RULESET
    assert parse_ruleset({"version": "2.1", "options": {}}) == DEFAULT_RULESET
    assert parse_ruleset({"version": "2.0"}) != DEFAULT_RULESET


def test_parse_fills_unset_options_with_defaults() -> None:
    rs = parse_ruleset({"options": {"melee_facing": "simple", "component_threshold": 8}})
    assert rs.option("melee_facing") == "simple"
    assert rs.option("component_threshold") == 8
    assert rs.option("defense_die") == "default"


def test_ruleset_round_trips_through_as_dict_and_json() -> None:
    rs = Ruleset("2.0", {"dice_pool_advantage": True, "range_model": "half_max"})
    assert parse_ruleset(json.loads(json.dumps(rs.as_dict()))) == rs


def test_ruleset_is_immutable_and_hashable() -> None:
    rs = Ruleset()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rs.version = "3.0"  # type: ignore[misc]
    with pytest.raises(TypeError):
        rs.options["defense_die"] = "v1"  # type: ignore[index]
    assert {rs: 1}[parse_ruleset({})] == 1
    assert hash(rs.with_options(defense_die="v1")) == hash(Ruleset("2.1", {"defense_die": "v1"}))


def test_with_options_validates() -> None:
    with pytest.raises(InvalidInput):
        Ruleset().with_options(component_threshold=5)


def test_unknown_version_is_invalid_and_lists_allowed() -> None:
    with pytest.raises(InvalidInput) as err:
        parse_ruleset({"version": "3.0"})
    assert err.value.field == "rules.version"
    assert '"2.0"' in err.value.message


def test_unknown_option_is_invalid_and_lists_allowed() -> None:
    with pytest.raises(InvalidInput) as err:
        parse_ruleset({"options": {"facing": "simple"}}, path="battle.rules")
    assert err.value.field == "battle.rules.options.facing"
    assert "melee_facing" in err.value.message


def test_unknown_value_names_the_option_and_its_ruling_r_dmg_2() -> None:
    with pytest.raises(InvalidInput) as err:
        parse_ruleset({"options": {"defense_die": "v2"}})
    assert err.value.field == "rules.options.defense_die"
    assert err.value.rule == "R-DMG-2"
    assert '"default", "v1"' in err.value.message


@pytest.mark.parametrize(
    ("name", "value"),
    [("dice_pool_advantage", 1), ("component_threshold", True), ("component_threshold", "3"),
     ("engaged_targets_only", "true")],
)  # fmt: skip
def test_option_values_are_type_exact(name: str, value: object) -> None:
    with pytest.raises(InvalidInput) as err:
        parse_ruleset({"options": {name: value}})
    assert err.value.field == f"rules.options.{name}"


def test_unknown_top_level_field_is_invalid() -> None:
    with pytest.raises(InvalidInput) as err:
        parse_ruleset({"version": "2.0", "optoins": {}})
    assert err.value.field == "rules.optoins"
    with pytest.raises(InvalidInput):
        parse_ruleset(["2.0"])
    with pytest.raises(InvalidInput) as err:
        parse_ruleset({"options": []})
    assert err.value.field == "rules.options"


def test_rulings_lists_every_id_in_order() -> None:
    families = ["BRD", "RNG", "LOS", "COV", "ARC", "ELV", "HIT", "DMG", "REA", "TRN", "PLT", "VAR"]
    counts = [4, 3, 5, 4, 5, 1, 6, 7, 2, 8, 5, 3]
    expected = [
        f"R-{f}-{i}" for f, n in zip(families, counts, strict=True) for i in range(1, n + 1)
    ] + ["R-DMG-8", "R-DMG-9", "R-TRN-9"]  # RULINGS.md's section "Ruleset 2.1", at its end
    assert list(RULINGS) == expected
    assert all(title and len(title) < 100 for title in RULINGS.values())


@pytest.mark.skipif(not RULINGS_MD.exists(), reason="shared RULINGS.md not present")
def test_rulings_match_the_ids_of_rulings_md() -> None:
    ids = re.findall(r"\*\*(R-[A-Z]{3}-\d+)", RULINGS_MD.read_text(encoding="utf-8"))
    assert list(RULINGS) == ids


def test_every_option_cites_a_known_ruling() -> None:
    for spec in RULESETS["2.0"].options.values():
        assert spec.rule in RULINGS


def test_describe_rulesets_is_json_for_get_api_rules() -> None:
    d = describe_rulesets()
    assert json.loads(json.dumps(d)) == d
    assert d["engine_version"] == ENGINE_VERSION
    assert d["default_version"] == "2.1"
    opts = d["versions"]["2.0"]["options"]
    assert opts["melee_facing"]["default"] == "side_table"
    assert opts["component_threshold"] == {
        "default": 3,
        "allowed": [3, 8],
        "rule": "R-DMG-7",
        "description": "Component Damage that destroys a component",
    }
    assert set(d["rulings"]) == set(RULINGS)


def test_every_option_and_every_allowed_value_has_words() -> None:
    """Pages show options in words, never a key or a Python value (OPTION_WORDS)."""
    from battles.engine.ruleset import RULESETS, option_in_words

    for rs in RULESETS.values():
        for name, spec in rs.options.items():
            for value in spec.allowed:
                words = option_in_words(name, value)
                assert words.label and words.value and words.rule == spec.rule
                for text in (words.label, words.value):
                    assert "_" not in text, (name, value, text)
                    assert text not in {"True", "False", "None"}, (name, value)
            if spec.minimum is not None:
                assert option_in_words(name, spec.minimum).value == f"after round {spec.minimum}"


def test_a_boolean_option_never_reads_as_a_number_word() -> None:
    from battles.engine.ruleset import option_in_words

    assert option_in_words("taint_exploitation", True).value == "on"
    assert option_in_words("component_threshold", 3).value == "3 Component Damage"
