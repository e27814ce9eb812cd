// What both pages' tests check of a headline (tests/browser/serve.test.mjs, static.test.mjs).
import assert from "node:assert/strict";

// The headline agrees with the values on the board (the page's analysis): a proven value where
// one is known (a proven win; every move proven: the best), otherwise what is proven so far and
// an estimate in words; and no raw engine units (`~1200`) on the board, the headline or the table.
export async function headlineAgrees(page) {
  const { summary, mover, all, chips, table } = await page.evaluate(() => ({
    summary: document.getElementById("summary").textContent,
    mover: NAME[S.pos.to_move],
    all: S.analysis.a.analysis,
    chips: [...document.querySelectorAll("#board .chip[data-move]")].map((c) => c.dataset.value),
    table: document.querySelector("#table table").textContent,
  }));
  const raw = /~-?\d+(?![\d.%])/;
  for (const said of [summary, table, ...chips]) assert.doesNotMatch(said, raw, said);
  const proven = all.filter((e) => e.exact);
  const other = mover === "Red" ? "Yellow" : "Red";
  if (proven.some((e) => e.outcome === "win")) return assert.match(summary, new RegExp(`^${mover} wins`), summary);
  if (proven.length === all.length) {
    const best = all[0].outcome;
    return assert.match(summary, best === "draw" ? /^Draw with best play\.$/ : new RegExp(`^${other} wins`), summary);
  }
  assert.doesNotMatch(summary, /wins/, summary);
  if (proven.some((e) => e.outcome === "draw")) return assert.match(summary, new RegExp(`^${mover} has at least a draw \\(proven\\)`), summary);
  if (proven.length) assert.match(summary, new RegExp(`^${proven.length} of ${all.length} moves lose for ${mover} \\(proven\\); `), summary);
  else assert.match(summary, /^Estimate after [\d.]+ s: (about even|(likely win for|.* is ahead)|no estimate yet)/, summary);
}
