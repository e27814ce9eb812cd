// Browser tests of the static site (web/site/build): the same page with no inarow server,
// served by `python3 -m http.server`, the engine in WebAssembly in its Web Workers. Each game
// played and analyzed; the values on the board are the native `inarow analyze`'s.
//
// SITE: the built site (default target/site). SCREENSHOTS=docs writes docs/screenshots/static-*.png.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync, execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { headlineAgrees } from "./headline.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const target = process.env.CARGO_TARGET_DIR || join(root, "target");
const site = process.env.SITE || join(target, "site");
const inarow = join(target, "release/inarow");
const shots = process.env.SCREENSHOTS === "docs" ? join(root, "docs/screenshots") : join(target, "browser");
let server, browser, page, base;
const asked = []; // every request the page makes: none may go to an API
const complaints = []; // the console's errors and the failed requests: none is expected

before(async () => {
  // Port 0: a free port, which the server names on its first line.
  server = spawn("python3", ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "-d", site], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  base = await new Promise((resolve, reject) => {
    server.on("exit", (code) => reject(new Error(`http.server exited with ${code}`)));
    server.stdout.on("data", (chunk) => {
      const port = /port (\d+)/.exec(String(chunk));
      if (port) resolve(`http://127.0.0.1:${port[1]}`);
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
  page.on("request", (r) => asked.push(r.url()));
  page.on("console", (m) => m.type() === "error" && complaints.push(m.text()));
  page.on("requestfailed", (r) => complaints.push(`${r.url()}: ${r.failure()?.errorText}`));
  page.on("response", (r) => r.status() >= 400 && complaints.push(`${r.url()}: ${r.status()}`));
  mkdirSync(shots, { recursive: true });
});

after(async () => {
  await browser?.close();
  server?.kill();
  assert.deepEqual(asked.filter((u) => u.includes("/api/")), []);
});

async function settled() {
  await page.waitForFunction(() => document.body.dataset.state === "idle", null, { timeout: 60_000 });
  assert.equal(await page.textContent("#error"), "");
}

async function open(query) {
  await page.goto(`${base}/?${query}`);
  await settled();
}

async function click(selector) {
  await page.click(selector);
  await settled();
}

async function press(key) {
  await page.keyboard.press(key);
  await settled();
}

const param = (name) => new URL(page.url()).searchParams.get(name);

async function shown() {
  assert.equal(await page.getAttribute("#board", "data-values"), "exact");
  const values = await page.$$eval("#board [data-move][data-value]", (es) =>
    es.map((e) => [e.dataset.move, e.dataset.value, e.dataset.exact]));
  for (const [move, , exact] of values) assert.equal(exact ?? "true", "true", move);
  return new Map(values.map(([m, v]) => [m, v]));
}

function analyze(game, moves) {
  const out = execFileSync(inarow, ["analyze", "--game", game, moves], { encoding: "utf8" });
  return new Map(out.trim().split("\n").map((l) => l.split(" ")));
}

const sorted = (map) => [...map].sort(([a], [b]) => (a < b ? -1 : 1));

async function valuesAre(game, moves) {
  assert.equal(param("moves") ?? "", moves);
  assert.deepEqual(sorted(await shown()), sorted(analyze(game, moves)));
}

// A screenshot, on a desktop's window or `width` pixels wide (a phone's 375).
async function screenshot(name, width) {
  await page.mouse.move(0, 0);
  if (width) await page.setViewportSize({ width, height: 800 });
  await page.screenshot({ path: join(shots, `static-${name}.png`), fullPage: true });
  if (width) await page.setViewportSize({ width: 1000, height: 800 });
}

test("the site runs the engine in workers, one per core", async () => {
  await open("game=connect4:5x4&mode=friend");
  assert.equal(await page.evaluate(() => LOCAL), true);
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  assert.equal(await page.evaluate(() => slots.length), Math.min(cores, 16));
  await valuesAre("connect4:5x4", "");
});

test("Connect Four 7x6: a move by its key, values as inarow analyze's", async () => {
  const before = "434443336657446725213";
  await open(`game=connect4&moves=${before}&mode=friend`);
  await valuesAre("connect4", before);
  await press("3");
  await valuesAre("connect4", before + "3");
  await screenshot("connect4");
});

test("PopOut: a pop by clicking one's own bottom disc", async () => {
  const game = "popout";
  await open(`game=${game}&moves=444432363326&mode=friend`);
  await press("4");
  await click('#board .col[data-move="6"]');
  await valuesAre(game, "44443236332646");
  await click("#board .pop[data-move='p4']");
  await valuesAre(game, "44443236332646p4");
  await screenshot("popout");
});

test("the cube: a column clicked, values on the floor's columns", async () => {
  const game = "cube";
  await open(`game=${game}&moves=0123456789ab012&mode=friend`);
  await click('#board .col[data-move="3"]');
  await valuesAre(game, "0123456789ab0123");
  await screenshot("cube");
});

test("the cube from its empty board: the first values as the workers give them, the cap shared by the moves", async () => {
  // A tab of its own, which records the think time of each move asked of a worker.
  const tab = await browser.newPage();
  await tab.addInitScript(() => {
    window.thinks = [];
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (message, ...rest) {
      if (message && message.fn === "analyzeMove") window.thinks.push(message.args[3].think);
      return post.call(this, message, ...rest);
    };
  });
  try {
    await tab.goto(`${base}/?game=cube&mode=friend`);
    // The summary as the board first shows partial values, both read at one moment in the page
    // (read one after the other, a loaded machine saw the analysis end in between).
    const summary = await (await tab.waitForFunction(() =>
      document.getElementById("board").dataset.values === "partial"
        && document.getElementById("summary").textContent, null, { timeout: 60_000 })).jsonValue();
    assert.match(summary, /^Analyzing… \d+ of 16 moves valued\.$/);
    // One move of each class of mirror images is asked (the corners, the centre, the edges);
    // its images take its value.
    const classes = 3;
    await tab.waitForFunction((n) => window.thinks.length >= n && document.getElementById("board").dataset.values === "estimate",
      classes, { timeout: 60_000 });
    // The first cap (1 s on this page) is the whole position's, as the server's: each worker's
    // moves share it (not the cap each: 16 moves over two workers at 0.3 s each took 2.4 s
    // before the first value).
    const first = (await tab.evaluate(() => window.thinks)).slice(0, classes);
    const [workers, cap] = await tab.evaluate(() => [slots.length, THINKS[0]]);
    assert.equal(cap, 1);
    const total = first.reduce((a, b) => a + b, 0);
    assert.ok(total <= cap * workers + classes * 0.01, `the first cap's moves asked ${total} s in all`);
  } finally {
    await tab.close();
  }
});

test("Qubic: a cell clicked, a value in every empty cell", async () => {
  const game = "qubic";
  const before = "a11d11a41d41a14d14a21a31a22d32d23d31";
  await open(`game=${game}&moves=${before}&mode=friend`);
  await click('#board .cell[data-name="d21"]');
  await valuesAre(game, before + "d21");
  await screenshot("qubic");
});

test("Qubic from its empty board: the winning strategy read from qubic.strategy, a11 a proven win (1) as natively", async () => {
  const from = asked.length;
  await page.goto(`${base}/?game=qubic&mode=friend`);
  await page.waitForSelector('#board .chip[data-move="a11"][data-value="1"]', { timeout: 60_000 });
  await settled();
  assert.equal(await page.textContent("#summary"), "Red wins with best play.");
  // b44 and c44 (mirror images) alike; every corner a win, as a11.
  await mirrorsEqual(qubicMirrors());
  await mirrorsEqual([["a11", "d11", "a41", "d41", "a14", "d14", "a44", "d44"]]);
  // (It exits 3: the other moves are estimates at 0.3 s.)
  const native = spawnSync(inarow, ["analyze", "--game", "qubic", "--time", "0.3", ""], { encoding: "utf8" });
  assert.match(native.stdout, /^a11 1$/m);
  // The file once for the page, though every worker was given it.
  assert.equal(asked.slice(from).filter((u) => u.endsWith("/qubic.strategy")).length, 1);
  await screenshot("qubic-empty");
});

// The values of the moves `classes` says are mirror images of each other are equal, estimates
// too: the page values one move of each class and copies its value to the others.
async function mirrorsEqual(classes) {
  const values = new Map(await page.$$eval("#board .chip[data-move]", (cs) => cs.map((c) => [c.dataset.move, c.dataset.value])));
  for (const moves of classes) {
    const shown = moves.map((m) => `${m} ${values.get(m)}`).join(", ");
    assert.ok(moves.every((m) => values.get(m) !== undefined && values.get(m) === values.get(moves[0])), shown);
  }
}

// Qubic's cells with their mirror images across the middle of the columns (a-d), the rows and
// the levels (1-4).
const qubicMirrors = () => {
  const flip = { a: "d", b: "c", c: "b", d: "a", 1: "4", 2: "3", 3: "2", 4: "1" };
  const cells = [];
  for (const c of "abcd") for (const r of "1234") for (const l of "1234") cells.push(c + r + l);
  return cells.flatMap((x) => [[x, flip[x[0]] + x[1] + x[2]], [x, x[0] + flip[x[1]] + x[2]], [x, x[0] + x[1] + flip[x[2]]]]);
};

test("mirror-image moves are equal: PopOut's, the cube's and Qubic's empty boards, valued move by move in the workers", async () => {
  await open("game=popout&mode=friend");
  await mirrorsEqual([["1", "7"], ["2", "6"], ["3", "5"]]);
  await headlineAgrees(page);
  await screenshot("popout-empty");
  await screenshot("phone-popout-empty", 375);
  await open("game=cube&mode=friend");
  await mirrorsEqual([["0", "3", "c", "f"], ["5", "6", "9", "a"], ["1", "2", "4", "7", "8", "b", "d", "e"]]);
  // Red moves first: not the worse for an estimate of the empty board, as on the server.
  assert.match(await page.textContent("#summary"), /^Estimate after \d+ s: (about even|Red is ahead|likely win for Red)\.$/);
  await screenshot("cube-empty");
  await open("game=qubic&mode=friend");
  await mirrorsEqual(qubicMirrors());
  await headlineAgrees(page);
  await screenshot("phone-qubic-empty", 375);
});

// Waits until the page is idle, whatever it says under the board.
const idle = () => page.waitForFunction(() => document.body.dataset.state === "idle", null, { timeout: 60_000 });

test("a link with a typo: the page says what is wrong, shows a board and can be played", async () => {
  await page.goto(`${base}/?game=connect4&moves=8&mode=friend`);
  await idle();
  assert.match(await page.textContent("#error"), /^The link's moves: .+\. Showing the game's start instead\.$/);
  assert.equal(await page.$$eval("#board .stone", (s) => s.length), 0);
  assert.equal(await page.getAttribute("#board", "data-values"), "exact");
  await screenshot("typo-moves");
  await press("4");
  assert.equal(param("moves"), "4");
  assert.equal(await page.textContent("#error"), "");

  await page.goto(`${base}/?game=nosuch&mode=friend`);
  await idle();
  assert.match(await page.textContent("#error"), /^The link's game: bad game spec 'nosuch': .+\. Showing Connect Four 7×6 instead\.$/);
  assert.equal(param("game"), "connect4");
  assert.equal(await page.$eval("#game", (s) => s.value), "connect4");
  assert.notEqual(await page.textContent("#summary"), "Loading…");
  assert.equal(await page.getAttribute("#board", "data-values"), "exact");
  await screenshot("typo-game");
  // A bad spec typed in: the message, the board as it was.
  await page.selectOption("#game", "other");
  await page.fill("#spec", "connect4:1x1");
  await page.press("#spec", "Enter");
  await page.waitForFunction(() => document.getElementById("error").textContent.startsWith("bad game spec 'connect4:1x1'"));
  assert.equal(param("game"), "connect4");
  assert.equal(await page.$$eval("#board .col", (c) => c.length), 7);
});

test("Pentago: place then turn; the values at once placed as inarow analyze's", async () => {
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
  // Each cell's turns: every value is that of the move the engine lists for the same position.
  await click('#board .cell[data-name="a4"]');
  const turns = await page.$$eval("#board .turn .chip", (cs) => cs.map((c) => [c.dataset.same, c.dataset.value]));
  assert.equal(turns.length, 8);
  for (const [same, v] of turns) assert.equal(v, cli.get(same), same);
  await page.keyboard.press("Escape");
  await screenshot("pentago");
});

test("Pentago from a board number in the URL: that board, then a move after it", async () => {
  const board = "274440791932540184"; // the README's 18-stone position
  await open(`game=pentago&moves=${board}&mode=friend&values=off`);
  assert.equal(await page.$$eval("#board .stone", (s) => s.length), 18);
  assert.equal(param("moves"), board);
  assert.equal(await page.textContent("#moves .base"), `from board ${board}; no moves yet.`);
  const cell = await page.$eval("#board .cell.target", (c) => c.dataset.name);
  await click(`#board .cell[data-name="${cell}"]`);
  await click('#board .turn[data-block="1"][data-clockwise="false"]');
  assert.equal(await page.$$eval("#board .stone", (s) => s.length), 19);
  assert.equal(param("moves"), `${board}/${cell}1l`);
  assert.equal(await page.textContent("#moves .base"), `from board ${board}:`);
  // 18 stones on the board: the move after it is Red's (the first player's).
  assert.equal(await page.getAttribute("#moves .ply", "class"), "ply first current");
});

test("Pentago from the empty board: no memory asked that a tab cannot have; where exact values start", async () => {
  await page.goto(`${base}/?game=pentago&mode=friend`);
  await page.waitForSelector("#memory", { state: "visible", timeout: 60_000 });
  assert.match(await page.textContent("#memory"), /^Exact values start at \d+ stones in a browser tab/);
  assert.equal(await page.isVisible("#allow-memory"), false);
  await screenshot("pentago-empty");
  // One stone on: the same line, the estimates on the board.
  await page.goto(`${base}/?game=pentago&moves=a10r&mode=friend`);
  await settled();
  assert.match(await page.textContent("#memory"), /^Exact values start at \d+ stones in a browser tab/);
  assert.equal(await page.getAttribute("#board", "data-values"), "estimate");
  await screenshot("pentago-1");
});

test("Pentago from 18 stones (the README's board number), before more memory: the engine's figure, estimates within their discs and the right way round", async () => {
  await page.goto(`${base}/?game=pentago&moves=274440791932540184&mode=friend`);
  await page.waitForSelector("#memory", { state: "visible", timeout: 60_000 });
  await settled();
  // The figure the engine gives (and docs/browser.md, which tests/wasm checks against it).
  const need = await page.evaluate(() => S.analysis.a.memory_needed_mb);
  assert.equal(need, 490);
  assert.equal(await page.textContent("#allow-memory"), `Allow ${need} MiB`);
  assert.match(await page.textContent("#memory"), new RegExp(`^Exact values here need ${need} MiB of memory`));
  // Each cell's chip within its disc, its text within the chip.
  const chips = await page.$$eval("#board .chip[data-cell-value]", (cs) => cs.map((c) => {
    const disc = c.parentNode.querySelector("circle.quad-hole").getBoundingClientRect();
    const [rect, text] = [c.querySelector("rect").getBoundingClientRect(), c.querySelector("text").getBoundingClientRect()];
    return { cell: c.dataset.cellValue, value: c.dataset.value, inDisc: rect.left >= disc.left - 0.5 && rect.right <= disc.right + 0.5,
      inChip: text.left >= rect.left && text.right <= rect.right };
  }));
  assert.equal(chips.length, 18);
  for (const c of chips) assert.ok(c.inDisc && c.inChip, JSON.stringify(c));
  // Red wins here (the served page proves it): the estimates say so, not Yellow.
  await headlineAgrees(page);
  assert.match(await page.textContent("#summary"), /(likely win for Red|Red is ahead) \(estimate after \d+ s\)\.$|^Estimate after \d+ s: (likely win for Red|Red is ahead)\.$/);
  await screenshot("pentago-18");
});

test("Pentago from 19 stones: the page asks for the memory the exact solver needs, then values as inarow analyze's", async () => {
  const game = "pentago";
  const moves = "b20le20lb10rb10lb30rd30lb50rb43lb31ra41lc51rb61lc61rd21ld51re61lb61rc31le11r";
  await page.goto(`${base}/?game=${game}&moves=${moves}&mode=friend`);
  await page.waitForSelector("#memory", { state: "visible", timeout: 60_000 });
  assert.equal(await page.textContent("#allow-memory"), "Allow 177 MiB");
  assert.notEqual(await page.getAttribute("#board", "data-values"), "exact");
  await screenshot("pentago-memory");
  await click("#allow-memory");
  assert.equal(await page.isVisible("#memory"), false);
  assert.equal(await page.evaluate(() => sessionStorage.getItem("inarow.memoryMb")), "177");
  assert.equal(await page.getAttribute("#board", "data-values"), "exact");
  const cli = analyze(game, moves);
  await click('#board .cell[data-name="a1"]');
  const turns = await page.$$eval("#board .turn .chip", (cs) => cs.map((c) => [c.dataset.same, c.dataset.value]));
  assert.equal(turns.length, 8);
  for (const [same, v] of turns) assert.equal(v, cli.get(same), same);
  await page.keyboard.press("Escape");
  await page.evaluate(() => sessionStorage.clear());
});

test("headlines never contradict the board: Pentago at 19 stones before more memory, Qubic's README position", async () => {
  // 16 of Yellow's 17 cells lose at once; the exact solver needs more memory for the last.
  await page.goto(`${base}/?game=pentago&moves=274440791932540184/a21l&mode=friend`);
  await page.waitForSelector("#memory", { state: "visible", timeout: 60_000 });
  await settled();
  await headlineAgrees(page);
  assert.match(await page.textContent("#summary"), /^\d+ of 136 moves lose for Yellow \(proven\); |^Red wins/);
  await screenshot("pentago-headline");
  await screenshot("phone-pentago-headline", 375);
  await click("#allow-memory");
  await headlineAgrees(page);
  assert.match(await page.textContent("#summary"), /^Red wins/);
  await page.evaluate(() => sessionStorage.clear());
  await open("game=qubic&moves=a11d44b23a22b11&mode=friend");
  await headlineAgrees(page);
  assert.doesNotMatch(await page.textContent("#summary"), /Yellow wins|likely win for Yellow|Yellow is ahead/);
  await screenshot("qubic-proof");
  await screenshot("phone-qubic-proof", 375);
});

test("against the engine: values hidden until a hint; the engine's moves come from a worker", async () => {
  await open("game=connect4:4x4&engine=best&think=0.3&mode=second");
  // The engine (first) has moved.
  assert.equal((param("moves") ?? "").length, 1);
  assert.equal(await page.$$eval("#board .chip", (c) => c.length), 0);
  await click("#show-hint");
  await valuesAre("connect4:4x4", param("moves"));
  await screenshot("play-hint");
  await click("#board .col.target");
  assert.equal((param("moves") ?? "").length, 3);
});

test("opened from a file: the same page, its engine from engine.js, values as inarow analyze's", async () => {
  const before = "434443336657446725213";
  await page.goto(`file://${site}/index.html?game=connect4&moves=${before}&mode=friend`);
  await settled();
  assert.equal(await page.evaluate(() => FILE && workerURL.startsWith("blob:")), true);
  await valuesAre("connect4", before);
  await press("3");
  await valuesAre("connect4", before + "3");
  await screenshot("file");
  // Qubic's strategy from qubic.strategy.js, as a file: page may read no other file.
  await page.goto(`file://${site}/index.html?game=qubic&mode=friend&values=off`);
  await settled();
  await page.click("#hint");
  await settled();
  assert.equal(param("moves"), "a11");
  // Nothing refused or missing on the way (a favicon, the module preloads a file: page may not
  // load), nor anywhere before.
  assert.deepEqual(complaints, []);
});

test("a page copied from the folder without engine.js says what to do in one line", async () => {
  const alone = mkdtempSync(join(tmpdir(), "inarow-page-"));
  copyFileSync(join(site, "index.html"), join(alone, "index.html"));
  await page.goto(`file://${alone}/index.html`);
  await page.waitForFunction(() => document.getElementById("error").textContent !== "", null, { timeout: 10_000 });
  assert.equal(await page.textContent("#error"),
    "engine.js is missing beside the page: build the folder with bash web/site/build OUT_DIR (docs/browser.md)");
  rmSync(alone, { recursive: true });
});
