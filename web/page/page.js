// The page's elements, what it was loaded with, the state the other modules share, and how it fails.
export const statusEl = document.getElementById('status');
export const posterEl = document.getElementById('poster');
export const canvas = document.getElementById('canvas');
export const describeEl = document.getElementById('describe');
export const readoutEl = document.getElementById('readout');
export const viewsNav = document.getElementById('views');
export const modelFile = document.getElementById('model-file');
const toastEl = document.getElementById('toast');
const posterImg = document.getElementById('poster-img');
export const params = new URLSearchParams(window.location.search);
export const embedded = params.get('embed') === '1' || params.get('embed') === 'true';
export const inFrame = window.parent !== window;
export const posterKey = 'posenc:poster:' + window.location.search;
export const darkQuery = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;
// alive: the app runs its frames (exported functions may be called); started: the module is loading or
// runs; releasing: the page is reloading to give its context back; visibleNow: an embed is in view.
export const page = { alive: false, started: false, contextLost: false, visibleNow: !embedded, releasing: false,
  lastPoster: null };
let resolveReadyFn, rejectReadyFn;
export const ready = new Promise(function (res, rej) { resolveReadyFn = res; rejectReadyFn = rej; });
export function resolveReady() { resolveReadyFn(); }

// WebGL2 is checked only when something failed, with a throwaway context given back at once: a
// page's first WebGL context starts the GPU side (0.2-1.5 s in headless Chromium), and a probe before
// the app's own context cost the first frame ~120 ms (bench/startup.mjs, side by side).
function hasWebGL2() {
  const probe = document.createElement('canvas').getContext('webgl2');
  const lose = probe && probe.getExtension('WEBGL_lose_context');
  if (lose) lose.loseContext();
  return !!probe;
}
let failed = false;
export function fail(message) {
  if (failed) return;  // the first cause is the one to read
  failed = true;
  if (!hasWebGL2()) message = 'this browser has no WebGL2.';
  statusEl.textContent = 'posenc failed to start: ' + message;
  statusEl.className = 'error';
  rejectReadyFn(new Error(message));
}
// Shown long enough to read: 1.8 s, and 50 ms for each character past 40 (a warning is a sentence).
let toastTimer = null;
export function toast(text) {
  toastEl.textContent = text;
  toastEl.className = 'shown';
  clearTimeout(toastTimer);
  toastTimer = setTimeout(function () { toastEl.className = ''; }, 1800 + 50 * Math.max(0, text.length - 40));
}
export function post(message) { if (inFrame) window.parent.postMessage(message, '*'); }
// The poster: a picture of the view (alt text names it) behind the "click to load" note.
export function showPosterImage(url, alt) {
  if (!url) return;
  posterImg.src = url;
  posterImg.alt = alt || 'posenc figure';
  posterImg.hidden = false;
}
