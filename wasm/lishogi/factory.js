// The entry of shishi.js, the engine as lishogi's analysis board loads it (ui/ceval,
// ThreadedWasmWorker): a classic <script> that defines the global factory
//
//   Shishi({ wasmBinary, locateFile, wasmMemory }) -> Promise<{ addMessageListener, postMessage }>
//
// the shape of an Emscripten engine module (YaneuraOu, Fairy-Stockfish). bundle.mjs makes
// shishi.js from this file and the package's own worker code (../src/), which it inlines as
// WORKER_SOURCE: the engine runs in a Web Worker made from a Blob URL, so the page stays
// responsive and needs no second file beside shishi.wasm.

import { connect, webWorker } from '../src/host.js';

/**
 * @param {{ wasmBinary?: ArrayBuffer | ArrayBufferView, locateFile?: (path: string) => string,
 *   wasmMemory?: WebAssembly.Memory }} [options]
 *   wasmBinary: shishi.wasm's bytes, as lishogi fetches them; without it the worker fetches
 *   locateFile('shishi.wasm'). wasmMemory is accepted and not used: the module defines its own
 *   memory (importing one would need other link flags; see wasm/README.md).
 */
export function Shishi(options = {}) {
  return (async () => {
    let wasm = options.wasmBinary;
    if (!wasm) {
      const path = options.locateFile ? options.locateFile('shishi.wasm') : 'shishi.wasm';
      // The worker's own base is its blob: URL, so it gets an absolute address.
      wasm = new URL(path, globalThis.document?.baseURI ?? globalThis.location?.href).href;
    }
    const source = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'text/javascript' }));
    let engine;
    try {
      engine = await connect(webWorker(new Worker(source)), wasm);
    } finally {
      URL.revokeObjectURL(source);
    }
    if (!engine.interruptible) {
      console.warn('shishi: the page is not cross-origin isolated, so stop cannot end a search');
    }
    return {
      /** Calls `callback` with every output line of the engine. */
      addMessageListener(callback) {
        engine.listen(callback);
      },
      /** Sends one USI command line. */
      postMessage(line) {
        engine.send(String(line));
      },
      /** Whether `stop` reaches a running search (the page shares memory with the worker). */
      interruptible: engine.interruptible,
      /** Ends the worker at once. */
      terminate() {
        engine.terminate();
      },
    };
  })();
}
