// Shared browser-test harness: a static server for build/web, Debian's Chromium through
// playwright-core, console-error capture, opening a state and checking it was restored, probes
// (named item rectangles), slider drags, and PNG pixel helpers. Test files are named by their subject.
//
// Writing a fast e2e test (the suite runs on 2 cores; a new file should take about 90 s or less):
// - `const env = useBrowser()` once per file: one static server and one browser for the file (scripts/test
//   starts one Chromium for the whole run and every file connects to it: POSENC_E2E_BROWSER).
// - `sharedPage(env, query, viewport)` (or `reuse: true` to openState / openDeepLink) instead of a fresh
//   page wherever loading is not the subject: one page per device kind (plain, or phone: touch, mobile,
//   deviceScaleFactor) for the whole file, brought to `query`'s exact URL state by setState (every key
//   `query` leaves out goes back to its default, as on a fresh load) and to the viewport's size by
//   setViewportSize, then `frames` frames. Its `errors` start empty for each call; its context's close()
//   does nothing. A fresh page (openState without reuse) where the load itself is what is tested: deep
//   links, the first frame, notices at load, start-up, a context option (colour scheme, init scripts).
// - `openState(env, query, { tab: 'name' })` where a fresh load of the app is the point but the browser's
//   state is not (a deep link's state, a round trip, a model from the URL): a navigation of the file's tab of
//   that name (~0.8 CPU-s) instead of a new context (~3.5); no routes or init scripts on it.
//   What the shared page does not reset: zoom windows, a focused slider, an open panel or popup, text
//   left in a field: a test that depends on those sets them itself.
// - Sizes and themes: loop over them on the one shared page (setViewportSize / theme=...), not one page each.
// - A file picker: `catchFileChooser(page)` before the click or key that opens it, not Playwright's
//   `filechooser` event (armed without waiting: a busy page's picker can open before it is).
// - Wait on the app, never on time: `waitFrames(page, n)` (n more frames drawn), `waitAsleep(page)` (the
//   main loop paused: nothing left to draw), `page.waitForFunction(...)` on window.posenc state.
// - Typing: `page.keyboard.type(text)` needs no delay: the keys queue and the app takes one key release per
//   frame; `waitFrames` counts its frames from the last queued event handled (_posenc_input_pending), so
//   typing that outran the frames is never read half-done.
import { before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { PNG } from 'pngjs';
import { serveStatic } from '../../scripts/static-server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repo = path.resolve(here, '..', '..');
export const siteDir = path.join(repo, 'build', 'web');
export const artifactsDir = path.join(repo, 'build', 'test-artifacts');

// Serves build/web on a free loopback port. Resolves to {url, close}.
export function serveSite(root = siteDir) {
  return serveStatic(root, 0);
}

// The browser: Debian's chromium-headless-shell (the same Chromium as `chromium`, without the browser's
// own interface). The full `chromium` in --headless=new opens a browser window for every context, and each
// window loads the omnibox popup's WebUI in a renderer of its own: 1.2 CPU-s per context, a third of an
// app load's CPU, on the cores the page needs (bench/README.md, "Start-up"). POSENC_CHROMIUM names
// another binary; a full Chromium gets --headless=new.
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
export const CHROMIUM = process.env.POSENC_CHROMIUM
  || (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

// WebGL runs on SwiftShader (the CPU), in the GPU process: most of a run's CPU time. The page around it is
// composited in software (--disable-gpu-compositing): SwiftShader compositing every frame cost the GPU
// process about a sixth more CPU (layout.test: 103 -> 85 s) and changes nothing the tests look at.
export const CHROMIUM_ARGS = [
  ...(/headless-shell/.test(CHROMIUM) ? [] : ['--headless=new']),
  '--no-sandbox', '--disable-gpu-sandbox', '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader', '--disable-gpu-compositing', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
];

// A browser with CHROMIUM_ARGS (+ extraArgs). Without extra arguments, and when scripts/test started one
// Chromium for the run (tests/e2e/browser-server.mjs: POSENC_E2E_BROWSER is its endpoint), a connection
// to that one: close() then only disconnects.
export async function launchBrowser(extraArgs = []) {
  const shared = process.env.POSENC_E2E_BROWSER;
  if (shared && extraArgs.length === 0) return chromium.connect(shared, { timeout: 30000 });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [...CHROMIUM_ARGS, ...extraArgs],
    headless: true,
  });
}

