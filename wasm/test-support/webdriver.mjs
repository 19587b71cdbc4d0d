// Headless Chromium over the WebDriver HTTP protocol (chromedriver, plain fetch calls), for
// the browser tests page.test.mjs and lishogi-page.test.mjs. Installs the Debian packages
// chromium, chromium-driver and fonts-ipafont-gothic (kanji for screenshots) when missing.
// It lives outside wasm/test/ because `node --test wasm/test/` runs every .mjs file in a folder
// named test, subfolders included (Node 20 and later), so there it would count as a test file.

import { spawn, execFileSync } from 'node:child_process';
import { createServer } from 'node:net';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function ensurePackages() {
  // Installed means "install ok installed": `dpkg -s` also succeeds for a removed package
  // whose configuration files are left.
  const missing = ['chromium', 'chromium-driver', 'fonts-ipafont-gothic'].filter((p) => {
    try {
      const status = execFileSync('dpkg-query', ['-W', '-f=${Status}', p], {
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      return status.toString() !== 'install ok installed';
    } catch {
      return true;
    }
  });
  if (!missing.length) return;
  console.log(`page test: installing ${missing.join(' ')}`);
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  const run = (args) =>
    execFileSync(sudo.length ? 'sudo' : args[0], sudo.length ? args : args.slice(1), {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  run(['apt-get', 'update', '-qq']);
  run(['apt-get', 'install', '-y', '-qq', ...missing]);
}

export function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

/**
 * A WebDriver session on chromedriver at `base`; `report` is a script that returns what the
 * page says, shown when a wait times out.
 */
export class Driver {
  constructor(base, report = 'return document.body.innerText.slice(-1500)') {
    this.base = base;
    this.report = report;
  }
  async call(method, path, body) {
    const r = await fetch(this.base + path, {
      method,
      headers: { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await r.json();
    if (!r.ok || json.value?.error) throw new Error(`${method} ${path}: ${JSON.stringify(json.value).slice(0, 400)}`);
    return json.value;
  }
  async start(args) {
    const v = await this.call('POST', '/session', {
      capabilities: {
        alwaysMatch: {
          browserName: 'chrome',
          'goog:chromeOptions': { binary: '/usr/bin/chromium', args },
          'goog:loggingPrefs': { browser: 'ALL' },
        },
      },
    });
    this.s = `/session/${v.sessionId}`;
  }
  go(url) {
    return this.call('POST', `${this.s}/url`, { url });
  }
  exec(script, args = []) {
    return this.call('POST', `${this.s}/execute/sync`, { script, args });
  }
  /** Runs `script` in the page and answers what it passes to its callback, the last of its
   * `arguments`, within `ms`: one call that waits, where polling with `exec` would keep the
   * page's main thread, chromedriver and this process busy meanwhile. */
  async execAsync(script, ms, args = []) {
    await this.call('POST', `${this.s}/timeouts`, { script: ms });
    return this.call('POST', `${this.s}/execute/async`, { script, args });
  }
  async find(css) {
    const v = await this.call('POST', `${this.s}/element`, { using: 'css selector', value: css });
    return Object.values(v)[0];
  }
  /** Runs `act` on the element `css` selects; finds it again when the page replaced it
   * between the find and the act (the analysis page redraws its lines as the search goes on). */
  async onElement(css, act) {
    for (let attempt = 1; ; attempt++) {
      const id = await this.find(css);
      try {
        return await act(id);
      } catch (e) {
        if (attempt >= 5 || !/stale element/.test(e.message)) throw e;
      }
    }
  }
  click(css) {
    return this.onElement(css, (id) => this.call('POST', `${this.s}/element/${id}/click`, {}));
  }
  text(css) {
    return this.onElement(css, (id) => this.call('GET', `${this.s}/element/${id}/text`));
  }
  async screenshot() {
    return Buffer.from(await this.call('GET', `${this.s}/screenshot`), 'base64');
  }
  async waitFor(script, what, ms = 20000) {
    const end = Date.now() + ms;
    for (;;) {
      const v = await this.exec(script);
      if (v) return v;
      if (Date.now() > end) {
        const page = await this.exec(this.report).catch((e) => String(e));
        throw new Error(`timed out waiting for ${what}; the page says: ${page}`);
      }
      await sleep(25);
    }
  }
  /** The browser console's entries since the last call (chromedriver's log extension). */
  consoleLog() {
    return this.call('POST', `${this.s}/se/log`, { type: 'browser' });
  }
  quit() {
    return this.s ? this.call('DELETE', this.s).catch(() => {}) : undefined;
  }
}

/**
 * Starts chromedriver and a headless Chromium session on it, both ended after test `t`: the
 * WebDriver session (and with it Chromium) first, since chromedriver killed first leaves its
 * headless Chromium running. `wrapper` is a command that runs chromedriver (and so Chromium),
 * such as `['taskset', '-c', '1']`.
 */
export async function launch(t, report, wrapper = []) {
  const port = await freePort();
  const [command, ...args] = [...wrapper, 'chromedriver', `--port=${port}`];
  const driverProcess = spawn(command, args, { stdio: 'ignore' });
  const driver = new Driver(`http://127.0.0.1:${port}`, report);
  t.after(async () => {
    await driver.quit();
    driverProcess.kill();
  });
  for (let i = 0; ; i++) {
    try {
      if ((await driver.call('GET', '/status')).ready) break;
    } catch {
      // not listening yet
    }
    if (i > 200) throw new Error('chromedriver did not start');
    await sleep(50);
  }
  await driver.start(['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--window-size=1280,960']);
  return driver;
}
