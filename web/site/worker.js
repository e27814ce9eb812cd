// A Web Worker of the served static site: the engine from pkg/, answering the page (calls.js).
import "./calls.js";
import init, * as inarow from "./pkg/inarow_wasm.js";

self.serveCalls(init().then(() => inarow));