// One static server and one browser for the test file that calls this at its top level. Returns an
// object whose `server` and `browser` are set once the file's tests run.
export function useBrowser() {
  const env = { server: null, browser: null };
  before(async () => { env.server = await serveSite(); env.browser = await launchBrowser(); });
  afterEach(() => pauseKeptPages(env));
  after(async () => { await env.browser?.close(); await env.server?.close(); });
  return env;
}

// After each test, the pages the file keeps open (its shared pages and tabs) stop playing: a view that
// plays (play=1: RoPE's rotating vector, its default) draws every frame, ~60 ms of CPU each at 1280x800, for
// as long as the page is open, on the cores the next tests need. The next test's sharedPage sets its own
// state (play back to the view's default) and a tab loads anew, so no test sees the pause.
async function pauseKeptPages(env) {
  const pages = [...(env.shared?.values() ?? []), ...(env.tabs?.values() ?? [])].map((kept) => kept.page);
  await Promise.all(pages.filter((page) => !page.isClosed()).map(pausePlaying));
}

// Stops the app in `page` playing (play=1 -> 0), if it does: for a kept page no test looks at any more.
function pausePlaying(page) {
  return page.evaluate(() => {
    if (window.posenc?.getState && window.posenc.getState().play === '1') window.posenc.setState({ play: '0' });
  }).catch(() => { /* a page that is not the app now (a test navigated it away): nothing to pause */ });
}

// Opens a page and records console errors and uncaught exceptions into `errors`.
export async function openPage(browser, url, { width = 1280, height = 800, deviceScaleFactor = 1, isMobile = false,
                                               hasTouch = false, cdp = false } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor, isMobile, hasTouch });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  page.on('pageerror', (err) => errors.push(String(err)));
  await page.goto(url);
  // With `cdp`, a CDP session for input the page API lacks (touch events with their own times).
  return { page, context, errors, ...(cdp ? { cdp: await context.newCDPSession(page) } : {}) };
}

// A phone as openPage/openState take it: 390x844 CSS pixels at deviceScaleFactor 3, touch, mobile.
export const PHONE = { width: 390, height: 844, deviceScaleFactor: 3, isMobile: true, hasTouch: true };

// The app in `query`'s state on a phone, with a CDP session for touch: {page, context, errors, cdp}. The
// file's shared phone page (sharedPage: a phone page at deviceScaleFactor 3 costs about 10 s of CPU to
// load on 2 cores), with its one CDP session; `{ fresh: true }` for a page of its own (the load is tested).
export async function openPhone(env, query, { fresh = false } = {}) {
  if (fresh) return openState(env, query, { ...PHONE, cdp: true });
  const opened = await sharedPage(env, query, PHONE);
  const shared = env.shared.get(deviceKind(PHONE));
  shared.cdp ??= await shared.context.newCDPSession(shared.page);
  return { ...opened, cdp: shared.cdp };
}

// Fingers through CDP's Input.dispatchTouchEvent: `points` are the fingers still down ([x, y] in page CSS
// pixels, one per finger); each change is one DOM touch event. Each event carries the time a finger would
// make it at: a gesture starts now and its events follow `after` seconds apart (16 ms), however long the
// (headless, software-rendered) page takes to handle them; the app judges a gesture by its events' times
// (a tap is not a long-press because the page was slow). `soon`: this first finger follows the last event
// at once (the second tap of a double-tap).
let fingerClock = 0;
export function touch(cdp, type, points, { soon = false, after = 0.016 } = {}) {
  const first = type === 'touchStart' && points.length === 1 && !soon;
  fingerClock = first ? Math.max(Date.now() / 1000, fingerClock + 0.016) : fingerClock + after;
  return cdp.send('Input.dispatchTouchEvent', { type, timestamp: fingerClock, touchPoints: points.map(([x, y], id) => ({ x, y, id })) });
}

