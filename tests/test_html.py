"""The solution page (``show --html``, ``solve --html``): its data, and a real browser on it.

The browser test drives Debian's chromium through selenium and chromedriver
(``.ci/run`` installs them when /usr/bin/chromedriver is missing). It skips
only where they are not installed and this is not CI; in CI it fails instead.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from data import read_vectors

from spidersolve.cards import card_text
from spidersolve.cli.main import cli
from spidersolve.page import page_data, solution_page
from spidersolve.show import line_steps
from spidersolve.state import GameCode, replay

WINS = read_vectors("wins")
CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"


def run(*args):
    return CliRunner().invoke(cli, list(args), prog_name="spidersolve")


def win(code):
    return next(w for w in WINS if w["code"] == code)


def embedded_data(page: str) -> dict:
    m = re.search(r'<script type="application/json" id="steps-data">(.*?)</script>', page, re.S)
    return json.loads(m.group(1))


# -- the page's data and file ---------------------------------------------------------------------
def test_the_page_holds_every_step_with_the_position_after_it():
    game = win("SP1-S4C-AAAAAAD")
    start = GameCode.parse(game["code"]).position()
    steps = line_steps(start, game["line"])
    data = embedded_data(solution_page(steps, "a title"))
    assert data == json.loads(json.dumps(page_data(steps, "a title")))
    assert len(data["steps"]) == game["moves"] + 1
    for k in (0, 1, 17, game["moves"]):
        row, after = data["steps"][k], replay(start, " ".join(game["line"].split()[:k]))
        assert row["moves"] == after.moves and row["score"] == after.score
        assert row["stock"] == len(after.position.stock)
        assert row["cols"] == [
            [len(after.position.down[c]), [card_text(x) for x in after.position.up[c]]]
            for c in range(10)
        ]
    assert data["steps"][-1]["removed"] and len(data["steps"][-1]["removed"]) == 8
    assert (
        data["ending"] == f"won: all 8 runs removed in {game['moves']} moves, final score "
        f"{game['score']}"
    )


def test_the_page_needs_no_network_and_keeps_its_script_whole():
    steps = line_steps(GameCode.parse("SP1-S1C-AAAAAAD").position(), "1>8 deal")
    page = solution_page(steps, "a </script><b>title")
    assert not re.search(r"(src|href)\s*=|https?://|@import|url\(", page)
    assert page.count("</script>") == 2  # the data block and the script, nothing in between
    assert "a &lt;/script&gt;&lt;b&gt;title" in page
    assert embedded_data(page)["title"] == "a </script><b>title"


def test_show_html_writes_the_page_atomically_and_replaces_an_old_one(tmp_path):
    game = win("SP1-S1C-AAAAAAD")
    path = tmp_path / "solution.html"
    path.write_text("old")
    result = run("show", game["code"], game["line"], "--html", str(path))
    assert result.exit_code == 0, result.output
    assert result.stdout == f"wrote {path}: {game['moves']} steps\n"
    page = path.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert [p.name for p in tmp_path.iterdir()] == ["solution.html"]  # no temporary file left
    assert oct(path.stat().st_mode & 0o777) == "0o644"


def test_a_position_file_named_in_bytes_utf8_cannot_hold_still_gets_its_page(tmp_path):
    game = win("SP1-S1C-AAAAAAD")
    start = replay(GameCode.parse(game["code"]), "").position
    name = os.fsdecode(b"bad\xff.txt")  # as Python hands such a name over: a surrogate
    (tmp_path / name).write_text(start.to_text(), encoding="utf-8")
    path = tmp_path / "page.html"
    result = run("show", str(tmp_path / name), "1>8", "--html", str(path))
    assert result.exit_code == 0, result.output
    page = path.read_text(encoding="utf-8")
    assert "bad\ufffd.txt" in page
    assert "bad\ufffd.txt" in embedded_data(page)["title"]


def test_show_html_into_a_missing_folder_is_one_error_line(tmp_path):
    result = run("show", "SP1-S1C-AAAAAAD", "1>8", "--html", str(tmp_path / "no" / "x.html"))
    assert result.exit_code == 2 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith("error: --html: cannot write ")
    assert "no such folder" in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "SP1-S1C-AAAAAAD", "--nodes", "2000", "--html", "-"],
        ["show", "SP1-S1C-AAAAAAD", "1>8", "--html", "-"],
        ["batch", "--deals", "0:2", "--out", "-"],
        ["stats", "results", "--plot", "-"],
    ],
)
def test_a_dash_for_a_file_or_folder_to_write_is_refused_bug(tmp_path, monkeypatch, args):
    """'-' is standard output where an option takes it (hints --out); elsewhere it
    made a file called '-'."""
    monkeypatch.chdir(tmp_path)
    result = run(*args)
    option = args[-2]
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(f"error: {option}: '-' is standard output elsewhere")
    assert len(result.stderr.splitlines()) == 1
    assert not (tmp_path / "-").exists()


def test_solve_html_writes_the_page_of_the_winning_line(tmp_path):
    path = tmp_path / "s.html"
    result = run("solve", "SP1-S1C-AAAAAAD", "--html", str(path))
    assert result.exit_code == 0, result.output
    line = next(x for x in result.stdout.splitlines() if x.startswith("line: "))[6:]
    assert f"page: {path}" in result.stdout
    data = embedded_data(path.read_text(encoding="utf-8"))
    assert [s["action"] for s in data["steps"][1:]] == line.split()
    assert data["ending"].startswith("won: all 8 runs removed")


def test_solve_html_without_a_win_writes_nothing(tmp_path):
    path = tmp_path / "s.html"
    result = run("solve", "SP1-S4C-AAAAAAB", "--nodes", "10", "--html", str(path))
    assert result.exit_code == 0, result.output
    assert "page: not written (no winning line)" in result.stdout
    assert not path.exists()


# -- a real browser ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} and {CHROMEDRIVER} must be installed in CI (.ci/run does)")
        pytest.skip("Debian's chromium and chromium-driver are not installed")
    from selenium import webdriver  # a test dependency: missing, it is an error
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tmp_path_factory.mktemp("chromium-profile")
    for arg in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-dev-shm-usage",
        f"--user-data-dir={profile}",
        "--window-size=1400,1000",
    ):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def shown_columns(driver):
    """The columns as the page draws them: face-down count and face-up cards."""
    return driver.execute_script("""
        return Array.from(document.querySelectorAll('#columns .column')).map(function (c) {
          return [c.querySelectorAll('.card.down').length,
                  Array.from(c.querySelectorAll('.card.up')).map(function (e) {
                    return e.dataset.card; })]; });""")


def text(driver, element_id):
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, element_id).text


def test_a_browser_steps_through_a_whole_won_line_with_the_keys(browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    game = win("SP1-S4C-AAAAAAD")
    start = GameCode.parse(game["code"]).position()
    path = tmp_path / "solution.html"
    assert run("show", game["code"], game["line"], "--html", str(path)).exit_code == 0
    browser.get(path.as_uri())
    assert browser.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1"
    total = game["moves"]
    assert total > 40  # so the mid-way check at step 40 runs
    assert text(browser, "step") == "0" and text(browser, "total") == str(total)
    assert shown_columns(browser) == [
        [len(start.down[c]), [card_text(x) for x in start.up[c]]] for c in range(10)
    ]
    body = browser.find_element(By.TAG_NAME, "body")
    actions = game["line"].split()
    runs_seen = 0
    for k in range(1, total + 1):
        body.send_keys(Keys.ARROW_RIGHT)
        assert text(browser, "step") == str(k)
        assert text(browser, "action") == actions[k - 1]
        runs_seen = max(runs_seen, int(text(browser, "runs-removed")))
        if k == 40:  # a position mid-way, card by card
            after = replay(start, " ".join(actions[:k])).position
            assert shown_columns(browser) == [
                [len(after.down[c]), [card_text(x) for x in after.up[c]]] for c in range(10)
            ]
            moved = browser.find_elements(By.CSS_SELECTOR, ".card.moved")
            assert moved, "the cards the action put down are highlighted"
            browser.save_screenshot(str(tmp_path / "step40.png"))
    # The last step: the final position (every column empty), the counts, the ending.
    final = replay(start, game["line"])
    assert final.won
    assert shown_columns(browser) == [[0, []]] * 10
    assert text(browser, "moves") == str(game["moves"]) == str(final.moves)
    assert text(browser, "score") == str(game["score"])
    assert text(browser, "runs-removed") == "8" and runs_seen == 8
    assert len(browser.find_elements(By.CSS_SELECTOR, "#runs .mini.run")) == 8
    assert text(browser, "ending").startswith(f"won: all 8 runs removed in {total} moves")
    assert text(browser, "sentence").endswith(
        "(8 of 8: the game is won)"
    ) or "(8 of 8: the game is won)" in text(browser, "sentence")
    body.send_keys(Keys.ARROW_RIGHT)  # past the end: stays
    assert text(browser, "step") == str(total)
    shot = tmp_path / "final.png"
    browser.save_screenshot(str(shot))
    assert shot.stat().st_size > 10_000
    # Back one step, then Home, then autoplay with space until it moves, and stop it.
    body.send_keys(Keys.ARROW_LEFT)
    assert text(browser, "step") == str(total - 1)
    body.send_keys(Keys.HOME)
    assert text(browser, "step") == "0"
    body.send_keys(" ")
    assert body.get_attribute("data-playing") == "1"
    deadline = time.time() + 10
    while text(browser, "step") in ("0", "1") and time.time() < deadline:
        time.sleep(0.1)
    body.send_keys(" ")
    assert body.get_attribute("data-playing") == "0"
    stopped = int(text(browser, "step"))
    assert stopped >= 2
    time.sleep(1.0)
    assert int(text(browser, "step")) == stopped
    # The slider and the buttons go where they say.
    browser.execute_script(
        "var s = document.getElementById('slider'); s.value = 25;"
        "s.dispatchEvent(new Event('input'));"
    )
    assert text(browser, "step") == "25"
    browser.find_element(By.ID, "next").click()
    assert text(browser, "step") == "26"
    browser.find_element(By.ID, "last").click()
    assert text(browser, "step") == str(total)
    browser.save_screenshot(
        str(Path(os.environ.get("SPIDERSOLVE_SHOTS", tmp_path)) / "solution-page.png")
    )


def test_the_page_opens_at_the_from_step(browser, tmp_path):
    path = tmp_path / "from.html"
    game = win("SP1-S1C-AAAAAAD")
    assert (
        run("show", game["code"], game["line"], "--from", "12", "--html", str(path)).exit_code == 0
    )
    browser.get(path.as_uri())
    assert text(browser, "step") == "12"
