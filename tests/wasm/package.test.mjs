// The WebAssembly package (web/site/build's pkg/) in Node, on every game: its values are the
// native command's (`inarow solve`, `inarow analyze --json`) and, on Pons' sets, the
// published ones. SITE: the built site (default target/site); the native command is
// target/release/inarow. Reference data (../shared/data beside the clone) is skipped, saying
// so, when absent.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const target = process.env.CARGO_TARGET_DIR || join(root, "target");
const site = process.env.SITE || join(target, "site");
const inarow = join(target, "release/inarow");
const data = process.env.SHARED_DATA || join(root, "../shared/data");
let w;

before(async () => {
  w = await import(join(site, "pkg/inarow.js"));
  await w.load();
});

const native = (args) => JSON.parse(execFileSync(inarow, [...args, "--json"], { encoding: "utf8" }));
// The first `n` lines of a reference set as [moves, value], or null when the data is absent.
function sample(file, n) {
  const path = join(data, file);
  if (!existsSync(path)) return null;
  return readFileSync(path, "utf8").trim().split("\n").slice(0, n).map((l) => l.split(/\s+/));
}

// Every move's value: the package's analysis against the native command's.
function sameAnalysis(game, moves, options = {}) {
  const mine = w.analyze(game, moves, { think: 120, ...options });
  const theirs = native(["analyze", "--game", game, moves]);
  const values = (a) => Object.fromEntries(a.analysis.map((e) => [e.move, [e.value, e.exact]]));
  assert.deepEqual(values(mine), values(theirs), `${game} ${moves}`);
  assert.ok(mine.analysis.every((e) => e.exact), `${game} ${moves}: all exact`);
  // Best first, as the native analysis orders them.
  assert.equal(mine.analysis[0].value, theirs.analysis[0].value);
  return mine;
}

function sameSolve(game, moves, expected, options = {}) {
  const mine = w.solve(game, moves, options);
  // The plain output (`MOVES SCORE`): --json also finds every best move, which takes longer.
  const out = execFileSync(inarow, ["solve", "--game", game, moves], { encoding: "utf8" });
  assert.equal(mine.score, Number(out.trim().split(" ").at(-1)), `${game} ${moves}`);
  if (expected !== undefined) assert.equal(mine.score, expected, `${game} ${moves}: published`);
}

test("Connect Four: Pons' sets L3_R1, L2_R1 and L2_R2, solved as natively and as published", (t) => {
  for (const [set, n] of [["Test_L3_R1", 20], ["Test_L2_R1", 10], ["Test_L2_R2", 3]]) {
    const lines = sample(`connect4/${set}`, n);
    if (!lines) return t.skip(`no ${data}/connect4`);
    for (const [moves, score] of lines) sameSolve("connect4", moves, Number(score));
  }
});

test("Connect Four: small boards and a 7x6 midgame, every move's value as natively", () => {
  sameAnalysis("connect4:4x4", "");
  sameAnalysis("connect4:5x4", "");
  sameAnalysis("connect4:5x4:k3", "3");
  sameAnalysis("connect4", "434443336657446725213");
  // The built-in book answers the opening at once.
  const a = w.analyze("connect4", "4444", { think: 5 });
  assert.ok(a.analysis.every((e) => e.exact));
});

test("PopOut: a 4x4 board and a 7x6 position with pops, as natively", () => {
  sameAnalysis("popout:4x4", "");
  sameAnalysis("popout", "44443236332646");
  sameSolve("popout:4x4", "");
});

test("Connect Four 3D: the 36-stone set, solved and analyzed as natively and as published", (t) => {
  const lines = sample("cube/gravity_36.txt", 5);
  if (!lines) return t.skip(`no ${data}/cube`);
  for (const [moves, result] of lines) {
    sameSolve("cube", moves);
    assert.equal(w.solve("cube", moves).score > 0, result === "win", moves);
  }
  sameAnalysis("cube", lines[0][0]);
});

test("Qubic: a win at once, solved as natively; the winning move valued alone", () => {
  sameSolve("qubic", "a11,b12,a22,b21,a33,c13", 1);
  const e = w.analyzeMove("qubic", "a11,b12,a22,b21,a33,c13", "a44", { think: 5 });
  assert.equal(e.exact, true);
  assert.equal(e.outcome, "win");
});

