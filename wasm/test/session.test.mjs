// A whole USI session through the package, as a GUI would hold it: handshake, options,
// positions, a fixed-depth search, an infinite search stopped within 100 ms, isready during a
// search, bad input answered with `info string error` and the engine still alive.
// Run with `node --test wasm/test/` after scripts/build-wasm.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createShishi } from '../src/index.js';

/** An engine with a reader that waits for lines matching a prefix. */
async function start() {
  const engine = await createShishi();
  const lines = [];
  let waiter = null;
  engine.listen((line) => {
    lines.push({ line, at: performance.now() });
    if (waiter && line.startsWith(waiter.prefix)) {
      const w = waiter;
      waiter = null;
      w.resolve({ line, at: performance.now() });
    }
  });
  const seen = () => lines.length;
  /** The next line from index `from` on starting with `prefix`. */
  function expect(prefix, from = 0, ms = 20000) {
    const found = lines.slice(from).find((l) => l.line.startsWith(prefix));
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "${prefix}" within ${ms} ms`)), ms);
      waiter = { prefix, resolve: (v) => { clearTimeout(timer); resolve(v); } };
    });
  }
  return { engine, lines, seen, expect };
}

const HEIAN_START_MOVES = 'position startpos';

test('a USI session through the WebAssembly engine', async (t) => {
  const { engine, lines, seen, expect } = await start();
  t.after(() => engine.terminate());
  assert.ok(engine.interruptible, 'Node shares memory with workers');

  engine.send('usi');
  await expect('usiok');
  assert.ok(lines.some((l) => l.line.startsWith('id name shishi')));
  assert.ok(lines.some((l) => l.line.startsWith('option name USI_Variant')));

  engine.send('setoption name USI_Variant value heian');
  engine.send('setoption name USI_Hash value 16');
  let from = seen();
  engine.send('isready');
  await expect('readyok', from);

  // go depth 3: a legal best move, preceded by its info lines.
  from = seen();
  engine.send(HEIAN_START_MOVES);
  engine.send('go depth 3');
  const { line: best } = await expect('bestmove', from);
  const move = best.split(' ')[1];
  assert.notEqual(move, 'resign');
  assert.ok(lines.slice(from).some((l) => l.line.startsWith('info depth 3')));
  // The engine itself checks legality: play the move and display the position.
  from = seen();
  engine.send(`position startpos moves ${move}`);
  engine.send('d');
  const { line: after } = await expect('variant heian', from);
  assert.ok(!lines.slice(from).some((l) => l.line.includes('error')), after);

  // go infinite, isready while it runs, then stop answered within 100 ms.
  from = seen();
  engine.send('go infinite');
  await expect('info depth 3', from);
  from = seen();
  const askedReady = performance.now();
  engine.send('isready');
  const ready = await expect('readyok', from);
  assert.ok(!lines.slice(from).some((l) => l.line.startsWith('bestmove')), 'still searching');
  assert.ok(ready.at - askedReady < 100, `readyok after ${ready.at - askedReady} ms`);
  await new Promise((r) => setTimeout(r, 200));
  from = seen();
  const stopped = performance.now();
  engine.send('stop');
  const answer = await expect('bestmove', from);
  const latency = answer.at - stopped;
  assert.ok(latency < 100, `bestmove ${latency.toFixed(1)} ms after stop`);
  t.diagnostic(`stop answered in ${latency.toFixed(1)} ms`);

  // Bad input: an error line, and the engine still answers.
  for (const bad of ['bogus', 'go depth x', 'position sfen nonsense', 'setoption name Nope value 1']) {
    from = seen();
    engine.send(bad);
    engine.send('isready');
    await expect('readyok', from);
    assert.ok(
      lines.slice(from).some((l) => l.line.startsWith('info string error')),
      `no error for "${bad}"`,
    );
  }
  from = seen();
  engine.send('position startpos');
  engine.send('go nodes 2000');
  const { line: again } = await expect('bestmove', from);
  assert.notEqual(again.split(' ')[1], 'resign');

  // quit ends the session.
  const exited = new Promise((resolve) => engine.onExit(resolve));
  engine.send('quit');
  await exited;
});

test('ponder: the search holds its move until ponderhit', async (t) => {
  const { engine, lines, seen, expect } = await start();
  t.after(() => engine.terminate());
  engine.send('usi');
  await expect('usiok');
  engine.send('setoption name USI_Variant value heian');
  engine.send('position startpos');
  let from = seen();
  engine.send('go ponder btime 1000 wtime 1000 byoyomi 100');
  await expect('info depth 2', from);
  await new Promise((r) => setTimeout(r, 300));
  assert.ok(!lines.slice(from).some((l) => l.line.startsWith('bestmove')), 'held while pondering');
  engine.send('ponderhit');
  const { line } = await expect('bestmove', from, 5000);
  assert.notEqual(line.split(' ')[1], 'resign');
});

// The browser build must search exactly as the native one: USI `bench` (the ten bench positions
// of both families, the nets evaluating, one thread) visits the same number of nodes in both.
// Their kernels differ (WebAssembly's 128-bit SIMD against AVX2 or plain x86-64 code), so a
// kernel that computed another sum would show here. Needs the native release build (scripts/test
// runs cargo's release tests first, which build it).
test("the bench signature is the native build's", async (t) => {
  const repo = fileURLToPath(new URL('../..', import.meta.url));
  const native = resolve(repo, process.env.CARGO_TARGET_DIR ?? 'target', 'release', 'shishi');
  assert.ok(existsSync(native), `no native build at ${native}: run cargo build --release first`);
  const result = /^(\d+) nodes \d+ nps$/;
  const nativeLast = execFileSync(native, [], { input: 'usi\nbench\nquit\n', encoding: 'utf8' })
    .trim()
    .split('\n')
    .pop();
  assert.match(nativeLast, result);

  const { engine, lines, seen } = await start();
  t.after(() => engine.terminate());
  const from = seen();
  engine.send('usi');
  engine.send('bench');
  const started = performance.now();
  let found;
  while (!(found = lines.slice(from).find((l) => result.test(l.line)))) {
    assert.ok(performance.now() - started < 120000, 'no bench result within 120 s');
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(found.line.match(result)[1], nativeLast.match(result)[1], `browser build: ${found.line}, native: ${nativeLast}`);
});
