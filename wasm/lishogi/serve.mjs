#!/usr/bin/env node
// Serves the lishogi-style test page (wasm/lishogi/index.html) with the COOP/COEP headers that
// make it cross-origin isolated, as lishogi's analysis board is: the static server of
// wasm/page/serve.mjs, opened at /lishogi/.
//
// Usage: node wasm/lishogi/serve.mjs [port] [--no-isolation]   (port 8080 by default; 0 = any)
// Then open http://localhost:8080/lishogi/ (after scripts/build-wasm).

import { fileURLToPath } from 'node:url';
import { serve } from '../page/serve.mjs';

export function serveLishogi(options = {}) {
  return serve({ ...options, page: 'lishogi/' });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const port = Number(args.find((a) => /^\d+$/.test(a)) ?? 8080);
  const isolate = !args.includes('--no-isolation');
  const { url } = await serveLishogi({ port, isolate });
  console.log(`shishi, loaded as lishogi loads it: ${url}${isolate ? '' : ' (no COOP/COEP)'}`);
}
