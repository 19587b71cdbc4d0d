// The page's side of the engine's worker (worker.js), shared by `createShishi` (index.js) and
// the lishogi build (../lishogi/): hands the worker its WebAssembly and a SharedArrayBuffer
// channel, forwards input lines, and hands every output line to the listeners. It knows nothing
// of how the worker was made: it takes an object with post, onMessage, onError and terminate.

import { canShare, createChannel, writer } from './channel.js';

/** The four calls `connect` needs, on a browser Web Worker. */
export function webWorker(worker) {
  return {
    post: (m) => worker.postMessage(m),
    onMessage: (f) => worker.addEventListener('message', (e) => f(e.data)),
    onError: (f) => worker.addEventListener('error', (e) => f(e.error ?? new Error(e.message))),
    terminate: () => worker.terminate(),
  };
}

/**
 * Starts the engine in `worker`; resolves once its WebAssembly is compiled and instantiated.
 * @param {{ post, onMessage, onError, terminate }} worker
 * @param {string | URL | WebAssembly.Module | ArrayBuffer | ArrayBufferView} wasm
 *   where shishi.wasm is (a URL the worker can fetch), or the module, or its bytes
 */
export async function connect(worker, wasm) {
  const listeners = new Set();
  const exitListeners = new Set();
  const shared = canShare() ? createChannel() : null;
  const channel = shared ? writer(shared) : null;
  let exited = false;
  const fail = (message) => {
    for (const f of listeners) f(`info string error engine failure: ${message.split('\n')[0]}`);
  };
  const ready = new Promise((resolve, reject) => {
    worker.onError((e) => {
      reject(e);
      fail(String(e?.message ?? e));
    });
    worker.onMessage((m) => {
      if (m.type === 'ready') resolve();
      else if (m.type === 'line') for (const f of listeners) f(m.line);
      else if (m.type === 'error') {
        reject(new Error(m.message));
        fail(m.message);
      } else if (m.type === 'exit') {
        exited = true;
        for (const f of exitListeners) f();
      }
    });
  });
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
