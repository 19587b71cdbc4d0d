#!/usr/bin/env node
// Search speed of the browser build in a browser, beside the native binary, on the same
// machine: the same search (`go depth D` from the Chu start or Heian's, one thread, 64 MiB hash,
// a fresh table each time) run alternately by `./target/release/shishi` and by the analysis page's
// engine (wasm/page/, its Web Worker) in headless Chromium, `runs` times each. Both reach the
// same node count; the figure to compare is nodes per second. The page is loaded once, and its
// first search also warms V8 up (baseline code first, optimised code for hot functions after),
// so each browser search is run twice and both figures are printed ("first", "again").
//
// Needs wasm/pkg/shishi.wasm (scripts/build-wasm), a release build, chromium and
// chromium-driver (installed when missing, as for the page test).
//
// Usage: node wasm/bench-browser.mjs [runs [depth]]   (defaults: 3, 13; SHISHI_BENCH_HASH=MB for
// another hash size, SHISHI_BENCH_VARIANT=heian for the Heian start instead of Chu's,
// SHISHI_BENCH_NATIVE=PATH for another native binary, such as the release build of
// scripts/release, made for any x86-64; SHISHI_BENCH_CORE=N to run both on processor core N,
// Chromium's helper threads included, where a host's speed moves from one search to the next)
//
// The last line sums up: the page's second searches against the native ones over all runs
// (total nodes over total time), and the median of the runs' ratios.

import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from './page/serve.mjs';
import { ensurePackages, launch } from './test-support/webdriver.mjs';

const repo = resolve(fileURLToPath(new URL('..', import.meta.url)));
const runs = Number(process.argv[2] ?? 3);
const depth = Number(process.argv[3] ?? 13);
const hash = Number(process.env.SHISHI_BENCH_HASH ?? 64);
const variant = process.env.SHISHI_BENCH_VARIANT ?? 'chu';
const nativeBinary = resolve(repo, process.env.SHISHI_BENCH_NATIVE ?? 'target/release/shishi');
const core = process.env.SHISHI_BENCH_CORE;
const pinned = core === undefined ? [] : ['taskset', '-c', core];
const setup = [`setoption name USI_Variant value ${variant}`, `setoption name USI_Hash value ${hash}`, 'setoption name Threads value 1', 'usinewgame', 'position startpos'];

/** The last `info` line with `nodes` and `nps` of a search, as {nodes, nps, depth}. */
function lastInfo(lines) {
  const info = lines.filter((l) => l.startsWith('info ') && / nps \d+/.test(l)).pop();
  if (!info) throw new Error(`no info line with nps in: ${lines.slice(-3).join(' | ')}`);
  const field = (name) => Number(info.match(new RegExp(` ${name} (\\d+)`))[1]);
  return { depth: field('depth'), nodes: field('nodes'), nps: field('nps') };
}

function native() {
  return new Promise((res, rej) => {
    const [command, ...args] = [...pinned, nativeBinary];
    const engine = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    engine.stdout.on('data', (d) => {
      out += d;
      if (/^bestmove /m.test(out)) engine.stdin.end('quit\n');
    });
    engine.on('error', rej);
    engine.on('close', () => {
      try {
        res(lastInfo(out.split('\n')));
      } catch (e) {
        rej(e);
      }
    });
    engine.stdin.write(['usi', ...setup, 'isready', `go depth ${depth}`].join('\n') + '\n');
  });
}

const cleanups = [];
const t = { after: (fn) => cleanups.push(fn) };
ensurePackages();
const { server, url } = await serve({ port: 0 });
t.after(() => server.close());
const driver = await launch(t, undefined, pinned);
try {
  await driver.go(url);
  await driver.waitFor('return document.body.dataset.ready === "true"', 'the page and its engine', 60000);
  const browser = async () => {
    const lines = await driver.execAsync(
      `const done = arguments[arguments.length - 1];
      const io = shishiPage.io;
      io.query(${JSON.stringify(setup)})
        .then(() => { const from = io.log.length; return io.go('go depth ${depth}').then(() => io.log.slice(from)); })
        .then((log) => done(log.filter((e) => e.dir === '<').map((e) => e.line)));`,
      600000,
    );
    return lastInfo(lines);
  };
  const show = (r) => `${r.nodes} nodes depth ${r.depth} ${(r.nps / 1e6).toFixed(3)} M nodes/s`;
  const seconds = (r) => r.nodes / r.nps;
  const totals = { native: 0, page: 0, nodes: 0 };
  const ratios = [];
  for (let i = 1; i <= runs; i++) {
    const n = await native();
    const first = await browser();
    const again = await browser();
    ratios.push(again.nps / n.nps);
    totals.native += seconds(n);
    totals.page += seconds(again);
    totals.nodes += n.nodes;
    console.log(
      `run ${i}  native: ${show(n)}  browser first: ${show(first)}  again: ${show(again)}  ratio ${(again.nps / n.nps).toFixed(2)}`,
    );
  }
  ratios.sort((a, b) => a - b);
  const mid = ratios.length >> 1;
  const median = ratios.length % 2 ? ratios[mid] : (ratios[mid - 1] + ratios[mid]) / 2;
  console.log(
    `${runs} runs: native ${(totals.nodes / totals.native / 1e6).toFixed(3)} M nodes/s, the page ` +
      `${(totals.nodes / totals.page / 1e6).toFixed(3)} M: ${(totals.native / totals.page).toFixed(3)} of native ` +
      `over all runs, median of the runs ${median.toFixed(3)}${core === undefined ? '' : `, both on core ${core}`}`,
  );
} finally {
  for (const fn of cleanups.reverse()) await fn();
}
