"""The one error type a user can hit: its message says what to do."""


class AInternError(Exception):
    """An error caused by input or environment, with a message a person can act on.

    The CLI prints it without a traceback (exit code 2); the server turns it into a
    JSON-RPC error with the same message.
    """


class RefusedError(AInternError):
    """The gate (or the person at the prompt) did not let a command run.

    `rules` are the rule ids behind the refusal; the message is the gate's reason text.
    """

    def __init__(self, message: str, rules: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.rules = rules