// A finger down and up at (x, y) `hold` seconds later (by the events' times), then frames of the app.
export async function tap(page, cdp, x, y, hold = 0.016) {
  await touch(cdp, 'touchStart', [[x, y]]);
  await touch(cdp, 'touchEnd', [], { after: hold });
  await waitFrames(page, 5);
}

// A finger resting at (x, y) for `hold` seconds of real time (the app sees a long-press by its own
// clock), then lifted there.
export async function longPress(page, cdp, x, y, hold = 0.7) {
  await touch(cdp, 'touchStart', [[x, y]]);
  await new Promise((resolve) => setTimeout(resolve, hold * 1000));
  await touch(cdp, 'touchEnd', [], { after: hold });
  await waitFrames(page, 5);
}

// Waits for window.posenc.ready (first frame drawn); returns ms from navigation start.
export async function waitReady(page, timeout = 30000) {
  await page.waitForFunction(() => window.posenc && window.posenc.ready, null, { timeout });
  return page.evaluate(() => window.posenc.ready.then(() => performance.now()));
}

// Waits until `frames` more frames have been drawn. The app draws only on change, so this keeps it awake
// (window.posenc.wake) while it waits. Input the app has not handled yet (typing outruns slow frames: the
// app takes one key release per frame) holds it off too: it returns only once the queue is empty, and at
// least one frame after the last poll that saw it not empty.
export async function waitFrames(page, frames = 3) {
  await page.waitForFunction((frames) => {
    const count = window.posenc.frameCount();
    const pending = window.Module._posenc_input_pending ? window.Module._posenc_input_pending() : 0;
    const w = window.__posencWaitFrames;
    if (!w || w.id !== frames.id) window.__posencWaitFrames = { id: frames.id, target: count + frames.n };
    if (pending > 0) window.__posencWaitFrames.target = Math.max(window.__posencWaitFrames.target, count + 1);
    if (window.posenc.wake) window.posenc.wake();
    return pending === 0 && count >= window.__posencWaitFrames.target;
  }, { id: Math.random(), n: frames }, { timeout: 20000 });
}

// Waits until the app's main loop is paused (window.Module._posenc_sleeping(): nothing changed since the
// last frame, no animation): the app state "idle", without waking it. Returns the frame count then.
export async function waitAsleep(page, timeout = 20000) {
  await page.waitForFunction(() => window.Module._posenc_sleeping() === 1, null, { timeout, polling: 20 });
  return page.evaluate(() => window.posenc.frameCount());
}

// The app-level keys as a fresh load has them (App::app_params, the theme): a state that leaves one out
// gets it back at this value.
const APP_KEY_DEFAULTS = { embed: '0', controls: '1', theme: 'auto', figure: '' };

const deviceKind = ({ deviceScaleFactor = 1, isMobile = false, hasTouch = false }) => `${deviceScaleFactor}/${isMobile}/${hasTouch}`;

// One page per device kind for the whole file, brought to `query`'s state and the viewport's size without
// a reload (see the top of this file). Returns {page, context, errors}; `errors` holds only what this
// call's test causes. The first call per kind loads the page and records every view's fresh state.
export async function sharedPage(env, query, { width = 1280, height = 800, deviceScaleFactor = 1, isMobile = false,
                                                hasTouch = false, frames = 3 } = {}) {
  env.shared ??= new Map();
  const kind = deviceKind({ deviceScaleFactor, isMobile, hasTouch });
  let shared = env.shared.get(kind);
  if (!shared || shared.page.isClosed()) {
    shared = await openPage(env.browser, `${env.server.url}/`, { width, height, deviceScaleFactor, isMobile, hasTouch });
    await waitReady(shared.page);
    // Every view's state as a fresh load shows it (views are made at start-up and keep their keys).
    shared.fresh = await shared.page.evaluate(() => {
      const out = {};
      for (const view of window.posenc.views()) {
        window.posenc.setState({ view });
        out[view] = window.posenc.getState();
      }
      return out;
    });
    env.shared.set(kind, shared);
  }
  const { page } = shared;
  shared.errors.length = 0;
  const size = page.viewportSize();
  if (size.width !== width || size.height !== height) await page.setViewportSize({ width, height });
  const target = Object.fromEntries(new URLSearchParams(query));
  // setState's promise: the language's files are in the app (a page switched to lang=zh here re-lays out
  // when its catalogue arrives, which could move a field between a test's itemRect and its click).
  await page.evaluate(({ target, fresh, appDefaults }) => {
    const view = target.view || window.posenc.views()[0];
    if (target.model && !['none', 'custom'].includes(target.model)) {
      // A preset model: the view starts afresh when the model changes (the page's setState and the app
      // both do that), so leave any model first; the preset then gives the view its own defaults.
      window.posenc.setState({ view, model: 'none' });
      return window.posenc.setState({ ...appDefaults, ...target, view });
    }
    return window.posenc.setState({ ...appDefaults, ...fresh[view], ...target, view });
  }, { target, fresh: shared.fresh, appDefaults: APP_KEY_DEFAULTS });
  await page.mouse.move(1, 1);
  await waitFrames(page, frames);
  return { page, context: keepOpen(shared.context), errors: shared.errors };
}

