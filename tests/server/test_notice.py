"""The notification of a commit (notice.py) is built and parsed in one place: what one
instance sends, another reads back the same, for a new version, a change without one and a
chat message whose text has spaces and quotes; anything else is refused, not misread."""

from __future__ import annotations

import pytest

from brass.server.notice import Notice


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
