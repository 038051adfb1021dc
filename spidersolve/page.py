"""A self-contained HTML page that plays a line step by step (``show --html``).

One file, no network: the styles and the script are inline and the steps
are JSON data in the page (``page_data``). The page draws the table with
cards (suit symbols, red and black, face-down backs), the stock and the
runs removed, highlights the cards each action put down, and says the
action's sentence beside the table; buttons, the arrow keys, a slider and
autoplay (space) step through it. Without a script the list of steps is
still there.

>>> from spidersolve.show import line_steps
>>> from spidersolve.state import GameCode
>>> page = solution_page(line_steps(GameCode.parse("SP1-S1C-AAAAAAD").position(), "1>8"))
>>> page.startswith("<!DOCTYPE html>") and "http" not in page.split("<body>")[0]
True
"""

from __future__ import annotations

import html
import json

from .board import plural
from .cards import SUITS, card_text
from .files import write_text_atomic
from .show import Step, ending_text
from .state.position import N_COLS


def page_data(steps: list[Step], title: str, start: int = 0) -> dict:
    """The JSON the page's script reads: one entry per step, start first.

    Each step: ``n``, ``action`` (notation or null), ``sentence``, ``moves``,
    ``score``, ``stock`` (cards left), ``removed`` (suit letters in order),
    ``cols`` (per column ``[face-down count, [face-up cards]]``), ``marked``
    (``[col, i]`` of the cards the action put down), ``turned`` (columns
    whose top card turned up).
    """
    rows = []
    for step in steps:
        pos, game = step.game.position, step.game
        turned = [col for col, _card in step.outcome.turned] if step.outcome else []
        rows.append(
            {
                "n": step.number,
                "action": step.action.text() if step.action else None,
                "sentence": step.sentence,
                "moves": game.moves,
                "score": game.score,
                "stock": len(pos.stock),
                "removed": "".join(SUITS[s] for s in pos.removed),
                "cols": [
                    [len(pos.down[c]), [card_text(x) for x in pos.up[c]]] for c in range(N_COLS)
                ],
                "marked": [list(m) for m in step.marked],
                "turned": turned,
            }
        )
    return {"title": title, "start": start, "ending": ending_text(steps[-1].game), "steps": rows}


def solution_page(steps: list[Step], title: str = "Spider solution", start: int = 0) -> str:
    """The whole page as text."""
    title = _displayable(title)
    data = json.dumps(page_data(steps, title, start), separators=(",", ":"))
    # Inside <script> only "</" could end the element early; JSON allows \\u003c for "<".
    data = data.replace("<", "\\u003c")
    items = "\n".join(
        f'<li data-step="{s.number}"><b>{html.escape(s.action.text())}</b> '
        f"{html.escape(s.sentence)}</li>"
        for s in steps[1:]
    )
    total = len(steps) - 1
    return (
        _TEMPLATE.replace("@TITLE@", html.escape(title))
        .replace(
            "@SUMMARY@", html.escape(f"{plural(total, 'action')}; " + ending_text(steps[-1].game))
        )
        .replace("@TOTAL@", str(total))
        .replace("@ITEMS@", items)
        .replace("@DATA@", data)
    )


def _displayable(text: str) -> str:
    """``text`` with what UTF-8 cannot hold (a file name's undecodable bytes) as U+FFFD."""
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:  # a lone surrogate that is no escaped byte
        return text.encode("utf-8", "replace").decode("utf-8")


def write_solution_page(path, steps: list[Step], title: str, start: int = 0):
    """Write the page to ``path`` atomically; returns the path."""
    return write_text_atomic(path, solution_page(steps, title, start))