// The shared page's context as a test sees it: everything but close() (the next test reuses it; the file's
// browser closes it at the end).
const keepOpen = (context) => new Proxy(context, {
  get(target, prop) {
    if (prop === 'close') return async () => {};
    const value = Reflect.get(target, prop);
    return typeof value === 'function' ? value.bind(target) : value;
  },
});

// Opens /?query and waits for `frames` frames. Returns {page, context, errors}. With `reuse`, the file's
// shared page in that state instead (sharedPage: no reload, for tests whose subject is not the load).
export async function openState(env, query, { frames = 3, reuse = false, tab = null, ...viewport } = {}) {
  if (reuse) return sharedPage(env, query, { frames, ...viewport });
  if (tab) return loadInTab(env, tab, query, { frames, ...viewport });
  const opened = await openPage(env.browser, `${env.server.url}/?${query}`, viewport);
  await waitReady(opened.page);
  await waitFrames(opened.page, frames);
  return opened;
}

// A fresh load of the app at /?query (a new page load: a fresh app and URL state) in the file's tab named
// `tab`, one per name and device kind, navigated again for each load instead of a new browser context (a
// new context costs ~3.5 CPU-s, a navigation ~0.8). For loads whose subject is the app's state, not the
// browser's: the tab keeps the origin's storage and HTTP cache between loads, takes no routes or init
// scripts, and its `context.close()` does nothing. `errors` hold only this load's.
async function loadInTab(env, tab, query, { frames = 3, width = 1280, height = 800, deviceScaleFactor = 1, isMobile = false,
                                             hasTouch = false } = {}) {
  env.tabs ??= new Map();
  const key = `${tab}/${deviceKind({ deviceScaleFactor, isMobile, hasTouch })}`;
  let t = env.tabs.get(key);
  const url = `${env.server.url}/?${query}`;
  if (!t) {
    const opened = await openPage(env.browser, 'about:blank', { width, height, deviceScaleFactor, isMobile, hasTouch });
    t = { page: opened.page, errors: opened.errors, context: keepOpen(opened.context) };
    env.tabs.set(key, t);
  } else {
    const size = t.page.viewportSize();
    if (size.width !== width || size.height !== height) await t.page.setViewportSize({ width, height });
  }
  t.errors.length = 0;
  await t.page.goto(url);
  await waitReady(t.page);
  await waitFrames(t.page, frames);
  return { page: t.page, context: t.context, errors: t.errors };
}

// The app at /?query in a full-size iframe (#app) of a page: the way in of a page that embeds it, whose
// posenc:setState messages the app takes (it takes them only from its parent). Returns {page (the
// parent), frame (the app's), context, errors, postState(state)}.
export async function openInParent(env, query, { width = 1280, height = 800, frames = 3 } = {}) {
  // The parent on the site's origin (a page of about:blank may not load a loopback address), served by a route.
  const opened = await openPage(env.browser, 'about:blank', { width, height });
  const parent = `${env.server.url}/posenc-parent-page.html`;
  await opened.page.route(parent, (route) => route.fulfill({ contentType: 'text/html',
    body: '<!doctype html><body style="margin:0"><iframe id="app" style="border:0;display:block;width:100vw;height:100vh" ' +
      `src="${env.server.url}/?${query.replace(/&/g, '&amp;')}"></iframe></body>` }));
  await opened.page.goto(parent);
  const frame = await (await opened.page.$('#app')).contentFrame();
  await waitReady(frame, 60000);
  await waitFrames(frame, frames);
  const postState = (state) => opened.page.evaluate((s) => document.getElementById('app').contentWindow.postMessage(
    { type: 'posenc:setState', state: s }, '*'), state);
  return { ...opened, frame, postState };
}

