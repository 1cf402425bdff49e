// End-to-end, Share -> Copy embed code: the snippet of docs/embedding.md. Its URL holds only the keys that
// differ from a fresh view's (plus embed=1 and the app-level keys that are set), its height is the
// documented rule (the embed layout at a 720 px column), it sits in a <posenc-figure> tag and asks to fit
// (data-posenc-fit), the page script is one line (embed.js, the same code as docs/embedding.md's inline
// form); pasted into a page
// on another origin it shows the same state and keeps the height it was given.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useBrowser, openState, openPage } from './harness.mjs';
import { serveStatic } from '../../scripts/static-server.mjs';

const env = useBrowser();
const APP_KEYS = ['view', 'embed', 'controls', 'theme', 'figure'];

// docs/embedding.md, "The embed code": 8 px padding above and below, 23 px for the Controls toggle (controls=1),
// 17 px for the formula line and the plots at min(560, 0.75 x 720) = 540 px.
function ruleHeight(query) {
  return 8 + (query.controls === '0' ? 0 : 23) + 17 + Math.min(560, 0.75 * 720) + 8;
}

// The snippet is the subject, not the load: the file's shared page brought to `query` (sharedPage). The
// defaults it is checked against come from a fresh load of the view (defaultsOf).
async function snippetOf(query) {
  const { page, context, errors } = await openState(env, query, { reuse: true });
  const state = await page.evaluate(() => window.posenc.getState());
  const code = await page.evaluate(() => window.posenc.embedCode());
  // Reading the snippet's facts left the app as it was.
  assert.deepEqual(await page.evaluate(() => window.posenc.getState()), state);
  assert.deepEqual(errors, []);
  await context.close();
  const src = code.match(/<iframe src="([^"]*)"/)[1].replace(/&amp;/g, '&');
  return { code, state, src, q: Object.fromEntries(new URL(src).searchParams), height: Number(code.match(/height="(\d+)"/)[1]) };
}

async function defaultsOf(view) {
  const { page, context } = await openState(env, `view=${view}`, { frames: 1 });
  const state = await page.evaluate(() => window.posenc.getState());
  await context.close();
  return state;
}

test('embed code: only non-default keys, embed=1, the height of the rule, the one-line page script', async () => {
  for (const query of ['view=buckets&scheme=t5&n=48&theme=dark', 'view=rope&scaling=linear&factor=8&pos=100&controls=0',
    'view=waves', 'view=permutation&sentence=a%20b%20c&pe=rope']) {
    const { code, state, q, height } = await snippetOf(query);
    const defaults = await defaultsOf(state.view);
    assert.equal(q.view, state.view);
    assert.equal(q.embed, '1');
    for (const [key, value] of Object.entries(q))
      if (!APP_KEYS.includes(key)) assert.notEqual(value, defaults[key], `${query}: ${key}=${value} is a default value`);
    for (const [key, value] of Object.entries(state))
      if (!APP_KEYS.includes(key) && value !== defaults[key]) assert.equal(q[key], value, `${query}: changed key ${key}`);
    for (const key of ['controls', 'theme']) assert.equal(q[key], state[key], `${query}: app key ${key}`);
    assert.equal(height, ruleHeight(q), `${query}: the height of the documented rule`);
    // The tag around the iframe, which asks to fit; the page script: one line, embed.js beside the site's page.
    assert.ok(code.startsWith('<posenc-figure state="'), code);
    assert.match(code, /<iframe [^>]* data-posenc-fit><\/iframe>/);
    assert.ok(code.endsWith(`</iframe>\n</posenc-figure>\n<script src="${env.server.url}/embed.js" async></script>`), code);
  }
});

test('embed code pasted into a page on another origin: the same state, and it keeps its height', async () => {
  const { code, state, height } = await snippetOf('view=buckets&scheme=alibi&n=40&heads=6&head=3&theme=dark');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'posenc-paste-'));
  // Another origin: localhost (the site is on 127.0.0.1), in a 720 px column.
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><head><meta charset="utf-8"><title>post</title>' +
    '<link rel="icon" href="data:,"></head><body style="margin:0"><main style="width:720px">' +
    `<p>Some prose.</p>\n${code.replace(/http:\/\/127\.0\.0\.1/g, 'http://localhost')}\n<p>More prose.</p></main></body></html>`);
  const blog = await serveStatic(dir, 0);
  const { page, context, errors } = await openPage(env.browser, `${blog.url.replace('127.0.0.1', 'localhost')}/index.html`, { width: 900, height: 800 });
  try {
    const frame = await (await page.$('iframe')).contentFrame();
    await frame.waitForFunction(() => window.posenc && window.posenc.frameCount() > 0, null, { timeout: 60000, polling: 200 });
    assert.notEqual(new URL(frame.url()).origin, new URL(page.url()).origin, 'the embed is on another origin');
    assert.deepEqual(await frame.evaluate(() => window.posenc.getState()), { ...state, embed: '1' });
    // The embed asks its page for the height the snippet gave it (the page script applies what it asks).
    await frame.waitForFunction(() => window.posenc.contextInfo().coordinated, null, { timeout: 10000 });
    await page.waitForFunction(() => document.querySelector('iframe').style.height !== '', null, { timeout: 10000 });
    assert.equal(await page.evaluate(() => document.querySelector('iframe').getBoundingClientRect().height), height);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    await blog.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('embed.js is the page script docs/embedding.md shows inline, and the embed example page loads it', () => {
  const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
  const script = fs.readFileSync(path.join(repo, 'web', 'embed.js'), 'utf8');
  const code = script.slice(script.indexOf('window.posencEmbeds'));
  const docs = fs.readFileSync(path.join(repo, 'docs', 'embedding.md'), 'utf8');
  const inline = docs.match(/<script>\n([\s\S]*?)<\/script>/);
  assert.ok(inline, 'docs/embedding.md shows the inline form');
  assert.equal(inline[1].replace(/^ {2}/gm, '').slice(inline[1].replace(/^ {2}/gm, '').indexOf('window.posencEmbeds')), code,
    'the inline form is embed.js, indented');
  for (const word of ['posenc:height', 'posenc:context', 'posenc:grant', 'posenc:release', 'posencHeight'])
    assert.ok(code.includes(word), `embed.js handles ${word}`);
  assert.match(fs.readFileSync(path.join(repo, 'web', 'embed-example.html'), 'utf8'), /<script src="embed\.js" async><\/script>/);
});
