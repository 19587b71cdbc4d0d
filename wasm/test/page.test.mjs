// The analysis page (wasm/page/) in headless Chromium, driven over the WebDriver HTTP protocol
// (../test-support/webdriver.mjs: chromedriver, plain fetch calls): loads the page from wasm/page/serve.mjs
// (COOP/COEP), makes a move by clicking, has an illegal click rejected, switches to a Heian
// board, plays against the engine, then from the Chu start position times `go depth 8` (request
// to bestmove) and `stop` during `go infinite`, and saves a screenshot.
//
// Needs wasm/pkg/shishi.wasm (scripts/build-wasm). Installs the Debian packages chromium,
// chromium-driver and fonts-ipafont-gothic (kanji for the screenshot) when missing.
// It runs only with SHISHI_PAGE_TEST=1 (scripts/test sets it), so that `node --test wasm/test/`
// stays a quick run that installs nothing. SHISHI_PAGE_SCREENSHOT=path saves the screenshot
// elsewhere (default results/page-screenshot.png).
//
// Run with: SHISHI_PAGE_TEST=1 node --test wasm/test/page.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../page/serve.mjs';
import { ensurePackages, launch, sleep } from '../test-support/webdriver.mjs';

const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const wasm = resolve(repo, 'wasm/pkg/shishi.wasm');
const screenshot = resolve(repo, process.env.SHISHI_PAGE_SCREENSHOT ?? 'results/page-screenshot.png');

const skip = !process.env.SHISHI_PAGE_TEST
  ? 'set SHISHI_PAGE_TEST=1 to run it (scripts/test does)'
  : !existsSync(wasm) ? 'no wasm/pkg/shishi.wasm: run scripts/build-wasm' : false;

