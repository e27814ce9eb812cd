// Browser tests of `inarow serve`: the page played and read as a user would, in Debian's
// chromium (playwright-core drives it; no browser is downloaded).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const target = process.env.CARGO_TARGET_DIR || join(root, "target");
const inarow = join(target, "release/inarow");
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
  page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
});

after(async () => {
  await browser?.close();
  server?.kill();
});

// Waits until the page has answered (no request under way) and returns the status line.
async function idle() {
  await page.waitForSelector('#status[data-idle="yes"]', { timeout: 30_000 });
  return page.textContent("#status");
}

const moves = () => new URL(page.url()).searchParams.get("moves");
const board = () => page.$$eval("#board .cell", (cells) => cells.map((c) => c.className).join("|"));

test("a whole game of connect4:4x4 against the engine, by clicks", async () => {
  await page.goto(`${base}/?game=connect4:4x4&engine=best&think=0.3&mode=first`);
  let status = await idle();
  for (let turn = 0; turn < 16 && !status.startsWith("Game over"); turn++) {
    await page.click("#board [data-move]");
    status = await idle();
  }
  assert.match(status, /^Game over: (first wins|second wins|draw)\.$/);
  assert.equal(await page.$$eval("#board [data-move]", (m) => m.length), 0);
  assert.equal(await page.textContent("#error"), "");
});

test("the values shown are those of inarow analyze", async () => {
  const game = "connect4:5x4:k3";
  await page.goto(`${base}/?game=${game}&moves=32&mode=friend`);
  await idle();
  await page.click("#analyse");
  await page.waitForSelector("#analysis tr");
  await idle();
  const shown = await page.$$eval("#analysis tr", (rows) =>
    rows.map((r) => `${r.dataset.analysisMove} ${r.dataset.value} ${r.className}`),
  );
  const cli = execFileSync(inarow, ["analyze", "--game", game, "32"], { encoding: "utf8" });
  const expected = cli.trim().split("\n").map((l) => `${l} exact`);
  assert.deepEqual(shown.sort(), expected.sort());
  assert.match(await page.textContent("#pv"), /^Line: \S/);
  mkdirSync(join(target, "browser"), { recursive: true });
  await page.screenshot({ path: join(target, "browser/serve.png"), fullPage: true });
});

test("undo, then the shared URL shows the same position", async () => {
  await page.goto(`${base}/?game=connect4:5x4:k3&mode=friend`);
  await idle();
  for (const move of ["3", "2", "4"]) {
    await page.click(`#board [data-move="${move}"]`);
    await idle();
  }
  assert.equal(moves(), "324");
  await page.click("#undo");
  await idle();
  assert.equal(moves(), "32");
  const before = await board();
  assert.equal(before.split("|").filter((c) => c !== "cell" && !c.includes("target")).length, 2);
  await page.goto(page.url());
  await idle();
  assert.equal(moves(), "32");
  assert.equal(await board(), before);
});
