// The loader: Emscripten's Module (how the app talks to the page: frames, state changes, the UI's
// actions), starting posenc.js and posenc.wasm, and the page's theme.
import { page, statusEl, posterEl, canvas, embedded, inFrame, darkQuery, fail, resolveReady, post,
  showPosterImage } from './page.js';
import { cappedQuery, setStateQuery, stateQuery, parseQuery, pageTheme, viewId } from './abi.js';
import { download, share, onSvg } from './share.js';
import { openModelFile, updateModelFileButtons } from './model-files.js';
import { followUsage, openWeightsPicker, updateWeightsButtons } from './weights.js';
import { updateDescription, buildParamForm, buildViewLinks, scheduleReadout } from './describe.js';
import { updateTouchClaims } from './touch.js';
import { postHeight, report } from './contexts.js';
import { t, followLang, installLanguageStart } from './lang.js';

const urlQuery = window.location.search.slice(1), URL_ARGUMENT_MAX = 64 << 10;
export function installModule() {
  window.Module = {
    canvas: canvas,
    // The page reads the canvas when the app settles (onSettled keeps an embed's poster): the app then
    // draws its settling frame, which equals the frame the canvas shows and is otherwise left out.
    readsSettledCanvas: embedded,
    // The URL's state (a long one is set after the start, through the heap: argv is copied onto the stack).
    arguments: urlQuery && urlQuery.length <= URL_ARGUMENT_MAX ? ['--state', urlQuery] : [],
    // posenc.wasm compiled while the page loaded (index.html's head started it; an embed's start() does),
    // instantiated here with the runtime's imports: Emscripten's own fetch would start only once posenc.js ran.
    instantiateWasm: function (imports, receiveInstance) {
      compileWasm().then(function (module) {
        return WebAssembly.instantiate(module, imports).then(function (instance) { receiveInstance(instance, module); });
      }).catch(function (e) { fail('could not load posenc.wasm: ' + (e && e.message ? e.message : e)); });
      return {};
    },
    print: function (t) { console.log(t); },
    printErr: function (t) { console.warn(t); },
    onAbort: function (what) { fail(String(what)); },
    onStartFailure: function (what) { fail(what); },  // e.g. no GL context (fail() then names WebGL2)
    onFirstFrame: function () {
      page.alive = true;  // exported functions may be called from now on
      if (urlQuery.length > URL_ARGUMENT_MAX) setStateQuery(cappedQuery(parseQuery(urlQuery)));
      if (window.performance && performance.mark) performance.mark('posenc:ready');  // bench/startup.mjs
      // An embed in another page: one finger scrolls that page, two move a map (touch.js, docs/input.md).
      if (Module._posenc_set_page_scrolls) Module._posenc_set_page_scrolls(inFrame ? (embedded ? 2 : 1) : 0);
      // A touch screen: targets a finger can hit from the first tap (docs/input.md).
      if (Module._posenc_set_coarse_pointer && window.matchMedia) {
        Module._posenc_set_coarse_pointer(matchMedia('(pointer: coarse)').matches || matchMedia('(hover: none)').matches ? 1 : 0);
      }
      statusEl.className = 'hidden';
      posterEl.className = '';
      pageTheme();
      buildViewLinks();
      buildParamForm();
      updateModelFileButtons();
      updateWeightsButtons();
      followUsage();
      updateDescription();
      updateTouchClaims();
      resolveReady();
      postHeight();
    },
    // The app changed its state through the UI: mirror it into the address bar without reloading.
    // dragging: a slider is held; the description (which asks the view for its exact numbers, a double
    // computation that can take longer than a frame at full size) then waits for onSettled.
    onStateChange: function (dragging) {
      const q = stateQuery();
      history.replaceState(null, '', '?' + q);
      followLang(parseQuery(q).lang);
      pageTheme();
      updateModelFileButtons();
      updateWeightsButtons();
      followUsage();
      post({ type: 'posenc:state', state: parseQuery(q) });
      postHeight();
      if (!dragging) updateDescription();
      buildViewLinks();
    },
    // The app stopped drawing (nothing changes any more); we are still inside its last frame, so the
    // canvas can be kept: an embed's poster of its current state, ready if it must give its context back.
    onSettled: function () {
      updateTouchClaims();
      updateDescription();
      buildViewLinks();  // the titles follow a language whose catalogue just arrived
      postHeight();
      scheduleReadout();
      if (!embedded || page.contextLost) return;
      try { page.lastPoster = canvas.toDataURL('image/png'); } catch (e) { page.lastPoster = null; }
      if (page.lastPoster) {
        try { sessionStorage.setItem('posenc:poster:?' + stateQuery(), page.lastPoster); } catch (e) { /* too large */ }
        showPosterImage(page.lastPoster, canvas.getAttribute('aria-label'));
      }
    },
    // The Share menu's items (the app already asked itself for the PNG or SVG frame: onCapture, onSvg).
    onAction: function (name) {
      if (name === 'open-model-file' || name === 'open-compare-file') openModelFile(name === 'open-compare-file');
      else if (name === 'open-weights-folder' || name === 'open-weights-files') openWeightsPicker(name === 'open-weights-folder');
      else if (name !== 'export-png' && name !== 'export-svg') share(name);
    },
    // The SVG export's frame is ready (share.js: the pictures become PNGs, then the document is handed on).
    onSvg: onSvg,
    // Called right after a chrome-less frame was drawn, before the browser composites it.
    onCapture: function () {
      const url = canvas.toDataURL('image/png');
      window.posenc.lastCapture = url;
      if (!window.posenc.quietCapture) {
        canvas.toBlob(function (blob) { if (blob) download('posenc-' + viewId() + '.png', blob); }, 'image/png');
      }
    }
  };
  installLanguageStart();  // adds to the Module's start: the Chinese files for lang=zh or CJK text in the URL
}

export function start() {
  if (page.started) return;
  page.started = true;
  report();
  // With the poster still up, its note says we are loading (not the status drawn over it).
  if (posterEl.className === 'shown') posterEl.querySelector('span').textContent = t('Loading posenc…');
  else statusEl.className = '';
  const tmpl = document.getElementById('posenc-loader').content.querySelector('script');
  // posenc.js would only ask for posenc.wasm once it has run: compile it meanwhile (at once for a page
  // whose head has not already started it: an embed).
  compileWasm();
  const s = document.createElement('script');
  s.src = tmpl.getAttribute('src');
  s.async = true;
  s.onerror = function () { fail('could not load ' + s.src); };
  document.body.appendChild(s);
}

// posenc.wasm fetched and compiled (shell.html's posencCompileWasm: streaming where the server says
// application/wasm), once per page: the head's start, or this one.
function compileWasm() {
  if (!window.posencWasm) {
    window.posencWasm = window.posencCompileWasm(new URL('posenc.wasm', window.location.href).href);
    window.posencWasm.catch(function () { /* named when it is instantiated */ });
  }
  return window.posencWasm;
}

// The system's colour scheme changed: the app is told (posenc_set_system_dark), then the page's own theme follows.
export function installSystemTheme() {
  if (darkQuery && darkQuery.addEventListener) darkQuery.addEventListener('change', function (e) {
    if (page.alive) { Module._posenc_set_system_dark(e.matches ? 1 : 0); setTimeout(pageTheme, 50); }
  });
}
