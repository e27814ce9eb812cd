// The static site's analysis board timed in Chromium with no server (docs/browser.md): along
// the engine's games of crates/inarow/benches/games/connect4.txt (those of `inarow bench --suite analysis`),
// each move played by its key, the seconds from the key until every value on the board is
// exact (the static page's caps 1 and 10 s; the last cap counted where it is not); and the seconds
// from the page's load to its first values, served and opened from the folder. Prints one line
// per measure.
//   node tests/browser/static-bench.mjs SITE [PLIES]
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const site = resolve(process.argv[2] || join(root, "target/site"));
const plies = Number(process.argv[3] || 30);
const games = readFileSync(join(root, "crates/inarow/benches/games/connect4.txt"), "utf8").trim().split("\n");

const server = spawn("python3", ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "-d", site], {
  stdio: ["ignore", "pipe", "ignore"],
});
const base = await new Promise((ok) => server.stdout.on("data", (c) => {
  const port = /port (\d+)/.exec(String(c));
  if (port) ok(`http://127.0.0.1:${port[1]}`);
}));
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args: ["--no-sandbox"] });
const page = await browser.newPage();
const idle = () => page.waitForFunction(() => document.body.dataset.state === "idle", null, { timeout: 60_000, polling: 10 });
const quantile = (v, q) => {
  const s = [...v].sort((a, b) => a - b);
  return s[Math.min(s.length, Math.max(1, Math.ceil(q * s.length))) - 1];
};
try {
  // First values after a load: the empty board (the book) and a position of ply 21 (a search).
  // Served, and opened from the folder (engine.js).
  for (const [from, url] of [["http", `${base}/`], ["file", `file://${site}/index.html`]]) {
    for (const moves of ["", "434443336657446725213", ""]) {
      const t0 = Date.now();
      await page.goto(`${url}?game=connect4&mode=friend&moves=${moves}`);
      await page.waitForSelector("#board .chip", { timeout: 60_000 });
      const first = (Date.now() - t0) / 1000;
      await idle();
      console.log(`load from=${from} moves=${moves || "-"} first_values_s=${first.toFixed(3)} exact_s=${((Date.now() - t0) / 1000).toFixed(3)}`);
    }
  }
  const seconds = [];
  let exact = 0;
  for (const game of games) {
    await page.goto(`${base}/?game=connect4&mode=friend`);
    await idle();
    for (const key of game.slice(0, plies)) {
      const t0 = performance.now();
      await page.keyboard.press(key);
      await idle();
      const s = (performance.now() - t0) / 1000;
      const done = (await page.getAttribute("#board", "data-values")) === "exact"
        || (await page.$$eval("#board .chip", (c) => c.length)) === 0; // the game is over
      seconds.push(done ? s : 12.3);
      exact += done;
    }
  }
  console.log(`analysis connect4 positions=${seconds.length} exact=${exact} median_s=${quantile(seconds, 0.5).toFixed(3)} p95_s=${quantile(seconds, 0.95).toFixed(3)} max_s=${Math.max(...seconds).toFixed(3)} workers=${await page.evaluate(() => slots.length)}`);
} finally {
  await browser.close();
  server.kill();
}
