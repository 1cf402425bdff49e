// Regenerates the Chinese interface's screenshots (docs/zh/screenshots/, linked from docs/zh/README.md) from the
// current web build:
//   node scripts/docs-screenshots-zh.mjs   (after `cmake --build --preset web`)
// Every view (window.posenc.views(), i.e. App::view_ids()) at 1280x800 with lang=zh in both themes:
// docs/zh/screenshots/<view>-dark.png and <view>-light.png; the phone (390x844, touch, deviceScaleFactor 3) for
// the permutation view with the seeds' 我不爱你 and the RoPE view: phone-<view>-<theme>.png. One page is reused
// (setState and setViewportSize): setState resolves once the Chinese catalogue and the CJK glyphs are in.
// POSENC_VIEWS=a,b: only these views.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveSite, launchBrowser, openPage, waitReady, waitFrames, PHONE } from '../tests/e2e/harness.mjs';
import { DOC_STATES } from './docs-states.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(repo, 'docs', 'zh', 'screenshots');
// The states the English docs use, and the seeds' Chinese sentence for the permutation view.
const STATES = { ...DOC_STATES, permutation: 'pe=sinusoidal&shuffle=4&d=16&sentence=我不爱你' };
const PHONE_VIEWS = ['permutation', 'rope'];

const server = await serveSite();
const browser = await launchBrowser();
const written = [];
try {
  fs.mkdirSync(outDir, { recursive: true });
  const only = process.env.POSENC_VIEWS ? process.env.POSENC_VIEWS.split(',') : null;
  async function shoot(page, errors, view, theme, file) {
    const query = `view=${view}${STATES[view] ? '&' + STATES[view] : ''}&theme=${theme}&lang=zh`;
    // A fresh view's defaults first (setState keeps the keys a state leaves out), then its state.
    await page.evaluate((q) => window.posenc.setState(Object.fromEntries(new URLSearchParams(q))), `view=${view}&lang=zh`);
    await page.evaluate((q) => window.posenc.setState(Object.fromEntries(new URLSearchParams(q))), query);
    await waitFrames(page, 4);
    await page.mouse.move(0, 0);
    await waitFrames(page, 2);
    await page.screenshot({ path: path.join(outDir, file) });
    if (errors.length) throw new Error(`${file}: console errors: ${errors.join('; ')}`);
    written.push(file);
    console.log(`wrote docs/zh/screenshots/${file}`);
  }
  {
    const { page, context, errors } = await openPage(browser, `${server.url}/?lang=zh`, { width: 1280, height: 800 });
    await waitReady(page);
    const views = (await page.evaluate(() => window.posenc.views())).filter((v) => !only || only.includes(v));
    for (const view of views) for (const theme of ['dark', 'light']) await shoot(page, errors, view, theme, `${view}-${theme}.png`);
    await context.close();
  }
  {
    const { page, context, errors } = await openPage(browser, `${server.url}/?lang=zh`, PHONE);
    await waitReady(page);
    for (const view of PHONE_VIEWS.filter((v) => !only || only.includes(v)))
      for (const theme of ['dark', 'light']) await shoot(page, errors, view, theme, `phone-${view}-${theme}.png`);
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
console.log(`${written.length} screenshots`);
