"""One simple command's arguments, classified once (issue 14's speed bar, safety-sp8).

The dispatcher runs a few dozen rule families over every simple command, and each used to
re-scan the argument list for what it needs: the texts, their lower-case forms, whether
any holds a `{`, an `=`, a `:`… A ten-thousand-character script of seven hundred distinct
commands paid that a few dozen times per command. `Argv` is made once per `Cmd` (on first
use: `cmd.argv`) and answers those questions from sets, so a family that cannot apply to a
command (by the program's name or by what its arguments hold) leaves at once. Each part is
worked out the first time a family asks for it, then kept.

Every part is a pure function of the command's words; `Cmd.argv` keeps the classification
of the argument list it was made from (`source`) and makes a new one when `Cmd.args` is
another list.
"""

from __future__ import annotations

from collections.abc import Sequence

from aintern_ls.safety.words import Word


def base_name(text: str) -> str:
    """The last path component (after `/` or `\\`), quotes and trailing separators off
    (`C:\\x\\Tool.EXE` -> `Tool.EXE`): the spelling the name-keyed families compare."""
    t = text.strip("'\"").rstrip("\\/")
    return t[max(t.rfind("/"), t.rfind("\\")) + 1 :]


class Argv:
    """What a command's arguments hold (each part computed on first use, then kept).

    - `texts`: every argument's text (in `Cmd.args` order);
    - `low`: the same, lower-cased; `lowset`: as a set;
    - `textset`: the texts as a set;
    - `statics`, `staticset`: the texts of the arguments whose value is known (not
      `dynamic`), in order and as a set;
    - `chars`: every character the lower-cased texts hold (a family keyed on `=`, `:`, `{`
      or `/` passes over a command without one);
    - `joined_low`: the lower-cased texts joined by single spaces (what phrase rules search);
    - `dynamic`: whether any argument is only known at run time;
    - `dashed`, `switched`: whether any argument starts with `-` (with `-` or `/`);
    - `base`, `base_low`: the command word's `base_name` (as written, and lower-cased);
    - `head`: the command word's base name, lower-cased, without `.exe` (empty when the
      command word is dynamic): the program as the name-keyed families spell it.
    """

    __slots__ = (
        "_base",
        "_base_low",
        "_chars",
        "_dashed",
        "_head",
        "_joined_low",
        "_low",
        "_lowset",
        "_statics",
        "_staticset",
        "_textset",
        "head_word",
        "source",
        "texts",
    )

    def __init__(self, head: Word | None, args: Sequence[Word]) -> None:
        self.source = args
        self.head_word = head
        self.texts: tuple[str, ...] = tuple([w.text for w in args])
        self._low: tuple[str, ...] | None = None
        self._lowset: frozenset[str] | None = None
        self._textset: frozenset[str] | None = None
        self._statics: tuple[str, ...] | None = None
        self._staticset: frozenset[str] | None = None
        self._chars: frozenset[str] | None = None
        self._joined_low: str | None = None
        self._head: str | None = None
        self._base: str | None = None
        self._base_low: str | None = None
        self._dashed: bool | None = None

    @property
    def low(self) -> tuple[str, ...]:
        got = self._low
        if got is None:
            got = self._low = tuple([t.lower() for t in self.texts])
        return got

    @property
    def lowset(self) -> frozenset[str]:
        got = self._lowset
        if got is None:
            got = self._lowset = frozenset(self.low)
        return got

    @property
    def textset(self) -> frozenset[str]:
        got = self._textset
        if got is None:
            got = self._textset = frozenset(self.texts)
        return got

    @property
    def dashed(self) -> bool:
        """Whether any argument starts with `-` (an option, or a value that looks like one)."""
        got = self._dashed
        if got is None:
            got = self._dashed = any([t[:1] == "-" for t in self.texts])
        return got

    @property
    def switched(self) -> bool:
        """Whether any argument starts with `-` or `/` (an option in any shell's spelling)."""
        return self.dashed or any([t[:1] == "/" for t in self.texts])

    @property
    def dynamic(self) -> bool:
        return len(self.statics) != len(self.texts)

    @property
    def statics(self) -> tuple[str, ...]:
        got = self._statics
        if got is None:
            got = self._statics = tuple([w.text for w in self.source if not w.dynamic])
        return got

    @property
    def staticset(self) -> frozenset[str]:
        got = self._staticset
        if got is None:
            statics = self.statics
            got = self._staticset = (
                self.textset if len(statics) == len(self.texts) else frozenset(statics)
            )
        return got

    @property
    def chars(self) -> frozenset[str]:
        got = self._chars
        if got is None:
            low = self._low
            if low is None:
                # (s21) ASCII text lowers letter by letter, so the joined texts lowered once
                # are the lowered texts joined: one call, not one per argument (`sudo sudo
                # …`: every wrapper level asks, of up to 2,000 arguments)
                joined = "".join(self.texts)
                if joined.isascii():
                    got = self._chars = frozenset(joined.lower())
                    return got
                low = self.low
            got = self._chars = frozenset("".join(low))
        return got

    @property
    def joined_low(self) -> str:
        got = self._joined_low
        if got is None:
            low = self._low
            if low is None:
                joined = " ".join(self.texts)  # (s21: as `chars`, for ASCII text)
                if joined.isascii():
                    got = self._joined_low = joined.lower()
                    return got
                low = self.low
            got = self._joined_low = " ".join(low)
        return got

    @property
    def base(self) -> str:
        """`base_name` of the command word's text (whether or not it is dynamic)."""
        got = self._base
        if got is None:
            w = self.head_word
            got = self._base = base_name(w.text) if w is not None else ""
        return got

    @property
    def base_low(self) -> str:
        """`base`, lower-cased."""
        got = self._base_low
        if got is None:
            got = self._base_low = self.base.lower()
        return got

    @property
    def head(self) -> str:
        got = self._head
        if got is None:
            w = self.head_word
            got = "" if w is None or w.dynamic else self.base_low.removesuffix(".exe")
            self._head = got
        return got

    def has_any(self, chars: str) -> bool:
        """Whether any argument holds one of `chars` (compared lower-cased: pass lower-case)."""
        return not self.chars.isdisjoint(chars)


