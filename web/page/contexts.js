// The embed and the page around it: the height it asks for, the state a parent may set, the poster of an
// embed not yet started, and the page's bound of live WebGL contexts (lost, restored, given back).
import { page, statusEl, posterEl, canvas, params, embedded, inFrame, posterKey, darkQuery, ready, post,
  showPosterImage } from './page.js';
import { stateQuery } from './abi.js';
import { t } from './lang.js';

// An embed tells its parent how tall its content wants to be, whenever that changes.
// (Called after every frame sequence settles and on every state change: the height changes only in a
// frame. A poster asks nothing: the iframe keeps the height the page gave it.)
let lastHeight = 0;
export function postHeight() {
  if (!inFrame || !page.alive) return;
  const h = Module._posenc_preferred_height();
  if (h > 0 && h !== lastHeight) { lastHeight = h; post({ type: 'posenc:height', height: h }); }
}

// A lost WebGL context: stop drawing, show the last poster, and when the browser gives the context
// back, reload into the same state (a fresh module re-creates every texture, shader and the font atlas).
export function installContextLoss() {
  canvas.addEventListener('webglcontextlost', function (e) {
    e.preventDefault();
    page.contextLost = true;
    if (page.alive && Module._posenc_set_paused) Module._posenc_set_paused(1);
    statusEl.textContent = 'the WebGL context was lost; restoring…';
    statusEl.className = '';
    if (page.lastPoster) { showPosterImage(page.lastPoster, canvas.getAttribute('aria-label')); posterEl.className = 'shown'; }
    // A context the browser took away for good (too many on the page) is never restored: reload when
    // visible (an off-screen embed does so when it scrolls back, see below).
    setTimeout(function () { if (page.contextLost && (!embedded || page.visibleNow)) reloadInState(); }, 3000);
  });
  canvas.addEventListener('webglcontextrestored', reloadInState);
}
function reloadInState() {
  if (page.alive) history.replaceState(null, '', '?' + stateQuery());
  page.releasing = true;
  window.location.reload();
}

// ---------------------------------------------------------------- live WebGL contexts
// Browsers cap the live WebGL contexts of a page (Chrome: 16, then the oldest is lost), so a page of
// embeds keeps a bound of its own. With the embed code's page script present (the coordinator, see
// embed.js) an embed takes a context only when the page grants one (at most 6 live)
// and gives it back when asked. Without it, an embed gives its context back as soon as it has been out
// of view for RELEASE_MS. Giving it back = reloading into poster mode in the same state: the URL holds
// the state and the poster of that state was kept when it settled, so no frame is needed (Chrome sends
// no animation frames to an off-screen cross-origin iframe).
const RELEASE_MS = 500, COORDINATOR_WAIT_MS = 300;
const docId = Math.random().toString(36).slice(2) + Date.now().toString(36);
// startWanted: the parent set a state before the embed started (it wants a context though not in view).
// Starts the module (loader.js's start, handed in by main.js: loader.js reports through this file).
let startApp = null;
let coordinated = false, granted = false, startWanted = false, helloAt = 0, startTimer = null, releaseTimer = null;
export function report() {
  if (!embedded || !inFrame || page.releasing) return;
  post({ type: 'posenc:context', doc: docId, visible: page.visibleNow, live: page.started || granted,
         want: (page.visibleNow || startWanted) && !page.started && !granted });
}
// Whether this page holds (or is creating) a WebGL context and how it is coordinated (window.posenc).
export function contextInfo() {
  return { live: page.started && !page.releasing, coordinated: coordinated, doc: docId, visible: page.visibleNow };
}
function release() {
  if (!page.started || page.releasing || page.visibleNow) return;
  reloadInState();
}
// The embed is in view (or was clicked): take a context now, or ask the page for one.
function requestContext() {
  if (page.started) return;
  clearTimeout(startTimer);
  if (coordinated) { report(); return; }
  const waited = performance.now() - helloAt;
  if (inFrame && waited < COORDINATOR_WAIT_MS) {
    startTimer = setTimeout(function () { if (page.visibleNow && !coordinated) requestContext(); }, COORDINATOR_WAIT_MS - waited);
    return;
  }
  startApp();
}

export function installContexts(startModule) {
  startApp = startModule;
  // The parent page may drive an embed (setState), and coordinate its WebGL context. Only the page that
  // embeds this one: never an opener, a sibling or child frame, nor this page itself (a top-level page has
  // no parent to obey), so no other window can drive an embed or start one past the live bound.
  window.addEventListener('message', function (e) {
    const m = e.data;
    if (!inFrame || e.source !== window.parent || !m || typeof m.type !== 'string') return;
    if (m.type === 'posenc:setState' && m.state && typeof m.state === 'object') {
      ready.then(function () { window.posenc.setState(m.state); });
      // A coordinated embed asks for a context like one scrolled into view; any other starts now.
      if (!page.started && coordinated && !granted) { startWanted = true; report(); } else if (!page.started) startApp();
      return;
    }
    if (!embedded) return;
    if (m.type === 'posenc:coordinator') {
      if (!coordinated) {
        coordinated = true;
        clearTimeout(releaseTimer);
        // The page script may load after this embed spoke (embed.js is async): say it all again.
        lastHeight = 0;
        postHeight();
        if (page.visibleNow && !page.started) requestContext(); else report();
      }
    } else if (m.type === 'posenc:grant' && m.doc === docId) {
      granted = true;
      startApp();
    } else if (m.type === 'posenc:release' && m.doc === docId) {
      if (page.visibleNow) report();  // back in view meanwhile: keep it (the page then asks another embed)
      else release();
    }
  });

  if (!embedded || !('IntersectionObserver' in window)) {
    startApp();
  } else {
    // Many embeds on one page: each starts (and takes a WebGL context) only when it scrolls into
    // view and shows a poster until then.
    if (params.get('theme') === 'light' || (params.get('theme') !== 'dark' && darkQuery && !darkQuery.matches)) document.body.className = 'light';
    let saved = null;
    try { saved = sessionStorage.getItem(posterKey); } catch (e) { /* storage may be blocked */ }
    if (saved) showPosterImage(saved, t('posenc figure (picture of the last state; click to load the interactive view)'));
    posterEl.className = 'shown';
    statusEl.className = 'hidden';
    posterEl.addEventListener('click', function () { page.visibleNow = true; requestContext(); });
    helloAt = performance.now();
    report();  // hello: a coordinator on the page answers
    new IntersectionObserver(function (entries) {
      const visible = entries.some(function (en) { return en.isIntersecting; });
      page.visibleNow = visible;
      if (visible && page.contextLost) { reloadInState(); return; }
      report();
      if (visible) {
        clearTimeout(releaseTimer);
        requestContext();
      } else {
        clearTimeout(startTimer);
        if (page.started && !coordinated) {
          clearTimeout(releaseTimer);
          releaseTimer = setTimeout(release, RELEASE_MS);
        }
      }
    }).observe(document.documentElement);
  }
}
