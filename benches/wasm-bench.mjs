// One benchmark file solved by the WebAssembly engine in Node, as `inarow bench FILE` solves it
// natively (the same library function), twice: prints the native command's summary line for each
// pass, after `cold` or `warm`.
//   node benches/wasm-bench.mjs SITE GAME FILE [MEMORY_MB]
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const [site, game, file, memory] = process.argv.slice(2);
const w = await import(resolve(join(site, "pkg/inarow.js")));
await w.load();
const options = memory ? { memoryMb: Number(memory) } : {};
// Twice: cold, as a page's first searches run (V8 compiles the hot functions with its optimising
// tier while they run), and warm, once they are compiled.
for (const pass of ["cold", "warm"]) {
  const r = w.bench(game, readFileSync(file, "utf8"), options);
  for (const p of r.problems) console.error(p);
  console.log(`${pass} ${r.summary}`);
}
