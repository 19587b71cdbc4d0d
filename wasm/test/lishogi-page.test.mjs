// The lishogi build in headless Chromium, loaded exactly as lishogi's analysis board loads a
// WebAssembly engine: wasm/lishogi/index.html (served with COOP/COEP by wasm/lishogi/serve.mjs)
// fetches shishi.wasm, makes a shared WebAssembly.Memory, adds shishi.js as a classic script,
// calls window.Shishi({ wasmBinary, locateFile, wasmMemory }) and speaks USI to it as lishogi's
// Protocol does. Checks: from the Chu start position with MultiPV 3 and `go depth 245`, depth 10
// with lishogi-usable info lines for multipv 1..3 (the depth reached in 5 s is printed, a speed
// figure for docs/speed.md, not asserted: it depends on the machine's load); `stop` answered with
// `bestmove` within 100 ms (timed in the page with performance.now()); three game positions
// (the first openings of positions/openings-chu.epd) analysed to depth 10 and stopped; no
// error in the page or the browser console.
//
// Needs wasm/lishogi/shishi.js and shishi.wasm (scripts/build-wasm). Runs only with
// SHISHI_PAGE_TEST=1, like page.test.mjs.
//
// Run with: SHISHI_PAGE_TEST=1 node --test wasm/test/lishogi-page.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { serveLishogi } from '../lishogi/serve.mjs';
import { ensurePackages, launch } from '../test-support/webdriver.mjs';

const built = ['shishi.js', 'shishi.wasm'].every((f) => existsSync(new URL(`../lishogi/${f}`, import.meta.url)));
const skip = !process.env.SHISHI_PAGE_TEST
  ? 'set SHISHI_PAGE_TEST=1 to run it (scripts/test does)'
  : !built ? 'no wasm/lishogi/shishi.js: run scripts/build-wasm' : false;

/** The move lists of the first `n` openings of positions/openings-chu.epd (from the start). */
function openings(n) {
  const text = readFileSync(new URL('../../positions/openings-chu.epd', import.meta.url), 'utf8');
  return text
    .split('\n')
    .filter((l) => !l.startsWith('#') && l.includes('; moves '))
    .slice(0, n)
    .map((l) => l.split('; moves ')[1].trim().split(/\s+/));
}

/** Every `info` line the engine sent for analysis `i`, between its `go` and its `bestmove`. */
const INFO_LINES = `const w = lishogiTest.works[arguments[0]];
  return lishogiTest.log.filter(e => e.dir === '<' && e.t >= w.goAt && e.t <= w.bestmoveAt && e.line.startsWith('info depth')).map(e => e.line);`;

