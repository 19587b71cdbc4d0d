// shishi in WebAssembly, driven by USI: `const engine = await createShishi();
// engine.listen(line => ...); engine.send('usi');`. The engine runs in a worker (a Web Worker
// in browsers, worker_threads in Node), so the page stays responsive while it searches. A search
// runs synchronously inside the worker; it reads `stop`, `ponderhit` and `isready` from a
// SharedArrayBuffer channel every few milliseconds. Browsers share memory only with
// cross-origin isolated pages (COOP/COEP headers); elsewhere the engine still plays, but a
// search ends only at its own limits (depth, nodes, time), so `go infinite` would never end.

import { canShare, createChannel, writer } from './channel.js';

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
  const worker = new Worker(workerUrl, { type: 'module' });
  return {
    post: (m) => worker.postMessage(m),
    onMessage: (f) => worker.addEventListener('message', (e) => f(e.data)),
    onError: (f) => worker.addEventListener('error', (e) => f(e.error ?? new Error(e.message))),
    terminate: () => worker.terminate(),
  };
}

/**
 * Starts an engine; resolves once its WebAssembly is compiled and instantiated.
 * @param {{ wasm?: string | URL | WebAssembly.Module }} [options]
 */
export async function createShishi(options = {}) {
  const worker = await startWorker();
  const listeners = new Set();
  const exitListeners = new Set();
  const shared = canShare() ? createChannel() : null;
  const channel = shared ? writer(shared) : null;
  let exited = false;
  const ready = new Promise((resolve, reject) => {
    worker.onError(reject);
    worker.onMessage((m) => {
      if (m.type === 'ready') resolve();
      else if (m.type === 'line') for (const f of listeners) f(m.line);
      else if (m.type === 'error') {
        reject(new Error(m.message));
        for (const f of listeners) f(`info string error engine failure: ${m.message.split('\n')[0]}`);
      } else if (m.type === 'exit') {
        exited = true;
        for (const f of exitListeners) f();
      }
    });
  });
  const wasm = options.wasm ?? defaultWasm;
  worker.post({ type: 'init', wasm: wasm instanceof URL ? wasm.href : wasm, sab: shared });
  await ready;
  return {
    /** Whether `stop` reaches a running search (shared memory is available). */
    interruptible: shared !== null,
    /** Sends one USI line (or several, separated by newlines). */
    send(line) {
      if (exited) return;
      const text = line.endsWith('\n') ? line : line + '\n';
      if (channel) {
        channel.push(text);
        worker.post({ type: 'wake' });
      } else {
        worker.post({ type: 'lines', text });
      }
    },
    /** Calls `callback` with every output line; returns a function that unsubscribes. */
    listen(callback) {
      listeners.add(callback);
      return () => listeners.delete(callback);
    },
    /** Calls `callback` once the engine has handled `quit`. */
    onExit(callback) {
      exitListeners.add(callback);
      return () => exitListeners.delete(callback);
    },
    /** Ends the worker at once. */
    terminate() {
      exited = true;
      return worker.terminate();
    },
  };
}
