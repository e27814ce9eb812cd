// A Web Worker of the served static site (written by web/site/build): one classic script, so
// that a worker starts with one request, holding the wasm-bindgen glue (no-modules) and the
// page's calls (calls.js). It instantiates the module the page compiled and sent, and answers
// the page.
//@glue
//@calls
self.serveCalls((module) => wasm_bindgen({ module_or_path: module }).then(() => wasm_bindgen));