_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>@TITLE@</title>
<style>
:root { --felt: #1f6b3a; --card-w: 64px; --card-h: 90px; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif;
       background: #14472a; color: #f4f1e8; }
header { padding: 10px 16px; background: #0f3820; }
header h1 { margin: 0; font-size: 18px; }
header p { margin: 2px 0 0; color: #cfe3d2; }
main { display: flex; gap: 16px; padding: 12px 16px; align-items: flex-start; flex-wrap: wrap; }
#table { flex: 1 1 700px; min-width: 660px; background: var(--felt); border-radius: 10px;
         padding: 10px; box-shadow: inset 0 0 40px rgba(0,0,0,.35); }
#top { display: flex; justify-content: space-between; align-items: center; min-height: 70px;
       margin-bottom: 8px; }
.pile { display: flex; align-items: center; gap: 6px; }
.pile .label { font-size: 13px; color: #dfeee2; margin-left: 4px; }
.mini { width: 34px; height: 48px; border-radius: 5px; border: 1px solid #222;
        display: inline-flex; align-items: center; justify-content: center; font-size: 20px; }
.mini.down { background: repeating-linear-gradient(45deg, #24448f 0 4px, #2f58b5 4px 8px);
             border-color: #fff; margin-right: -24px; }
.mini.down:last-of-type { margin-right: 0; }
.mini.run { background: #fdfcf7; color: #111; margin-right: -14px; }
.mini.run.red { color: #c8102e; }
.mini.empty { border: 2px dashed rgba(255,255,255,.35); background: transparent; }
#columns { display: grid; grid-template-columns: repeat(10, 1fr); gap: 6px; min-height: 420px; }
.column { display: flex; flex-direction: column; align-items: center; min-width: 0; }
.column .num { font-size: 12px; color: #cfe3d2; margin-bottom: 3px; }
.slot { width: var(--card-w); height: var(--card-h); border-radius: 7px;
        border: 2px dashed rgba(255,255,255,.3); }
.card { width: var(--card-w); height: var(--card-h); border-radius: 7px; position: relative;
        flex: none; border: 1px solid #333; box-shadow: 0 1px 2px rgba(0,0,0,.4); }
.card + .card { margin-top: calc(var(--card-h) * -0.72); }
.card.down + .card.down { margin-top: calc(var(--card-h) * -0.86); }
.card.down { background: repeating-linear-gradient(45deg, #24448f 0 5px, #2f58b5 5px 10px);
             border: 2px solid #fff; }
.card.up { background: #fdfcf7; color: #111; }
.card.up.red { color: #c8102e; }
.card .corner { position: absolute; top: 2px; left: 5px; font-weight: 700; font-size: 16px;
                line-height: 1.05; }
.card .pip { position: absolute; right: 6px; bottom: 2px; font-size: 30px; }
.card.moved { outline: 3px solid #ffd23f; outline-offset: -1px; background: #fff7c9; }
.card.turned { box-shadow: 0 0 0 3px #7fe3ff; }
aside { flex: 0 1 330px; min-width: 280px; }
.panel { background: #0f3820; border-radius: 10px; padding: 12px; margin-bottom: 12px; }
#title-step { font-size: 20px; font-weight: 700; }
#action { font-family: ui-monospace, monospace; color: #ffd23f; font-size: 17px; }
#sentence { min-height: 4.2em; font-size: 16px; margin: 6px 0 0; }
dl { display: grid; grid-template-columns: auto 1fr; gap: 2px 10px; margin: 0; }
dt { color: #cfe3d2; } dd { margin: 0; font-weight: 600; }
.controls { display: flex; gap: 6px; margin-bottom: 8px; }
button { font: inherit; font-size: 18px; padding: 4px 12px; border-radius: 6px; border: 0;
         background: #f4f1e8; color: #0f3820; cursor: pointer; }
button:hover { background: #fff; }
#slider { width: 100%; }
.keys { font-size: 12px; color: #cfe3d2; margin: 6px 0 0; }
#ending { font-weight: 600; color: #ffd23f; }
ol { position: relative; max-height: 300px; overflow: auto; margin: 0; padding-left: 3.2em; font-size: 13px; }
ol li { cursor: pointer; padding: 1px 2px; }
ol li.current { background: #ffd23f; color: #0f3820; }
ol li.current::marker { color: #ffd23f; }
</style>
</head>
<body>
<header><h1>@TITLE@</h1><p>@SUMMARY@</p></header>
<main>
<section id="table" aria-label="the table">
  <div id="top">
    <div class="pile" id="stock" aria-label="stock"></div>
    <div class="pile" id="runs" aria-label="runs removed"></div>
  </div>
  <div id="columns"></div>
</section>
<aside>
  <div class="panel" aria-live="polite">
    <div id="title-step">Step <span id="step">0</span> of <span id="total">@TOTAL@</span></div>
    <div id="action"></div>
    <p id="sentence"></p>
    <p id="ending" hidden></p>
  </div>
  <div class="panel">
    <div class="controls">
      <button id="first" title="first step (Home)">|&#x25C0;</button>
      <button id="back" title="back (left arrow)">&#x25C0;</button>
      <button id="play" title="autoplay (space)">Play</button>
      <button id="next" title="next (right arrow)">&#x25B6;</button>
      <button id="last" title="last step (End)">&#x25B6;|</button>
    </div>
    <input id="slider" type="range" min="0" max="@TOTAL@" value="0" aria-label="step">
    <p class="keys">Right / left arrow: step; space: autoplay on or off; Home / End.</p>
  </div>
  <div class="panel">
    <dl>
      <dt>Moves</dt><dd id="moves">0</dd>
      <dt>Score</dt><dd id="score">500</dd>
      <dt>Stock</dt><dd id="stock-count"></dd>
      <dt>Runs removed</dt><dd><span id="runs-removed">0</span> of 8</dd>
    </dl>
  </div>
  <div class="panel"><ol id="steps-list">
@ITEMS@
  </ol></div>
</aside>
</main>
<script type="application/json" id="steps-data">@DATA@</script>
<script>
(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("steps-data").textContent);
  var STEPS = DATA.steps, LAST = STEPS.length - 1;
  var SYMBOL = {S: "\\u2660", H: "\\u2665", D: "\\u2666", C: "\\u2663"};
  var index = Math.max(0, Math.min(LAST, DATA.start || 0)), timer = null;
  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function rank(card) { return card[0] === "T" ? "10" : card[0]; }
  function red(suit) { return suit === "H" || suit === "D"; }
  function faceUp(card, moved, turned) {
    var suit = card[1];
    var e = el("div", "card up" + (red(suit) ? " red" : "") + (moved ? " moved" : "") +
               (turned ? " turned" : ""));
    e.dataset.card = card;
    e.setAttribute("aria-label", card);
    e.appendChild(el("span", "corner", rank(card) + SYMBOL[suit]));
    e.appendChild(el("span", "pip", SYMBOL[suit]));
    return e;
  }
  function render() {
    var s = STEPS[index];
    $("step").textContent = s.n;
    $("action").textContent = s.action || "";
    $("sentence").textContent = s.sentence;
    $("moves").textContent = s.moves;
    $("score").textContent = s.score;
    var deals = Math.floor(s.stock / 10);
    $("stock-count").textContent = s.stock + (s.stock === 1 ? " card, " : " cards, ") +
      deals + (deals === 1 ? " deal" : " deals") + " left";
    $("runs-removed").textContent = s.removed.length;
    $("slider").value = index;
    $("ending").hidden = index !== LAST;
    $("ending").textContent = DATA.ending;
    var stock = $("stock");
    stock.textContent = "";
    if (deals === 0) stock.appendChild(el("span", "mini empty"));
    for (var d = 0; d < deals; d++) stock.appendChild(el("span", "mini down"));
    stock.appendChild(el("span", "label", deals ? "stock: " + deals + (deals === 1 ? " deal" : " deals") : "stock: empty"));
    var runs = $("runs");
    runs.textContent = "";
    runs.appendChild(el("span", "label", "removed: " + s.removed.length + " of 8"));
    for (var r = 0; r < s.removed.length; r++) {
      var suit = s.removed[r];
      var m = el("span", "mini run" + (red(suit) ? " red" : ""), "K" + SYMBOL[suit]);
      m.dataset.suit = suit;
      runs.appendChild(m);
    }
    var marked = {};
    s.marked.forEach(function (m) { marked[m[0] + ":" + m[1]] = true; });
    var cols = $("columns");
    cols.textContent = "";
    s.cols.forEach(function (col, c) {
      var box = el("div", "column");
      box.dataset.col = c + 1;
      box.appendChild(el("div", "num", String(c + 1)));
      if (col[0] === 0 && col[1].length === 0) box.appendChild(el("div", "slot"));
      for (var i = 0; i < col[0]; i++) box.appendChild(el("div", "card down"));
      // A long column is squeezed so that it stays about as tall as the table.
      var up = col[1].length, show = 25;
      if (up > 1 && col[0] * 12 + up * 25 + 90 > 560) {
        show = Math.max(15, (560 - 90 - col[0] * 12) / up);
      }
      col[1].forEach(function (card, i) {
        var turned = s.turned.indexOf(c) >= 0 && i === 0 && col[1].length === 1;
        var e = faceUp(card, marked[c + ":" + i], turned);
        if (show !== 25 && (i > 0 || col[0] > 0)) e.style.marginTop = (show - 90) + "px";
        box.appendChild(e);
      });
      cols.appendChild(box);
    });
    var list = $("steps-list"), items = list.querySelectorAll("li");
    for (var k = 0; k < items.length; k++) {
      var li = items[k], on = Number(li.dataset.step) === s.n;
      li.classList.toggle("current", on);
      // Scroll the list only, never the page.
      if (on && (li.offsetTop < list.scrollTop ||
                 li.offsetTop + li.offsetHeight > list.scrollTop + list.clientHeight)) {
        list.scrollTop = li.offsetTop - list.clientHeight / 2;
      }
    }
  }
  function go(i) { index = Math.max(0, Math.min(LAST, i)); render(); }
  function stop() { if (timer) { clearInterval(timer); timer = null; } $("play").textContent = "Play";
                   document.body.dataset.playing = "0"; }
  function toggle() {
    if (timer) { stop(); return; }
    if (index >= LAST) go(0);
    $("play").textContent = "Pause";
    document.body.dataset.playing = "1";
    timer = setInterval(function () { if (index >= LAST) { stop(); } else { go(index + 1); } }, 700);
  }
  $("first").onclick = function () { stop(); go(0); };
  $("back").onclick = function () { stop(); go(index - 1); };
  $("next").onclick = function () { stop(); go(index + 1); };
  $("last").onclick = function () { stop(); go(LAST); };
  $("play").onclick = toggle;
  $("slider").addEventListener("input", function () { stop(); go(Number(this.value)); });
  $("steps-list").addEventListener("click", function (e) {
    var li = e.target.closest("li");
    if (li) { stop(); go(Number(li.dataset.step)); }
  });
  window.addEventListener("keydown", function (e) {
    var key = e.key;
    if (key === "ArrowRight") { stop(); go(index + 1); }
    else if (key === "ArrowLeft") { stop(); go(index - 1); }
    else if (key === "Home") { stop(); go(0); }
    else if (key === "End") { stop(); go(LAST); }
    else if (key === " " || key === "Spacebar") { toggle(); }
    else return;
    e.preventDefault();
  }, true);
  document.body.dataset.ready = "1";
  render();
})();
</script>
</body>
</html>
"""
