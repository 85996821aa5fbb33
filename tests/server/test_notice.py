"""The notification of a commit (notice.py) is built and parsed in one place: what one
instance sends, another reads back the same, for a new version, a change without one and a
chat message whose text has spaces and quotes, a move carried whole (and left out when it would
not fit Postgres's payload limit); anything else is refused, not misread."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from brass.server.notice import PAYLOAD_MOST, Carried, Notice, channel
from brass.server.records import ActionRecord


@pytest.mark.parametrize("notice", [
    Notice("g-1_x", "host:12:ab", 7),
    Notice("g", "host:12:ab"),  # -1: seats, status or listing changed
    Notice("g", "a", chat={"id": 3, "name": "Ada Lovelace", "text": 'a "quoted" word 1 2 3',
                           "seat": None}),
])
def test_a_notice_reads_back_as_it_was_sent(notice: Notice) -> None:
    assert Notice.parse(notice.text()) == notice


@pytest.mark.parametrize("payload", ["g 7", "g seven host", "g chat host", "g chat host [1]"])
def test_a_payload_that_is_no_notice_is_refused(payload: str) -> None:
    with pytest.raises(ValueError):
        Notice.parse(payload)


ROW = ActionRecord(seq=3, seat=1, action_text='{"kind":"loan","card":"c 1"}', action_id="a 1",
                   created_at=dt.datetime(2026, 1, 1, 12, 0, 0, 123456, tzinfo=dt.UTC),
                   effects='[{"kind":"loan","seat":1,"money":30}]', stand_in="timeout")


def test_each_game_has_a_channel_postgres_takes() -> None:
    assert channel("Ab-9_x") == "brass_Ab-9_x"
    odd = [channel("x" * 60), channel("a b"), channel("é")]
    assert all(c.startswith("brass_h_") and len(c.encode()) <= 63 for c in odd)
    assert len(set(odd)) == 3


def test_a_move_reads_back_as_it_was_written() -> None:
    game = {"version": 3, "updated_at": ROW.created_at, "status": "finished", "scores": [1, 2],
            "finished_at": ROW.created_at, "deadline": None}
    notice = Notice.parse(Notice.moved("g", "host:1:x", ROW, game, 12))
    assert (notice.game_id, notice.sender, notice.version) == ("g", "host:1:x", 3)
    game.pop("version")
    assert notice.carried() == Carried(ROW, game, 12)


def test_a_move_too_big_for_postgres_goes_without_its_content() -> None:
    big = dataclasses.replace(ROW, effects="[" + ",".join(["12345"] * 1500) + "]")
    text = Notice.moved("g", "host:1:x", big, {}, None)
    assert len(text.encode()) < PAYLOAD_MOST
    assert Notice.parse(text) == Notice("g", "host:1:x", 3)
    assert Notice.parse(text).carried() is None
