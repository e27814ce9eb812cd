// Browser tests of `inarow serve`: the analysis page played and read as a user would, in
// Debian's chromium (playwright-core drives it; no browser is downloaded). Every position
// here is one the server solves at once, so that the values on the board are exact and can be
// checked against `inarow analyze`.
//
// SCREENSHOTS=docs writes the screenshots into docs/screenshots (committed, shown in the
// README) instead of target/browser. PAGE=disk serves web/index.html from the work tree in
// place of the page built into the binary (to try a page edit without a rebuild).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { headlineAgrees } from "./headline.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const target = process.env.CARGO_TARGET_DIR || join(root, "target");
const inarow = join(target, "release/inarow");
const shots = process.env.SCREENSHOTS === "docs" ? join(root, "docs/screenshots") : join(target, "browser");
let server, browser, page, base;

before(async () => {
  // Port 0: the server takes a free port and says which on its first line.
  server = spawn(inarow, ["serve", "--addr", "127.0.0.1:0"], { stdio: ["ignore", "pipe", "inherit"] });
  base = await new Promise((resolve, reject) => {
    server.on("exit", (code) => reject(new Error(`inarow serve exited with ${code}`)));
    server.stdout.on("data", (chunk) => {
      const url = /serving on (http:\S+)/.exec(String(chunk));
      if (url) resolve(url[1]);
    });
  });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox"],
  });
  page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
  page.on("pageerror", (e) => {
    throw e;
  });
  if (process.env.PAGE === "disk") {
    const html = readFileSync(join(root, "web/index.html"));
    await page.route((url) => url.pathname === "/", (route) => route.fulfill({ contentType: "text/html", body: html }));
  }
  mkdirSync(shots, { recursive: true });
});

after(async () => {
  await browser?.close();
  server?.kill();
});

// Waits until the page has no request under way (the values, when on, as exact as they get).
async function settled() {
  await page.waitForFunction(() => document.body.dataset.state === "idle", null, { timeout: 30_000 });
}

async function open(query) {
  await page.goto(`${base}/?${query}`);
  await settled();
}

// Clicks and waits for what the click started.
async function click(selector) {
  await page.click(selector);
  await settled();
}

async function press(key) {
  await page.keyboard.press(key);
  await settled();
}

const param = (name) => new URL(page.url()).searchParams.get(name);
const text = (selector) => page.textContent(selector);
const stones = () => page.$$eval("#board .stone", (s) => s.length);

// The values on the board, move by move (chips, and buttons for moves that are not a cell).
async function shown() {
  assert.equal(await page.getAttribute("#board", "data-values"), "exact");
  const values = await page.$$eval("#board [data-move][data-value]", (es) =>
    es.map((e) => [e.dataset.move, e.dataset.value, e.dataset.exact]));
  for (const [move, , exact] of values) assert.equal(exact ?? "true", "true", move);
  return new Map(values.map(([m, v]) => [m, v]));
}

// `inarow analyze`'s value of every move.
function analyze(game, moves) {
  const out = execFileSync(inarow, ["analyze", "--game", game, moves], { encoding: "utf8" });
  return new Map(out.trim().split("\n").map((l) => l.split(" ")));
}

const sorted = (map) => [...map].sort(([a], [b]) => (a < b ? -1 : 1));

async function valuesAre(game, moves) {
  assert.equal(param("moves") ?? "", moves);
  assert.deepEqual(sorted(await shown()), sorted(analyze(game, moves)));
}

async function screenshot(name, width) {
  await page.mouse.move(0, 0); // no hover marks
  if (width) await page.setViewportSize({ width, height: 800 });
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  if (width) await page.setViewportSize({ width: 1000, height: 800 });
}

