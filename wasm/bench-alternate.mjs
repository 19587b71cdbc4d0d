#!/usr/bin/env node
// Search speed of several USI engines on one processor core, their searches taken in turn:
// every engine runs `go depth D` from the start position after `usinewgame` (a fresh table,
// so every search of an engine visits the same nodes), one engine after the other, `rounds`
// times, the order reversed every other round. On a host whose speed moves within seconds
// (a shared virtual machine), engines compared search by search in turn meet the same host,
// which a few long runs one after the other do not; the figures to read are each engine's
// speed against the first engine's, over all rounds ("total") and as the median of the rounds.
//
// Meant for two builds of the same engine (native against WebAssembly through
// wasm/shishi-usi.mjs, or a build against the one before a change): the node counts of every
// engine should agree, and the line says how many nodes each search visited. Each engine first
// runs one search that is not counted (V8 compiles the hot functions of a WebAssembly build
// during its first search). Pinned to the core with `taskset`, the JavaScript runtime's helper
// threads included, where a browser would give them other cores.
//
// Usage: node wasm/bench-alternate.mjs ROUNDS DEPTH CORE ENGINE...
//   ENGINE is a shell command, optionally prefixed by `HASH_MB:` (default 64, or
//   SHISHI_BENCH_HASH); SHISHI_BENCH_VARIANT=heian for the Heian start instead of Chu's.
//   node wasm/bench-alternate.mjs 60 9 1 ./target/release/shishi "node wasm/shishi-usi.mjs"

import { spawn } from 'node:child_process';

const [rounds, depth, core, ...specs] = process.argv.slice(2);
if (!(Number(rounds) > 0) || !(Number(depth) > 0) || core === undefined || specs.length === 0) {
  console.error('usage: node wasm/bench-alternate.mjs ROUNDS DEPTH CORE [HASH_MB:]COMMAND...');
  process.exit(2);
}
const variant = process.env.SHISHI_BENCH_VARIANT ?? 'chu';
const defaultHash = process.env.SHISHI_BENCH_HASH ?? '64';

function start(spec) {
  const [, hash, command] = spec.match(/^(?:(\d+):)?(.*)$/);
  const child = spawn('taskset', ['-c', core, 'sh', '-c', command], { stdio: ['pipe', 'pipe', 'inherit'] });
  const engine = { spec, hash: hash ?? defaultHash, child, pending: '', lines: [], waiting: null, nodes: 0, ms: 0, rates: [] };
  child.stdout.on('data', (data) => {
    engine.pending += data;
    let end;
    while ((end = engine.pending.indexOf('\n')) >= 0) {
      const line = engine.pending.slice(0, end).replace(/\r$/, '');
      engine.pending = engine.pending.slice(end + 1);
      engine.lines.push(line);
      if (engine.waiting?.pattern.test(line)) {
        const { resolve } = engine.waiting;
        engine.waiting = null;
        resolve();
      }
    }
  });
  child.on('exit', (code) => {
    if (engine.waiting) {
      console.error(`engine '${spec}' exited (${code}) while it was awaited`);
      process.exit(1);
    }
  });
  return engine;
}

const until = (engine, pattern) => new Promise((resolve) => (engine.waiting = { pattern, resolve }));
const send = (engine, line) => engine.child.stdin.write(line + '\n');

/** One search from a fresh table: its node count and milliseconds from `go` to `bestmove`. */
async function search(engine) {
  send(engine, 'usinewgame');
  send(engine, 'position startpos');
  send(engine, 'isready');
  await until(engine, /^readyok/);
  engine.lines = [];
  const started = process.hrtime.bigint();
  send(engine, `go depth ${depth}`);
  await until(engine, /^bestmove/);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const info = engine.lines.filter((line) => / nodes \d+/.test(line)).pop();
  if (!info) throw new Error(`no info line with nodes from '${engine.spec}'`);
  return { nodes: Number(info.match(/ nodes (\d+)/)[1]), ms };
}

const engines = specs.map(start);
for (const engine of engines) {
  send(engine, 'usi');
  await until(engine, /^usiok/);
  send(engine, `setoption name USI_Variant value ${variant}`);
  send(engine, `setoption name USI_Hash value ${engine.hash}`);
  await search(engine);
}
for (let round = 0; round < Number(rounds); round++) {
  for (const engine of round % 2 ? [...engines].reverse() : engines) {
    const { nodes, ms } = await search(engine);
    engine.nodes += nodes;
    engine.ms += ms;
    engine.rates.push(nodes / ms / 1000);
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const [first] = engines;
for (const engine of engines) {
  const total = engine.nodes / engine.ms / (first.nodes / first.ms);
  const perRound = median(engine.rates.map((rate, i) => rate / first.rates[i]));
  console.log(
    `${(engine.nodes / engine.ms / 1000).toFixed(3)} M nodes/s (median ${median(engine.rates).toFixed(3)}), ` +
      `against the first: total ${total.toFixed(3)}, median of rounds ${perRound.toFixed(3)}; ` +
      `${engine.nodes / Number(rounds)} nodes a search  [${engine.spec}]`,
  );
}
for (const engine of engines) send(engine, 'quit');
setTimeout(() => process.exit(0), 500).unref();