test("Qubic's winning strategy from its file (useStrategy): the empty board's a11 a proven win, as natively", () => {
  const before = w.analyzeMove("qubic", "", "a11", { think: 0.2 });
  assert.equal(before.exact, false, "no strategy built into the .wasm");
  const bytes = readFileSync(join(site, "qubic.strategy"));
  assert.throws(() => w.useStrategy("cube", bytes), /is for qubic, not for/);
  const damaged = Uint8Array.from(bytes);
  damaged[damaged.length - 1] ^= 1;
  assert.throws(() => w.useStrategy("qubic", damaged), /checksum/);
  const about = w.useStrategy("qubic", bytes);
  assert.equal(about.game, "qubic");
  assert.equal(about.prover, "first");
  assert.ok(about.entries > 100_000, `${about.entries}`);
  const a11 = w.analyzeMove("qubic", "", "a11", { think: 0.2 });
  // Written as Qubic's solver writes a win (`1`), whatever answered.
  assert.equal(a11.value, "1");
  assert.equal(a11.outcome, "win");
  assert.equal(a11.exact, true);
  // (It exits 3: the other moves are estimates at 0.3 s.)
  const out = spawnSync(inarow, ["analyze", "--game", "qubic", "--time", "0.3", "", "--json"], { encoding: "utf8" });
  assert.equal(JSON.parse(out.stdout).analysis.find((e) => e.move === "a11").value, "1");
  // The engine playing first plays it.
  assert.equal(w.engineMove("qubic", "", { think: 0.2 }).move, "a11");
  // Past the first move too: after a reply, the strategy's answer is a proven win on every
  // call (the line, not only the position, reaches the engine), as natively.
  for (const line of ["a11d44", "a11b22"]) {
    const reply = w.engineMove("qubic", line, { think: 0.2 });
    assert.equal(reply.value, "1", `${line}: ${JSON.stringify(reply)}`);
    assert.equal(reply.exact, true, line);
    const valued = w.analyzeMove("qubic", line, reply.move, { think: 0.2 });
    assert.equal(valued.value, "1", `${line} ${reply.move}`);
    const native = spawnSync(inarow, ["analyze", "--game", "qubic", "--time", "0.3", line, "--json"], { encoding: "utf8" });
    const wins = JSON.parse(native.stdout).analysis.filter((e) => e.outcome === "win").map((e) => e.move);
    assert.ok(wins.includes(reply.move), `${line}: ${reply.move} not among the native wins ${wins}`);
    // The side the strategy beats: its move a proven loss, at once.
    const losing = w.engineMove("qubic", line + reply.move, { think: 0.2 });
    assert.equal(losing.value, "-1", `${line}${reply.move}: ${JSON.stringify(losing)}`);
    assert.equal(losing.exact, true);
  }
});

// Two values of mirror-image moves agree: both estimates of one sign, or both exact and equal
// (one may be proven in its time where the other is not).
function mirrorsAgree(a, b, what) {
  if (a.exact !== b.exact) return;
  if (a.exact) return assert.equal(a.value, b.value, what);
  assert.equal(Math.sign(Number(a.value.slice(1))), Math.sign(Number(b.value.slice(1))), what);
}

test("mirror-image moves valued alone agree in sign at every time (PopOut's empty 7x6 board)", () => {
  let compared = 0;
  for (const think of [0.05, 0.3, 1, 3]) {
    const values = {};
    for (const mv of ["1", "2", "3", "5", "6", "7"]) values[mv] = w.analyzeMove("popout", "", mv, { think });
    for (const [a, b] of [["3", "5"], ["2", "6"], ["1", "7"]]) {
      mirrorsAgree(values[a], values[b], `${think} s: ${a} ${values[a].value}, ${b} ${values[b].value}`);
      compared += !values[a].exact && !values[b].exact;
    }
  }
  assert.ok(compared >= 8, `${compared} pairs of estimates`);
});

