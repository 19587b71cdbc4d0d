/** A shishi engine running in a worker, spoken to in USI. */
export interface ShishiEngine {
  /** Whether `stop` reaches a running search (shared memory is available). */
  readonly interruptible: boolean;
  /** Sends one USI line (or several, separated by newlines). */
  send(line: string): void;
  /** Calls `callback` with every output line; returns a function that unsubscribes. */
  listen(callback: (line: string) => void): () => void;
  /** Calls `callback` once the engine has handled `quit`. */
  onExit(callback: () => void): () => void;
  /** Ends the worker at once. */
  terminate(): Promise<number> | void;
}

export interface ShishiOptions {
  /** Where shishi.wasm is (default: ../pkg/shishi.wasm beside this module), or the module. */
  wasm?: string | URL | WebAssembly.Module;
}

/** Starts an engine; resolves once its WebAssembly is compiled and instantiated. */
export function createShishi(options?: ShishiOptions): Promise<ShishiEngine>;
