// One benchmark file solved by the WebAssembly engine in Node, as `inarow bench FILE` solves it
// natively (the same library function): prints the native command's summary line.
//   node benches/wasm-bench.mjs SITE GAME FILE [MEMORY_MB]
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const [site, game, file, memory] = process.argv.slice(2);
const w = await import(resolve(join(site, "pkg/inarow.js")));
await w.load();
const options = memory ? { memoryMb: Number(memory) } : {};
const r = w.bench(game, readFileSync(file, "utf8"), options);
for (const p of r.problems) console.error(p);
console.log(r.summary);
