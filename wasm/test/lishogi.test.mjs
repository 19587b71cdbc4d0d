// The lishogi build (wasm/lishogi/shishi.js) without a browser: the script runs in a fresh vm
// context that has only what a page offers it (a Worker over a Blob URL is played by a Node
// worker thread running the Blob's text), then is driven as lishogi's analysis board drives an
// engine (ui/ceval): `Shishi({ wasmBinary, locateFile, wasmMemory })`, its options after
// `usiok`, MultiPV 3, `go depth 245`, `stop`. Also checks that shishi.js is a classic script
// and up to date with wasm/src/ (scripts/build-wasm makes it).
//
// Run with: node --test wasm/test/

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { Worker as NodeWorker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { lishogiScript } from '../lishogi/bundle.mjs';

const script = new URL('../lishogi/shishi.js', import.meta.url);
const wasm = new URL('../lishogi/shishi.wasm', import.meta.url);
const CHU_START =
  'lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1';

/** A context with a page's globals, in which a Blob URL's worker is a Node worker thread. */
function pageContext() {
  const blobs = new Map();
  class Blob {
    constructor(parts) {
      this.source = parts.join('');
    }
  }
  class PageURL extends URL {
    static createObjectURL(blob) {
      const url = `blob:test/${blobs.size}`;
      blobs.set(url, blob.source);
      return url;
    }
    static revokeObjectURL(url) {
      blobs.delete(url);
    }
  }
  class Worker {
    constructor(url) {
      assert.ok(blobs.has(url), `a worker from a live Blob URL, not ${url}`);
      this.thread = new NodeWorker(blobs.get(url), { eval: true });
    }
    postMessage(message) {
      this.thread.postMessage(message);
    }
    addEventListener(type, listener) {
      if (type === 'message') this.thread.on('message', (data) => listener({ data }));
      if (type === 'error') this.thread.on('error', (error) => listener({ error, message: error.message }));
    }
    terminate() {
      return this.thread.terminate();
    }
  }
  const warnings = [];
  const console = { log() {}, info() {}, warn: (...a) => warnings.push(a.join(' ')), error: (...a) => warnings.push(a.join(' ')) };
  const context = vm.createContext({ Blob, URL: PageURL, Worker, TextEncoder, TextDecoder, setTimeout, clearTimeout, console, performance });
  return { context, warnings };
}

/** The engine's lines as they come, and a wait for the next one that matches. */
function transcript(engine) {
  const lines = [];
  const waiting = [];
  engine.addMessageListener((line) => {
    lines.push(line);
    for (const w of waiting.splice(0)) if (!w(line)) waiting.push(w);
  });
  return {
    lines,
    next(match, ms = 20000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no line matching ${match} in ${ms} ms: ${lines.slice(-8).join(' | ')}`)), ms);
        waiting.push((line) => {
          if (!match.test(line)) return false;
          clearTimeout(timer);
          resolve(line);
          return true;
        });
      });
    },
  };
}

const skip = !existsSync(script) || !existsSync(wasm) ? 'no wasm/lishogi/shishi.js: run scripts/build-wasm' : false;

test('shishi.js is a classic script, made from the current wasm/src', { skip }, () => {
  const text = readFileSync(script, 'utf8');
  assert.doesNotThrow(() => new vm.Script(text), 'a classic script (no import or export)');
  const worker = JSON.parse(text.match(/^const WORKER_SOURCE = (".*");$/m)[1]);
  assert.doesNotThrow(() => new vm.Script(worker), 'the worker is a classic script too');
  assert.equal(text, lishogiScript(), 'shishi.js is out of date: run scripts/build-wasm');
});

test('the lishogi analysis board session through window.Shishi', { skip, timeout: 60000 }, async () => {
  const { context, warnings } = pageContext();
  vm.runInContext(readFileSync(script, 'utf8'), context);
  assert.equal(typeof context.Shishi, 'function');
  const wasmBinary = readFileSync(wasm).buffer;
  const wasmMemory = new WebAssembly.Memory({ initial: 2048, maximum: 32768, shared: true });
  const engine = await context.Shishi({ wasmBinary, locateFile: (p) => p, wasmMemory });
  assert.equal(typeof engine.addMessageListener, 'function');
  assert.equal(typeof engine.postMessage, 'function');
  assert.equal(engine.interruptible, true);
  const t = transcript(engine);
  try {
    engine.postMessage('usi');
    await t.next(/^usiok$/);
    engine.postMessage('setoption name USI_AnalyseMode value true');
    engine.postMessage('setoption name USI_Hash value 16');
    engine.postMessage('setoption name Threads value 4');
    engine.postMessage('usinewgame');
    engine.postMessage('isready');
    await t.next(/^readyok$/);
    assert.ok(t.lines.some((l) => /^info string Threads 4: .*one/.test(l)), t.lines.join('\n'));
    engine.postMessage('setoption name USI_Variant value chushogi');
    engine.postMessage('setoption name MultiPV value 3');
    engine.postMessage('isready');
    await t.next(/^readyok$/);
    engine.postMessage(`position sfen ${CHU_START} moves 7i7h 6d6e`);
    engine.postMessage('go depth 245');
    const info = await t.next(/^info depth ([6-9]|\d\d).* multipv 3 /);
    for (const field of [' nodes ', ' time ', ' score cp ']) assert.ok(info.includes(field), info);
    const sent = performance.now();
    engine.postMessage('stop');
    const best = await t.next(/^bestmove /, 2000);
    const ms = performance.now() - sent;
    console.log(`lishogi build in Node: ${info.split(' pv ')[0]}; ${best} ${ms.toFixed(1)} ms after stop`);
    assert.ok(ms < 100, `stop answered after ${ms} ms`);
    assert.deepEqual(t.lines.filter((l) => l.startsWith('info string error')), []);
    assert.deepEqual(warnings, []);
  } finally {
    await engine.terminate();
  }
});

test('without wasmBinary the worker fetches locateFile("shishi.wasm")', { skip, timeout: 30000 }, async () => {
  const { context } = pageContext();
  vm.runInContext(readFileSync(script, 'utf8'), context);
  const asked = [];
  const engine = await context.Shishi({
    locateFile: (path) => {
      asked.push(path);
      return pathToFileURL(new URL(path, wasm).pathname).href;
    },
  });
  const t = transcript(engine);
  try {
    engine.postMessage('usi');
    assert.match(await t.next(/^id name /), /shishi/);
    assert.deepEqual(asked, ['shishi.wasm']);
  } finally {
    await engine.terminate();
  }
});