// Opens a deep link and checks it was restored: every URL key in getState() (with `exact`, getState()
// is the URL state and nothing else) and no notices. With `shot`, parks the mouse away from the view
// (no tooltip) and saves a screenshot as `png`. Returns {page, context, errors, state, png}.
export async function openDeepLink(env, query, { exact = false, shot = null, frames = 3, reuse = false, tab = null } = {}) {
  const opened = await openState(env, query, { frames, reuse, tab });
  const state = await opened.page.evaluate(() => window.posenc.getState());
  if (exact) assert.deepEqual(state, Object.fromEntries(new URLSearchParams(query)), 'getState() equals the URL state');
  else for (const [key, value] of new URLSearchParams(query)) assert.equal(state[key], value, `getState().${key}`);
  assert.equal(await opened.page.evaluate(() => window.posenc.notices()), '', 'no notices for a valid deep link');
  if (shot) {
    await opened.page.mouse.move(1, 1);
    await waitFrames(opened.page, 2);
    opened.png = await screenshot(opened.page, shot);
  }
  return { ...opened, state };
}

// Loading the full state the app reports gives exactly that state (the URL is a fixed point).
export async function assertStateRoundTrip(env, state) {
  const { page, context, errors } = await openState(env, new URLSearchParams(state).toString(), { frames: 2, tab: 'round-trip' });
  assert.deepEqual(await page.evaluate(() => window.posenc.getState()), state, 'full state round trip');
  assert.deepEqual(errors, []);
  await pausePlaying(page);  // the tab is kept (the next round trip loads anew): a RoPE state would play on beside the test
  await context.close();
}

// The rectangle of a probed UI item (window.posenc.itemRect), asserted to be drawn.
export async function itemRect(page, name) {
  const r = await page.evaluate((n) => window.posenc.itemRect(n), name);
  assert.ok(r && r.width > 10 && r.height > 10, `${name} is drawn: ${JSON.stringify(r)}`);
  return r;
}

// Opens the controls strip (or the narrow layout's panel) when `probe` is not drawn yet: a frame under
// 600 px starts with it closed.
export async function openControls(page, probe) {
  if (!await page.evaluate((n) => window.posenc.itemRect(n), probe)) {
    const b = await itemRect(page, 'button.controls');
    await page.mouse.click(b.x + b.width / 2, b.y + b.height / 2);
    await page.mouse.move(1, 1);
    await waitFrames(page, 3);
  }
  return itemRect(page, probe);
}

// Clicks the text field input.<key> once (no double-click) and waits for the page's text element to have
// the focus: a click on one of the app's text fields gives it that (web/page/text-entry.js), and what is
// typed reaches the app through its input event, one event per keystroke.
export async function focusField(page, key) {
  const r = await itemRect(page, `input.${key}`);
  await page.mouse.click(r.x + r.width / 2, r.y + r.height / 2);
  await page.waitForFunction(() => { window.posenc.wake(); return document.activeElement?.id === 'text-entry'; }, null,
    { timeout: 20000 });
}

// Focuses the text field input.<key> (focusField), selects all, types `text` and presses Enter (which
// leaves the field); returns {state, notices}. The text goes in as one input event (CDP Input.insertText,
// as an input method commits a word), the path keystrokes take without a round trip per character; `text`
// as an array of pieces puts them in one after another, each in a frame of its own (the app sees the text
// grow).
export async function typeIntoField(page, key, text) {
  await focusField(page, key);
  await page.keyboard.press('Control+A');
  const pieces = Array.isArray(text) ? text : [text];
  for (let i = 0; i < pieces.length; ++i) {
    if (i > 0) await waitFrames(page, 2);
    await page.keyboard.insertText(pieces[i]);
  }
  await page.keyboard.press('Enter');
  await page.mouse.move(1, 1);
  await waitFrames(page, 3);
  return {
    state: await page.evaluate(() => window.posenc.getState()),
    notices: await page.evaluate(() => window.posenc.noticeList()),
  };
}

