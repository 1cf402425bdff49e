// Shared browser-test harness: a static server for build/web, Debian's Chromium through
// playwright-core, console-error capture, and PNG pixel helpers.
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

export const CHROMIUM_ARGS = [
  '--headless=new', '--no-sandbox', '--disable-gpu-sandbox', '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
];

export async function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.POSENC_CHROMIUM || '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    headless: true,
  });
}

// Opens a page and records console errors and uncaught exceptions into `errors`.
export async function openPage(browser, url, { width = 1280, height = 800, deviceScaleFactor = 1 } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  page.on('pageerror', (err) => errors.push(String(err)));
  await page.goto(url);
  return { page, context, errors };
}

// Waits for window.posenc.ready (first frame drawn); returns ms from navigation start.
export async function waitReady(page, timeout = 30000) {
  await page.waitForFunction(() => window.posenc && window.posenc.ready, null, { timeout });
  return page.evaluate(() => window.posenc.ready.then(() => performance.now()));
}

// Waits until `frames` more frames have been drawn.
export async function waitFrames(page, frames = 3) {
  const start = await page.evaluate(() => window.posenc.frameCount());
  await page.waitForFunction((target) => window.posenc.frameCount() >= target, start + frames, { timeout: 20000 });
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
