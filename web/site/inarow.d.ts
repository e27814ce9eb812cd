export { position, analyze, analyzeMove, assemble, draw, engineMove, solve, bench, version, prepare, useStrategy, symmetricMoves } from "./inarow_wasm.js";
/** Loads the engine (once): call and await it before anything else. */
export function load(): Promise<void>;
