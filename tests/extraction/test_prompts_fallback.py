"""`aintern/promptValues` when the editor does not implement it (any LSP client
without the aintern plugin answers MethodNotFound): text placeholders refuse the
run with what to do; unset variables alone run as before; promptEnv decides."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest
from pygls.exceptions import JsonRpcMethodNotFound

from aintern_ls.documents import DocumentStore
from aintern_ls.errors import AInternError
from aintern_ls.runbook import prompts


class _Protocol:
    def __init__(self, answer: Any = None, missing: bool = True) -> None:
        self.asked: list[Any] = []
        self.answer = answer
        self.missing = missing

    async def send_request_async(self, method: str, params: Any) -> Any:
        self.asked.append((method, params))
        if self.missing:
            raise JsonRpcMethodNotFound.of(method)
        return self.answer


def _fill(text: str, protocol: _Protocol, announced: bool = True) -> prompts.Filled:
    store = DocumentStore()
    doc = store.update("file:///p.md", text)
    experimental = {"aintern": {"promptValues": True}} if announced else None
    ls: Any = SimpleNamespace(
        protocol=protocol,
        client_capabilities=SimpleNamespace(experimental=experimental),
    )
    return asyncio.run(prompts.fill(ls, doc, doc.blocks[0], {}))


def test_text_placeholders_refuse_with_what_to_do() -> None:
    with pytest.raises(AInternError) as info:
        _fill("```bash\ncurl -u <user>:<password> https://x\n```\n", _Protocol())
    message = str(info.value)
    assert "<user>" in message and "aintern/promptValues" in message
    assert "promptEnv=false" in message


def test_a_client_that_does_not_announce_prompts_is_not_asked() -> None:
    protocol = _Protocol(answer={"values": []}, missing=False)
    with pytest.raises(AInternError) as info:
        _fill("```bash\necho {{name}}\n```\n", protocol, announced=False)
    assert protocol.asked == []
    assert "experimental.aintern.promptValues" in str(info.value)
    filled = _fill("```bash\necho $AINTERN_SURELY_UNSET\n```\n", protocol, announced=False)
    assert filled.command == "echo $AINTERN_SURELY_UNSET" and protocol.asked == []


def test_powershell_variables_are_not_placeholders() -> None:
    protocol = _Protocol(answer={"values": []}, missing=False)
    filled = _fill("```powershell\n$PSVersionTable.PSVersion\n```\n", protocol)
    assert protocol.asked == [] and filled.env == {}


def test_unset_variables_alone_run_as_before() -> None:
    filled = _fill("```bash\necho $AINTERN_SURELY_UNSET\n```\n", _Protocol())
    assert filled.command == "echo $AINTERN_SURELY_UNSET" and filled.env == {}


def test_prompt_env_never_asks_nothing_and_always_asks_for_set_variables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    protocol = _Protocol()
    filled = _fill('```bash {"promptEnv":false}\necho <x>\n```\n', protocol)
    assert filled.command == "echo <x>" and protocol.asked == []
    monkeypatch.setenv("AINTERN_TEST_TARGET", "staging")
    protocol = _Protocol(answer={"values": []}, missing=False)
    filled = _fill("```bash\necho $AINTERN_TEST_TARGET\n```\n", protocol)
    assert protocol.asked == [] and filled.env == {}  # set: nothing to ask
    protocol = _Protocol(
        answer={"values": [{"name": "AINTERN_TEST_TARGET", "value": "prod"}]}, missing=False
    )
    filled = _fill("```bash {promptEnv=true}\necho $AINTERN_TEST_TARGET\n```\n", protocol)
    assert filled.env == {"AINTERN_TEST_TARGET": "prod"}
    [(method, params)] = protocol.asked
    assert method == "aintern/promptValues"
    assert params["placeholders"] == [
        {"name": "AINTERN_TEST_TARGET", "kind": "variable", "text": "$AINTERN_TEST_TARGET"}
    ]


def test_text_placeholders_become_environment_references_per_shell() -> None:
    answer = {"values": [{"name": "your-token", "value": "t0k"}]}
    bash = _fill("```bash\necho <your-token>\n```\n", _Protocol(answer, missing=False))
    assert bash.command == "echo ${AINTERN_VALUE_1}" and bash.env == {"AINTERN_VALUE_1": "t0k"}
    pwsh = _fill("```powershell\necho <your-token>\n```\n", _Protocol(answer, missing=False))
    assert pwsh.command == "echo ${env:AINTERN_VALUE_1}"
    cancelled = _fill("```bash\necho <your-token>\n```\n", _Protocol(None, missing=False))
    assert cancelled.cancelled
