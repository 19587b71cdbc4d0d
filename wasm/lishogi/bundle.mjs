#!/usr/bin/env node
// Makes wasm/lishogi/shishi.js, one classic script (no import or export, so a <script> tag
// loads it), from the ES modules of the package: factory.js for the page, with host.js and
// channel.js, and the worker (worker.js with glue.js and channel.js) inlined as a string that
// the page turns into a Blob URL. Each module becomes a function scope returning its exports,
// and each `import { a, b } from './m.js'` takes them from there; anything else module-only
// (default exports, import.meta, `export *`) fails the build instead of being guessed at.
// scripts/build-wasm runs it; wasm/test/lishogi.test.mjs checks that shishi.js is up to date.
//
// Usage: node wasm/lishogi/bundle.mjs [output]   (default wasm/lishogi/shishi.js)

import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = new URL('.', import.meta.url);

/** The module at `url` without its module syntax: the modules it imports and its exports. */
function unmodule(url) {
  const imports = [];
  const exports = [];
  let body = readFileSync(url, 'utf8').replace(
    /^import\s*\{([^}]*)\}\s*from\s*'([^']+)';[ \t]*$/gm,
    (_, names, from) => {
      const dep = new URL(from, url);
      imports.push(dep);
      return `const {${names}} = modules['${basename(dep.pathname)}'];`;
    },
  );
  body = body.replace(
    /^export\s+((?:async\s+)?function\*?|const|let|class)\s+([\w$]+)/gm,
    (_, kind, name) => {
      exports.push(name);
      return `${kind} ${name}`;
    },
  );
  const left = body.match(/^\s*(import|export)\b.*$|import\.meta/m);
  if (left) throw new Error(`${url.pathname}: cannot bundle '${left[0].trim()}'`);
  return { body, imports, exports };
}

/**
 * The modules `entry` needs, dependencies first, each as `modules[name] = (() => ...)()` (by
 * file name, which must be unique), then the entry's own code through `wrapEntry`.
 */
function bundle(entry, wrapEntry) {
  const done = new Map();
  const visit = (url) => {
    const name = basename(url.pathname);
    if (done.has(name)) {
      if (done.get(name).url.href !== url.href) throw new Error(`two modules named ${name}`);
      return;
    }
    const module = unmodule(url);
    for (const dep of module.imports) visit(dep);
    done.set(name, { url, ...module });
  };
  const entryUrl = new URL(entry, here);
  visit(entryUrl);
  const parts = [];
  for (const [name, { url, body, exports }] of done) {
    if (url.href === entryUrl.href) parts.push(wrapEntry(body));
    else parts.push(`modules['${name}'] = (() => {\n${body}\nreturn { ${exports.join(', ')} };\n})();`);
  }
  return `const modules = {};\n${parts.join('\n')}`;
}

/** The text of shishi.js. */
export function lishogiScript() {
  // The worker awaits at its top level, which a classic script may do only inside a function.
  const worker = bundle('../src/worker.js', (body) => `(async () => {\n${body}\n})();`);
  const page = bundle('factory.js', (body) => body);
  return `// shishi for lishogi's analysis board: window.Shishi({ wasmBinary, locateFile, wasmMemory })
// resolves to { addMessageListener, postMessage }, a USI engine running in a Web Worker.
// Made by wasm/lishogi/bundle.mjs from wasm/src/ and wasm/lishogi/factory.js; do not edit.
(function () {
'use strict';
const WORKER_SOURCE = ${JSON.stringify(`'use strict';\n${worker}`)};
${page}
globalThis.Shishi = Shishi;
})();
`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const output = process.argv[2] ?? fileURLToPath(new URL('shishi.js', here));
  const script = lishogiScript();
  writeFileSync(output, script);
  console.log(`wasm/lishogi/bundle.mjs: ${output} (${script.length} bytes)`);
}
