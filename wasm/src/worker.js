// The engine's worker (a browser Web Worker or a Node worker_threads Worker): owns the
// WebAssembly instance and feeds it input. Messages in: {type: 'init', wasm, sab} once (wasm:
// the URL of shishi.wasm, the compiled module or its bytes), then
// {type: 'wake'} when lines wait in the shared channel, or {type: 'lines', text} when the host
// cannot share memory. Messages out: {type: 'ready'}, {type: 'line', line}, {type: 'exit'},
// {type: 'error', message}.

import { instantiate } from './glue.js';
import { reader } from './channel.js';

const isNode = typeof process === 'object' && !!process.versions?.node;
const port = isNode ? (await import('node:worker_threads')).parentPort : self;
const post = (message) => port.postMessage(message);
const listen = (handler) =>
  isNode ? port.on('message', handler) : port.addEventListener('message', (e) => handler(e.data));

async function compile(wasm) {
  if (wasm instanceof WebAssembly.Module) return wasm;
  if (wasm instanceof ArrayBuffer || ArrayBuffer.isView(wasm)) return WebAssembly.compile(wasm);
  if (isNode) {
    const { readFile } = await import('node:fs/promises');
    return WebAssembly.compile(await readFile(new URL(wasm)));
  }
  const response = fetch(wasm);
  if (WebAssembly.compileStreaming) {
    try {
      return await WebAssembly.compileStreaming(response);
    } catch {
      // A server without the application/wasm type: compile from the bytes.
    }
  }
  return WebAssembly.compile(await (await fetch(wasm)).arrayBuffer());
}

let engine = null;
let channel = null;
let alive = true;
const early = [];

function run(text) {
  if (!alive || !text) return;
  try {
    alive = engine.input(text);
  } catch (e) {
    alive = false;
    post({ type: 'error', message: String(e?.stack ?? e) });
  }
  if (!alive) post({ type: 'exit' });
}

listen(async (message) => {
  if (message.type === 'init') {
    try {
      const module = await compile(message.wasm);
      channel = message.sab ? reader(message.sab) : null;
      engine = await instantiate(module, {
        onLine: (line) => post({ type: 'line', line }),
        poll: () => (channel ? channel.drain() : ''),
      });
    } catch (e) {
      post({ type: 'error', message: String(e?.stack ?? e) });
      return;
    }
    post({ type: 'ready' });
    for (const m of early.splice(0)) run(m.type === 'wake' ? channel.drain() : m.text);
  } else if (!engine) {
    early.push(message);
  } else if (message.type === 'wake') {
    run(channel.drain());
  } else if (message.type === 'lines') {
    run(message.text);
  }
});
