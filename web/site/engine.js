// The engine for a page opened from a file (written by web/site/build). A file: page loads no
// module, no .wasm and no worker script, so everything is in this one classic script: the
// wasm-bindgen glue (no-modules) and the page's calls (calls.js) in `inarowEngineScript`, and
// the .wasm in base64 in `inarowWasm`. The page compiles the .wasm once, runs the glue itself
// for positions and starts its workers from the glue's source text, sending them the module.
function inarowEngineScript() {
//@glue
//@calls
  if (typeof WorkerGlobalScope !== "undefined") {
    self.serveCalls((module) => wasm_bindgen({ module_or_path: module }).then(() => wasm_bindgen));
  }
  return wasm_bindgen;
}
function inarowWasm() {
  const text = atob("//@wasm");
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}
