// The analysis page's game records and whole-game analysis in headless Chromium: a Shift-JIS KIF
// opened through the file input and a pasted KIF are read by the engine in the page's worker
// (`loadgame`), the game is stepped through with the arrow keys, and "analyse game" runs the
// same annotation as `shishi annotate` in the worker (`annotate nodes N`): the graph must have one
// point per ply, the judged moves marked on the graph and in the move list, the summary shown.
//
// Needs wasm/pkg/shishi.wasm (scripts/build-wasm); runs only with SHISHI_PAGE_TEST=1, as
// page.test.mjs, whose browser set-up it shares.
//
// Run with: SHISHI_PAGE_TEST=1 node --test wasm/test/page-annotate.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../page/serve.mjs';
import { ensurePackages, launch } from '../test-support/webdriver.mjs';

const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const wasm = resolve(repo, 'wasm/pkg/shishi.wasm');
const kifDir = resolve(repo, 'tests/data/kif');

const skip = !process.env.SHISHI_PAGE_TEST
  ? 'set SHISHI_PAGE_TEST=1 to run it (scripts/test does)'
  : !existsSync(wasm) ? 'no wasm/pkg/shishi.wasm: run scripts/build-wasm' : false;

test('game records and the whole-game analysis on the analysis page', { skip, timeout: 240000 }, async (t) => {
  ensurePackages();
  const { server, url } = await serve({ port: 0 });
  t.after(() => server.close());
  const driver = await launch(
    t,
    'return [document.getElementById("message").textContent, document.getElementById("annotate-status").textContent, document.getElementById("log").textContent.slice(-1500)].join("\\n")',
  );
  await driver.go(url);
  await driver.waitFor('return document.body.dataset.ready === "true"', 'the page and its engine');

  // A Shift-JIS KIF through the file input: 286 plies from the Chu start.
  const sjis = resolve(kifDir, 'chu01-286p-pass-igui-promo.sjis.kif');
  await driver.onElement('#record-file', (id) => driver.call('POST', `${driver.s}/element/${id}/value`, { text: sjis }));
  await driver.waitFor('return shishiPage.state.moves.length === 286', 'the Shift-JIS game');
  const usi = readFileSync(resolve(kifDir, 'chu01-286p-pass-igui-promo.usi'), 'utf8').trim().split(' moves ')[1];
  assert.equal(await driver.exec('return shishiPage.state.moves.join(" ")'), usi);

  // A pasted KIF, stepped through with the arrow keys.
  const kif = readFileSync(resolve(kifDir, 'chu19-50p-.kif'), 'utf8');
  await driver.exec('document.getElementById("record-text").value = arguments[0]', [kif]);
  await driver.click('#load-record');
  await driver.waitFor('return shishiPage.state.moves.length === 50 && shishiPage.state.ply === 0', 'the pasted game at its start');
  await driver.exec('document.body.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true }))');
  await driver.waitFor('return shishiPage.state.ply === 1', 'one move forward');

  // A bad record is refused with its line, and the game stays.
  await driver.exec('document.getElementById("record-text").value = "手数----指手--\\n   1手目   5五獅子 （←9九）\\n"');
  await driver.click('#load-record');
  await driver.waitFor('return document.getElementById("message").classList.contains("bad")', 'a refusal');
  assert.match(await driver.text('#message'), /line 2/);
  assert.equal(await driver.exec('return shishiPage.state.moves.length'), 50);

  // The whole game analysed in the worker, at a node limit.
  await driver.exec(`const s = document.getElementById("annotate-limit");
    const o = document.createElement("option"); o.value = "nodes 2000"; o.textContent = "2000 nodes"; s.append(o); s.value = "nodes 2000";`);
  await driver.click('#annotate');
  await driver.waitFor('return shishiPage.state.annotation !== null', 'the analysis of the game', 180000);
  const facts = await driver.exec(`const a = shishiPage.state.annotation.json;
    return {
      plies: a.plies.length,
      judged: a.plies.filter((p) => p.judgment).length,
      points: document.querySelectorAll('#graph circle.point').length,
      pointPlies: [...document.querySelectorAll('#graph circle.point')].map((c) => Number(c.dataset.ply)),
      marks: document.querySelectorAll('#graph circle.judged').length,
      listed: document.querySelectorAll('#move-list li').length,
      listMarks: document.querySelectorAll('#move-list li.inaccuracy, #move-list li.mistake, #move-list li.blunder').length,
      summary: document.getElementById('annotate-summary').textContent,
    };`);
  assert.equal(facts.plies, 50);
  assert.equal(facts.points, 50, 'one graph point per ply');
  assert.deepEqual(facts.pointPlies, Array.from({ length: 50 }, (_, i) => i + 1));
  assert.equal(facts.marks, facts.judged);
  assert.equal(facts.listed, 50);
  assert.equal(facts.listMarks, facts.judged);
  assert.match(facts.summary, /sente: \d+ inaccuracies, \d+ mistakes, \d+ blunders, average centipawn loss \d+, accuracy [\d.]+%/);
});
