"""jsontext.dumps encodes without orjson's `OPT_NON_STR_KEYS` first (its slower path for every
key) and with it where a key is not a string: both give the text the standard library gives."""

from __future__ import annotations

import json
import random

import orjson
import pytest

from brass.engine import apply_action, legal_actions, new_game, views
from brass.server.jsontext import dumps


def compact(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def test_views_are_the_same_text_either_way() -> None:
    rng = random.Random(5)
    game = new_game(4, 5)
    for _ in range(60):
        for seat, shown in views(game, [None, 0, 1, 2, 3]).items():
            text = dumps(shown)
            assert text == orjson.dumps(shown, option=orjson.OPT_NON_STR_KEYS).decode(), seat
            assert text == compact(shown), seat
        game = apply_action(game, rng.choice(legal_actions(game)))


def test_keys_that_are_not_strings_become_strings_as_before() -> None:
    value = {0: "a", "b": [1, {2: None, 3.5: True}], "c": {"d": 1.0}}
    assert dumps(value) == compact(value) == '{"0":"a","b":[1,{"2":null,"3.5":true}],"c":{"d":1.0}}'


def test_what_is_not_json_is_refused() -> None:
    with pytest.raises(TypeError):
        dumps({"a": object()})
    with pytest.raises(TypeError):
        dumps({0: object()})
