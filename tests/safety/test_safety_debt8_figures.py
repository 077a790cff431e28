"""`bench/_corpus_figures`: figures over no rows are "n/a" (NaN), so a bar checked on an empty
set fails instead of passing vacuously (safety-debt8)."""

from __future__ import annotations

import math

from bench._corpus_figures import figures
from tests.safety._levels import B, C, D, M, S


def test_no_rows_give_no_figures() -> None:
    fig = figures([])
    for value in (fig.blocked_recall, fig.high_recall, fig.safe_over_flagged, fig.exact_agreement):
        assert math.isnan(value)
    assert not fig.meets_the_bar()
    assert "blocked     -  (0/0)" in fig.line()


def test_an_empty_category_fails_a_bar_whichever_way_it_points() -> None:
    # no safe rows: the over-flagging bar (<= 0.02) cannot be shown met, nor a recall bar
    fig = figures([(B, B), (C, C)])
    assert fig.blocked_recall == 1.0 and fig.high_recall == 1.0
    assert math.isnan(fig.safe_over_flagged)
    assert not fig.safe_over_flagged <= 0.02
    assert not fig.safe_over_flagged >= 0.0
    assert not fig.meets_the_bar()
    assert math.isnan(figures([(S, S)]).blocked_recall)
    assert not figures([(S, S)]).blocked_recall >= 0.98


def test_figures_count_what_they_say() -> None:
    pairs = [(B, B), (B, C), (C, C), (C, M), (S, S), (S, D), (M, M), (D, D)]
    fig = figures(pairs)
    assert fig.blocked == (1, 2) and fig.blocked_recall == 0.5
    assert fig.high == (3, 4) and fig.high_recall == 0.75
    assert fig.safe_over == (1, 2) and fig.safe_over_flagged == 0.5
    assert fig.exact == (5, 8)
    good = figures([(B, B)] * 50 + [(C, C)] * 20 + [(S, S)] * 50 + [(M, M)] * 10)
    assert good.meets_the_bar()
    assert figures([(B, B)] * 49 + [(B, C)] + [(S, S)] * 50).meets_the_bar()  # 49/50 = 0.98
    assert not figures([(B, B)] * 48 + [(B, C)] * 2 + [(S, S)] * 50).meets_the_bar()