test("Connect Four 5x4: moves by clicks and keys, every value on the board as inarow analyze's", async () => {
  await open("game=connect4:5x4&mode=friend");
  await valuesAre("connect4:5x4", "");
  await click('#board .col[data-move="3"]');
  await valuesAre("connect4:5x4", "3");
  await press("2");
  await valuesAre("connect4:5x4", "32");
  assert.equal(await stones(), 2);
  assert.match(await text("#summary"), /^(Red|Yellow) wins: with best play the game ends by move \d+\.$|^Draw with best play\.$/);
  // The last move is marked: the disc of column 2's bottom cell.
  assert.equal(await page.$$eval("#board .lastmark", (m) => m.length), 1);
  const last = await page.$eval("#board .lastmark", (m) => m.previousElementSibling.dataset.cell);
  assert.equal(last, "1");
});

test("Connect Four 7x6: a position of ply 21, a move by its key, values as inarow analyze's", async () => {
  const before = "434443336657446725213";
  await open(`game=connect4&moves=${before}`);
  await press("3");
  await valuesAre("connect4", before + "3");
  await screenshot("connect4");
  await screenshot("phone-connect4", 375);
});

test("navigation: back, forward, first, last, a jump from the move list, the arrow keys, and the URL", async () => {
  await open("game=connect4:5x4&moves=3241&mode=friend");
  assert.equal(await stones(), 4);
  await click("#back");
  assert.equal(param("at"), "3");
  assert.equal(await stones(), 3);
  assert.equal(await page.getAttribute("#moves .ply.current", "data-ply"), "3");
  await click("#first");
  assert.equal(await stones(), 0);
  await click("#forward");
  assert.equal(await stones(), 1);
  await click('#moves .ply[data-ply="2"]');
  assert.equal(param("at"), "2");
  await valuesAre("connect4:5x4", "3241"); // the whole line stays in the URL ...
  assert.deepEqual(sorted(await shown()), sorted(analyze("connect4:5x4", "32"))); // ... the values are move 2's
  await press("ArrowRight");
  assert.equal(await stones(), 3);
  await press("ArrowLeft");
  // A reload shows the same position, with the moves after it still ahead.
  await page.goto(page.url());
  await settled();
  assert.equal(await stones(), 2);
  assert.equal(await page.$$eval("#moves .ply.future", (p) => p.length), 2);
  await click("#last");
  assert.equal(await stones(), 4);
  assert.equal(param("at"), null);
  // A move other than the next one replaces the rest of the line.
  await click('#moves .ply[data-ply="2"]');
  await click('#board .col[data-move="5"]');
  assert.equal(param("moves"), "325");
  assert.equal(await page.$$eval("#moves .ply", (p) => p.length), 3);
});

test("the expected line stepped through on the board", async () => {
  await open("game=connect4:5x4&moves=32&mode=friend");
  const pv = await page.$$eval("#pv .pvm", (b) => b.map((x) => x.textContent));
  assert.ok(pv.length >= 2, pv.join(" "));
  await page.click('#pv .pvm[data-step="2"]');
  await page.waitForSelector("#board[data-ply='4']");
  assert.equal(await stones(), 4);
  assert.match(await text("#summary"), /^Expected line: 2 of \d+ moves on\.$/);
  assert.equal(await page.$$eval("#board .chip", (c) => c.length), 0);
  assert.equal(await page.$$eval("#board .num", (n) => n.map((x) => x.textContent).join()), "1,2");
  await page.click("#pvforward");
  await page.waitForSelector("#board[data-ply='5']");
  await page.keyboard.press("Escape");
  await page.waitForSelector("#board[data-ply='2']");
  assert.equal(param("moves"), "32");
  await shown();
});

test("the winning line, and no move left to play", async () => {
  await open("game=connect4:5x4:k3&mode=friend");
  for (const key of ["1", "1", "2", "2", "3"]) await press(key);
  assert.equal(await text("#summary"), "Red wins: three in a row.");
  assert.equal(await page.getAttribute("#board .winline", "data-line"), "0 1 2");
  assert.equal(await page.$$eval("#board .winring", (r) => r.length), 3);
  assert.equal(await page.$$eval("#board .target", (t) => t.length), 0);
  assert.equal(await page.$$eval("#board .chip", (c) => c.length), 0);
});

