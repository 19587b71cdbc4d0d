// The lishogi-style test page: boots shishi exactly as lishogi's analysis board boots a
// WebAssembly engine (ui/ceval/src/worker.ts, ThreadedWasmWorker) and drives it as its
// Protocol class does (ui/ceval/src/protocol.ts): the options after `usiok`, options set only
// when they change and followed by `isready`, `position sfen ... moves ...`, `go depth 245`,
// `stop` before the next position, and the same filter on `info` lines. Everything is recorded
// in `window.lishogiTest` for wasm/test/lishogi-page.test.mjs: the USI traffic with
// performance.now() times, each analysis with its accepted evaluations, when `go`, `stop` and
// `bestmove` happened, and every error the page saw.

const CHU_START =
  'lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1';
const MIN_DEPTH = 6;
const MAX_PLIES = 245;

const errors = [];
const log = [];
const works = [];
const test = { state: 'loading', errors, log, works, env: {} };
window.lishogiTest = test;

const consoleError = console.error.bind(console);
console.error = (...args) => {
  errors.push(args.map(String).join(' '));
  consoleError(...args);
};
window.addEventListener('error', (e) => errors.push(`error: ${e.message}`));
window.addEventListener('unhandledrejection', (e) => errors.push(`unhandled rejection: ${e.reason}`));

const $ = (id) => document.getElementById(id);
function record(dir, line) {
  log.push({ t: performance.now(), dir, line });
  if (line.startsWith('info string error')) errors.push(`engine: ${line}`);
  const pre = $('log');
  pre.textContent += `${dir} ${line}\n`;
  if (pre.textContent.length > 50000) pre.textContent = pre.textContent.slice(-40000);
}

/** lishogi's Protocol, for one engine that is not YaneuraOu. */
class Protocol {
  constructor(config) {
    this.config = config;
    this.options = new Map([['Threads', '1'], ['MultiPV', '1']]);
    this.work = undefined;
    this.nextWork = undefined;
    this.reloading = false;
    this.expectedPvs = 1;
  }
  connected(send) {
    this.send = send;
    this.send('usi');
  }
  setOption(name, value) {
    value = String(value);
    if (this.options.get(name) === value) return false;
    this.send(`setoption name ${name} value ${value}`);
    this.options.set(name, value);
    return true;
  }
  received(line) {
    const parts = line.trim().split(/\s+/g);
    if (parts[0] === 'usiok') {
      this.setOption('USI_AnalyseMode', 'true');
      this.setOption('USI_Hash', this.config.hashSize);
      this.setOption('Threads', this.config.threads);
      this.send('usinewgame');
      this.send('isready');
    } else if (parts[0] === 'readyok') {
      if (test.state === 'booting') setStatus('ready');
      this.swapWork(this.reloading);
    } else if (parts[0] === 'bestmove') {
      if (this.work) {
        this.work.bestmoveAt = performance.now();
        this.work.bestmove = parts[1];
      }
      this.work = undefined;
      this.swapWork();
    } else if (this.work && !this.work.stopRequested && parts[0] === 'info') {
      this.info(parts);
    }
  }
  info(parts) {
    let depth = 0;
    let nodes;
    let multiPv = 1;
    let time;
    let isMate = false;
    let score;
    let bound;
    let moves = [];
    for (let i = 1; i < parts.length; i++) {
      switch (parts[i]) {
        case 'depth': depth = Number.parseInt(parts[++i]); break;
        case 'nodes': nodes = Number.parseInt(parts[++i]); break;
        case 'multipv': multiPv = Number.parseInt(parts[++i]); break;
        case 'time': time = Number.parseInt(parts[++i]); break;
        case 'score':
          isMate = parts[++i] === 'mate';
          score = Number.parseInt(parts[++i]);
          if (parts[i + 1] === 'lowerbound' || parts[i + 1] === 'upperbound') bound = parts[++i];
          break;
        case 'pv': moves = parts.slice(i + 1); i = parts.length; break;
      }
    }
    if (isMate && !score) return;
    if (this.expectedPvs < multiPv) this.expectedPvs = multiPv;
    if ((depth < MIN_DEPTH && !isMate) || nodes === undefined || time === undefined || score === undefined) return;
    if (bound && multiPv === 1) return;
    this.work.evals.push({ at: performance.now(), depth, multiPv, nodes, time, cp: isMate ? undefined : score, mate: isMate ? score : undefined, moves });
    show(this.work);
  }
  stop() {
    if (this.work && !this.work.stopRequested) {
      this.work.stopRequested = true;
      this.work.stopAt = performance.now();
      this.send('stop');
    }
  }
  swapWork(reloaded = false) {
    this.reloading = false;
    if (!this.send || (this.work && !reloaded)) return;
    if (!reloaded || !this.work) {
      this.work = this.nextWork;
      this.nextWork = undefined;
    }
    if (!this.work) return;
    this.expectedPvs = 1;
    this.setOption('USI_Variant', 'chushogi');
    const threadChange = this.setOption('Threads', this.config.threads);
    const hashChange = this.setOption('USI_Hash', this.config.hashSize);
    const multiPvChange = this.setOption('MultiPV', this.work.multiPv);
    if (threadChange || hashChange || multiPvChange) {
      this.reloading = true;
      this.send('isready');
      return;
    }
    this.send(['position sfen', this.work.sfen, 'moves', ...this.work.moves].join(' '));
    this.work.goAt = performance.now();
    this.send(this.work.maxDepth >= 99 ? `go depth ${MAX_PLIES}` : 'go movetime 90000');
  }
  compute(nextWork) {
    this.nextWork = nextWork;
    this.stop();
    this.swapWork();
  }
}

