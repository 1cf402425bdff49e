// End-to-end, a long blog post on another origin with 20 embeds: each draws when scrolled into view
// (Chrome caps live WebGL contexts and stops animation frames in off-screen cross-origin iframes), and
// none stays dead, also after scrolling back to the first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useBrowser, openPage } from './harness.mjs';
import { serveStatic } from '../../scripts/static-server.mjs';

const env = useBrowser();
const VIEWS = ['waves', 'frequencies', 'rope', 'buckets', 'similarity', 'scores', 'permutation', 'toy'];

function blogPage(site) {
  const figures = [];
  for (let i = 0; i < 20; ++i) {
    const view = VIEWS[i % VIEWS.length];
    figures.push(`<p>${'Paragraph of prose. '.repeat(40)}</p>
<iframe id="e${i}" src="${site}/?view=${view}&amp;embed=1" width="100%" height="420" loading="lazy" style="border:0"
        title="posenc: ${view}"></iframe>`);
  }
  return `<!doctype html><html><head><meta charset="utf-8"><title>blog</title><link rel="icon" href="data:,"></head>
<body style="max-width:720px;margin:0 auto">${figures.join('\n')}</body></html>`;
}

async function drawn(page, i) {
  const frame = await (await page.$(`#e${i}`)).contentFrame();
  await frame.waitForFunction(() => window.posenc && window.posenc.frameCount() > 0, null, { timeout: 60000, polling: 200 });
  return frame;
}

test('blog: 20 cross-origin embeds each draw when scrolled into view, none stays dead', { timeout: 600000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'posenc-blog-'));
  // Another origin: localhost (the site is on 127.0.0.1).
  const site = env.server.url.replace('127.0.0.1', 'localhost');
  fs.writeFileSync(path.join(dir, 'index.html'), blogPage(site));
  const blog = await serveStatic(dir, 0);
  const { page, context, errors } = await openPage(env.browser, `${blog.url}/index.html`, { width: 800, height: 600 });
  try {
    for (let i = 0; i < 20; ++i) {
      await page.locator(`#e${i}`).scrollIntoViewIfNeeded();
      await drawn(page, i);
    }
    // Back to the first: it draws again (its context may have been taken away meanwhile).
    await page.locator('#e0').scrollIntoViewIfNeeded();
    const f0 = await drawn(page, 0);
    assert.equal((await f0.evaluate(() => window.posenc.getState())).view, 'waves');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    await blog.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