test("PopOut: a pop by clicking one's own bottom disc, pops' values on the discs", async () => {
  const game = "popout";
  await open(`game=${game}&moves=444432363326&mode=friend`);
  await press("4");
  await click('#board .col[data-move="6"]');
  await valuesAre(game, "44443236332646");
  // Red may pop its own bottom discs (columns 3 and 4), not Yellow's.
  assert.deepEqual(await page.$$eval("#board .pop", (p) => p.map((x) => x.dataset.move).sort()), ["p3", "p4"]);
  await screenshot("popout");
  // Column 4's stones, bottom first: the bottom one goes, the others fall by one.
  const column = () => page.$$eval("#board .col[data-col='3'] .stone", (s) => s.map((x) => x.getAttribute("class")));
  const before = await column();
  await click("#board .pop[data-move='p4']");
  await valuesAre(game, "44443236332646p4");
  assert.deepEqual(await column(), before.slice(1));
  // The pop is marked under its column.
  assert.equal(await page.textContent("#board .lbl.strong"), "4");
});

test("PopOut 4x4 from the start, by clicks", async () => {
  await open("game=popout:4x4&mode=friend");
  await click('#board .col[data-move="1"]');
  await click('#board .col[data-move="2"]');
  await valuesAre("popout:4x4", "12");
  assert.equal(await page.$$eval("#board .pop", (p) => p.length), 1);
});

test("the cube: a column clicked on the floor, values on the floor's columns, the winning line", async () => {
  const game = "cube";
  await open(`game=${game}&moves=0123456789ab012&mode=friend`);
  await click('#board .col[data-move="3"]');
  await valuesAre(game, "0123456789ab0123");
  await screenshot("cube");
  // A column clicked through a level's cell, then the win.
  await click('#board .level[data-level="1"] .cell[data-cell="12"]');
  assert.equal(param("moves"), "0123456789ab0123c");
  assert.equal(await text("#summary"), "Red wins: four in a row.");
  assert.equal(await page.$$eval("#board .winsq", (w) => w.length), 4);
});

test("Qubic: a cell clicked, a value in every empty cell", async () => {
  const game = "qubic";
  const before = "a11d11a41d41a14d14a21a31a22d32d23d31";
  await open(`game=${game}&moves=${before}&mode=friend`);
  await click('#board .cell[data-name="d21"]');
  await valuesAre(game, before + "d21");
  const empty = await page.$$eval("#board .cell", (cs) => cs.filter((c) => !c.querySelector(".stone")).length);
  assert.equal((await shown()).size, empty);
  await screenshot("qubic");
});

