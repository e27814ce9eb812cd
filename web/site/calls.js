// The worker's side of the page's calls (put into worker.js for a served site and engine.js for
// a page opened from a file by web/site/build): one instance of the engine, one search at a time, asked by the page
// with {id, fn, args}; it answers {id, value} or {id, error}. A search cannot be interrupted
// inside the engine, so the page stops one by ending the worker.
//
// The page compiles the engine's module once and sends it first, as the call `load`; `load`
// (given by the worker) instantiates it. The calls that come before it wait for it.
self.serveCalls = (load) => {
  const CALLS = new Set(["position", "analyze", "analyzeMove", "engineMove", "solve", "prepare", "useStrategy"]);
  let loaded;
  const engine = new Promise((resolve) => (loaded = resolve));
  self.onmessage = async (event) => {
    const { id, fn, args } = event.data;
    try {
      if (fn === "load") {
        loaded(load(args[0]));
        await engine;
        return self.postMessage({ id, value: true });
      }
      const inarow = await engine;
      if (!CALLS.has(fn)) throw new Error(`no such call: ${fn}`);
      self.postMessage({ id, value: inarow[fn](...args) });
    } catch (e) {
      // A trap (out of memory, a bug) leaves the instance unusable: the page starts another.
      const dead = e instanceof WebAssembly.RuntimeError;
      self.postMessage({ id, error: String((e && e.message) || e), dead });
      if (dead) self.close();
    }
  };
};
