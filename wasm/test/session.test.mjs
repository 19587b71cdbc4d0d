// A whole USI session through the package, as a GUI would hold it: handshake, options,
// positions, a fixed-depth search, an infinite search stopped within 100 ms, isready during a
// search, bad input answered with `info string error` and the engine still alive.
// Run with `node --test wasm/test/` after scripts/build-wasm.

import { test } from 'node:test';
import assert from 'node:assert/strict';
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
