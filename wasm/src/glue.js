// The JavaScript side of shishi's plain `extern "C"` interface (src/protocol/wasm.rs and
// src/platform/js.rs): instantiates the module with the three imports it needs (a clock, an
// output sink and a non-blocking read of pending input) and offers `input(text)`.
// No wasm-bindgen: the interface is four functions and UTF-8 bytes in linear memory.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * @param {WebAssembly.Module} module the compiled shishi.wasm
 * @param {{ onLine: (line: string) => void, poll: () => string }} host
 *   onLine receives each output line; poll returns the input lines that arrived meanwhile
 *   (whole lines, each ending in "\n"), or "" when none did. It is called during searches.
 * @returns {Promise<{ input: (text: string) => boolean }>}
 */
export async function instantiate(module, host) {
  let memory;
  let carry = new Uint8Array(0);
  const imports = {
    env: {
      shishi_now_ms: () => performance.now(),
      shishi_emit: (ptr, len) => {
        host.onLine(decoder.decode(new Uint8Array(memory.buffer, ptr, len)));
      },
      shishi_poll: (ptr, cap) => {
        const fresh = host.poll();
        let bytes = carry;
        if (fresh) {
          const more = encoder.encode(fresh);
          bytes = new Uint8Array(carry.length + more.length);
          bytes.set(carry);
          bytes.set(more, carry.length);
        }
        if (bytes.length === 0) return 0;
        // Hand over whole lines only; what does not fit waits for the next poll.
        let n = bytes.length;
        if (n > cap) {
          n = bytes.lastIndexOf(10, cap - 1) + 1;
        }
        new Uint8Array(memory.buffer, ptr, n).set(bytes.subarray(0, n));
        carry = bytes.slice(n);
        return n;
      },
    },
  };
  const instance = await WebAssembly.instantiate(module, imports);
  memory = instance.exports.memory;
  const { shishi_buffer, shishi_input } = instance.exports;
  return {
    /** Handles one or more lines; runs any search they start to its end. False after quit. */
    input(text) {
      const bytes = encoder.encode(text.endsWith('\n') ? text : text + '\n');
      const ptr = shishi_buffer(bytes.length);
      new Uint8Array(memory.buffer, ptr, bytes.length).set(bytes);
      return shishi_input(bytes.length) !== 0;
    },
  };
}