test("Pentago: place then turn; cells show their best turn, the arrows every turn's value", async () => {
  const game = "pentago";
  const line = "b20l,e20l,b10r,b10l,b30r,d30l,b50r,b43l,b31r,a41l,c51r,b61l,c61r,d21l,d51r,e61l,b61r,c31l,e11r,e51l,e41r";
  await open(`game=${game}&moves=${line}&mode=friend`);
  await click('#board .cell[data-name="f3"]');
  assert.equal(await page.$$eval("#board .turn.target", (t) => t.length), 8);
  await click('#board .turn[data-block="1"][data-clockwise="false"]');
  const moves = line.replaceAll(",", "") + "f31l";
  assert.equal(param("moves"), moves);
  const cli = analyze(game, moves);
  assert.equal(await page.getAttribute("#board", "data-values"), "exact");
  // Each empty cell: its value is the best of its eight turns, and each turn's value is that
  // of the move the engine lists for the same position.
  const cells = await page.$$eval("#board .cell.target", (cs) => cs.map((c) => [c.dataset.name, c.dataset.move || null]));
  const covered = new Set();
  for (const [cell, atOnce] of cells) {
    const value = await page.getAttribute(`#board .chip[data-cell-value="${cell}"]`, "data-value");
    if (atOnce) {
      assert.equal(value, cli.get(atOnce), cell);
      covered.add(atOnce);
      continue;
    }
    await click(`#board .cell[data-name="${cell}"]`);
    const turns = await page.$$eval("#board .turn .chip", (cs) => cs.map((c) => [c.closest(".turn").dataset.move, c.dataset.same, c.dataset.value]));
    assert.equal(turns.length, 8, cell);
    for (const [move, same, v] of turns) {
      assert.ok(move.startsWith(cell), move);
      assert.equal(v, cli.get(same), `${move} = ${same}`);
      covered.add(same);
    }
    assert.equal(value, String(Math.max(...turns.map(([, , v]) => Number(v)))), cell);
  }
  assert.deepEqual([...covered].sort(), [...cli.keys()].sort());
  // A turn and the listed move it stands for reach the same position (the server says so).
  await click('#board .cell[data-name="a4"]');
  const pairs = await page.$$eval("#board .turn .chip", (cs) => cs.map((c) => [c.closest(".turn").dataset.move, c.dataset.same]));
  for (const [move, same] of pairs) {
    const board = async (m) => (await (await fetch(`${base}/api/position?game=pentago&moves=${moves},${m}`)).json()).board;
    assert.deepEqual(await board(move), await board(same), `${move} = ${same}`);
  }
  await screenshot("pentago");
  await screenshot("phone-pentago", 375);
  await press("Escape");
  assert.equal(await page.$$eval("#board .turn.target", (t) => t.length), 0);
});

test("Pentago from a board number in the URL: that board, its values, then moves after it", async () => {
  const board = "274440791932540184"; // the README's 18-stone position
  await open(`game=pentago&moves=${board}&mode=friend`);
  assert.equal(await stones(), 18);
  assert.equal(param("moves"), board);
  // The values are the board's, as inarow analyze gives them: a cell's eight turns.
  const turnsAre = async (moves, cell) => {
    assert.equal(await page.getAttribute("#board", "data-values"), "exact");
    const cli = analyze("pentago", moves);
    await click(`#board .cell[data-name="${cell}"]`);
    const turns = await page.$$eval("#board .turn .chip", (cs) => cs.map((c) => [c.dataset.same, c.dataset.value]));
    assert.equal(turns.length, 8, cell);
    for (const [same, v] of turns) assert.equal(v, cli.get(same), same);
  };
  const cell = await page.$eval("#board .cell.target", (c) => c.dataset.name);
  await turnsAre(board, cell);
  await click('#board .turn[data-block="1"][data-clockwise="false"]');
  assert.equal(await stones(), 19);
  assert.equal(param("moves"), `${board}/${cell}1l`);
  const next = await page.$eval("#board .cell.target", (c) => c.dataset.name);
  await turnsAre(`${board}/${cell}1l`, next);
  await page.keyboard.press("Escape");
});

test("a new position aborts the old position's search", async () => {
  // A 9x7 position of two stones (no book there): not exact within the first caps, so a
  // longer search is under way.
  await page.goto(`${base}/?game=connect4:9x7&moves=55&mode=friend`);
  await page.waitForSelector('#board[data-values="estimate"]', { state: "attached", timeout: 20_000 });
  await headlineAgrees(page);
  assert.match(await text("#summary"), /\(estimate after [\d.]+ s\)\.$|^Estimate after [\d.]+ s: /);
  assert.ok(await page.$$eval("#board .chip.est", (c) => c.length) > 0);
  const aborted = page.waitForEvent("requestfailed", {
    predicate: (r) => r.url().includes("/api/analyze") && r.url().includes("moves=55&"),
    timeout: 10_000,
  });
  await page.keyboard.press("1");
  assert.match((await aborted).failure().errorText, /ABORTED/);
  await page.waitForFunction(() => new URL(location.href).searchParams.get("moves") === "551");
});