test("symmetricMoves: each legal move's first mirror image (PopOut, the cube, Qubic), what the page values once", () => {
  assert.deepEqual(w.symmetricMoves("popout", ""), { 1: "1", 2: "2", 3: "3", 4: "4", 5: "3", 6: "2", 7: "1" });
  assert.deepEqual(w.symmetricMoves("connect4", "4"), { 1: "1", 2: "2", 3: "3", 4: "4", 5: "3", 6: "2", 7: "1" });
  assert.equal(new Set(Object.values(w.symmetricMoves("connect4", "1"))).size, 7);
  const cube = w.symmetricMoves("cube", "");
  assert.equal(new Set(Object.values(cube)).size, 3);
  assert.equal(cube.f, cube["0"]);
  const qubic = w.symmetricMoves("qubic", "");
  assert.equal(qubic.c44, qubic.b44);
  assert.equal(qubic.d11, "a11");
  assert.throws(() => w.symmetricMoves("connect4", "8"), /illegal move string/);
});

test("Pentago's memory figures in docs/browser.md are the engine's (18 and 19 stones)", () => {
  const docs = readFileSync(join(root, "docs/browser.md"), "utf8");
  const [, at18, at19] = /Pentago's midgame solver: (\d+) MiB at 18 stones, (\d+) at 19/.exec(docs);
  assert.equal(w.analyze("pentago", "274440791932540184", { think: 0.3 }).memory_needed_mb, Number(at18));
  const moves = "b20le20lb10rb10lb30rd30lb50rb43lb31ra41lc51rb61lc61rd21ld51re61lb61rc31le11r";
  assert.equal(w.analyze("pentago", moves, { think: 0.3 }).memory_needed_mb, Number(at19));
});

test("Pentago: Irving's game values from 24 stones, solved and analyzed as natively and as he gives them", (t) => {
  const path = join(data, "pentago/irving_game_values.tsv");
  if (!existsSync(path)) return t.skip(`no ${path}`);
  const rows = readFileSync(path, "utf8").trim().split("\n").slice(1).map((l) => l.split("\t"))
    .filter((r) => Number(r[2]) >= 24 && r[3] === "0");
  const picked = rows.filter((r, i) => rows.findIndex((s) => s[2] === r[2]) === i).slice(0, 5);
  assert.ok(picked.length >= 3);
  for (const r of picked) sameSolve("pentago", r[6], Number(r[5]));
  sameAnalysis("pentago", picked[1][6]);
});

test("Pentago from 19 stones: the memory the exact solver needs beyond the budget, then exact with it", () => {
  const moves = "b20le20lb10rb10lb30rd30lb50rb43lb31ra41lc51rb61lc61rd21ld51re61lb61rc31le11r";
  const small = w.analyze("pentago", moves, { think: 0.3 });
  assert.equal(small.memory_needed_mb, 177);
  assert.ok(small.analysis.some((e) => !e.exact));
  const enough = w.analyze("pentago", moves, { think: 10, memoryMb: 192 });
  assert.equal(enough.memory_needed_mb, undefined);
  assert.ok(enough.analysis.every((e) => e.exact));
  sameAnalysis("pentago", moves, { memoryMb: 192 });
});

test("every exact method solves a small board as natively", () => {
  for (const algo of ["gallop", "bisect", "mtdf", "deepening", "ab", "pns", "pn2", "dfpn", "minimax"]) {
    const game = algo === "minimax" ? "connect4:4x4" : "connect4:5x4";
    const mine = w.solve(game, "3", { algo });
    const out = execFileSync(inarow, ["solve", "--game", game, "--algo", algo, "3"], { encoding: "utf8" });
    assert.equal(mine.score, Number(out.trim().split(" ").at(-1)), algo);
  }
  assert.equal(w.solve("connect4:5x4", "3", { weak: true }).score, 0);
  assert.throws(() => w.solve("connect4", "", { algo: "magic" }), /^Error: unknown algorithm 'magic'/);
});

