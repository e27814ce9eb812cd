// The engine for a page opened from a file (written by web/site/build). A file: page loads no
// module, no .wasm and no worker script, so everything is in this one classic script: the
// wasm-bindgen glue (no-modules), the page's calls (calls.js) and the .wasm in base64. The page
// runs the function itself for positions and starts its workers from its source text.
function inarowEngineScript() {
//@glue
//@calls
  const wasm = "//@wasm";
  const text = atob(wasm);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  const engine = wasm_bindgen({ module_or_path: bytes }).then(() => wasm_bindgen);
  if (typeof WorkerGlobalScope !== "undefined") self.serveCalls(engine);
  return engine;
}
