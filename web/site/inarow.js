// inarow as an ES module, in the browser and in Node >= 20: `await load()` once, then call
// position, analyze, analyzeMove, assemble, draw, engineMove, solve, prepare, useStrategy, symmetricMoves (docs/browser.md).
import init from "./inarow_wasm.js";

export { position, analyze, analyzeMove, assemble, draw, engineMove, solve, bench, version, prepare, useStrategy, symmetricMoves } from "./inarow_wasm.js";

let loading = null;

/** Loads the engine: the .wasm beside this file (read from disk in Node, fetched in a browser). */
export function load() {
  if (!loading) {
    loading = (async () => {
      const url = new URL("./inarow_wasm_bg.wasm", import.meta.url);
      if (typeof process === "object" && process.versions && process.versions.node) {
        const { readFile } = await import("node:fs/promises");
        await init({ module_or_path: await readFile(url) });
      } else {
        await init({ module_or_path: url });
      }
    })();
  }
  return loading;
}
