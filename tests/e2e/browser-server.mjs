// One headless Chromium for a whole e2e run (scripts/test): launched with harness.mjs's CHROMIUM_ARGS, it
// prints its endpoint on the first line of stdout and serves until it gets SIGTERM or SIGINT. Each test
// file's launchBrowser() connects to it when POSENC_E2E_BROWSER holds that endpoint (one browser process
// instead of one per file; every file still gets its own browser contexts and pages).
//   node tests/e2e/browser-server.mjs
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from './harness.mjs';

const server = await chromium.launchServer({
  executablePath: CHROMIUM,
  args: CHROMIUM_ARGS,
  headless: true,
});
process.stdout.write(server.wsEndpoint() + '\n');
const stop = async () => { await server.close(); process.exit(0); };
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
