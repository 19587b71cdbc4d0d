#!/usr/bin/env node
// shishi's WebAssembly build as a USI engine on stdin/stdout, so a GUI or `shishi match
// --engine "node wasm/shishi-usi.mjs"` drives it exactly like the native binary.

import { createInterface } from 'node:readline';
import { createShishi } from './src/index.js';

const engine = await createShishi();
engine.listen((line) => process.stdout.write(line + '\n'));
engine.onExit(() => process.exit(0));

const input = createInterface({ input: process.stdin, crlfDelay: Infinity });
input.on('line', (line) => engine.send(line));
input.on('close', () => {
  // Like the native engine at end of input: stop quietly, then leave.
  engine.send('quit');
  setTimeout(() => process.exit(0), 1000).unref();
});
