// The page around the explorer (index.html, built from shell.html): loads the wasm module (at once, or
// for an embed when it scrolls into view), mirrors the app's state into the address bar, carries out
// the UI's actions (clipboard, downloads), talks to a parent page when embedded, and offers window.posenc,
// the API embedders and the browser tests use. The C++ side is src/platform/web_runner.cpp.
(function () {
  'use strict';
  var statusEl = document.getElementById('status');
  var posterEl = document.getElementById('poster');
  var toastEl = document.getElementById('toast');
  var canvas = document.getElementById('canvas');
  var posterImg = document.getElementById('poster-img');
  var describeEl = document.getElementById('describe');
  var readoutEl = document.getElementById('readout');
  var viewsNav = document.getElementById('views');
  var params = new URLSearchParams(window.location.search);
  var embedded = params.get('embed') === '1' || params.get('embed') === 'true';
  var inFrame = window.parent !== window;
  var lastPoster = null, contextLost = false, visibleNow = !embedded;
  var posterKey = 'posenc:poster:' + window.location.search;
  var resolveReady, rejectReady, started = false, alive = false, lastHeight = 0;
  var ready = new Promise(function (res, rej) { resolveReady = res; rejectReady = rej; });
  var darkQuery = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;

  function fail(message) {
    statusEl.textContent = 'posenc failed to start: ' + message;
    statusEl.className = 'error';
    rejectReady(new Error(message));
  }
  function toast(text) {
    toastEl.textContent = text;
    toastEl.className = 'shown';
    setTimeout(function () { toastEl.className = ''; }, 1800);
  }
  function call(name, ret, args, vals) { return Module.ccall(name, ret, args, vals); }
  function post(message) { if (inFrame) window.parent.postMessage(message, '*'); }
  function stateQuery() { return call('posenc_get_state', 'string', [], []); }
  function parseQuery(q) { var out = {}; new URLSearchParams(q).forEach(function (v, k) { out[k] = v; }); return out; }
  function pageTheme() { document.body.className = call('posenc_is_dark', 'number', [], []) ? '' : 'light'; }

  function linkUrl() {
    var q = new URLSearchParams(stateQuery());
    q.delete('embed'); q.delete('controls');
    return window.location.origin + window.location.pathname + '?' + q.toString();
  }
  // The README's snippet, with the script that lets each embed size its iframe.
  function embedCode() {
    var h = Math.max(320, call('posenc_preferred_height', 'number', [], []));
    var state = parseQuery(stateQuery());
    var q = new URLSearchParams();
    q.set('view', state.view || 'waves');
    Object.keys(state).forEach(function (k) {
      if (k !== 'view' && k !== 'embed') q.set(k, state[k]);  // TODO: only non-default keys (needs a fresh view's defaults)
    });
    q.set('embed', '1');
    var src = window.location.origin + window.location.pathname + '?' + q.toString();
    var title = 'posenc: ' + call('posenc_view_title', 'string', [], []);
    var esc = function (t) { return t.replace(/&/g, '&amp;').replace(/"/g, '&quot;'); };
    return '<iframe src="' + esc(src) + '" width="100%" height="' + h + '" title="' + esc(title) +
      '" aria-label="' + esc(title) + ' (interactive)" loading="lazy" style="border:0"></iframe>\n' +
      '<script>\n' +
      '  // Optional: let each embed size its iframe to its content.\n' +
      "  addEventListener('message', (e) => {\n" +
      "    if (e.data?.type !== 'posenc:height') return;\n" +
      "    for (const f of document.querySelectorAll('iframe'))\n" +
      "      if (f.contentWindow === e.source) f.style.height = e.data.height + 'px';\n" +
      '  });\n' +
      '</scr' + 'ipt>';
  }
  function copy(text, what) {
    var done = function () { toast(what + ' copied'); };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(done, function () { fallbackCopy(text); done(); });
    } else { fallbackCopy(text); done(); }
    window.posenc.lastCopied = text;
  }
  function fallbackCopy(text) {
    var ta = document.createElement('textarea');
    ta.value = text; document.body.appendChild(ta); ta.select();
    try { document.execCommand('copy'); } catch (e) { /* nothing else to try */ }
    ta.remove();
  }
  function download(name, blob) {
    var a = document.createElement('a');
    a.href = URL.createObjectURL(blob); a.download = name;
    document.body.appendChild(a); a.click(); a.remove();
    setTimeout(function () { URL.revokeObjectURL(a.href); }, 1000);
  }
  // The poster: a picture of the view (alt text names it) behind the "click to load" note.
  function showPosterImage(url, alt) {
    if (!url) return;
    posterImg.src = url;
    posterImg.alt = alt || 'posenc figure';
    posterImg.hidden = false;
  }
  function sq(name) { return alive && Module['_' + name] ? call(name, 'string', [], []) : ''; }
  // Words for assistive technology: the view's title, its formula, parameters and the numbers that matter
  // (from the app's posenc_describe when it has one), and what the notices say. Read by a live region.
  function describe() {
    if (!alive) return null;
    var d = null;
    if (Module._posenc_describe) { try { d = JSON.parse(call('posenc_describe', 'string', [], [])); } catch (e) { d = null; } }
    if (!d) {
      var st = window.posenc.getState(), ps = {};
      Object.keys(st).forEach(function (k) { if (['view', 'embed', 'controls', 'theme'].indexOf(k) < 0) ps[k] = st[k]; });
      d = { title: sq('posenc_view_title'), formula: sq('posenc_view_caption'), params: ps, numbers: [] };
    }
    return d;
  }
  function describeText(d) {
    if (!d) return '';
    var parts = [d.title ? d.title + '.' : ''];
    if (d.formula) parts.push('Formula: ' + d.formula + '.');
    var ps = d.params || {};
    var pk = Array.isArray(ps) ? ps.map(function (p) { return p.name + ' ' + p.value; }) : Object.keys(ps).map(function (k) { return k + ' = ' + ps[k]; });
    if (pk.length) parts.push('Parameters: ' + pk.join(', ') + '.');
    var ns = (d.numbers || []).map(function (n) { return n.name + ': ' + n.value; });
    if (ns.length) parts.push(ns.join('; ') + '.');
    var notes = alive ? window.posenc.notices() : '';
    if (notes) parts.push('Notices: ' + notes);
    return parts.filter(Boolean).join(' ');
  }
  function updateDescription() {
    if (!alive) return;
    var d = describe();
    var text = describeText(d);
    if (describeEl.textContent !== text) describeEl.textContent = text;
    var label = 'posenc figure: ' + (d && d.title ? d.title : 'explorer') + (d && d.formula ? ' (' + d.formula + ')' : '');
    if (canvas.getAttribute('aria-label') !== label) canvas.setAttribute('aria-label', label);
  }
  // The views as real links (keyboard reachable, for readers who never see the canvas); not in embeds.
  function buildViewLinks() {
    if (embedded) { viewsNav.hidden = true; return; }
    var ul = viewsNav.querySelector('ul');
    ul.textContent = '';
    var current = window.posenc.getState().view;
    window.posenc.views().forEach(function (id) {
      var li = document.createElement('li'), a = document.createElement('a');
      a.href = '?view=' + encodeURIComponent(id);
      a.textContent = id;
      if (id === current) a.setAttribute('aria-current', 'page');
      li.appendChild(a); ul.appendChild(li);
    });
  }
  function viewId() { return parseQuery(stateQuery()).view || 'view'; }
  function exportData(format) { return call('posenc_export', 'string', ['string'], [format]); }

  // An embed tells its parent how tall its content wants to be, whenever that changes.
  function postHeight() {
    if (!inFrame) return;
    var h = alive ? Module._posenc_preferred_height() : 480;
    if (h > 0 && h !== lastHeight) { lastHeight = h; post({ type: 'posenc:height', height: h }); }
  }

  window.Module = {
    canvas: canvas,
    arguments: window.location.search ? ['--state', window.location.search.slice(1)] : [],
    print: function (t) { console.log(t); },
    printErr: function (t) { console.warn(t); },
    onAbort: function (what) { fail(String(what)); },
    onFirstFrame: function () {
      alive = true;  // exported functions may be called from now on
      if (Module._posenc_set_page_scrolls) Module._posenc_set_page_scrolls(inFrame ? 1 : 0);
      statusEl.className = 'hidden';
      posterEl.className = '';
      pageTheme();
      buildViewLinks();
      updateDescription();
      resolveReady();
      postHeight();
    },
    // The app changed its state through the UI: mirror it into the address bar without reloading.
    onStateChange: function () {
      var q = stateQuery();
      history.replaceState(null, '', '?' + q);
      pageTheme();
      post({ type: 'posenc:state', state: parseQuery(q) });
      postHeight();
      updateDescription();
    },
    // The app stopped drawing (nothing changes any more); we are still inside its last frame, so the
    // canvas can be kept: an embed's poster of its current state, ready if it must give its context back.
    onSettled: function () {
      updateDescription();
      scheduleReadout();
      if (!embedded || contextLost) return;
      try { lastPoster = canvas.toDataURL('image/png'); } catch (e) { lastPoster = null; }
      if (lastPoster) {
        try { sessionStorage.setItem('posenc:poster:?' + stateQuery(), lastPoster); } catch (e) { /* too large */ }
        showPosterImage(lastPoster, canvas.getAttribute('aria-label'));
      }
    },
    onAction: function (name) {
      if (name === 'copy-link') copy(linkUrl(), 'Link');
      else if (name === 'copy-embed') copy(embedCode(), 'Embed code');
      else if (name === 'export-csv') download('posenc-' + viewId() + '.csv', new Blob([exportData('csv')], { type: 'text/csv' }));
      else if (name === 'export-json') download('posenc-' + viewId() + '.json', new Blob([exportData('json')], { type: 'application/json' }));
    },
    // Called right after a chrome-less frame was drawn, before the browser composites it.
    onCapture: function () {
      var url = canvas.toDataURL('image/png');
      window.posenc.lastCapture = url;
      if (!window.posenc.quietCapture) {
        canvas.toBlob(function (blob) { if (blob) download('posenc-' + viewId() + '.png', blob); }, 'image/png');
      }
    }
  };

  // The page's API, used by embedders and by the browser tests.
  window.posenc = {
    ready: ready,
    frameCount: function () { return alive ? Module._posenc_frame_count() : 0; },
    // Draw again (the app draws only on change; input, setState and resizes wake it by themselves).
    wake: function () { if (alive) Module._posenc_wake(); },
    // The text the live region reads (title, formula, parameters, numbers), and its parts.
    description: function () { updateDescription(); return describeEl.textContent; },
    describe: describe,
    getState: function () { return parseQuery(stateQuery()); },
    setState: function (partial) {
      var current = this.getState();
      partial = partial || {};
      // Switching views keeps only the app-level keys: the old view's parameters mean nothing to the new one.
      if (partial.view && partial.view !== current.view) {
        current = { embed: current.embed, controls: current.controls, theme: current.theme };
        Object.keys(current).forEach(function (k) { if (current[k] === undefined) delete current[k]; });
      }
      var merged = Object.assign(current, partial);
      call('posenc_set_state', null, ['string'], [new URLSearchParams(merged).toString()]);
      Module.onStateChange();
    },
    notices: function () { return call('posenc_notices', 'string', [], []); },
    // The same, structured: [{key, message}], one entry per URL key.
    noticeList: function () { return JSON.parse(call('posenc_notice_list', 'string', [], []) || '[]'); },
    // Every view id in menu order.
    views: function () { return (call('posenc_view_ids', 'string', [], []) || '').split(',').filter(Boolean); },
    linkUrl: linkUrl,
    embedCode: embedCode,
    exportData: exportData,
    loadModel: function (data) { var b = typeof data === 'string' ? new TextEncoder().encode(data) : new Uint8Array(data); var p = Module._posenc_model_buffer(b.length); if (p) Module.HEAPU8.set(b, p); window.posenc.setState(parseQuery(Module.UTF8ToString(Module._posenc_load_model(p, b.length)))); return window.posenc.noticeList(); },
    // PNG of the current view (chrome-less, at canvas size x devicePixelRatio) as a data: URL.
    exportPng: function () {
      return new Promise(function (resolve) {
        window.posenc.quietCapture = true;
        var before = window.posenc.lastCapture;
        call('posenc_request_capture', null, [], []);
        (function wait() {
          if (window.posenc.lastCapture && window.posenc.lastCapture !== before) {
            window.posenc.quietCapture = false; resolve(window.posenc.lastCapture);
          } else requestAnimationFrame(wait);
        })();
      });
    },
    // Rectangle of a named UI item in page CSS pixels: {x, y, width, height}, or null.
    itemRect: function (name) {
      var s = call('posenc_item_rect', 'string', ['string'], [name]);
      if (!s) return null;
      var p = s.split(',').map(Number), r = canvas.getBoundingClientRect();
      return { x: r.left + p[0], y: r.top + p[1], width: p[2], height: p[3] };
    },
    // The key of the focused slider (the one the arrow keys step: last clicked, dragged or entered), or "".
    focusedSlider: function () { return alive ? call('posenc_focused_slider', 'string', [], []) : ''; },
    // The hover readout of the last frame (what its tooltip says; "" if none), lines joined by "\n".
    readout: readoutText,
    // The visible part of a zoomable plot (heatmap.<name> or plot.<figure>) as fractions of the whole
    // matrix: {x, y, width, height} in [0, 1] ({0, 0, 1, 1} unzoomed), or null if it was not drawn.
    zoom: function (name) {
      var s = call('posenc_zoom', 'string', ['string'], [name]);
      if (!s) return null;
      var p = s.split(',').map(Number);
      return { x: p[0], y: p[1], width: p[2], height: p[3] };
    },
    probes: function () { return (call('posenc_probe_names', 'string', [], []) || '').split(',').filter(Boolean); },
    started: function () { return started; }
  };

  function start() {
    if (started) return;
    started = true;
    if (!document.createElement('canvas').getContext('webgl2')) { fail('this browser has no WebGL2.'); return; }
    // With the poster still up, its note says we are loading (not the status drawn over it).
    if (posterEl.className === 'shown') posterEl.querySelector('span').textContent = 'Loading posenc…';
    else statusEl.className = '';
    var tmpl = document.getElementById('posenc-loader').content.querySelector('script');
    var s = document.createElement('script');
    s.src = tmpl.getAttribute('src');
    s.async = true;
    s.onerror = function () { fail('could not load ' + s.src); };
    document.body.appendChild(s);
  }

  // Keyboard input: SDL reads keys from the canvas, but its mousedown handler prevents the default
  // (so a click would not focus it). Focus it ourselves on any press; Tab reaches it (tabindex=0).
  ['pointerdown', 'touchstart'].forEach(function (type) {
    canvas.addEventListener(type, function () { if (document.activeElement !== canvas) canvas.focus({ preventScroll: true }); },
      { capture: true, passive: true });
  });
  // Touch (README, "Input"): the app decides per gesture whether a touch is its own (it starts on a
  // zoomable plot, or turns into a sideways drag, a long-press, a two-finger pinch on a plot); only then
  // is the event's default (the page's scroll or zoom) prevented, so the page around an embed still
  // scrolls under a vertical swipe. Inside an iframe the page scrolls vertically (pan-y); the app's own
  // page does not scroll, so there a vertical swipe scrolls the app's panel under the finger.
  canvas.style.touchAction = inFrame ? 'pan-y pinch-zoom' : 'pinch-zoom';
  [['touchstart', 0], ['touchmove', 1], ['touchend', 2], ['touchcancel', 3]].forEach(function (p) {
    canvas.addEventListener(p[0], function (e) {
      if (!alive || !Module._posenc_touch) return;
      var r = canvas.getBoundingClientRect(), own = false;
      for (var i = 0; i < e.changedTouches.length; ++i) {
        var t = e.changedTouches[i];
        own = Module._posenc_touch(p[1], t.identifier, t.clientX - r.left, t.clientY - r.top, e.cancelable ? 1 : 0, e.timeStamp) !== 0 || own;
      }
      if (own && e.cancelable) e.preventDefault();
    }, { passive: false });
  });
  // The hover readout (the tooltip's text, from a mouse resting on a plot or a long-press) mirrored into
  // its own polite live region once it has rested 300 ms: never every frame, and the description of the
  // view beside it stays as it is.
  var readoutTimer = null;
  function readoutText() { return alive && Module._posenc_hover_readout ? call('posenc_hover_readout', 'string', [], []) : ''; }
  function scheduleReadout() {
    clearTimeout(readoutTimer);
    readoutTimer = setTimeout(function () {
      var text = readoutText().replace(/\n/g, '; ');
      if (readoutEl.textContent !== text) readoutEl.textContent = text;
    }, 300);
  }

  // A lost WebGL context: stop drawing, show the last poster, and when the browser gives the context
  // back, reload into the same state (a fresh module re-creates every texture, shader and the font atlas).
  canvas.addEventListener('webglcontextlost', function (e) {
    e.preventDefault();
    contextLost = true;
    if (alive && Module._posenc_set_paused) Module._posenc_set_paused(1);
    statusEl.textContent = 'the WebGL context was lost; restoring…';
    statusEl.className = '';
    if (lastPoster) { showPosterImage(lastPoster, canvas.getAttribute('aria-label')); posterEl.className = 'shown'; }
    // A context the browser took away for good (too many on the page) is never restored: reload when
    // visible (an off-screen embed does so when it scrolls back, see below).
    setTimeout(function () { if (contextLost && (!embedded || visibleNow)) reloadInState(); }, 3000);
  });
  canvas.addEventListener('webglcontextrestored', reloadInState);
  function reloadInState() {
    if (alive) history.replaceState(null, '', '?' + stateQuery());
    window.location.reload();
  }
  // The wheel reaches the app only where it is used (a zoomable map, a scrolling panel); elsewhere
  // the page keeps scrolling, so an embedded view never traps the reader's scroll.
  document.getElementById('stage').addEventListener('wheel', function (e) {
    if (!alive || !Module._posenc_wants_wheel()) e.stopPropagation();
  }, { capture: true, passive: true });
  if (darkQuery && darkQuery.addEventListener) darkQuery.addEventListener('change', function (e) {
    if (alive) { Module._posenc_set_system_dark(e.matches ? 1 : 0); setTimeout(pageTheme, 50); }
  });
  // The parent page may drive an embed.
  window.addEventListener('message', function (e) {
    var m = e.data;
    if (!m || m.type !== 'posenc:setState' || typeof m.state !== 'object') return;
    ready.then(function () { window.posenc.setState(m.state); });
    if (!started) start();
  });
  setInterval(postHeight, 250);

  if (!embedded || !('IntersectionObserver' in window)) {
    start();
  } else {
    // Many embeds on one page: each starts (and takes a WebGL context) only when it scrolls into
    // view, shows a poster until then, and gives its context back after a while off-screen.
    if (params.get('theme') === 'light' || (params.get('theme') !== 'dark' && darkQuery && !darkQuery.matches)) document.body.className = 'light';
    var saved = null;
    try { saved = sessionStorage.getItem(posterKey); } catch (e) { /* storage may be blocked */ }
    if (saved) showPosterImage(saved, 'posenc figure (picture of the last state; click to load the interactive view)');
    posterEl.className = 'shown';
    statusEl.className = 'hidden';
    posterEl.addEventListener('click', start);
    postHeight();
    var offscreenTimer = null;
    new IntersectionObserver(function (entries) {
      var visible = entries.some(function (en) { return en.isIntersecting; });
      visibleNow = visible;
      if (visible && contextLost) reloadInState();
      else if (visible) {
        clearTimeout(offscreenTimer);
        start();
      } else if (started) {
        clearTimeout(offscreenTimer);
        offscreenTimer = setTimeout(function () {
          // The poster of the current state was kept when it settled (no frame needed: Chrome sends no
          // animation frames to an off-screen cross-origin iframe); reload into poster mode, which
          // releases the WebGL context.
          if (alive) history.replaceState(null, '', '?' + stateQuery());
          window.location.reload();
        }, 20000);
      }
    }).observe(document.documentElement);
  }
})();