function show(work) {
  const latest = new Map();
  for (const e of work.evals) latest.set(e.multiPv, e);
  $('evals').tBodies[0].replaceChildren(
    ...[...latest.values()].map((e) => {
      const row = document.createElement('tr');
      const score = e.mate !== undefined ? `#${e.mate}` : (e.cp / 100).toFixed(2);
      for (const [text, cls] of [[e.multiPv], [e.depth], [score], [e.nodes], [Math.round(e.nodes / Math.max(1, e.time))], [`${e.time} ms`], [e.moves.join(' '), 'pv']]) {
        const cell = document.createElement('td');
        cell.textContent = text;
        if (cls) cell.className = cls;
        row.append(cell);
      }
      return row;
    }),
  );
}

function setStatus(state, text = state) {
  test.state = state;
  $('status').textContent = text;
  $('status').classList.toggle('bad', state === 'failed');
}

function loadScript(src) {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.onload = resolve;
    script.onerror = () => reject(new Error(`cannot load ${src}`));
    document.head.append(script);
  });
}

let protocol;

/** Analyses `moves` from `sfen` (default: the Chu start position), endlessly unless maxDepth < 99. */
test.analyse = ({ sfen = CHU_START, moves = [], multiPv = 3, maxDepth = 99 } = {}) => {
  const work = { sfen, moves, multiPv, maxDepth, evals: [], stopRequested: false };
  works.push(work);
  protocol.compute(work);
  return works.length - 1;
};
/** Stops the analysis, as lishogi does when the user leaves the position. */
test.stop = () => protocol.compute(undefined);

async function boot() {
  setStatus('booting', 'fetching shishi.wasm…');
  const wasmBinary = await (await fetch('shishi.wasm')).arrayBuffer();
  const wasmMemory = new WebAssembly.Memory({ initial: 2048, maximum: 32768, shared: true });
  await loadScript('shishi.js');
  const started = performance.now();
  const located = [];
  const engine = await window.Shishi({
    wasmBinary,
    locateFile: (path) => {
      located.push(path);
      return new URL(path, location.href).href;
    },
    wasmMemory,
  });
  test.env = {
    isolated: crossOriginIsolated,
    sharedMemory: wasmMemory.buffer instanceof SharedArrayBuffer,
    wasmBytes: wasmBinary.byteLength,
    located,
    interruptible: engine.interruptible,
    startMs: performance.now() - started,
  };
  setStatus('booting', 'engine started, USI handshake…');
  // Threads as a four-core machine would set it: the engine accepts it and searches on one.
  protocol = new Protocol({ hashSize: 16, threads: 4 });
  engine.addMessageListener((line) => {
    record('<', line);
    protocol.received(line);
  });
  protocol.connected((line) => {
    record('>', line);
    engine.postMessage(line);
  });
}

$('sfen').value = CHU_START;
$('analyse').addEventListener('click', () => {
  const moves = $('moves').value.trim().split(/\s+/).filter(Boolean);
  test.analyse({ sfen: $('sfen').value.trim(), moves, multiPv: Number($('multipv').value) });
});
$('stop').addEventListener('click', () => test.stop());
boot().catch((e) => {
  errors.push(`boot: ${e?.stack ?? e}`);
  setStatus('failed', `failed: ${e}`);
});