# (w22) The help switches of Windows programs: cmd's `/?` and PowerShell's `-?` common
# parameter (which native programs such as `certreq -?` take too).
HELP_SWITCHES = frozenset(("/?", "-?"))
# (w22) Options whose VALUE is the next word, by program: `shutdown /c "/?"` is a comment
# that reads `/?`, not a help request (the machine still shuts down). Compared with a
# leading `-` read as `/`.
_VALUE_OPTIONS: dict[str, frozenset[str]] = {
    prog: frozenset(opts.split())
    for prog, opts in (
        ("shutdown", "/c /t /d /m"),
        ("schtasks", "/tn /tr /sc /mo /d /m /i /st /sd /ed /et /du /ri /ru /rp /s /u /p /xml"),
        ("taskkill", "/im /pid /fi /s /u /p"),
        ("takeown", "/f /s /u /p /d"),
        ("icacls", "/grant /deny /remove /setowner /save /restore /setintegritylevel"),
        ("reg", "/v /t /d /se"),
        ("diskpart", "/s"),
        ("bcdedit", "/store"),
        ("robocopy", "/xf /xd /log /lev"),
        ("format", "/v /fs /a /p /l"),
    )
}


def _written_as(w: Word, source: str) -> str:
    """(w22) How a help word is written: "plain" (its span is its text), "quoted" (its span
    is the text in one pair of quotes), else "" (made by a substitution or a split string)."""
    if w.start < 0 or w.end > len(source):
        return ""
    written = source[w.start : w.end]
    if written == w.text or (written in HELP_SWITCHES and w.text in HELP_SWITCHES):
        return "plain"  # (`schtasks -create -?` is read with its switches as `/…`)
    if len(written) == len(w.text) + 2 and written[0] == written[-1] and written[0] in "'\"":
        return "quoted"
    return ""


def asks_help(name: str, args: Sequence[Word], source: str, family: str = "cmd") -> bool:
    """(w22) Whether a Windows program's arguments ask for its help: a standalone `/?` or
    `-?` word (or one in a run of glued switches, `/s/?`). Never a `/?` inside a value
    (`format C: /v:"/?"` names the volume `/?` and formats). A quoted `"/?"` reaches a cmd
    program with its quotes (a string, not the switch); PowerShell and bash take the quotes
    off, so there a quoted `'/?'` is a native program's switch, unless it follows an option
    whose value is the next word (`shutdown /s /t 0 /c '/?'`: the comment). A bare `/?`
    is the switch wherever it stands (review 22 O3: `taskkill /im /?` prints help).
    Failing these, the command is judged as run."""
    values = _VALUE_OPTIONS.get(name.lower().removesuffix(".exe"), frozenset())
    prev = ""
    for w in args:
        t = w.text
        if t in HELP_SWITCHES or (
            t[:1] == "/"
            and "/?" in t
            and ":" not in t
            and "=" not in t
            and "?" in t.split("/")
            and '"' not in t
        ):
            how = _written_as(w, source)
            if how == "plain":
                return True
            # (a quoted `'-?'` stays a string: to a cmdlet it is a value, not its switch)
            if how == "quoted" and family != "cmd" and t == "/?":
                p = "/" + prev[1:] if prev[:1] == "-" else prev
                if p not in values:
                    return True
        prev = t.lower()
    return False
