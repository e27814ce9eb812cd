// The worker's side of the page's calls (worker.js on a served site, engine.js on a page
// opened from a file): one instance of the engine, one search at a time, asked by the page
// with {id, fn, args}; it answers {id, value} or {id, error}. A search cannot be interrupted
// inside the engine, so the page stops one by ending the worker.
self.serveCalls = (engine) => {
  const CALLS = new Set(["position", "analyze", "analyzeMove", "engineMove", "solve"]);
  self.onmessage = async (event) => {
    const { id, fn, args } = event.data;
    try {
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
