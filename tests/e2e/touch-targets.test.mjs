// End-to-end, targets a finger can hit (WCAG 2.5.8, docs/input.md): on a 390x844 touch phone every
// interactive target of the frame is at least 24x24 CSS px, in both languages: the Controls toggle, the
// menu bar's menus (the view picker, Share, Theme, Language) and every entry of each menu once it is open
// (each probed: menu.view.<id>, menu.share.<action>, menu.theme.<value>, menu.lang.<code>).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, sharedPage, waitFrames, screenshot, PHONE } from './harness.mjs';

const env = useBrowser();
const MIN = 24;

async function rect(page, name) {
  const r = await page.evaluate((n) => window.posenc.itemRect(n), name);
  assert.ok(r, `${name} is drawn`);
  return r;
}
function assertTarget(r, name) {
  assert.ok(r.width >= MIN - 0.01 && r.height >= MIN - 0.01, `${name} is at least ${MIN}x${MIN}: ${r.width.toFixed(1)}x${r.height.toFixed(1)}`);
}
async function tapOn(page, r) {
  await page.touchscreen.tap(r.x + r.width / 2, r.y + r.height / 2);
  await waitFrames(page, 4);
}

for (const lang of ['en', 'zh']) {
  test(`touch targets (${lang}): the toggle, the menus and every entry of every menu are at least 24x24 at 390x844`, async () => {
    const { page, errors } = await sharedPage(env, `view=waves&lang=${lang}`, PHONE);
    await page.evaluate(() => window.posenc.ready);
    await waitFrames(page, 3);
    const views = await page.evaluate(() => window.posenc.views());
    const menus = { 'menu.view': views.map((v) => `menu.view.${v}`),
      'menu.share': ['copy-link', 'copy-embed', 'export-png', 'export-svg', 'export-csv', 'export-json'].map((a) => `menu.share.${a}`),
      'menu.theme': ['auto', 'light', 'dark'].map((t) => `menu.theme.${t}`),
      'menu.lang': ['en', 'zh'].map((l) => `menu.lang.${l}`) };
    assertTarget(await rect(page, 'button.controls'), 'button.controls');
    for (const [menu, entries] of Object.entries(menus)) {
      const header = await rect(page, menu);
      assertTarget(header, menu);
      await tapOn(page, header);
      for (const entry of entries) assertTarget(await rect(page, entry), entry);
      if (menu === 'menu.theme') await screenshot(page, `touch-targets-theme-${lang}.png`);
      assertTarget(await rect(page, menu), `${menu} (open)`);
      await tapOn(page, header);  // closes it
      assert.equal(await page.evaluate((e) => window.posenc.itemRect(e), entries[0]), null, `${menu} closed again`);
    }
    assert.equal((await page.evaluate(() => window.posenc.getState())).lang, lang === 'en' ? undefined : lang, 'nothing chosen');
    assert.deepEqual(errors, []);
  });
}