test("solve gives the object of `inarow solve --json` (the best moves and the line: not asked)", () => {
  for (const [game, moves] of [["connect4:5x4", "33"], ["popout:4x4", "2233"], ["connect4", "-"]]) {
    const mine = w.solve(game, moves);
    // The npm solve gives the plies to the end where the score carries them, as `--distance` does.
    const theirs = native(["solve", "--distance", "--game", game, moves]);
    assert.deepEqual(Object.keys(mine).sort(), Object.keys(theirs).sort(), `${game} ${moves}`);
    for (const k of ["game", "moves", "score", "outcome", "exact", "plies", "stopped", "proven"]) {
      assert.deepEqual(mine[k], theirs[k], `${game} ${moves}: ${k}`);
    }
    assert.ok(mine.best_moves == null && mine.pv == null, `${game} ${moves}`);
    assert.ok(Array.isArray(theirs.best_moves) && Array.isArray(theirs.pv), `${game} ${moves}`);
  }
});

test("a solve a limit stops gives the bounds it had proven, as natively", () => {
  const mine = w.solve("connect4:7x5", "", { nodes: 1000000 });
  // The command exits 3, stopped by its limit.
  const run = spawnSync(inarow, ["solve", "--json", "--nodes", "1000000", "--game", "connect4:7x5", "-"],
    { encoding: "utf8" });
  assert.equal(run.status, 3, run.stderr);
  const out = JSON.parse(run.stdout);
  assert.equal(mine.score, null);
  assert.equal(mine.stopped, "node limit reached");
  assert.deepEqual(mine.proven, out.proven);
  assert.ok(mine.proven[0] <= 0 && 0 <= mine.proven[1], JSON.stringify(mine));
  assert.equal(w.solve("connect4:5x4", "").proven, null);
});

test("analyze with a progress callback: each move's entry as it is valued", () => {
  const seen = [];
  const a = w.analyze("connect4:5x4", "3", { think: 10, progress: (p) => seen.push(p) });
  assert.equal(seen.length, 5);
  assert.deepEqual(seen.map((p) => p.done), [1, 2, 3, 4, 5]);
  assert.equal(seen[4].total, 5);
  const theirs = native(["analyze", "--game", "connect4:5x4", "3"]);
  const values = (list) => Object.fromEntries(list.map((e) => [e.move, e.value]));
  assert.deepEqual(values(a.analysis), values(theirs.analysis));
  assert.deepEqual(values(seen.map((p) => p.entry)), values(theirs.analysis));
});

test("moves valued one by one, assembled as the native analysis (order, ranks, line), partial while some wait", () => {
  for (const [game, moves] of [["connect4:5x4", "3"], ["connect4", "4453"], ["popout:4x4", "12"]]) {
    const pos = w.position(game, moves);
    const entries = pos.legal.map((l) => w.analyzeMove(game, moves, l.move, { think: 30 }));
    const mine = w.assemble(entries, "a move per worker");
    const theirs = native(["analyze", "--game", game, moves]);
    assert.equal(mine.source, "exact, a move per worker");
    assert.equal(mine.weak, theirs.weak, `${game} ${moves}`);
    assert.deepEqual(mine.analysis.map((e) => [e.move, e.value, e.rank]),
      theirs.analysis.map((e) => [e.move, e.value, e.rank]), `${game} ${moves}`);
    assert.deepEqual(mine.pv[0], theirs.pv[0], `${game} ${moves}`);
    const half = entries.map((e, i) => (i % 2 ? null : e));
    const partial = w.assemble(half, "a move per worker");
    assert.deepEqual(partial.partial, { done: half.filter(Boolean).length, total: entries.length });
    assert.ok(partial.analysis.every((e, i, a) => i === 0 || a[i - 1].rank[0] > e.rank[0] ||
      (a[i - 1].rank[0] === e.rank[0] && a[i - 1].rank[1] >= e.rank[1])), "best first");
  }
});

test("the board drawn as SVG, with values, byte for byte as `inarow draw` draws it", () => {
  for (const [game, moves] of [["connect4", "4453"], ["connect4:5x4", "33"], ["popout:4x4", "12"], ["cube", "a1b2"], ["qubic", "a11"], ["pentago", "d53r"]]) {
    const board = execFileSync(inarow, ["draw", "--game", game, moves], { encoding: "utf8" });
    assert.equal(w.draw(game, moves, null), board, `${game} ${moves}`);
    assert.ok(board.startsWith("<svg") && board.includes('class="cell"'), `${game} ${moves}`);
  }
  for (const [game, moves] of [["connect4", "4453"], ["connect4:5x4", "33"], ["popout:4x4", "12"]]) {
    const valued = execFileSync(inarow, ["draw", "--game", game, "--values", moves], { encoding: "utf8" });
    const a = w.analyze(game, moves, { think: 30 });
    assert.equal(w.draw(game, moves, a.analysis), valued, `${game} ${moves} with values`);
    assert.ok(valued.includes('class="value chip'), `${game} ${moves}`);
  }
});

