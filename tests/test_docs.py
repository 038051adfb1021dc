"""The README and docs/*.md say what the code does: their examples are run.

A console example is a fenced block whose first line starts with ``$ ``
and that runs ``spidersolve`` (a benchmark's block is not an example: its
figures are dated measurements, docs/benchmarks.md).
Each ``$ `` line is a command, run with bash in a temporary folder (one a
document, shared by its blocks in order, holding a copy of
``docs/examples/``) with the project's ``spidersolve`` first on ``PATH``;
the lines after it, up to the next ``$ `` line, are its output: stdout,
then stderr without the first-run "compiling the numba kernels" notice.
``$ NAME=VALUE`` sets a variable for the document's later commands.

Before comparing, both sides are normalised (``normalise``): a number of
seconds (``seconds: 0.135``, ``"seconds": 0.222``, ``0.40 s``, ``in 30.9
s``) and any number with two or more decimals become ``T``, the temporary
folder's path becomes ``.``, runs of spaces count as one, and blank lines at
the end are dropped. In the expected output, ``...`` stands for any text
within a line, and a line of ``...`` alone for any number of lines.

A block is not run when the line before it is ``<!-- not run: REASON -->``
(a timing, a random deal, a run of minutes, a second process).

Library examples are ``pycon`` blocks (``>>>`` lines), run by doctest with
ELLIPSIS and NORMALIZE_WHITESPACE.

``python tests/test_docs.py [--update] [FILE ...]`` prints every example whose output
differs, with the output of today's code, to update the docs by hand.
"""

from __future__ import annotations

import difflib
import doctest
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
EXAMPLES = ROOT / "docs" / "examples"
SPEC = ROOT.parent / "shared" / "SPEC.md"
FENCE = re.compile(r"^(\s*)(`{3,})")
NOT_RUN = re.compile(r"^<!--\s*not run:\s*\S.*-->$")
ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(.*)$")
COMPILE_NOTICE = re.compile(r"^compiling the .*numba.*$")
TIMEOUT = 120


@dataclass
class Command:
    """One ``$ `` line of a console block and the output shown after it."""

    path: Path
    line: int
    text: str
    expected: list[str] = field(default_factory=list)


@dataclass
class Block:
    path: Path
    line: int
    commands: list[Command]
    skip: str | None = None


def console_blocks(path: Path) -> list[Block]:
    """The console blocks of one Markdown file, in order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        indent, fence, start = match.group(1), match.group(2), i
        end = start + 1
        while end < len(lines) and not lines[end].strip().startswith(fence):
            end += 1
        body = [
            line[len(indent) :] if line.startswith(indent) else line
            for line in lines[start + 1 : end]
        ]
        i = end + 1
        if (
            not body
            or not body[0].startswith("$ ")
            or not any(line.startswith("$ ") and "spidersolve" in line for line in body)
        ):
            continue
        before = next((lines[k].strip() for k in range(start - 1, -1, -1) if lines[k].strip()), "")
        skip = before if NOT_RUN.match(before) else None
        commands: list[Command] = []
        for offset, text in enumerate(body):
            if text.startswith("$ "):
                commands.append(Command(path, start + 2 + offset, text[2:]))
            else:
                commands[-1].expected.append(text)
        blocks.append(Block(path, start + 1, commands, skip))
    return blocks


def normalise(text: str, folder: str | None = None) -> str:
    """The output with times, the temporary folder and spacing made equal."""
    if folder:
        text = text.replace(os.path.realpath(folder), ".").replace(folder, ".")
    text = re.sub(r'(seconds"?:\s*)\d+(?:\.\d+)?', r"\1T", text)
    text = re.sub(r"\b\d+(?:\.\d+)?(?=\s?s\b)", "T", text)
    text = re.sub(r"\b\d+\.\d{2,}\b", "T", text)
    lines = [re.sub(r"[ \t]+", " ", line).rstrip() for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


def matches(expected: str, actual: str) -> bool:
    """Whether the actual output fits the expected one, ``...`` a wildcard."""
    pattern = []
    for line in expected.split("\n") if expected else []:
        if line.strip() == "...":
            pattern.append(r"(?:[^\n]*\n)*?")
        else:
            pattern.append(".*?".join(map(re.escape, line.split("..."))) + r"\n")
    return re.fullmatch("".join(pattern), actual + "\n" if actual else "") is not None


def spidersolve_bin() -> Path:
    """The folder of the ``spidersolve`` command beside this Python."""
    here = Path(sys.executable).parent
    if (here / "spidersolve").exists():
        return here
    found = shutil.which("spidersolve")
    if found is None:
        pytest.skip("no spidersolve command installed")
    return Path(found).parent


class Session:
    """A document's temporary folder and variables."""

    def __init__(self, folder: str):
        self.folder = folder
        self.env = dict(os.environ)
        self.env["PATH"] = f"{spidersolve_bin()}{os.pathsep}{self.env.get('PATH', '')}"
        self.env.pop("DASK_SCHEDULER_ADDRESS", None)
        self.env["NO_COLOR"] = "1"
        if EXAMPLES.is_dir():
            shutil.copytree(EXAMPLES, folder, dirs_exist_ok=True)

    def run(self, command: str) -> str:
        assignment = ASSIGNMENT.match(command)
        if assignment:
            name, value = assignment.groups()
            script = f'{name}={value}; printf %s "${name}"'
            self.env[name] = self._bash(script, "")[0]
            return ""
        out, err = self._bash(command, None)
        err = "\n".join(line for line in err.split("\n") if not COMPILE_NOTICE.match(line))
        return out + err

    def _bash(self, script: str, stdin: str | None) -> tuple[str, str]:
        done = subprocess.run(
            ["bash", "-c", script],
            cwd=self.folder,
            env=self.env,
            input=stdin or "",
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )
        return done.stdout, done.stderr


