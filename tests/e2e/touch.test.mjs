// End-to-end, touch on a phone (390x844, touch, isMobile, deviceScaleFactor 3), driven as fingers through
// CDP's Input.dispatchTouchEvent: a tap checks a checkbox, a sideways drag moves a slider, a vertical
// swipe outside the heatmaps scrolls the app's plots, one finger pans a heatmap, two fingers pinch it
// about their midpoint, a double-tap resets it, a long-press shows the hover readout; in a blog post on
// another origin a vertical swipe scrolls the page, outside the plots and on a heatmap alike, and two
// fingers on that heatmap zoom it and leave the page (an embed's gestures are cooperative, also in a bare
// iframe with no page script; tests/e2e/hugo.test.mjs pinches one in a post with embed.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useBrowser, waitFrames, screenshot, openPage, openPhone, PHONE, touch, tap, settledScroll, scrolledFrom } from './harness.mjs';
import { serveStatic } from '../../scripts/static-server.mjs';

const env = useBrowser();
// Fingers from `from` to `to` (arrays of [x, y], one per finger) in `steps` moves, then lifted; then
// frames of the app in `page` (a page or an embed's frame; null: a second for the page to scroll). The moves follow each other at once: a
// finger resting 500 ms would be a long-press.
async function gesture(page, cdp, from, to, steps = 8) {
  await touch(cdp, 'touchStart', from);
  for (let s = 1; s <= steps; ++s)
    await touch(cdp, 'touchMove', from.map(([x, y], k) => [x + (to[k][0] - x) * s / steps, y + (to[k][1] - y) * s / steps]));
  await touch(cdp, 'touchEnd', []);
  if (page) await waitFrames(page, 8);
  else await new Promise((resolve) => setTimeout(resolve, 1000));  // a page's scroll (and fling) settles
}

const rect = (page, name) => page.evaluate((n) => window.posenc.itemRect(n), name);
const zoom = (page, name) => page.evaluate((n) => window.posenc.zoom(n), name);
const state = (page) => page.evaluate(() => window.posenc.getState());

