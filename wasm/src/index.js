// shishi in WebAssembly, driven by USI: `const engine = await createShishi();
// engine.listen(line => ...); engine.send('usi');`. The engine runs in a worker (a Web Worker
// in browsers, worker_threads in Node), so the page stays responsive while it searches. A search
// runs synchronously inside the worker; it reads `stop`, `ponderhit` and `isready` from a
// SharedArrayBuffer channel every few milliseconds. Browsers share memory only with
// cross-origin isolated pages (COOP/COEP headers); elsewhere the engine still plays, but a
// search ends only at its own limits (depth, nodes, time), so `go infinite` would never end.

import { connect, webWorker } from './host.js';

const isNode = typeof process === 'object' && !!process.versions?.node;
const defaultWasm = new URL('../pkg/shishi.wasm', import.meta.url);
const workerUrl = new URL('./worker.js', import.meta.url);

async function startWorker() {
  if (isNode) {
    const { Worker } = await import('node:worker_threads');
    const worker = new Worker(workerUrl);
    return {
      post: (m) => worker.postMessage(m),
      onMessage: (f) => worker.on('message', f),
      onError: (f) => worker.on('error', f),
      terminate: () => worker.terminate(),
    };
  }
  return webWorker(new Worker(workerUrl, { type: 'module' }));
}

/**
 * Starts an engine; resolves once its WebAssembly is compiled and instantiated.
 * @param {{ wasm?: string | URL | WebAssembly.Module }} [options]
 */
export async function createShishi(options = {}) {
  return connect(await startWorker(), options.wasm ?? defaultWasm);
}
