"""``spidersolve stats --plot``: PNG files and the lines each figure holds."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from data import hand_table, result_row

from spidersolve.cli.main import cli
from spidersolve.stats import load_results
from spidersolve.stats.plots import lines_figure, nodes_figure, nodes_path, winrate_figure
from spidersolve.stats.store import ResultStore

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def results(tmp_path):
    rows = (
        hand_table()
        + [result_row(2, "classic", d, "won", 100 * (d + 1), moves=150) for d in range(4)]
        + [result_row(2, "classic", 4, "lost", 800)]
    )
    store = ResultStore(tmp_path / "res")
    store.open_for_writing()
    store.write_part(rows, {"run_id": "p"}, 0)
    return tmp_path / "res"


def test_winrate_figure_has_two_lines_and_a_band_per_group(results):
    frame = load_results(results)
    fig = winrate_figure(frame)
    (ax,) = fig.axes
    # Groups: 1 suit classic, 2 suits classic, 4 suits relaxed.
    assert len(ax.get_lines()) == 2 * 3
    assert len(ax.collections) == 3  # the Wilson bands
    assert ax.get_xscale() == "log"
    assert ax.get_xlabel() and ax.get_ylabel()
    assert "18 results" in ax.get_title() and "1,000" in ax.get_title()
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == [
        "1 suit, classic (N=10)",
        "2 suits, classic (N=5)",
        "4 suits, relaxed (N=3)",
        "dashed: 1 - lost/N, the upper bound (same colours)",
    ]
    # The 1-suit lower bound ends at 7/10, its upper bound at 1 - 1/10.
    low, high = ax.get_lines()[:2]
    assert low.get_ydata()[-1] == pytest.approx(0.7)
    assert high.get_ydata()[-1] == pytest.approx(0.9)
    assert low.get_xdata()[-1] == 1000
    # Every curve starts at the same round budget below the first decided deal.
    assert {line.get_xdata()[0] for line in ax.get_lines()} == {10}


def test_a_group_of_a_few_deals_beside_hundreds_is_not_drawn_but_counted(tmp_path):
    # one-deal escalation rungs beside 513 deals covered the figure with their bands
    rows = [result_row(1, "classic", d, "won", 10 + d, moves=100) for d in range(50)]
    rows += [result_row(1, "classic", 50, "won", 5000, limit=10_000, moves=100)]
    rows += [result_row(2, "classic", d, "won", 20 + d, moves=100) for d in range(2)]
    store = ResultStore(tmp_path / "res")
    store.open_for_writing()
    store.write_part(rows, {"run_id": "p"}, 0)
    (ax,) = winrate_figure(load_results(tmp_path / "res")).axes
    assert len(ax.get_lines()) == 2 and len(ax.collections) == 1  # the 50 deals only
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels[0] == "1 suit, classic, limit 1,000 (N=50)"
    assert labels[-1] == (
        "not drawn: 2 groups of 3 results in all, each under 1/20 of the largest (see the table)"
    )
    assert ax.get_xlim()[1] == 1000  # where the drawn groups end


def test_nodes_figure_has_one_histogram_per_group_with_wins(results):
    fig = nodes_figure(load_results(results))
    (ax,) = fig.axes
    assert len(ax.patches) == 2  # the 4-suit group won nothing
    assert ax.get_xscale() == "log"
    assert "11 won" in ax.get_title()
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "1 suit, classic: 7 won of 10",
        "2 suits, classic: 4 won of 5",
    ]


def test_lines_figure_shows_length_and_score(results):
    fig = lines_figure(load_results(results))
    assert [ax.get_xlabel() for ax in fig.axes] == [
        "line length (moves, deals included)",
        "final score",
    ]
    assert all(len(ax.patches) == 2 for ax in fig.axes)


def test_stats_plot_writes_two_pngs(results, tmp_path):
    target = tmp_path / "win.png"
    result = CliRunner().invoke(cli, ["stats", str(results), "--plot", str(target)])
    assert result.exit_code == 0, result.output
    assert nodes_path(target) == tmp_path / "win-nodes.png"
    for path in (target, nodes_path(target)):
        assert path.read_bytes()[:8] == PNG_MAGIC
    assert f"plots: {target}, {nodes_path(target)}" in result.stdout


def test_a_plot_that_fails_halfway_leaves_both_old_figures(results, tmp_path, monkeypatch):
    # the two figures go together: the nodes figure failing (or Ctrl-C while
    # it is drawn) must not leave a new win-rate figure beside an old one
    import matplotlib.figure

    target = tmp_path / "win.png"
    target.write_text("old win")
    nodes_path(target).write_text("old nodes")
    real = matplotlib.figure.Figure.savefig
    calls = []

    def second_fails(self, *args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(self, *args, **kwargs)

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", second_fails)
    result = CliRunner().invoke(cli, ["stats", str(results), "--plot", str(target)])
    assert result.exit_code == 130, result.output
    assert target.read_text() == "old win" and nodes_path(target).read_text() == "old nodes"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["res", "win-nodes.png", "win.png"]


def test_several_files_are_renamed_together_or_not_at_all(tmp_path):
    from spidersolve.files import write_all_atomic

    a, b = tmp_path / "a", tmp_path / "b"
    write_all_atomic([(a, lambda h: h.write(b"1")), (b, lambda h: h.write(b"2"))])
    assert (a.read_bytes(), b.read_bytes()) == (b"1", b"2")

    def broken(handle):
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError) as caught:
        write_all_atomic([(a, lambda h: h.write(b"new")), (b, broken)])
    assert caught.value.written == b
    assert (a.read_bytes(), b.read_bytes()) == (b"1", b"2")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "b"]


def test_plots_of_results_with_no_win_are_still_drawn(tmp_path):
    store = ResultStore(tmp_path / "res")
    store.open_for_writing()
    store.write_part(
        [result_row(4, "classic", d, "unknown", 1000) for d in range(3)], {"run_id": "q"}, 0
    )
    target = tmp_path / "none.png"
    result = CliRunner().invoke(cli, ["stats", str(tmp_path / "res"), "--plot", str(target)])
    assert result.exit_code == 0, result.output
    assert target.read_bytes()[:8] == PNG_MAGIC
    assert nodes_path(target).read_bytes()[:8] == PNG_MAGIC


@pytest.mark.parametrize("ext", ["png", "svg", "pdf"])
def test_the_same_rows_plot_to_the_same_bytes_in_every_format(results, tmp_path, ext):
    # SVG and PDF wrote the time of the run, and SVG random element ids
    runner = CliRunner()
    made = []
    for name in ("a", "b"):
        target = tmp_path / f"{name}.{ext}"
        result = runner.invoke(cli, ["stats", str(results), "--plot", str(target)])
        assert result.exit_code == 0, result.output
        made.append((target.read_bytes(), (tmp_path / f"{name}-nodes.{ext}").read_bytes()))
    assert made[0] == made[1]
