// Regenerates the README/docs screenshots from the current web build:
//   node scripts/docs-screenshots.mjs   (after `cmake --build --preset web`)
// One PNG per view, written to docs/<name>.png (1280x720), and the same views at the four frame sizes the
// layout handles, written to docs/sizes/<size>-<name>.png (dark theme; a few views also in the light theme,
// <size>-<name>-light.png): a desktop window (1280x800), a blog column (720x480), a small embed (400x300,
// embed=1) and a phone (390x844, touch, deviceScaleFactor 3).
// The Model view's layer strip for the models of MODEL_SHOTS (a preset, or a config pasted on the canvas) at the
// four sizes in both themes: docs/sizes/<size>-model-<name>[-light].png. POSENC_MODEL_SHOTS=only: only those;
// POSENC_MODEL_SHOTS=<name>,<name>: only those of MODEL_SHOTS (e.g. gemma-4-31b,assumed). POSENC_VIEWS=a,b: only
// those views' pictures (a model shot's name there: model-<name>; the scores view's layer shot: scores-layer).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveSite, launchBrowser, openPage, waitReady, waitFrames } from '../tests/e2e/harness.mjs';
import { llama4, qwen2vl, pasteConfig } from '../tests/e2e/model-configs.mjs';
import { DOC_STATES } from './docs-states.mjs';

// A model_type outside the family table (its rules assumed, each named on the card and as a notice).
const assumedConfig = { model_type: 'made_up_2026', hidden_size: 2048, num_attention_heads: 16, num_hidden_layers: 24,
  max_position_embeddings: 32768, sliding_window: 4096, rope_theta: 1000000 };

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The views come from the app itself (window.posenc.views(), i.e. App::view_ids()); their states: DOC_STATES.
const STATES = DOC_STATES;

const server = await serveSite();
const browser = await launchBrowser();
try {
  const first = await openPage(browser, `${server.url}/`, { width: 320, height: 240 });
  await waitReady(first.page);
  // POSENC_VIEWS=a,b: only these views (to add one view's pictures without redrawing the others).
  const only = process.env.POSENC_VIEWS ? process.env.POSENC_VIEWS.split(',') : null;
  const modelShots = process.env.POSENC_MODEL_SHOTS || '';
  const modelsOnly = modelShots !== '';
  const modelNames = modelsOnly && modelShots !== 'only' ? modelShots.split(',') : null;
  const views = (await first.page.evaluate(() => window.posenc.views())).filter((v) => !modelsOnly && (!only || only.includes(v)));
  await first.context.close();
  for (const name of views) {
    const query = `view=${name}${STATES[name] ? '&' + STATES[name] : ''}&theme=dark`;
    const { page, context, errors } = await openPage(browser, `${server.url}/?${query}`, { width: 1280, height: 720 });
    await waitReady(page);
    await waitFrames(page, 3);
    await page.mouse.move(0, 0);
    await waitFrames(page, 2);
    const file = path.join(repo, 'docs', `${name}.png`);
    await page.screenshot({ path: file });
    if (errors.length) throw new Error(`${name}: console errors: ${errors.join('; ')}`);
    console.log(`wrote ${path.relative(repo, file)}`);
    await context.close();
  }
  const SIZES = [
    { name: 'desktop-1280x800', width: 1280, height: 800, extra: '' },
    { name: 'column-720x480', width: 720, height: 480, extra: '' },
    { name: 'embed-400x300', width: 400, height: 300, extra: '&embed=1' },
    { name: 'phone-390x844', width: 390, height: 844, extra: '', phone: true },
  ];
  fs.mkdirSync(path.join(repo, 'docs', 'sizes'), { recursive: true });
  const LIGHT = views;
  const shots = [];
  for (const size of SIZES) {
    for (const name of views) shots.push({ size, name, theme: 'dark' });
    for (const name of LIGHT) shots.push({ size, name, theme: 'light' });
  }
  const MODEL_SHOTS = [
    { name: 'llama4-scout', paste: llama4 },
    { name: 'qwen2-vl', paste: qwen2vl, state: 'mrope_positions=image' },
    { name: 'gpt-oss-20b', query: 'model=gpt-oss-20b' },
    { name: 'qwen3.6-35b-a3b', query: 'model=qwen3.6-35b-a3b' },
    { name: 'gemma-4-31b', query: 'model=gemma-4-31b' },
    { name: 'deepseek-v4-flash', query: 'model=deepseek-v4-flash' },
    { name: 'compare-llama-3.1-8b-qwen2-7b', query: 'model=llama-3.1-8b&compare=qwen2-7b' },
    { name: 'assumed', paste: assumedConfig },
  ];
  // The scores view with a model layer: gpt-oss-20b layer 0, its sliding window of 128 and the sink column.
  const LAYER_SHOT = { view: 'scores', state: 'model=gpt-oss-20b&layer=0&n=200' };
  for (const size of SIZES) {
    // POSENC_VIEWS names the model shots it wants too (model-<name>): without that, POSENC_VIEWS=usage went on
    // to redraw every model shot (64 pages) after the usage view's.
    for (const shot of MODEL_SHOTS.filter((m) => (!modelNames || modelNames.includes(m.name)) &&
                                            (modelsOnly || !only || only.includes(`model-${m.name}`))))
      for (const theme of ['dark', 'light']) shots.push({ size, name: `model-${shot.name}`, theme, shot });
    if (!modelsOnly && (!only || only.includes('scores-layer')))
      for (const theme of ['dark', 'light']) shots.push({ size, name: 'scores-layer', theme, layer: LAYER_SHOT });
  }
  for (const { size, name, theme, shot, layer } of shots) {
    // A small embed shows one figure: the strip.
    const query = shot ? `view=${shot.paste ? 'model' : 'model&' + shot.query}&theme=${theme}${size.extra}${size.extra ? '&figure=layers' : ''}`
      : layer ? `view=${layer.view}&${layer.state}&theme=${theme}${size.extra}`
      : `view=${name}${STATES[name] ? '&' + STATES[name] : ''}&theme=${theme}${size.extra}`;
    const context = await browser.newContext({
      viewport: { width: size.width, height: size.height }, deviceScaleFactor: size.phone ? 3 : 1,
      isMobile: !!size.phone, hasTouch: !!size.phone,
    });
    const page = await context.newPage();
    const errors = [];
    page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
    await page.goto(`${server.url}/?${query}`);
    await waitReady(page);
    await waitFrames(page, 3);
    if (shot?.paste) await pasteConfig(page, shot.paste);
    // A pasted model starts a fresh Model view: its state (and a small embed's figure) is set after it.
    const after = [shot?.state, shot?.paste && size.extra ? 'figure=layers' : ''].filter(Boolean).join('&');
    if (after) {
      await page.evaluate((q) => window.posenc.setState(Object.fromEntries(new URLSearchParams(q))), after);
      await waitFrames(page, 3);
    }
    await page.mouse.move(0, 0);
    await waitFrames(page, 2);
    const file = path.join(repo, 'docs', 'sizes', `${size.name}-${name}${theme === 'light' ? '-light' : ''}.png`);
    await page.screenshot({ path: file });
    if (errors.length) throw new Error(`${size.name} ${name}: console errors: ${errors.join('; ')}`);
    console.log(`wrote ${path.relative(repo, file)}`);
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
