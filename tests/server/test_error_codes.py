"""The web client names every error code the server sends (web/src/i18n/refusals.ts lists
them; each catalogue has a message for each: web/src/i18n/catalogues.test.ts). A code added on
the server without a name in the client would show as a bare code."""

from __future__ import annotations

import re
from typing import get_args

from brass.server.errors import ErrorCode

from .conftest import repo_root

CLIENT_ONLY = {"network"}  # the client's own: the server cannot be reached


def test_the_client_names_every_server_error_code() -> None:
    text = (repo_root() / "web" / "src" / "i18n" / "refusals.ts").read_text()
    listed = re.search(r"ERROR_CODES = \[(.*?)\];", text, re.S)
    assert listed is not None
    assert set(re.findall(r'"([a-z_]+)"', listed.group(1))) - CLIENT_ONLY == set(
        get_args(ErrorCode))
