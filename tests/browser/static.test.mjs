// Browser tests of the static site (web/site/build): the same page with no inarow server,
// served by `python3 -m http.server`, the engine in WebAssembly in its Web Workers. Each game
// played and analysed; the values on the board are the native `inarow analyze`'s.
//
// SITE: the built site (default target/site). SCREENSHOTS=docs writes docs/screenshots/static-*.png.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const target = process.env.CARGO_TARGET_DIR || join(root, "target");
const site = process.env.SITE || join(target, "site");
const inarow = join(target, "release/inarow");
const shots = process.env.SCREENSHOTS === "docs" ? join(root, "docs/screenshots") : join(target, "browser");
let server, browser, page, base;
const asked = []; // every request the page makes: none may go to an API

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

async function screenshot(name) {
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(shots, `static-${name}.png`), fullPage: true });
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
    assert.match(summary, /^Analysing… \d+ of 16 moves valued\.$/);
    await tab.waitForFunction(() => window.thinks.length >= 16 && document.getElementById("board").dataset.values === "estimate",
      null, { timeout: 60_000 });
    // The first cap (0.3 s) is the whole position's, as the server's: each worker's moves share
    // it (not 0.3 s each: 16 moves over two workers took 2.4 s before the first value).
    const first = (await tab.evaluate(() => window.thinks)).slice(0, 16);
    const workers = await tab.evaluate(() => slots.length);
    const total = first.reduce((a, b) => a + b, 0);
    assert.ok(total <= 0.3 * workers + 16 * 0.01, `the first cap's moves asked ${total} s in all`);
  } finally {
    await tab.close();
  }
});

test("Qubic: a cell clicked, a value in every empty cell", async () => {
  const game = "qubic";
  const before = "a11d11a41d41a14d14a21a31a22d32d23d31";
  await open(`game=${game}&moves=${before}&mode=friend`);
  await click('#board .cell[data-cell="d21"]');
  await valuesAre(game, before + "d21");
  await screenshot("qubic");
});

test("Pentago: place then turn; the values at once placed as inarow analyze's", async () => {
  const game = "pentago";
  const line = "b20l,e20l,b10r,b10l,b30r,d30l,b50r,b43l,b31r,a41l,c51r,b61l,c61r,d21l,d51r,e61l,b61r,c31l,e11r,e51l,e41r";
  await open(`game=${game}&moves=${line}&mode=friend`);
  await click('#board .cell[data-cell="f3"]');
  assert.equal(await page.$$eval("#board .turn.target", (t) => t.length), 8);
  await click('#board .turn[data-block="1"][data-clockwise="false"]');
  const moves = line.replaceAll(",", "") + "f31l";
  assert.equal(param("moves"), moves);
  const cli = analyze(game, moves);
  assert.equal(await page.getAttribute("#board", "data-values"), "exact");
  // Each cell's turns: every value is that of the move the engine lists for the same position.
  await page.click('#board .cell[data-cell="a4"]');
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
  const cell = await page.$eval("#board .cell.target", (c) => c.dataset.cell);
  await click(`#board .cell[data-cell="${cell}"]`);
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

test("Pentago from 18 stones (the README's board number): the memory asked is within a tab's", async () => {
  await page.goto(`${base}/?game=pentago&moves=274440791932540184&mode=friend`);
  await page.waitForSelector("#memory", { state: "visible", timeout: 60_000 });
  const mb = Number(/^Allow (\d+) MiB$/.exec(await page.textContent("#allow-memory"))[1]);
  assert.ok(mb > 64 && mb <= 3584, `${mb}`);
  await settled();
  await screenshot("pentago-18");
});

test("Pentago from 19 stones: the page asks for the memory the exact solver needs, then values as inarow analyze's", async () => {
  const game = "pentago";
  const moves = "b20le20lb10rb10lb30rd30lb50rb43lb31ra41lc51rb61lc61rd21ld51re61lb61rc31le11r";
  await page.goto(`${base}/?game=${game}&moves=${moves}&mode=friend`);
  await page.waitForSelector("#memory", { state: "visible", timeout: 60_000 });
  assert.equal(await page.textContent("#allow-memory"), "Allow 192 MiB");
  assert.notEqual(await page.getAttribute("#board", "data-values"), "exact");
  await screenshot("pentago-memory");
  await click("#allow-memory");
  assert.equal(await page.isVisible("#memory"), false);
  assert.equal(await page.evaluate(() => sessionStorage.getItem("inarow.memoryMb")), "192");
  assert.equal(await page.getAttribute("#board", "data-values"), "exact");
  const cli = analyze(game, moves);
  await page.click('#board .cell[data-cell="a1"]');
  const turns = await page.$$eval("#board .turn .chip", (cs) => cs.map((c) => [c.dataset.same, c.dataset.value]));
  assert.equal(turns.length, 8);
  for (const [same, v] of turns) assert.equal(v, cli.get(same), same);
  await page.keyboard.press("Escape");
  await page.evaluate(() => sessionStorage.clear());
});

test("against the engine: the engine's moves come from a worker", async () => {
  await open("game=connect4:4x4&engine=best&think=0.3&mode=second");
  // The engine (first) has moved.
  assert.equal((param("moves") ?? "").length, 1);
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
