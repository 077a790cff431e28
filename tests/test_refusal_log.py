"""A refused command is one line in the server's log, not a traceback."""

from __future__ import annotations

import logging

import pytest

from aintern_ls.features.arguments import CommandError


def test_refusals_are_logged_as_one_line(caplog: pytest.LogCaptureFixture) -> None:
    log = logging.getLogger("pygls.protocol.json_rpc")
    with caplog.at_level(logging.WARNING, logger="pygls.protocol.json_rpc"):
        try:
            raise CommandError("blocked, this command never runs: rm-root")
        except CommandError:
            log.exception('Exception occurred for message "%s"', 7)
        try:
            raise RuntimeError("a real bug")
        except RuntimeError:
            log.exception('Exception occurred for message "%s"', 8)
    refused, bug = caplog.records
    assert refused.getMessage() == "refused: blocked, this command never runs: rm-root"
    assert refused.exc_info is None and refused.levelno == logging.WARNING
    lines = caplog.text.splitlines()
    assert lines[0].endswith("refused: blocked, this command never runs: rm-root")
    assert lines[1].startswith("ERROR")  # the refusal took one line
    assert bug.exc_info is not None  # real errors keep their traceback