// The next file picker the page opens, caught for certain: `const picker = await catchFileChooser(page)`,
// then the click or key that opens it, then `await (await picker.opened).setFiles(paths)`. Playwright's
// `filechooser` event is not enough: it sends Page.setInterceptFileChooserDialog without waiting for it,
// and a renderer busy drawing (a page just loaded) handled it 125-190 ms later, after a picker opened by
// the click right after it, which headless Chromium then cancelled (no event, no file). Here interception
// is on, acknowledged by the renderer, before this resolves, in a CDP session of its own that ends with
// setFiles. `opened` resolves to {multiple, setFiles(paths)}; setFiles fires the input's change event,
// as Playwright's does (DOM.setFileInputFiles; a folder path for a webkitdirectory input).
export async function catchFileChooser(page, timeout = 30000) {
  const cdp = await page.context().newCDPSession(page);
  let timer;
  const opened = new Promise((resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no file picker opened in ${timeout} ms`)), timeout);
    cdp.once('Page.fileChooserOpened', resolve);
  }).finally(() => clearTimeout(timer));
  await cdp.send('Page.enable');
  await cdp.send('Page.setInterceptFileChooserDialog', { enabled: true });
  const chooser = opened.then((e) => ({
    multiple: e.mode === 'selectMultiple',
    setFiles: async (paths) => {
      const files = [].concat(paths).map((p) => path.resolve(p));
      await cdp.send('DOM.setFileInputFiles', { files, backendNodeId: e.backendNodeId });
      await cdp.detach();
    },
  }), async (e) => { await cdp.detach().catch(() => {}); throw e; });
  chooser.catch(() => {});  // a test that failed before awaiting it gets its own error, not this one's
  return { opened: chooser };
}

// Drags the slider in rect `slider` from fraction `from` to `to` of its width, parks the mouse away from
// the view and waits for the redraw.
export async function dragSlider(page, slider, from, to) {
  const y = slider.y + slider.height / 2;
  await page.mouse.move(slider.x + slider.width * from, y);
  await page.mouse.down();
  for (let i = 1; i <= 10; ++i) await page.mouse.move(slider.x + slider.width * (from + (to - from) * i / 10), y);
  await page.mouse.up();
  await page.mouse.move(1, 1);
  await waitFrames(page, 3);
}

// scrollY once it has not changed for 300 ms (a fling or a scrollTo over); rejects after `timeout` ms.
// Watched inside the page: Playwright's waitForFunction does not await a predicate that returns a Promise
// (the Promise itself is truthy and ends the wait), so a "same value 300 ms later" check written as one
// ends after its first 300 ms whatever it finds: it read scrollY in the middle of a fling.
export function settledScroll(page, { quiet = 300, timeout = 15000 } = {}) {
  return page.evaluate(([quiet, timeout]) => new Promise((resolve, reject) => {
    const start = performance.now();
    let y = scrollY, since = start;
    const tick = () => {
      const now = performance.now();
      if (scrollY !== y) { y = scrollY; since = now; }
      if (now - since >= quiet) resolve(y);
      else if (now - start >= timeout) reject(new Error(`the page still scrolls after ${timeout} ms (scrollY ${y})`));
      else setTimeout(tick, 25);
    };
    setTimeout(tick, 25);
  }), [quiet, timeout]);
}

// Resolves once the app in `frame` (a page or an iframe's frame) has drawn no frame for `quiet` ms: a
// settled embed. A view that plays (state play=1: RoPE's rotating vector) draws every frame by design and
// counts as settled once it has drawn a frame. Watched inside the frame, like settledScroll (a waitForFunction
// predicate returning a Promise would end the wait at once); rejects after `timeout` ms.
export function settledFrames(frame, { quiet = 300, timeout = 30000 } = {}) {
  return frame.evaluate(([quiet, timeout]) => new Promise((resolve, reject) => {
    const start = performance.now();
    let n = window.posenc.frameCount(), since = start;
    const tick = () => {
      const now = performance.now(), count = window.posenc.frameCount();
      if (count !== n) { n = count; since = now; }
      if (now - since >= quiet || (window.posenc.getState().play === '1' && count > 0)) resolve(n);
      else if (now - start >= timeout) reject(new Error(`the app still draws after ${timeout} ms (frame ${n})`));
      else setTimeout(tick, 25);
    };
    setTimeout(tick, 25);
  }), [quiet, timeout]);
}

// scrollY after an input that may scroll the page, once settled. A wheel or a swipe over a cross-origin
// frame scrolls the post only after the frame's own thread has let the event pass, which on a loaded
// machine can take longer than a settle window: wait (up to `timeout`) for scrollY to leave `from` first.
export async function scrolledFrom(page, from, timeout = 10000) {
  await page.waitForFunction((y) => scrollY !== y, from, { timeout, polling: 50 }).catch(() => {});
  return settledScroll(page);
}

export async function screenshot(page, name) {
  fs.mkdirSync(artifactsDir, { recursive: true });
  const file = path.join(artifactsDir, name);
  const buffer = await page.screenshot({ path: file });
  return PNG.sync.read(buffer);
}

export function pixel(png, x, y) {
  const i = (Math.round(y) * png.width + Math.round(x)) * 4;
  return [png.data[i], png.data[i + 1], png.data[i + 2]];
}

// Viridis at t in [0,1] (matplotlib's endpoints and midpoint), for colour assertions.
export const VIRIDIS = { 0: [68, 1, 84], 0.5: [33, 145, 140], 1: [253, 231, 37] };

export function colorDistance(a, b) {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

export const luminance = ([r, g, b]) => 0.2126 * r + 0.7152 * g + 0.0722 * b;

// A point inside cell (row, col) of a rows x cols heatmap drawn in rect r; (fx, fy) in [0, 1] place it
// within the cell (0.5 = centre).
export function cellPoint(r, rows, cols, row, col, fx = 0.5, fy = 0.5) {
  return [r.x + (col + fx) * r.width / cols, r.y + (row + fy) * r.height / rows];
}

export function cellPixel(png, r, rows, cols, row, col, fx = 0.5, fy = 0.5) {
  return pixel(png, ...cellPoint(r, rows, cols, row, col, fx, fy));
}

// Fraction of points on a `step`-pixel grid inside rect r whose colour changed visibly from a to b.
export function changedFraction(a, b, r, step) {
  let changed = 0, total = 0;
  for (let y = r.y + 2; y < r.y + r.height - 2; y += step) {
    for (let x = r.x + 2; x < r.x + r.width - 2; x += step) {
      ++total;
      if (colorDistance(pixel(a, x, y), pixel(b, x, y)) > 30) ++changed;
    }
  }
  return changed / total;
}

// Export tables (window.posenc.exportData('json')) and comparisons of the page's numbers with the native CLI's.
export const exportJson = async (page) => JSON.parse(await page.evaluate(() => window.posenc.exportData('json')));
export const table = (exported, prefix) => {
  const t = exported.tables.find((x) => x.name.startsWith(prefix));
  assert.ok(t, `table ${prefix} in ${exported.tables.map((x) => x.name).join(', ')}`);
  return t;
};
export const column = (t, name) => t.rows.map((r) => r[t.columns.indexOf(name)]);
export const cell = (t, name) => t.rows[0][t.columns.indexOf(name)];
// The page's numbers are the wasm build's (its libm); inspect's the native build's: equal to the last
// bits or within a few ulps (1e-14 relative).
export function assertClose(actual, expected, label) {
  assert.equal(actual.length, expected.length, `${label}: length`);
  actual.forEach((a, i) => assert.ok(Math.abs(a - expected[i]) <= 1e-14 * Math.abs(expected[i]), `${label}[${i}]: ${a} vs ${expected[i]}`));
}
