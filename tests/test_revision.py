"""The version of the code a result row names, and batch refusing to mix versions."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from click.testing import CliRunner

import spidersolve
from spidersolve.cli.main import cli
from spidersolve.revision import DECIDING, code_revision, revision_of, row_version
from spidersolve.stats import load_results
from spidersolve.stats.schema import frame_table, with_meta
from spidersolve.stats.store import RESULTS_NAME, ResultStore, write_atomic

PACKAGE = Path(spidersolve.__file__).resolve().parent


def test_row_version_is_the_version_and_twelve_hex_digits():
    assert re.fullmatch(re.escape(spidersolve.__version__) + r"\+[0-9a-f]{12}", row_version())
    assert code_revision() == revision_of(PACKAGE)


def copy_of_the_code(tmp_path: Path) -> Path:
    root = tmp_path / "pkg"
    root.mkdir()
    for part in DECIDING:
        if part.endswith(".py"):
            shutil.copy(PACKAGE / part, root / part)
        else:
            shutil.copytree(PACKAGE / part, root / part, ignore=shutil.ignore_patterns("*.so"))
    return root


def test_comments_and_docstrings_keep_the_revision_and_code_changes_it(tmp_path):
    root = copy_of_the_code(tmp_path)
    before = revision_of(root)
    assert before == code_revision()
    heuristic = root / "search" / "heuristic.py"
    text = heuristic.read_text()
    heuristic.write_text("# a new comment\n" + text.replace('"""', '"""Reworded. ', 1))
    assert revision_of(root) == before
    # one weight of the search changed: another revision
    changed = re.sub(r"MACRO_FROM = 50_000", "MACRO_FROM = 60_000", text)
    assert changed != text
    heuristic.write_text(changed)
    assert revision_of(root) != before
    heuristic.write_text(text)
    assert revision_of(root) == before
    # a rule module counts as much as the search
    (root / "state" / "rules.py").write_text(
        (root / "state" / "rules.py").read_text() + "\nEXTRA = 1\n"
    )
    assert revision_of(root) != before


def test_a_package_without_its_sources_has_an_unknown_revision(tmp_path):
    assert revision_of(tmp_path / "nothing") == "unknown"


def test_files_that_are_not_code_keep_the_revision(tmp_path):
    root = copy_of_the_code(tmp_path)
    before = revision_of(root)
    for data in (root / "state").glob("*.npy"):  # a cache make setup writes: not code
        data.unlink()
    (root / "search" / ".#solver.py").symlink_to("nowhere@1234")  # an editor's lock
    (root / "search" / "notes.txt").write_text("x = 1\n")
    (root / "search" / "__pycache__").mkdir(exist_ok=True)
    (root / "search" / "__pycache__" / "stray.py").write_text("x = 1\n")
    assert revision_of(root) == before
    (root / "search" / "extra.py").write_text("x = 1\n")  # a module is code
    assert revision_of(root) != before


def test_the_tree_is_written_without_what_a_python_version_adds():
    import ast

    from spidersolve.revision import _written

    tree = ast.parse("def f(x):\n    return x")
    written = _written(tree)
    assert "type_params" not in written and "lineno" not in written
    assert "FunctionDef(name=str:'f'" in written


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def batch(out, deals, *extra):
    return run(
        "batch", "--suits", "1", "--deals", deals, "--nodes", "2000", "--out", out, "-q", *extra
    )


def made_by_another_version(out: Path, version: str = "0.0.9") -> None:
    """Rewrite the rows at ``out`` as if an older spidersolve had made them."""
    store = ResultStore(out)
    frame, runs = store.load_with_meta()
    frame["version"] = version
    write_atomic(with_meta(frame_table(frame), {"runs": runs}), out / RESULTS_NAME)


def test_batch_refuses_to_add_rows_to_another_versions_results(tmp_path):
    out = tmp_path / "r"
    assert batch(out, "0:2").exit_code == 0
    made_by_another_version(out)
    before = sorted((p.name, p.read_bytes()) for p in out.iterdir())

    refused = batch(out, "0:3")
    assert refused.exit_code == 2
    lines = refused.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --out ")
    assert "2 rows of it were made by another version of the code (0.0.9; this is" in lines[0]
    assert lines[0].endswith("or give --mixed-versions to add to it anyway")
    assert row_version() in lines[0] and "--mixed-versions" in lines[0]
    assert sorted((p.name, p.read_bytes()) for p in out.iterdir()) == before  # nothing written

    # nothing left to solve: nothing is mixed, so nothing is refused
    assert batch(out, "0:2").exit_code == 0

    assert batch(out, "0:3", "--mixed-versions").exit_code == 0
    rows = load_results(out)
    assert sorted(rows["version"]) == ["0.0.9", "0.0.9", row_version()]

    shown = run("stats", out)
    assert shown.exit_code == 0
    assert (
        f"note: these rows were made by 2 versions of the code (0.0.9: 2 rows; "
        f"{row_version()}: 1 row), which may search differently: --by version shows them apart"
    ) in shown.output
    apart = run("stats", out, "--by", "suits,version")
    assert apart.exit_code == 0 and "versions of the code" not in apart.output
    assert "0.0.9" in apart.output and row_version() in apart.output
    as_json = json.loads(run("stats", out, "--json").output)
    assert as_json["versions"] == {"0.0.9": 2, row_version(): 1}


def test_one_version_gives_no_note(tmp_path):
    out = tmp_path / "r"
    assert batch(out, "0:2").exit_code == 0
    assert batch(out, "0:3").exit_code == 0  # the same code adds to its own rows
    shown = run("stats", out)
    assert shown.exit_code == 0 and "versions of the code" not in shown.output
    assert "versions" not in json.loads(run("stats", out, "--json").output)


def test_one_row_of_another_version_is_named_so(tmp_path):
    out = tmp_path / "r"
    assert batch(out, "0:1").exit_code == 0
    made_by_another_version(out)
    refused = batch(out, "0:2")
    assert refused.exit_code == 2
    assert "1 row of it was made by another version of the code (0.0.9;" in refused.output


def test_unknown_code_matches_no_row(tmp_path, monkeypatch):
    from spidersolve.stats import batch as batch_module

    out = tmp_path / "r"
    monkeypatch.setattr(batch_module, "row_version", lambda: "0.1.0+unknown")
    inline = ("--workers", "1")  # the patched code solves the deals too
    assert batch(out, "0:1", *inline).exit_code == 0  # nothing to mix with
    assert batch(out, "0:2", *inline).exit_code == 2  # its own rows: unknown is never the same
    assert batch(out, "0:2", "--mixed-versions", *inline).exit_code == 0


def test_repair_is_refused_before_anything_is_set_aside(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    out = tmp_path / "r"
    assert batch(out, "0:2").exit_code == 0
    made_by_another_version(out)
    (out / ".spidersolve.lock").unlink()
    # beside it, a damaged part file: what --repair sets aside
    table = pq.read_table(out / RESULTS_NAME)
    verdicts = pa.array(["unknown"] * table.num_rows, table.schema.field("verdict").type)
    damaged = table.set_column(table.schema.get_field_index("verdict"), "verdict", verdicts)
    part = out / "part-20261208T000000-00000000-000000.parquet"
    pq.write_table(damaged.replace_schema_metadata(table.schema.metadata), part)
    before = sorted(p.name for p in out.iterdir())
    refused = batch(out, "0:3", "--repair")
    assert refused.exit_code == 2, refused.output
    assert "2 rows of it were made by another version of the code" in refused.output
    assert len(refused.output.strip().splitlines()) == 1
    assert sorted(p.name for p in out.iterdir()) == before  # nothing set aside, no lock made


def test_a_worker_of_another_version_is_refused(tmp_path, monkeypatch):
    from spidersolve.stats import batch as batch_module

    solve_chunk = batch_module.solve_chunk

    def elsewhere(tasks, solver=None):
        return [dict(row, version="0.0.9+0123456789ab") for row in solve_chunk(tasks, solver)]

    monkeypatch.setattr(batch_module, "solve_chunk", elsewhere)
    out = tmp_path / "r"
    refused = batch(out, "0:2", "--workers", "1")  # the patched code solves the deals
    assert refused.exit_code == 2
    assert (
        "a worker runs another version of the code (0.0.9+0123456789ab; this is "
        f"{row_version()}): its rows are not kept" in refused.output
    )
    assert not ResultStore(out).exists()
    assert batch(out, "0:2", "--mixed-versions", "--workers", "1").exit_code == 0
    assert set(load_results(out)["version"]) == {"0.0.9+0123456789ab"}


def test_honest_rows_of_two_versions_get_the_note_whatever_by(tmp_path):
    out = tmp_path / "r"
    games = ("--player", "honest", "--samples", "1", "--nodes", "500")
    assert run("batch", "--suits", "1", "--deals", "0:1", "--out", out, "-q", *games).exit_code == 0
    made_by_another_version(out)
    assert (
        run(
            "batch",
            "--suits",
            "1",
            "--deals",
            "0:2",
            "--out",
            out,
            "-q",
            "--mixed-versions",
            *games,
        ).exit_code
        == 0
    )
    shown = run("stats", out)
    assert shown.exit_code == 0
    assert "note: these rows were made by 2 versions of the code (0.0.9: 1 row; " in shown.output
    assert "--by version" not in shown.output  # honest games are not grouped by it
