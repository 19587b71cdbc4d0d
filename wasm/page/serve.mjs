#!/usr/bin/env node
// A tiny static file server for the analysis page, no dependencies: serves wasm/ (the page in
// page/, the engine in src/ and pkg/) with the COOP/COEP headers that make the page
// cross-origin isolated, so `stop` reaches a running search through a SharedArrayBuffer.
// Any other static server works too, but without these headers `go infinite` cannot be
// stopped and the page analyses in `go movetime` slices instead.
//
// Usage: node wasm/page/serve.mjs [port] [--no-isolation]   (port 8080 by default; 0 = any)
// Then open http://localhost:8080/page/

import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** Starts the server; resolves to `{ server, port, url }`, url being that of `page` in wasm/. */
export function serve({ port = 8080, isolate = true, host = '127.0.0.1', page = 'page/' } = {}) {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let file = normalize(join(root, path));
    if (!file.startsWith(root.replace(/[\\/]$/, '') + sep) && file !== root) {
      res.writeHead(403).end();
      return;
    }
    try {
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      const headers = {
        'Content-Type': types[extname(file)] ?? 'application/octet-stream',
        'Cache-Control': 'no-cache',
      };
      if (isolate) {
        headers['Cross-Origin-Opener-Policy'] = 'same-origin';
        headers['Cross-Origin-Embedder-Policy'] = 'require-corp';
        headers['Cross-Origin-Resource-Policy'] = 'same-origin';
      }
      res.writeHead(200, headers).end(body);
    } catch {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const actual = server.address().port;
      resolve({ server, port: actual, url: `http://${host === '127.0.0.1' ? 'localhost' : host}:${actual}/${page}` });
    });
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const port = Number(args.find((a) => /^\d+$/.test(a)) ?? 8080);
  const isolate = !args.includes('--no-isolation');
  const { url } = await serve({ port, isolate });
  console.log(`shishi analysis page: ${url}${isolate ? '' : ' (no COOP/COEP: stop cannot interrupt a search)'}`);
}
