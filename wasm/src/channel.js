// Input lines from the page (or Node's main thread) to the engine's worker through a
// SharedArrayBuffer, so that a search running synchronously in the worker can read `stop`
// without returning to its event loop. Layout: Int32 lock, Int32 byte count, then the bytes.
// Both sides hold the lock only to copy, a few microseconds.

const HEADER = 8;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Whether this host can share memory with a worker (browsers: cross-origin isolated pages). */
export function canShare() {
  return typeof SharedArrayBuffer === 'function' && typeof Atomics === 'object' &&
    (typeof crossOriginIsolated === 'undefined' || crossOriginIsolated);
}

export function createChannel(bytes = 1 << 20) {
  return new SharedArrayBuffer(HEADER + bytes);
}

function lock(words) {
  while (Atomics.compareExchange(words, 0, 0, 1) !== 0) {
    // The other side copies a few kilobytes at most; spin.
  }
}

function unlock(words) {
  Atomics.store(words, 0, 0);
}

/** The writing end: `push(text)` queues whole lines; what does not fit is retried. */
export function writer(sab) {
  const words = new Int32Array(sab, 0, 2);
  const data = new Uint8Array(sab, HEADER);
  let backlog = [];
  let timer = null;
  function flush() {
    timer = null;
    lock(words);
    let used = Atomics.load(words, 1);
    while (backlog.length > 0 && used + backlog[0].length <= data.length) {
      const bytes = backlog.shift();
      data.set(bytes, used);
      used += bytes.length;
    }
    Atomics.store(words, 1, used);
    unlock(words);
    if (backlog.length > 0 && timer === null) timer = setTimeout(flush, 5);
  }
  return {
    push(text) {
      backlog.push(encoder.encode(text));
      flush();
    },
  };
}

/** The reading end: `drain()` returns everything written since the last call, or "". */
export function reader(sab) {
  const words = new Int32Array(sab, 0, 2);
  const data = new Uint8Array(sab, HEADER);
  return {
    drain() {
      if (Atomics.load(words, 1) === 0) return '';
      lock(words);
      const used = Atomics.load(words, 1);
      const text = decoder.decode(data.slice(0, used));
      Atomics.store(words, 1, 0);
      unlock(words);
      return text;
    },
  };
}
