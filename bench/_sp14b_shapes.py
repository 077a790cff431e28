"""Session 14 (sp14b): 2,000-10,000-character shapes the older pathological sets lack
(review-12 finding 9): tiny commands in long pipelines and lists, a word then a parenthesis
around a long pipeline (the parse-error path), unclosed quotes, parentheses and
substitutions at the end, many tiny words, deep nesting of every bracket kind. Each shape is
built from a unit repeated to the size asked for; every shell runs every shape."""

from __future__ import annotations

from collections.abc import Callable


def _fill(unit: str, size: int, head: str = "", tail: str = "") -> str:
    """`head` + `unit` repeated until the text is about `size` characters + `tail`."""
    n = max(1, (size - len(head) - len(tail)) // max(1, len(unit)))
    return head + unit * n + tail


def _nest(open_: str, close: str, size: int, core: str = "a") -> str:
    n = max(1, (size - len(core)) // max(1, len(open_) + len(close)))
    return open_ * n + core + close * n


def _open(open_: str, size: int, core: str = "a") -> str:
    """Nesting that never closes (an unfinished text)."""
    return open_ * max(1, (size - len(core)) // max(1, len(open_))) + core


_SHAPES: dict[str, Callable[[int], str]] = {
    # long pipelines and lists of tiny commands
    "pipeline a|a|…": lambda n: _fill("a|", n, tail="a"),
    "pipeline ending in |": lambda n: _fill("a|", n),
    "pipeline a | a | … (spaced)": lambda n: _fill("a | ", n, tail="a"),
    "list a;a;…": lambda n: _fill("a;", n),
    "list a&&a&&…": lambda n: _fill("a&&", n, tail="a"),
    "list a||a||…": lambda n: _fill("a||", n, tail="a"),
    "background a&a&…": lambda n: _fill("a&", n),
    "lines a\\na\\n…": lambda n: _fill("a\n", n),
    "pipeline of distinct words": lambda n: "|".join(f"w{i}" for i in range(n // 6)),
    "pipeline of ls -l": lambda n: _fill("ls -l|", n, tail="ls"),
    "pipeline |& (bash)": lambda n: _fill("a|&", n, tail="a"),
    "pipeline rm -rf x first": lambda n: _fill("|a", n, head="rm -rf /"),
    # a word then a parenthesis (the parse-error path)
    "word ( pipeline )": lambda n: _fill("a|", n, head="x (", tail=")"),
    "echo ( pipeline )": lambda n: _fill("a|", n, head="echo (", tail=")"),
    "rm -rf x!( pipeline )": lambda n: _fill("a|", n, head="rm -rf x!(", tail=")"),
    "word ( list; )": lambda n: _fill("a;", n, head="x (", tail=")"),
    "word ( && list )": lambda n: _fill("a&&", n, head="x (", tail="a)"),
    "word ( unclosed pipeline": lambda n: _fill("a|", n, head="x ("),
    "word (a) repeated": lambda n: _fill("x (a) ", n),
    "word ( lines )": lambda n: _fill("a\n", n, head="x (", tail=")"),
    "a()a()… function-like": lambda n: _fill("a()", n),
    "$( pipeline )": lambda n: _fill("a|", n, head="echo $(", tail="a)"),
    'echo "$(a)" repeated': lambda n: _fill('echo "$(a)"', n),
    # unclosed quotes, parentheses, substitutions at the end
    "pipeline then unclosed '": lambda n: _fill("a|", n, tail="'"),
    'pipeline then unclosed "': lambda n: _fill("a|", n, tail='"'),
    "list then unclosed $(": lambda n: _fill("a;", n, tail="$("),
    "list then unclosed `": lambda n: _fill("a;", n, tail="`"),
    "words then unclosed ${": lambda n: _fill("a ", n, tail="${"),
    "many unclosed '": lambda n: _fill("a '", n),
    'many unclosed "': lambda n: _fill('a "', n),
    # many tiny words and escapes
    "many tiny words": lambda n: _fill("a ", n),
    "many one-char args of rm": lambda n: _fill(" a", n, head="rm -rf"),
    "many escapes \\a": lambda n: _fill("\\a", n, head="echo "),
    "many ^ escapes": lambda n: _fill("^a", n, head="echo "),
    "many backtick escapes": lambda n: _fill("`a", n, head="echo "),
    "many quoted empties": lambda n: _fill("''", n, head="echo "),
    "many redirects": lambda n: _fill(">a ", n, head="echo "),
    "many commas": lambda n: _fill("a,", n, head="echo "),
    # deep nesting of every bracket kind
    "nested ( )": lambda n: _nest("(", ")", n),
    "nested { }": lambda n: _nest("{ ", ";}", n),
    "nested [ ]": lambda n: _nest("[", "]", n),
    "nested $( )": lambda n: _nest("$(", ")", n),
    "nested @( )": lambda n: _nest("@(", ")", n),
    "nested $(( ))": lambda n: _nest("$((", "))", n, "1"),
    "nested ${ }": lambda n: _nest("${a:-", "}", n),
    "nested x( )": lambda n: _nest("x(", ")", n),
    "nested ( | )": lambda n: _nest("(a|", ")", n),
    "unclosed ((((": lambda n: _open("(", n),
    "unclosed {{{{": lambda n: _open("{", n),
    "unclosed [[[[": lambda n: _open("[", n),
    "unclosed $($(": lambda n: _open("$(", n),
    "unclosed x(x(": lambda n: _open("x(", n),
    "unclosed (a|(a|": lambda n: _open("(a|", n),
    "closers ))))": lambda n: _fill(")", n, head="a"),
    # the grammars' error recoveries (sp15, session 15): an expression, a parenthesis, a
    # substitution or a literal followed by another with no operator between (one error
    # each: 15-70 µs in the PowerShell grammar, 10-20 µs in bash's), and operator runs
    # whose recovery keeps trying alternatives (the PowerShell grammar: 2 s for 10,000
    # characters of `+ = `, reading every byte once)
    "(a) glued": lambda n: _fill("(a)", n),
    "$(a) glued": lambda n: _fill("$(a)", n),
    "@(a) glued": lambda n: _fill("@(a)", n),
    "${a} glued": lambda n: _fill("${a}", n),
    "(a) x repeated": lambda n: _fill("(a) x ", n),
    "(a)[0] glued": lambda n: _fill("(a)[0]", n),
    "numbers 1 2 …": lambda n: _fill("1 ", n),
    "lines 1 2": lambda n: _fill("1 2\n", n),
    "unary -a -a …": lambda n: _fill("-a ", n),
    "negations !a -a:1": lambda n: _fill("!a -a:1 ", n),
    "assignment $a=1 2": lambda n: _fill("$a=1 2 ", n),
    "operators + = …": lambda n: _fill("+ = ", n),
    "operators +| …": lambda n: _fill("+| ", n),
    "operators +-eq …": lambda n: _fill("+-eq ", n),
    "@(a)a repeated": lambda n: _fill("@(a)a ", n),
    "(a)-eq repeated": lambda n: _fill("(a)-eq ", n),
    "%%a%% glued": lambda n: _fill("%%a%%", n, head="echo "),
    "[a]b repeated": lambda n: _fill("[a]b", n),
    "lines then unclosed @(": lambda n: _fill("a\n", n, tail="@("),
    "lines then unclosed ${": lambda n: _fill("a\n", n, tail="${"),
    "lines then unclosed (": lambda n: _fill("a\n", n, tail="("),
}


def long_shapes(size: int = 10_000) -> dict[str, str]:
    """Every sp14b shape at about `size` characters (label -> text)."""
    return {label: make(size)[:size] for label, make in _SHAPES.items()}