test('the analysis page in headless Chromium', { skip, timeout: 180000 }, async (t) => {
  ensurePackages();
  const { server, url } = await serve({ port: 0 });
  t.after(() => server.close());
  const driver = await launch(
    t,
    'return [document.getElementById("message").textContent, document.getElementById("variant").value, document.getElementById("log").textContent.slice(-1500)].join("\\n")',
  );

  await driver.go(url);
  await driver.waitFor('return document.body.dataset.ready === "true"', 'the page and its engine');
  const env = await driver.exec('return { isolated: crossOriginIsolated, interruptible: shishiPage.io.interruptible }');
  assert.deepEqual(env, { isolated: true, interruptible: true });
  const pieces = () => driver.exec('return document.querySelectorAll("#board .piece").length');
  assert.equal(await pieces(), 92, 'Chu start position: 46 pieces a side');

  // A move by clicking: the pawn on 7i to 7h.
  await driver.click('[data-sq="7i"]');
  await driver.click('[data-sq="7h"]');
  await driver.waitFor('return shishiPage.state.moves.join(" ") === "7i7h"', 'the move 7i7h');
  // An illegal one, a gote pawn three squares forward: rejected with the engine's reason.
  await driver.click('[data-sq="7d"]');
  await driver.click('[data-sq="7g"]');
  await driver.waitFor('return document.getElementById("message").classList.contains("bad")', 'a rejection');
  const rejection = await driver.text('#message');
  assert.match(rejection, /7d7g/);
  assert.equal(await driver.exec('return shishiPage.state.moves.length'), 1);

  // A lion double move in three clicks: the lion on 7j steps to the empty 7i and back, a pass.
  await driver.exec('document.getElementById("moves").value = "7i7h 7d7e"; document.getElementById("sfen").value = ""');
  await driver.click('#load');
  await driver.waitFor('return shishiPage.state.moves.length === 2', 'loaded moves');
  await driver.click('[data-sq="7j"]');
  await driver.click('[data-sq="7i"]');
  await driver.click('[data-sq="7j"]');
  await driver.waitFor('return shishiPage.state.moves.length === 3', 'a lion pass');
  const lionMove = await driver.exec('return shishiPage.state.moves[2]');
  assert.equal(lionMove, '7j7i7j');

  // Igui: the lion on 7h takes the pawn on 7g and comes back.
  await driver.exec('document.getElementById("sfen").value = "6k5/12/12/12/12/12/5p6/5N6/12/12/12/6K5 b - 1"; document.getElementById("moves").value = ""');
  await driver.click('#load');
  await driver.waitFor('return shishiPage.state.base.startsWith("sfen 6k5")', 'the igui position');
  await driver.click('[data-sq="7h"]');
  await driver.click('[data-sq="7g"]');
  await driver.click('[data-sq="7h"]');
  await driver.waitFor('return shishiPage.state.moves.join(" ") === "7h7g7h"', 'igui 7h7g7h');
  assert.equal(await pieces(), 3, 'the pawn is gone, the lion stayed');

  // Bad SFEN: the engine's reason is shown.
  await driver.exec('document.getElementById("sfen").value = "lnsgkgsnl/9/ppppppppp/9/9 b - 1"; document.getElementById("moves").value = ""');
  await driver.click('#load');
  await driver.waitFor('return document.getElementById("position-error").textContent.length > 0', 'a SFEN error');
  console.log(`page test: bad SFEN answered: ${await driver.text('#position-error')}`);

  // Promotion: a Heian pawn entering the zone may promote or not, so the page asks (the gote
  // lance keeps gote from a bare king, so the game is still on).
  await driver.exec('document.getElementById("sfen").value = "4k3l/9/9/4P4/9/9/9/9/4K4 b - 1"; document.getElementById("moves").value = ""');
  await driver.click('#load');
  await driver.waitFor('return shishiPage.state.variant === "heian" && shishiPage.state.base.startsWith("sfen")', 'a Heian SFEN');
  await driver.click('[data-sq="5d"]');
  await driver.click('[data-sq="5c"]');
  await driver.waitFor('return document.getElementById("promote-dialog").open', 'the promotion dialog');
  await driver.click('#promote-yes');
  await driver.waitFor('return shishiPage.state.moves.join(" ") === "5d5c+"', 'the promotion 5d5c+');
  // Letters instead of kanji, and back.
  await driver.click('#notation option[value="letter"]');
  assert.ok(await driver.exec('return [...document.querySelectorAll("#board .piece .big")].some(e => e.textContent === "+P")'));
  await driver.click('#notation option[value="abbr"]');
  assert.ok(await driver.exec('return [...document.querySelectorAll("#board .piece .kanji")].some(e => e.textContent === "と")'));

  // Heian 9x9 and a game against the engine: it answers our move.
  await driver.click('#variant option[value="heian"]');
  await driver.click('#reset');
  await driver.waitFor('return shishiPage.state.variant === "heian" && document.querySelectorAll("#board .piece").length === 36', 'the Heian board');
  await driver.exec('document.getElementById("movetime").value = "300"');
  await driver.click('#engine-side option[value="w"]');
  await driver.click('[data-sq="7g"]');
  await driver.click('[data-sq="7f"]');
  await driver.waitFor('return shishiPage.state.moves.length === 2', 'the engine\'s answer', 10000);
  console.log(`page test: Heian game: ${await driver.exec('return shishiPage.state.moves.join(" ")')}`);
  await driver.click('#engine-side option[value=""]');

  // Back to the Chu start position: go depth 8 timed from the request to bestmove.
  await driver.click('#variant option[value="chushogi"]');
  await driver.waitFor('return shishiPage.state.variant === "chushogi" && shishiPage.state.moves.length === 0', 'Chu start');
  await driver.click('#limit option[value="depth 8"]');
  const before = await driver.exec('return shishiPage.stats.searches.length');
  await driver.click('#analyse');
  const depth8 = await driver.waitFor(
    `const s = shishiPage.stats.searches; return s.length > ${before} && s[s.length - 1]`,
    'bestmove of go depth 8',
  );
  assert.equal(depth8.go, 'go depth 8');
  const pv8 = await driver.text('#pv');
  assert.ok(pv8.length > 0, 'a principal variation');

  // go infinite: wait for principal variations, then stop; five times, the first one after
  // 1.5 s of analysis for the screenshot, the others after 0.3 s.
  let live;
  for (let i = 0; i < 5; i++) {
    await driver.click('#limit option[value="infinite"]');
    await driver.click('#analyse');
    await driver.waitFor('return shishiPage.state.analysing && document.getElementById("pv").textContent.length > 0 && Number(document.getElementById("a-depth").textContent.split("/")[0]) >= 6', 'depth 6 in go infinite');
    await sleep(i === 0 ? 1500 : 300);
    if (i === 0) live = await driver.exec(`return ['a-depth','a-score','a-nodes','a-nps','pv'].map(id => document.getElementById(id).textContent)`);
    await driver.click('#stop');
    await driver.waitFor(`return shishiPage.stats.stops.length > ${i} && !shishiPage.state.analysing`, 'bestmove after stop');
  }
  const stops = (await driver.exec('return shishiPage.stats.stops.map(s => s.ms)')).sort((a, b) => a - b);
  const stop = { ms: stops[Math.floor(stops.length / 2)], max: stops.at(-1), all: stops };
  mkdirSync(dirname(screenshot), { recursive: true });
  writeFileSync(screenshot, await driver.screenshot());

  // Without COOP/COEP (any plain static server): no shared memory, so infinite analysis runs in
  // go movetime slices and stop ends it when the slice ends.
  const plain = await serve({ port: 0, isolate: false });
  t.after(() => plain.server.close());
  await driver.go(plain.url);
  await driver.waitFor('return document.body.dataset.ready === "true"', 'the page without isolation');
  assert.equal(await driver.exec('return shishiPage.io.interruptible'), false);
  await driver.click('#analyse');
  await driver.waitFor('return shishiPage.state.analysing && Number(document.getElementById("a-depth").textContent.split("/")[0]) >= 4', 'depth 4 without isolation');
  const asked = Date.now();
  await driver.click('#stop');
  await driver.waitFor('return !shishiPage.state.analysing', 'the sliced analysis to end', 12000);
  const sliced = await driver.exec('return shishiPage.stats.searches.map(s => s.go)');
  console.log(`page test: without COOP/COEP: ${sliced.join(', ')}; stop ended it after ${Date.now() - asked} ms (at the end of its slice)`);
  assert.ok(sliced.every((g) => g.startsWith('go movetime')));

  console.log(`page test: go depth 8 from the Chu start position: bestmove ${depth8.ms.toFixed(0)} ms after the request (target 2000 ms)`);
  console.log(`page test: go infinite, depth ${live[0]} score ${live[1]} nodes ${live[2]} nps ${live[3]} pv ${live[4]}`);
  console.log(`page test: stop answered after ${stop.all.map((x) => x.toFixed(1)).join(', ')} ms: median ${stop.ms.toFixed(1)}, max ${stop.max.toFixed(1)} (target 100 ms)`);
  console.log(`page test: screenshot ${screenshot}`);
  assert.ok(stop.ms < 100, `stop answered after a median ${stop.ms} ms`);
  assert.ok(depth8.ms < 2000, `go depth 8 took ${depth8.ms} ms`);
});