test("the page's board: what it clicks, Pentago's chosen cell, numbered stones (draw's options)", () => {
  const page = w.draw("connect4", "4453", null, { interactive: true });
  assert.equal(page.match(/<g class="col target" data-col="\d" data-move="\d">/g).length, 7);
  assert.ok(!page.includes('class="background"'));
  // No options, or empty ones: the picture of `inarow draw`.
  assert.equal(w.draw("connect4", "4453", null, {}), w.draw("connect4", "4453", null));
  const a = w.analyze("pentago", "a10r", { think: 1 });
  const chosen = w.draw("pentago", "a10r", a.analysis, { interactive: true, selected: 7 });
  assert.equal(chosen.match(/class="turn target"/g).length, 8);
  assert.equal(chosen.match(/<g class="value chip[^"]*"[^>]*data-same=/g).length, 8, "a value on each arrow");
  const numbered = w.draw("connect4", "4453", null, { numbers: [[3, 1], [10, 2]] });
  assert.equal(numbered.match(/class="num (first|second)"/g).length, 2);
  for (const [options, message] of [
    [5, /^draw: the options must be an object$/],
    [[1], /^draw: the options must be an object$/],
    [{ selected: 99 }, /^cell 99: not a cell of this board/],
    [{ game: "qubic" }, /^draw: game is an argument, not an option$/],
    [{ colour: "red" }, /^draw: unknown field 'colour'/],
    [{ interactive: 1 }, /^draw: interactive must be true or false$/],
  ]) {
    assert.throws(() => w.draw("connect4", "4", null, options),
      (e) => e instanceof Error && message.test(e.message), JSON.stringify(options));
  }
});

test("the engine's move, the position's JSON, and one-line errors for bad input", () => {
  const m = w.engineMove("connect4:5x4", "3", { think: 1 });
  assert.ok(["1", "2", "3", "4", "5"].includes(m.move));
  assert.equal(m.moves, "3" + m.move);
  const p = w.position("connect4:5x4", "33");
  assert.equal(p.to_move, "first");
  assert.equal(p.board.length, 4);
  assert.equal(p.legal.length, 5);
  assert.deepEqual(p.view.size, [5, 4, 1]);
  for (const [call, message] of [
    [() => w.position("connect4:1x1", ""), /^bad game spec 'connect4:1x1'/],
    [() => w.position("connect4", "48"), /^illegal move string '48'/],
    [() => w.assemble(7, "x"), /^assemble: the entries must be an array of analyzeMove answers$/],
    [() => w.draw("connect4", "4", [{ value: "1" }]), /^draw: an entry without a move or a value$/],
    [() => w.draw("connect4", "48", null), /^illegal move string '48'/],
    [() => w.analyze("connect4", "", { think: -1 }), /^think -1: must be/],
    [() => w.analyze("connect4", "", { engine: "depth99" }), /a depth is 1-64 plies/],
    [() => w.analyze("connect4", "", { level: "depth99" }), /a depth is 1-64 plies/],
    [() => w.engineMove("connect4", "", { level: "random", engine: "best" }), /^level=random and engine=best: two levels asked/],
    [() => w.solve("connect4", "", { memoryMb: 1e9 }), /^memoryMb/],
    [() => w.analyzeMove("connect4", "", "9"), /^move '9'/],
    [() => w.analyze("connect4:4x4:k3", "1212"+"1", {}), /game is over|comes after the game is over/],
  ]) {
    assert.throws(call, (e) => e instanceof Error && message.test(e.message) && !e.message.includes("\n"));
  }
  // The instance still answers after the errors.
  assert.equal(w.solve("connect4", "2252576253462244111563365343671351441").score, -1);
});
