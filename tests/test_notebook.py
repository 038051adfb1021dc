"""notebooks/winrates.ipynb runs from top to bottom (nbclient, the venv's python3 kernel)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parent.parent / "notebooks" / "winrates.ipynb"


def test_notebook_is_committed_without_outputs():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None


@pytest.mark.slow
def test_notebook_runs_on_a_small_batch_it_makes(tmp_path, monkeypatch):
    monkeypatch.delenv("SPIDERSOLVE_RESULTS", raising=False)
    monkeypatch.setenv("TMPDIR", str(tmp_path))  # the small results directory goes here
    # A kernel spec of our own, for this interpreter: a python3 spec in the
    # user's Jupyter directories could point at another Python.
    spec = tmp_path / "jupyter" / "kernels" / "spidersolve-test"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(
        json.dumps(
            {
                "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                "display_name": "spidersolve test",
                "language": "python",
            }
        )
    )
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = NotebookClient(
        nb,
        timeout=600,
        kernel_name="spidersolve-test",
        resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute()
    outputs = [out for cell in nb.cells if cell.cell_type == "code" for out in cell.outputs]
    assert not [out for out in outputs if out.output_type == "error"]
    images = [out for out in outputs if "image/png" in out.get("data", {})]
    assert len(images) == 3
    text = "".join(out.get("text", "") for out in outputs if out.output_type == "stream")
    assert "12 results from 1 run(s)" in text
    assert "Within smaller budgets" in text
    assert list(tmp_path.glob("spidersolve-notebook-*/results/results.parquet"))
