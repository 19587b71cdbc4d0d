// The analysis page (wasm/page/) in headless Chromium, driven over the WebDriver HTTP protocol
// (../test-support/webdriver.mjs: chromedriver, plain fetch calls): loads the page from wasm/page/serve.mjs
// (COOP/COEP), makes a move by clicking, has an illegal click rejected, switches to a Heian
// board, plays against the engine, then from the Chu start position times `go depth 8` (request
// to bestmove) and `stop` during `go infinite`; then checks what the analysis draws (the best
// move's arrow, the evaluation bar, three MultiPV lines, lines played by clicking them, a score
// after each move and a graph point for each) and takes a screenshot of it.
//
// Needs wasm/pkg/shishi.wasm (scripts/build-wasm). Installs the Debian packages chromium,
// chromium-driver and fonts-ipafont-gothic (kanji for the screenshot) when missing.
// It runs only with SHISHI_PAGE_TEST=1 (scripts/test sets it), so that `node --test wasm/test/`
// stays a quick run that installs nothing. SHISHI_PAGE_SCREENSHOT=path saves the screenshot
// there (none is saved without it); docs/img/analysis-page.png is one.
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
const screenshot = process.env.SHISHI_PAGE_SCREENSHOT ? resolve(process.env.SHISHI_PAGE_SCREENSHOT) : null;

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
  const pv8 = await driver.text('#lines li.line');
  assert.ok(pv8.length > 0, 'a principal variation');

  // go infinite: wait for principal variations, then stop; five times, the first one after
  // 1.5 s of analysis for the screenshot, the others after 0.3 s.
  let live;
  for (let i = 0; i < 5; i++) {
    await driver.click('#limit option[value="infinite"]');
    await driver.click('#analyse');
    await driver.waitFor('return shishiPage.state.analysing && document.querySelectorAll("#lines li.line").length > 0 && Number(document.getElementById("a-depth").textContent.split("/")[0]) >= 6', 'depth 6 in go infinite');
    await sleep(i === 0 ? 1500 : 300);
    if (i === 0) live = await driver.exec(`return ['a-depth','a-score','a-nodes','a-nps'].map(id => document.getElementById(id).textContent).concat([[...document.querySelector('#lines li.line').children].map(c => c.textContent).join(' ')])`);
    await driver.click('#stop');
    await driver.waitFor(`return shishiPage.stats.stops.length > ${i} && !shishiPage.state.analysing`, 'bestmove after stop');
  }
  const stops = (await driver.exec('return shishiPage.stats.stops.map(s => s.ms)')).sort((a, b) => a - b);
  const stop = { ms: stops[Math.floor(stops.length / 2)], max: stops.at(-1), all: stops };

  // What the analysis draws. A position no search has seen: an empty evaluation bar.
  const bar = 'const b = document.getElementById("eval-bar"); return { share: b.dataset.share, score: b.dataset.score, height: parseFloat(document.getElementById("eval-fill").style.height) }';
  await driver.exec('document.getElementById("sfen").value = ""; document.getElementById("moves").value = "7i7h"');
  await driver.click('#load');
  await driver.waitFor('return shishiPage.state.moves.join(" ") === "7i7h" && !shishiPage.state.analysing', 'the position after 7i7h');
  const barBefore = await driver.exec(bar);
  assert.deepEqual(barBefore, { share: '0.500', score: '', height: 50 });
  assert.equal(await driver.exec('return document.querySelectorAll("#board .arrow").length'), 0);
  // go infinite: the best move's arrow appears and follows the first line's first move; the
  // bar shows the score.
  await driver.click('#limit option[value="infinite"]');
  await driver.click('#analyse');
  const firstArrow = await driver.waitFor('const a = document.querySelector("#board .arrow.best"); return a && a.querySelector("polygon") && a.dataset.move', 'the best move\'s arrow');
  const barDuring = await driver.waitFor(`${bar.replace('return {', 'const v = {')}; return v.score && v`, 'a score on the evaluation bar');
  assert.ok(Math.abs(barDuring.height - Number(barDuring.share) * 100) < 0.06, `bar height ${barDuring.height}% for share ${barDuring.share}`);
  assert.notEqual(barDuring.score, barBefore.score);
  await driver.waitFor('const l = shishiPage.state.analysis.lines[0]; return l.depth >= 5 && document.querySelector("#board .arrow.best").dataset.move === l.pv[0]', 'the arrow on the best move at depth 5');
  // MultiPV 3 (the infinite analysis starts again with it): three lines, moves in words.
  await driver.click('#multipv option[value="3"]');
  await driver.waitFor('return shishiPage.state.analysing && document.querySelectorAll("#lines li.line").length === 3 && document.querySelectorAll("#board .arrow").length === 3', 'three lines and three arrows');
  const linesShown = await driver.exec('return [...document.querySelectorAll("#lines li.line")].map(l => [...l.children].map(c => c.textContent).join(" "))');
  // Clicking a line's third move plays the line up to it; the analysis goes on from there.
  const deepEnough = (d) => `const a = shishiPage.state.analysis; return shishiPage.state.analysing && a.key.endsWith(shishiPage.state.moves.slice(0, shishiPage.state.ply).join(" ")) && a.lines.length === 3 && a.lines.every(l => l && l.depth >= ${d} && l.pv.length >= 3)`;
  await driver.waitFor(deepEnough(6), 'three lines at depth 6');
  const sfenBefore = await driver.exec('return shishiPage.state.sfen');
  await driver.click('#lines li[data-multipv="2"] .mv[data-index="2"]');
  await driver.waitFor('return shishiPage.state.moves.length === 4', 'line 2 played up to its third move');
  // The line as it stood when clicked (it may have changed since the test read the page).
  const line2 = await driver.exec('return shishiPage.stats.lines.at(-1)');
  assert.equal(line2.multipv, 2);
  assert.deepEqual(await driver.exec('return shishiPage.state.moves'), ['7i7h', ...line2.moves]);
  assert.notEqual(await driver.exec('return shishiPage.state.sfen'), sfenBefore);
  assert.equal(await driver.exec('return document.querySelectorAll("#move-list li").length'), 4);
  // Clicking a line elsewhere than on a move (its score) plays its first move; three times.
  for (let i = 0; i < 3; i++) {
    await driver.waitFor(deepEnough(6), 'three lines at depth 6 after a line was played');
    const n = await driver.exec('return shishiPage.state.moves.length');
    await driver.click('#lines li[data-multipv="1"] .score');
    await driver.waitFor(`return shishiPage.state.moves.length === ${n + 1}`, 'line 1\'s first move played');
  }
  await driver.waitFor(deepEnough(6), 'three lines at depth 6 in the last position');
  // A score after each move in the list, a graph point for each position (the start position
  // has its score from go depth 8 above).
  const game = await driver.exec('return { moves: shishiPage.state.moves, scores: [...document.querySelectorAll("#move-list li .score")].map(e => e.textContent), points: [...document.querySelectorAll("#graph .point")].map(c => Number(c.dataset.ply)), polyline: document.querySelector("#graph polyline")?.getAttribute("points").split(" ").length }');
  assert.equal(game.moves.length, 7);
  assert.ok(game.scores.every((s) => /^([+-]?\d+|#[+-]\d+)$/.test(s)), `a score after every move: ${game.scores}`);
  assert.deepEqual(game.points, [0, 1, 2, 3, 4, 5, 6, 7]);
  assert.equal(game.polyline, 8);
  const barAfter = await driver.exec(bar);
  if (screenshot) {
    mkdirSync(dirname(screenshot), { recursive: true });
    writeFileSync(screenshot, await driver.screenshot());
  }
  // A click on the graph's point for move 2 goes there.
  await driver.click('#graph .point[data-ply="2"]');
  await driver.waitFor('return shishiPage.state.ply === 2 && shishiPage.state.moves.length === 7', 'move 2 from the graph');
  await driver.click('#stop');
  await driver.waitFor('return !shishiPage.state.analysing', 'the analysis to stop');
  const severe = (await driver.consoleLog()).filter((e) => e.level === 'SEVERE');
  assert.deepEqual(severe, [], 'no error in the browser console');

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
  console.log(`page test: arrow ${firstArrow} first; evaluation bar ${JSON.stringify(barBefore)} before, ${JSON.stringify(barDuring)} during, ${JSON.stringify(barAfter)} after seven moves`);
  console.log(`page test: MultiPV 3 lines: ${linesShown.join(' | ')}`);
  console.log(`page test: game ${game.moves.join(' ')}, scores ${game.scores.join(' ')}`);
  console.log(`page test: screenshot ${screenshot ?? '(none: SHISHI_PAGE_SCREENSHOT unset)'}`);
  assert.ok(stop.ms < 100, `stop answered after a median ${stop.ms} ms`);
  assert.ok(depth8.ms < 2000, `go depth 8 took ${depth8.ms} ms`);
});