test("a link with a typo: the page says what is wrong, shows a board and can be played; no favicon asked", async () => {
  const asked = [];
  const listen = (r) => asked.push(r.url());
  page.on("request", listen);
  await open("game=connect4&moves=8&mode=friend");
  assert.match(await text("#error"), /^The link's moves: .+\. Showing the game's start instead\.$/);
  assert.equal(await stones(), 0);
  await press("4");
  assert.equal(param("moves"), "4");
  assert.equal(await text("#error"), "");
  await open("game=nosuch&mode=friend");
  assert.match(await text("#error"), /^The link's game: bad game spec 'nosuch': .+\. Showing Connect Four 7×6 instead\.$/);
  assert.equal(param("game"), "connect4");
  assert.notEqual(await text("#summary"), "Loading…");
  assert.equal(await page.getAttribute("#board", "data-values"), "exact");
  page.off("request", listen);
  assert.deepEqual(asked.filter((u) => u.includes("favicon")), []);
});

test("values off: no chips, no analysis asked", async () => {
  const asked = [];
  const listen = (r) => r.url().includes("/api/analyze") && asked.push(r.url());
  page.on("request", listen);
  await open("game=connect4:5x4&moves=32&mode=friend&values=off");
  await press("4");
  assert.equal(await page.$$eval("#board .chip", (c) => c.length), 0);
  assert.equal(await text("#summary"), "Yellow to move.");
  assert.deepEqual(asked, []);
  await page.check("#values");
  await settled();
  page.off("request", listen);
  assert.equal(asked.length > 0, true);
  await valuesAre("connect4:5x4", "324");
});

test("a whole game of connect4:4x4 against the engine, by clicks", async () => {
  await open("game=connect4:4x4&engine=best&think=0.3&mode=first");
  for (let turn = 0; turn < 16 && (await text("#summary")).indexOf(" in a row") < 0; turn++) {
    if ((await text("#summary")).startsWith("Draw.")) break;
    await click("#board .col.target");
  }
  assert.match(await text("#summary"), /^(Red wins: four in a row|Yellow wins: four in a row|Draw)\.$/);
  assert.equal(await page.$$eval("#board .target", (m) => m.length), 0);
  assert.equal(await text("#error"), "");
  assert.ok(param("moves").length >= 4);
  // As Yellow: the engine opens; the settings come back from the URL.
  await open("game=connect4:4x4&engine=depth3&think=0.2&mode=second");
  assert.equal(param("moves").length, 1);
  assert.equal(await text("#turn"), "Your move (Yellow).");
  await page.goto(page.url());
  await settled();
  assert.deepEqual(await page.$eval("#settings", () => ["mode", "engine", "think"].map((i) => document.getElementById(i).value)),
    ["second", "depth3", "0.2"]);
  assert.equal(param("moves").length, 1); // no engine move on a reload where the player is to move
});

test("headlines never contradict the board: Qubic's README position on its way to the proof, and Pentago at 19 stones", async () => {
  // Every headline the page shows on the way, with the values under it.
  await page.exposeFunction("headlineShown", async () => headlineAgrees(page).then(() => null, (e) => e.message));
  const seen = [];
  page.on("console", (m) => m.text().startsWith("disagrees: ") && seen.push(m.text()));
  await page.addInitScript(() => {
    addEventListener("DOMContentLoaded", () => {
      new MutationObserver(async () => {
        if (!window.S || !S.analysis || S.analysis.a.partial || !S.pos) return;
        const wrong = await window.headlineShown();
        if (wrong) console.log(`disagrees: ${wrong}`);
      }).observe(document.getElementById("summary"), { childList: true, characterData: true, subtree: true });
    });
  });
  // Red wins (`inarow solve`, a few seconds): proven within the caps, or Yellow's losses proven
  // so far said first.
  await open("game=qubic&moves=a11d44b23a22b11&mode=friend");
  await headlineAgrees(page);
  assert.match(await text("#summary"), /^Red wins|^\d+ of 59 moves lose for Yellow \(proven\); /);
  await screenshot("qubic-proof");
  await screenshot("phone-qubic-proof", 375);
  await open("game=pentago&moves=274440791932540184/a21l&mode=friend");
  await headlineAgrees(page);
  assert.match(await text("#summary"), /^Red wins/);
  // Every move -1, a loss, as `inarow analyze` gives it (each cell the best of its turns).
  assert.deepEqual([...new Set(analyze("pentago", "274440791932540184/a21l").values())], ["-1"]);
  assert.deepEqual([...new Set((await shown()).values())], ["-1"]);
  assert.equal(await page.getAttribute("#bar", "data-red"), "100");
  assert.deepEqual(seen, []);
});

test("play against the engine: values hidden, a hint shows them once; take back, then redo; copy link", async () => {
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  await open("game=connect4:5x4&engine=best&think=0.3&mode=first");
  const chips = () => page.$$eval("#board .chip", (c) => c.length);
  assert.equal(await chips(), 0);
  assert.equal(await text("#summary"), "Red to move.");
  assert.equal(await page.isChecked("#values"), false);
  assert.equal(param("values"), null);
  await screenshot("play-hidden");
  await screenshot("phone-play-hidden", 375);
  await click("#show-hint");
  await valuesAre("connect4:5x4", "");
  assert.equal(await page.isDisabled("#show-hint"), true);
  await screenshot("play-hint");
  await screenshot("phone-play-hint", 375);
  // A move: the engine answers, and the values are hidden again.
  await press("3");
  assert.equal(param("moves").length, 2);
  assert.equal(await chips(), 0);
  await press("2");
  const four = param("moves");
  assert.equal(four.length, 4);
  // Take back to the player's move; the line is kept: redo goes along it.
  await click("#undo");
  assert.equal(param("moves"), four);
  assert.equal(param("at"), "2");
  await click("#undo");
  assert.equal(param("at"), "0");
  await click("#redo");
  assert.equal(param("at"), "2");
  await click("#redo");
  assert.equal(param("at"), null);
  assert.equal(param("moves"), four);
  assert.equal(await page.isDisabled("#redo"), true);
  // A new move after a take back replaces the rest of the line.
  await click("#undo");
  const other = four[2] === "1" ? "5" : "1";
  await press(other);
  assert.equal(param("moves").slice(0, 3), four.slice(0, 2) + other);
  assert.equal(param("moves").length, 4);
  assert.equal(param("at"), null);
  // The link of the page, to the clipboard.
  await page.click("#copy-link");
  await page.waitForFunction(() => document.getElementById("copy-link").textContent === "Link copied");
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), page.url());
  // The switch still shows them all the time.
  await page.check("#values");
  await settled();
  assert.equal(param("values"), "on");
  assert.ok((await chips()) > 0);
});