test('touch: a tap checks a checkbox and a sideways drag moves a slider', async () => {
  const { page, context, errors, cdp } = await openPhone(env, 'view=scores&n=32&causal=0');
  const toggle = await rect(page, 'button.controls');
  assert.ok(toggle, 'the narrow layout has a Controls toggle');
  await tap(page, cdp, toggle.x + toggle.width / 2, toggle.y + toggle.height / 2);
  const check = await rect(page, 'check.causal');
  assert.ok(check, 'tapping Controls opens the panel');
  await tap(page, cdp, check.x + 8, check.y + check.height / 2);
  assert.equal((await state(page)).causal, '1', 'a tap on the checkbox checks it');
  const n = await rect(page, 'slider.n');
  const y = n.y + n.height / 2;
  await gesture(page, cdp, [[n.x + n.width * 0.2, y]], [[n.x + n.width * 0.6, y]]);
  const after = Number((await state(page)).n);
  assert.ok(after > 32, `a sideways drag moved n from 32 to ${after}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('touch: on the app\'s own page a vertical swipe outside the heatmaps scrolls the plots', async () => {
  const { page, context, errors, cdp } = await openPhone(env, 'view=scores&n=32');
  const before = await rect(page, 'plot.weights');
  assert.ok(before, 'the second plot is (partly) on screen');
  // On the tick labels left of the total's image: not a heatmap, so the swipe is a scroll.
  const total = await rect(page, 'plot.total');
  const x = total.x - 20, y = total.y + total.height * 0.8;
  await gesture(page, cdp, [[x, y]], [[x, y - 200]]);
  const after = await rect(page, 'plot.weights');
  assert.ok(after && after.y < before.y - 100, `the plots moved up with the finger: ${before.y} -> ${after && after.y}`);
  assert.deepEqual(await zoom(page, 'plot.total'), { x: 0, y: 0, width: 1, height: 1 }, 'no zoom or pan');
  assert.equal((await state(page)).n, '32');
  // The swipe back down scrolls the plots back where they were (and leaves the file's shared page as it was).
  await gesture(page, cdp, [[x, y - 200]], [[x, y]]);
  assert.equal((await rect(page, 'plot.weights')).y, before.y, 'the plots moved back down with the finger');
  assert.deepEqual(errors, []);
  await context.close();
});

test('touch: on a heatmap one finger pans, two pinch about their midpoint, a double-tap resets, a long-press reads out', async () => {
  const { page, context, errors, cdp } = await openPhone(env, 'view=scores&n=32&scheme=sinusoidal');
  const r = await rect(page, 'plot.total');
  assert.ok(r && r.width > 150 && r.height > 150, `plot.total on screen: ${JSON.stringify(r)}`);
  assert.deepEqual(await zoom(page, 'plot.total'), { x: 0, y: 0, width: 1, height: 1 });

  // Pinch: fingers 30 px apart spread to 120 px around a point at (0.3, 0.4) of the plot.
  const [mx, my] = [r.x + 0.3 * r.width, r.y + 0.4 * r.height];
  await gesture(page, cdp, [[mx - 15, my], [mx + 15, my]], [[mx - 60, my], [mx + 60, my]]);
  const z1 = await zoom(page, 'plot.total');
  assert.ok(z1.width < 0.5 && z1.height < 0.5, `pinched in: ${JSON.stringify(z1)}`);
  assert.ok(Math.abs(z1.x + 0.3 * z1.width - 0.3) < 0.03, `the matrix point under the midpoint stays there (x): ${JSON.stringify(z1)}`);
  assert.ok(Math.abs(z1.y + 0.4 * z1.height - 0.4) < 0.03, `the matrix point under the midpoint stays there (y): ${JSON.stringify(z1)}`);
  await screenshot(page, 'touch-pinched.png');

  // One finger pans: dragging left and up shows what was right of and below the window.
  const [cx, cy] = [r.x + r.width / 2, r.y + r.height / 2];
  await gesture(page, cdp, [[cx, cy]], [[cx - 40, cy - 30]]);
  const z2 = await zoom(page, 'plot.total');
  assert.ok(z2.x > z1.x && z2.y > z1.y, `panned: ${JSON.stringify(z1)} -> ${JSON.stringify(z2)}`);
  assert.ok(Math.abs(z2.width - z1.width) < 1e-6, 'panning keeps the zoom');
  assert.ok(Math.abs((z2.x - z1.x) - 40 / r.width * z1.width) < 0.02, `the content follows the finger: ${z2.x - z1.x}`);

  // Long-press: the readout shows at the finger (and in the live region); the map does not move.
  await touch(cdp, 'touchStart', [[cx, cy]]);
  await page.waitForFunction(() => window.posenc.readout() !== '', null, { timeout: 10000 });
  const readout = await page.evaluate(() => window.posenc.readout());
  assert.match(readout, /query i = \d+, key j = \d+/);
  assert.match(readout, /total logit e_ij = /);
  await page.waitForFunction(() => /query i = /.test(document.getElementById('readout').textContent), null, { timeout: 10000 });
  await screenshot(page, 'touch-long-press.png');
  await touch(cdp, 'touchEnd', []);
  await waitFrames(page, 5);
  assert.equal(await page.evaluate(() => window.posenc.readout()), '', 'the readout goes with the finger');
  assert.deepEqual(await zoom(page, 'plot.total'), z2, 'a long-press does not pan');

  // Double-tap: back to the whole matrix.
  await touch(cdp, 'touchStart', [[cx, cy]]);
  await touch(cdp, 'touchEnd', []);
  await touch(cdp, 'touchStart', [[cx + 2, cy + 1]], { soon: true });
  await touch(cdp, 'touchEnd', []);
  await waitFrames(page, 8);
  assert.deepEqual(await zoom(page, 'plot.total'), { x: 0, y: 0, width: 1, height: 1 });
  assert.deepEqual(errors, []);
  await context.close();
});

function blogPage(site) {
  const prose = `<p>${'Paragraph of prose about positional encodings. '.repeat(30)}</p>`;
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>blog</title><link rel="icon" href="data:,"></head><body style="margin:0 12px">${prose}${prose}
<iframe id="curves" src="${site}/?view=frequencies&amp;embed=1" width="100%" height="520" style="border:0"></iframe>
${prose}${prose}
<iframe id="heatmap" src="${site}/?view=scores&amp;embed=1" width="100%" height="520" style="border:0"></iframe>
${prose}${prose}${prose}</body></html>`;
}


// Evaluates in a frame that may be reloading meanwhile (a released embed): retried in its next document.
async function inFrame(frame, fn) {
  for (let attempt = 0; ; ++attempt) {
    try {
      await frame.waitForLoadState('load');
      return await frame.evaluate(fn);
    } catch (e) {
      if (attempt >= 20 || !/context was destroyed|navigat/i.test(String(e))) throw e;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

async function embedFrame(page, id) {
  const frame = await (await page.$(`#${id}`)).contentFrame();
  await frame.waitForFunction(() => window.posenc && window.posenc.frameCount() > 0, null, { timeout: 60000, polling: 200 });
  return frame;
}

test('touch: in a blog post a vertical swipe scrolls the page, outside plots and on a heatmap; two fingers zoom the heatmap and leave the page', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'posenc-touch-'));
  const site = env.server.url.replace('127.0.0.1', 'localhost');  // another origin
  fs.writeFileSync(path.join(dir, 'index.html'), blogPage(site));
  const blog = await serveStatic(dir, 0);
  const { page, context, errors, cdp } = await openPage(env.browser, `${blog.url}/index.html`, { ...PHONE, cdp: true });
  try {
    assert.ok(await page.evaluate(() => document.documentElement.scrollHeight > 2 * innerHeight), 'the post is taller than the phone');
    // The line-plot embed in view; swipe up on it.
    await page.evaluate(() => window.scrollTo(0, document.getElementById('curves').offsetTop - 150));
    const curves = await embedFrame(page, 'curves');
    const box = await (await page.$('#curves')).boundingBox();
    const plot = await curves.evaluate(() => window.posenc.itemRect('plot.wavelength'));
    assert.ok(plot, 'the embed shows its main figure');
    // Kept in the frame's window.name (it outlives a reload; a cross-origin frame gets no storage here):
    // the swipe's fling takes the embed out of view, and an embed out of view for 0.5 s gives its
    // WebGL context back by reloading into poster mode.
    await curves.evaluate(() => {
      window.name = '[]';
      addEventListener('touchmove', (e) => {
        window.name = JSON.stringify([...JSON.parse(window.name), e.defaultPrevented]);
      }, { passive: true });
    });
    const y0 = await page.evaluate(() => scrollY);
    const x = box.x + box.width / 2, from = box.y + Math.min(box.height, 600) * 0.8;
    await gesture(null, cdp, [[x, from]], [[x, from - 300]], 10);
    const y1 = await page.evaluate(() => scrollY);
    const prevented = await inFrame(curves, () => JSON.parse(window.name || '[]'));
    assert.ok(prevented.length > 0, 'the embed saw the touch moves');
    assert.ok(prevented.every((p) => !p), `no touchmove outside a heatmap is preventDefault()ed: ${prevented}`);
    assert.ok(y1 > y0 + 100, `the blog page scrolled under the swipe: ${y0} -> ${y1}`);

    // The heatmap embed: one finger that starts on the heatmap scrolls the page too (the canvas lets the
    // browser pan vertically there, no box claims the map); the map does not move.
    await page.evaluate(() => window.scrollTo(0, document.getElementById('heatmap').offsetTop - 100));
    const scores = await embedFrame(page, 'heatmap');
    const hbox = await (await page.$('#heatmap')).boundingBox();
    const total = await scores.evaluate(() => window.posenc.itemRect('plot.total'));
    assert.ok(total, 'the scores embed shows plot.total');
    const hx = hbox.x + total.x + total.width / 2, hy = hbox.y + total.y + total.height * 0.7;
    const action = await scores.evaluate(([x, y]) => getComputedStyle(document.elementFromPoint(x, y)).touchAction, [hx - hbox.x, hy - hbox.y]);
    assert.equal(action, 'pan-y', 'the browser may pan vertically over the map');
    const y2 = await settledScroll(page);
    await gesture(null, cdp, [[hx, hy]], [[hx, hy - 150]], 10);
    const y3 = await scrolledFrom(page, y2);
    assert.ok(y3 - y2 >= 75, `a swipe on a heatmap scrolls the page by at least half the finger's travel: ${y3 - y2} px`);
    assert.deepEqual(await inFrame(scores, () => window.posenc.zoom('plot.total')), { x: 0, y: 0, width: 1, height: 1 });

    // Two fingers spread on that map (a bare iframe, no embed.js on this page): the map zooms, the page
    // stays. The map back mid-screen first (the swipe's fling carried it up).
    await page.evaluate((cy) => window.scrollTo(0, document.getElementById('heatmap').offsetTop + cy - innerHeight / 2), total.y + total.height / 2);
    const y4 = await settledScroll(page);
    const pbox = await (await page.$('#heatmap')).boundingBox();
    const px = pbox.x + total.x + total.width / 2, py = pbox.y + total.y + total.height / 2;
    assert.ok(py > 100 && py < PHONE.height - 100, `the fingers go down on screen: ${py}`);
    await gesture(null, cdp, [[px - 15, py], [px + 15, py]], [[px - 60, py], [px + 60, py]]);
    assert.equal(await settledScroll(page), y4, 'a pinch on the heatmap moves the page by none');
    await scores.waitForFunction(() => { window.posenc.wake(); return window.posenc.zoom('plot.total').width < 0.9; }, null, { timeout: 10000 });
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    await blog.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