test('shishi loaded and driven as lishogi does, in headless Chromium', { skip, timeout: 240000 }, async (t) => {
  ensurePackages();
  const { server, url } = await serveLishogi({ port: 0 });
  t.after(() => server.close());
  const driver = await launch(t, 'return JSON.stringify({ state: lishogiTest.state, errors: lishogiTest.errors, log: lishogiTest.log.slice(-12).map(e => e.dir + " " + e.line) })');
  await driver.go(url);
  await driver.waitFor('return lishogiTest.state === "ready"', 'the engine to boot and answer readyok');
  const env = await driver.exec('return lishogiTest.env');
  assert.equal(env.isolated, true, 'cross-origin isolated');
  assert.equal(env.sharedMemory, true, 'a shared wasmMemory was made and passed');
  assert.equal(env.interruptible, true, 'stop reaches a running search');
  assert.deepEqual(env.located, [], 'wasmBinary was used, nothing fetched through locateFile');

  /** Analyses until an evaluation of all three lines at depth `depth`; its work, timed. */
  const analyse = async (moves, depth, ms) => {
    const i = await driver.exec('return lishogiTest.analyse({ moves: arguments[0], multiPv: 3 })', [moves]);
    await driver.waitFor(
      `return lishogiTest.works[${i}].evals.some(e => e.multiPv === 3 && e.depth >= ${depth})`,
      `depth ${depth} with three lines after ${moves.length} moves`,
      ms,
    );
    return i;
  };
  const stop = async (i) => {
    await driver.exec('lishogiTest.stop()');
    await driver.waitFor(`return lishogiTest.works[${i}].bestmoveAt !== undefined`, 'bestmove after stop', 5000);
    return driver.exec(`const w = lishogiTest.works[${i}]; return { ms: w.bestmoveAt - w.stopAt, bestmove: w.bestmove }`);
  };

  // The start position: what depth in 5 s, then stop.
  const start = await analyse([], 10, 20000);
  await driver.waitFor(`return performance.now() - lishogiTest.works[${start}].goAt > 5000`, '5 s of analysis', 10000);
  const first = await driver.exec(`const w = lishogiTest.works[${start}];
    const within = w.evals.filter(e => e.at - w.goAt <= 5000);
    const complete = within.filter(e => e.multiPv === 3);
    const ten = w.evals.find(e => e.multiPv === 3 && e.depth >= 10);
    return { depth: Math.max(0, ...complete.map(e => e.depth)), nodes: within.at(-1)?.nodes, time: within.at(-1)?.time,
      multiPvs: [...new Set(w.evals.map(e => e.multiPv))].sort(), depth10Ms: ten.at - w.goAt };`);
  const startStop = await stop(start);
  assert.deepEqual(first.multiPvs, [1, 2, 3]);
  assert.notEqual(startStop.bestmove, 'resign');
  const lines = await driver.exec(INFO_LINES, [start]);
  const deep = lines.filter((l) => Number(l.split(' ')[2]) >= 6);
  assert.ok(deep.length >= 3, lines.join('\n'));
  for (const line of deep) {
    assert.match(line, / multipv [123] /, line);
    assert.match(line, / nodes \d+ /, line);
    assert.match(line, / time \d+ /, line);
    assert.match(line, / score (cp|mate) -?\d+ /, line);
  }

  // Three game positions, each to depth 10, then stopped as when the user moves on.
  const games = [];
  for (const moves of openings(3)) {
    const i = await analyse(moves, 10, 60000);
    const reached = await driver.exec(`const w = lishogiTest.works[${i}]; return w.evals.find(e => e.multiPv === 3 && e.depth >= 10).at - w.goAt`);
    games.push({ plies: moves.length, depth10Ms: reached, stop: await stop(i) });
  }

  const said = await driver.exec('return lishogiTest.log.filter(e => e.line.startsWith("info string")).map(e => e.line)');
  assert.ok(said.some((l) => /^info string Threads 4: .* one$/.test(l)), said.join('\n'));
  const errors = await driver.exec('return lishogiTest.errors');
  let consoleLog;
  try {
    consoleLog = await driver.consoleLog();
  } catch (e) {
    consoleLog = null;
    console.log(`lishogi page test: no browser console log from chromedriver (${e.message.slice(0, 100)}); the page's own hooks stand in`);
  }
  const stops = [startStop.ms, ...games.map((g) => g.stop.ms)];
  console.log(`lishogi page test: engine started ${env.startMs.toFixed(0)} ms after Shishi() (${env.wasmBytes} bytes of wasm)`);
  console.log(`lishogi page test: Chu start, MultiPV 3, go depth 245: depth ${first.depth} within 5 s (depth 10 after ${first.depth10Ms.toFixed(0)} ms), ${first.nodes} nodes in ${first.time} ms`);
  for (const g of games) console.log(`lishogi page test: game position after ${g.plies} plies: depth 10 after ${g.depth10Ms.toFixed(0)} ms, stop -> bestmove ${g.stop.bestmove} in ${g.stop.ms.toFixed(1)} ms`);
  console.log(`lishogi page test: stop answered after ${stops.map((x) => x.toFixed(1)).join(', ')} ms (target 100 ms)`);
  assert.deepEqual(errors, [], 'errors in the page');
  if (consoleLog) {
    const severe = consoleLog.filter((e) => e.level === 'SEVERE' || e.level === 'WARNING');
    console.log(`lishogi page test: browser console: ${consoleLog.length} entries, ${severe.length} warnings or errors`);
    assert.deepEqual(severe, [], 'browser console errors');
  }
  for (const ms of stops) assert.ok(ms < 100, `stop answered after ${ms} ms`);
});