test("switching game keeps each game's position and says so; a link's error above the board, also on a phone", async () => {
  await open("game=connect4:5x4&moves=32&mode=friend");
  await page.selectOption("#game", "popout:4x4");
  await settled();
  assert.equal(await text("#note"), "A new game of PopOut 4×4. Your Connect Four 5×4 game is kept: choose it again to go back to it.");
  assert.equal(param("moves"), null);
  await press("1");
  assert.equal(await text("#note"), "");
  await page.selectOption("#game", "connect4:5x4");
  await settled();
  assert.equal(param("moves"), "32");
  assert.equal(await text("#note"), "Back to your Connect Four 5×4 game, at move 2 of 2. Your PopOut 4×4 game is kept: choose it again to go back to it.");
  await page.selectOption("#game", "popout:4x4");
  await settled();
  assert.equal(param("moves"), "1");
  for (const width of [1000, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await open("game=connect4&moves=8&mode=friend");
    const [error, board] = [await page.$eval("#error", (e) => e.getBoundingClientRect().toJSON()),
      await page.$eval("#board", (e) => e.getBoundingClientRect().toJSON())];
    assert.ok(error.height > 0 && error.bottom <= board.top && error.bottom < 800, JSON.stringify({ width, error, board }));
    if (width === 375) await screenshot("phone-typo-moves");
  }
  await page.setViewportSize({ width: 1000, height: 800 });
});
