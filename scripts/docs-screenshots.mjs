// Regenerates the README/docs screenshots from the current web build:
//   node scripts/docs-screenshots.mjs   (after `cmake --build --preset web`)
// One PNG per entry below, written to docs/<name>.png.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveSite, launchBrowser, openPage, waitReady, waitFrames } from '../tests/e2e/harness.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SHOTS = [
  { name: 'waves', query: 'view=waves&n=128&d=128&base=10000&theme=dark' },
  { name: 'frequencies', query: 'view=frequencies&d=128&base=10000&n=512&theme=dark' },
  { name: 'similarity', query: 'view=similarity&scheme=sinusoidal&n=128&d=64&base=10000&pstep=24&theme=dark' },
  { name: 'buckets', query: 'view=buckets&scheme=t5&n=64&bidirectional=1&num_buckets=32&max_distance=128&seed=0&theme=dark' },
  { name: 'toy', query: 'view=toy&theta=0.5&theme=dark' },
  { name: 'scores', query: 'view=scores&scheme=sinusoidal&n=48&d=32&content=random&causal=1&theme=dark' },
  { name: 'rope', query: 'view=rope&dim=128&base=10000&scaling=yarn&factor=8&orig=4096&target=32768&pair=48&pos=20000&play=0&theme=dark' },
  { name: 'permutation', query: 'view=permutation&pe=none&shuffle=1&d=16&sentence=the%20cat%20sat%20on%20the%20mat&theme=dark' },
];

const server = await serveSite();
const browser = await launchBrowser();
try {
  for (const { name, query } of SHOTS) {
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
} finally {
  await browser.close();
  await server.close();
}
