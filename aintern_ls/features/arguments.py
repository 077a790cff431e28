"""Arguments of `workspace/executeCommand` handlers, and the errors they answer with.

Arguments arrive as one camelCase JSON object and are structured with the shared
converter; anything a user can get wrong comes back as a JSON-RPC error whose message
says what to do.
"""

from __future__ import annotations

import logging
from typing import Any, TypeVar

import cattrs
from pygls.exceptions import JsonRpcException

from aintern_ls.errors import AInternError
from aintern_ls.models import converter

REQUEST_FAILED = -32803

T = TypeVar("T")


class CommandError(JsonRpcException):
    """A JSON-RPC error carrying an `AInternError`'s message."""

    CODE = REQUEST_FAILED


class OneLineRefusals(logging.Filter):
    """pygls logs every error a handler answers with, traceback and all; a refusal
    (`CommandError`: blocked, bad arguments, unknown block) is the server working as
    meant, so it becomes one line."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, CommandError):
            record.msg, record.args = "refused: %s", (exc.message,)
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info, record.exc_text = None, None
        return True


logging.getLogger("pygls.protocol.json_rpc").addFilter(OneLineRefusals())


def parse_args(cls: type[T], args: tuple[Any, ...]) -> T:
    if len(args) != 1 or not isinstance(args[0], dict):
        raise CommandError(
            f"expected one JSON object argument such as {{'uri': …, 'blockId': …}}, got {args!r}"
        )
    try:
        return converter.structure(args[0], cls)
    except (cattrs.BaseValidationError, KeyError, TypeError, ValueError) as exc:
        detail = (
            "; ".join(cattrs.transform_error(exc))
            if isinstance(exc, cattrs.BaseValidationError)
            else str(exc)
        )
        raise CommandError(f"invalid arguments: {detail}") from None


def user_errors(fn: Any) -> Any:
    """Turn `AInternError` into a JSON-RPC error with the same message."""

    # pygls reads the handler's annotations at runtime, so none may name a class that
    # is only imported for type checking.
    async def wrapper(ls: Any, *args: Any) -> Any:
        try:
            return await fn(ls, *args)
        except AInternError as exc:
            raise CommandError(str(exc)) from None

    wrapper.__name__ = fn.__name__
    return wrapper