def check_document(path: Path, raw: bool = False, update: bool = False) -> list[str]:
    """Run a document's console examples; one report per mismatch.

    With ``raw``, each report ends with the whole output as printed; with
    ``update``, the shown output of each mismatch is replaced by it (shorten
    long ones again with ``...`` by hand).
    """
    failures = []
    replacements = []
    with tempfile.TemporaryDirectory(prefix="spidersolve-docs-") as folder:
        session = Session(folder)
        for block in console_blocks(path):
            if block.skip:
                continue
            for command in block.commands:
                began = time.perf_counter()
                output = session.run(command.text)
                if raw:
                    print(
                        f"{time.perf_counter() - began:6.1f} s  $ {command.text[:90]}",
                        file=sys.stderr,
                    )
                actual = normalise(output, folder)
                expected = normalise("\n".join(command.expected))
                if not matches(expected, actual):
                    diff = "\n".join(
                        difflib.unified_diff(
                            expected.split("\n"), actual.split("\n"), "shown", "today", lineterm=""
                        )
                    )
                    where = f"{path.relative_to(ROOT)}:{command.line}"
                    report = f"{where}: $ {command.text}\n{diff}"
                    if raw:
                        report += "\n--- printed today:\n" + output.rstrip("\n")
                    failures.append(report)
                    replacements.append((command, output.rstrip("\n").split("\n")))
    if update and replacements:
        lines = path.read_text(encoding="utf-8").split("\n")
        for command, new in reversed(replacements):
            shown = list(command.expected)
            while shown and not shown[-1].strip():
                shown.pop()
            indent = re.match(r"\s*", lines[command.line - 1]).group(0)
            lines[command.line : command.line + len(shown)] = [indent + line for line in new]
        path.write_text("\n".join(lines), encoding="utf-8")
    return failures


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_console_examples_print_what_they_show(path):
    failures = check_document(path)
    assert not failures, "\n\n".join(failures)


def test_every_document_has_its_examples_found():
    """The parser sees the blocks: a change of fence style cannot hide them."""
    found = {path.name: console_blocks(path) for path in DOCS}
    commands = {
        name: sum(len(block.commands) for block in blocks) for name, blocks in found.items()
    }
    assert commands["README.md"] >= 5
    assert sum(commands.values()) >= 40
    for blocks in found.values():
        for block in blocks:
            assert block.commands and all(c.text.strip() for c in block.commands)


def test_normalise_makes_times_and_spacing_equal():
    assert normalise("seconds: 0.135\nnodes: 1102") == normalise("seconds: 12.5\nnodes: 1102")
    assert normalise('{"seconds": 0.2, "n": 3}') == '{"seconds": T, "n": 3}'
    assert normalise("in 30.9 s -> results\n\n") == "in T s -> results"
    assert normalise("0.01   0.04  100.0%") == "T T 100.0%"
    assert normalise("nodes: 1102") != normalise("nodes: 1103")


def test_ellipsis_stands_for_text_and_lines():
    assert matches("a ...\n...\nz", "a b c\nx\ny\nz")
    assert matches("a\n...\nz", "a\nz")
    assert not matches("a\nz", "a\nb\nz")
    assert not matches("line: 1>8 ...", "line: 2>8 3>1")


def python_blocks(path: Path) -> list[tuple[int, str]]:
    """The ``pycon`` blocks of a Markdown file: (line of the fence, body)."""
    text = path.read_text(encoding="utf-8")
    return [
        (text[: match.start()].count("\n") + 1, match.group(1))
        for match in re.finditer(r"^```pycon\n(.*?)^```", text, re.M | re.S)
    ]


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_library_examples_run(path):
    """The ``>>>`` examples of each ``pycon`` block, as doctest runs them."""
    blocks = python_blocks(path)
    if path.name == "README.md":
        assert blocks, "the README's library tour is missing"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for line, body in blocks:
        name = f"{path.relative_to(ROOT)}:{line}"
        test = doctest.DocTestParser().get_doctest(body, {}, name, str(path), line)
        runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_links_between_documents_resolve():
    """Every relative link in README.md and docs/*.md names a file in the project."""
    broken = []
    for path in DOCS:
        for target in re.findall(r"\]\(([^)\s]+)\)", path.read_text(encoding="utf-8")):
            if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                continue
            if not (path.parent / target.split("#")[0]).exists():
                broken.append(f"{path.relative_to(ROOT)}: {target}")
    assert not broken


def test_spec_copy_is_the_contract():
    """docs/spec.md is a copy of ../shared/SPEC.md, where that exists."""
    if not SPEC.is_file():
        pytest.skip("no ../shared/SPEC.md beside the project")
    assert (ROOT / "docs" / "spec.md").read_bytes() == SPEC.read_bytes()


if __name__ == "__main__":
    update = "--update" in sys.argv
    targets = [Path(arg).resolve() for arg in sys.argv[1:] if arg != "--update"] or DOCS
    status = 0
    for target in targets:
        for failure in check_document(target, raw=True, update=update):
            print(failure, end="\n\n")
            status = 1
    sys.exit(status)
