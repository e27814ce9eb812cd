// The analysis board on every game, the static site (no server, the engine in Web Workers)
// beside `inarow serve`, in Chromium: for each game, the empty board and positions drawn with
// `inarow gen` on a seed of our own, each opened afresh in a new tab; the seconds from the
// page's navigation to its first value on the board and to its last (exact, or the page's last
// cap), timed in the page. Prints one
// line per position and site, then one per game and site: mean, p95 and max of both, and the
// static site's exact time over the server's (per position, and of the mean times).
//   node tests/browser/games-bench.mjs [SITE] [GAMES]     (GAMES: comma-separated, default all)
// SITE is the static site's folder (bash web/site/build SITE); target/release/inarow serves.
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const target = process.env.CARGO_TARGET_DIR || join(root, "target");
const site = resolve(process.argv[2] || join(target, "site"));
const inarow = join(target, "release/inarow");
// Per game: the stones of the drawn positions (where people ask: past the opening, not yet
// decided) and how many.
const GAMES = {
  connect4: { stones: 12, count: 4 },
  popout: { stones: 10, count: 4 },
  cube: { stones: 12, count: 4 },
  qubic: { stones: 8, count: 4 },
  pentago: { stones: 22, count: 4 },
};
const games = (process.argv[3] || Object.keys(GAMES).join(",")).split(",");
const SEED = 4927;

function drawn(game) {
  const { stones, count } = GAMES[game];
  // A short cap: the positions are what is wanted, not their values (gen exits 3 on unknowns).
  const { stdout } = spawnSync(inarow, ["gen", "--game", game, "--stones", String(stones), "--count",
    String(count), "--seed", String(SEED), "--time", "0.05"], { encoding: "utf8" });
  const lines = stdout.trim().split("\n").map((l) => l.split(" ")[0]);
  if (lines.length !== count) throw new Error(`inarow gen --game ${game}: ${stdout}`);
  return lines;
}

async function listen(child, pattern) {
  return new Promise((ok, fail) => {
    child.on("exit", (code) => fail(new Error(`exited with ${code}`)));
    child.stdout.on("data", (c) => {
      const m = pattern.exec(String(c));
      if (m) ok(m[1]);
    });
  });
}

const files = spawn("python3", ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "-d", site], {
  stdio: ["ignore", "pipe", "ignore"],
});
const server = spawn(inarow, ["serve", "--addr", "127.0.0.1:0"], { stdio: ["ignore", "pipe", "inherit"] });
const bases = {
  static: `http://127.0.0.1:${await listen(files, /port (\d+)/)}`,
  served: (await listen(server, /serving on (http:\S+)/)).replace(/\/$/, ""),
};
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args: ["--no-sandbox"] });
const quantile = (v, q) => {
  const s = [...v].sort((a, b) => a - b);
  return s[Math.min(s.length, Math.max(1, Math.ceil(q * s.length))) - 1];
};
const stats = (v) => `mean=${(v.reduce((a, b) => a + b, 0) / v.length).toFixed(2)} p95=${quantile(v, 0.95).toFixed(2)} max=${Math.max(...v).toFixed(2)}`;
try {
  for (const game of games) {
    const positions = ["", ...drawn(game)];
    const seen = { static: { first: [], exact: [] }, served: { first: [], exact: [] } };
    for (const moves of positions) {
      for (const where of ["static", "served"]) {
        // A new page each time: nothing learnt from the position before (workers, tables).
        // Timed in the page, from its navigation's start: the first value drawn on the board,
        // and the page's last turn to idle (every value as exact as it gets).
        const page = await browser.newPage();
        await page.addInitScript(() => {
          new MutationObserver(() => {
            if (window.firstValue === undefined && document.querySelector("#board .chip")) {
              window.firstValue = performance.now();
            }
            if (document.body && document.body.dataset.state === "idle") window.idleAt = performance.now();
          }).observe(document, { subtree: true, childList: true, attributes: true });
        });
        await page.goto(`${bases[where]}/?game=${game}&mode=friend&moves=${moves}`);
        await page.waitForSelector("#board .chip", { timeout: 120_000 });
        await page.waitForFunction(() => document.body.dataset.state === "idle", null, { timeout: 120_000, polling: 10 });
        const [first, last] = (await page.evaluate(() => [window.firstValue, window.idleAt])).map((ms) => ms / 1000);
        const values = await page.getAttribute("#board", "data-values");
        await page.close();
        seen[where].first.push(first);
        seen[where].exact.push(last);
        console.log(`${game} ${where} moves=${moves || "-"} first_s=${first.toFixed(2)} last_s=${last.toFixed(2)} values=${values}`);
      }
    }
    for (const where of ["static", "served"]) {
      console.log(`${game} ${where} positions=${positions.length} first_s ${stats(seen[where].first)} last_s ${stats(seen[where].exact)}`);
    }
    const ratio = seen.static.exact.map((s, i) => s / seen.served.exact[i]);
    const mean = (v) => v.reduce((a, b) => a + b, 0) / v.length;
    // Both: the mean of the per-position ratios (each position weighs alike, the book's empty
    // board, which the server answers at once, most) and the ratio of the mean times.
    console.log(`${game} static/served last_s ratio ${stats(ratio)} of_means=${(mean(seen.static.exact) / mean(seen.served.exact)).toFixed(2)}`);
  }
  // Connect Four played in a page already open, a move by its key, as a player goes on (the
  // page's engines warm): the first 30 plies of two engine games of crates/inarow/benches/games/connect4.txt,
  // the seconds from the key until the page is idle.
  if (games.includes("connect4")) {
    const lines = readFileSync(join(root, "crates/inarow/benches/games/connect4.txt"), "utf8").trim().split("\n").slice(0, 2);
    const took = { static: [], served: [] };
    for (const where of ["static", "served"]) {
      const page = await browser.newPage();
      for (const line of lines) {
        await page.goto(`${bases[where]}/?game=connect4&mode=friend`);
        await page.waitForFunction(() => document.body.dataset.state === "idle", null, { timeout: 120_000, polling: 10 });
        for (const key of line.slice(0, 30)) {
          const t0 = Date.now();
          await page.keyboard.press(key);
          await page.waitForFunction(() => document.body.dataset.state === "idle", null, { timeout: 120_000, polling: 10 });
          took[where].push((Date.now() - t0) / 1000);
        }
      }
      await page.close();
      console.log(`connect4 ${where} moves_played=${took[where].length} after_key_s ${stats(took[where])} median=${quantile(took[where], 0.5).toFixed(2)}`);
    }
  }
} finally {
  await browser.close();
  files.kill();
  server.kill();
}
