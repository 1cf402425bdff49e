// The page around the explorer (index.html, built from shell.html): loads the wasm module (at once, or
// for an embed when it scrolls into view), mirrors the app's state into the address bar, carries out
// the UI's actions (clipboard, downloads), talks to a parent page when embedded, and offers window.posenc,
// the API embedders and the browser tests use, and keeps a page of embeds within a bound of live WebGL
// contexts (see "Live WebGL contexts" below). The C++ side is src/platform/web_api.h.
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
  var modelFile = document.getElementById('model-file');
  var params = new URLSearchParams(window.location.search);
  var embedded = params.get('embed') === '1' || params.get('embed') === 'true';
  var inFrame = window.parent !== window;
  var lastPoster = null, contextLost = false, visibleNow = !embedded, releasing = false;
  var posterKey = 'posenc:poster:' + window.location.search;
  var resolveReady, rejectReady, started = false, alive = false, lastHeight = 0;
  var ready = new Promise(function (res, rej) { resolveReady = res; rejectReady = rej; });
  var darkQuery = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;
  // The interface's language (posenc-lang.js): the page's words, <html lang>, the Chinese files on demand.
  var L = window.PosencLang || { t: function (en) { return en; }, tf: function (en, a) { return en.replace(/\{(\d)\}/g, function (m, i) { return a[i]; }); },
    installLanguageStart: function () {}, languageFor: function () { return Promise.resolve(); }, followLang: function () {} };

  // WebGL2 is checked only when something failed, with a throwaway context given back at once: a
  // page's first WebGL context starts the GPU side (0.2-1.5 s in headless Chromium), and a probe before
  // the app's own context cost the first frame ~120 ms (bench/startup.mjs, side by side).
  function hasWebGL2() {
    var probe = document.createElement('canvas').getContext('webgl2');
    var lose = probe && probe.getExtension('WEBGL_lose_context');
    if (lose) lose.loseContext();
    return !!probe;
  }
  var failed = false;
  function fail(message) {
    if (failed) return;  // the first cause is the one to read
    failed = true;
    if (!hasWebGL2()) message = 'this browser has no WebGL2.';
    statusEl.textContent = 'posenc failed to start: ' + message;
    statusEl.className = 'error';
    rejectReady(new Error(message));
  }
  function toast(text) {
    toastEl.textContent = text;
    toastEl.className = 'shown';
    setTimeout(function () { toastEl.className = ''; }, 1800);
  }
  // ccall copies a string argument onto the wasm stack (5 MiB, at 4 bytes a character): a 2 MiB string
  // overflows it and the module is dead. A long string goes through a malloc'd buffer instead.
  var STACK_STRING_MAX = 1024;
  function call(name, ret, args, vals) {
    var owned = [];
    try {
      for (var i = 0; i < args.length; ++i) {
        if (args[i] !== 'string' || typeof vals[i] !== 'string' || vals[i].length <= STACK_STRING_MAX) continue;
        var bytes = new TextEncoder().encode(vals[i]);
        var p = Module._malloc(bytes.length + 1);
        if (!p) throw new Error('posenc: no memory for a ' + bytes.length + '-byte argument of ' + name);
        owned.push(p);
        Module.HEAPU8.set(bytes, p);  // HEAPU8 after malloc: a grown memory has a new view
        Module.HEAPU8[p + bytes.length] = 0;
        if (owned.length === 1) args = args.slice(), vals = vals.slice();  // the caller's arrays stay
        args[i] = 'number';
        vals[i] = p;
      }
      return Module.ccall(name, ret, args, vals);
    } finally {
      owned.forEach(function (q) { Module._free(q); });
    }
  }
  // A state value longer than any key takes (the app's limit, App::kMaxValueBytes) is cut to one
  // character past it before it is copied into the app, which then names it in a notice: the copy is
  // bounded however long the value.
  var STATE_VALUE_MAX = 256 << 10;
  function capped(v) { v = String(v); return v.length > STATE_VALUE_MAX ? v.slice(0, STATE_VALUE_MAX + 1) : v; }
  function cappedQuery(state) {
    var out = new URLSearchParams();
    Object.keys(state).forEach(function (k) { out.append(capped(k), capped(state[k])); });
    return out.toString();
  }
  function setStateQuery(query) { call('posenc_set_state', null, ['string'], [query]); }
  function post(message) { if (inFrame) window.parent.postMessage(message, '*'); }
  function stateQuery() { return call('posenc_get_state', 'string', [], []); }
  function parseQuery(q) { var out = {}; new URLSearchParams(q).forEach(function (v, k) { out[k] = v; }); return out; }
  function pageTheme() { document.body.classList.toggle('light', !call('posenc_is_dark', 'number', [], [])); }

  // The embed code's page script is embed.js beside this page (web/embed.js, docs/embedding.md): once
  // per page, it sizes each embed to the height it asks for (posenc:height) and keeps at most 6 embeds
  // live (posenc:context / grant / release).
  function siteBase() { return window.location.origin + window.location.pathname.replace(/[^/]*$/, ''); }

  function linkUrl() {
    var q = new URLSearchParams(stateQuery());
    q.delete('embed'); q.delete('controls');
    return window.location.origin + window.location.pathname + '?' + q.toString();
  }
  // The embed code of docs/embedding.md: the iframe (only the keys that differ from a fresh view's, plus embed=1; the
  // height the embed layout needs at a 720 px column, both from the app) and the page script (embed.js).
  function embedCode() {
    var h = call('posenc_embed_height', 'number', [], []);
    var src = window.location.origin + window.location.pathname + '?' + call('posenc_embed_query', 'string', [], []);
    var title = 'posenc: ' + call('posenc_view_title', 'string', [], []);
    var esc = function (t) { return t.replace(/&/g, '&amp;').replace(/"/g, '&quot;'); };
    return '<iframe src="' + esc(src) + '" width="100%" height="' + h + '" title="' + esc(title) +
      '" aria-label="' + esc(title) + ' (interactive)" loading="lazy" style="border:0"></iframe>\n' +
      '<script src="' + esc(siteBase() + 'embed.js') + '" async></scr' + 'ipt>';
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
      Object.keys(st).forEach(function (k) { if (['view', 'embed', 'controls', 'theme', 'lang'].indexOf(k) < 0) ps[k] = st[k]; });
      d = { title: sq('posenc_view_title'), formula: sq('posenc_view_caption'), params: ps, numbers: [] };
    }
    return d;
  }
  function describeText(d) {
    if (!d) return '';
    var parts = [d.title ? d.title + '.' : ''];
    if (d.formula) parts.push(L.tf('Formula: {0}.', [d.formula]));
    var ps = d.params || {};
    var pk = Array.isArray(ps) ? ps.map(function (p) { return p.name + ' ' + p.value; }) : Object.keys(ps).map(function (k) { return k + ' = ' + ps[k]; });
    if (pk.length) parts.push(L.tf('Parameters: {0}.', [pk.join(L.t(', '))]));
    var ns = (d.numbers || []).map(function (n) { return n.name + ': ' + n.value; });
    if (ns.length) parts.push(ns.join(L.t('; ')) + L.t('.'));
    var notes = alive ? window.posenc.notices() : '';
    if (notes) parts.push(L.tf('Notices: {0}', [notes]));
    return parts.filter(Boolean).join(' ');
  }
  function updateDescription() {
    if (!alive) return;
    var d = describe();
    var text = describeText(d);
    if (describeEl.textContent !== text) describeEl.textContent = text;
    var title = d && d.title ? d.title : L.t('explorer');
    var label = d && d.formula ? L.tf('posenc figure: {0} ({1})', [title, d.formula]) : L.tf('posenc figure: {0}', [title]);
    if (canvas.getAttribute('aria-label') !== label) canvas.setAttribute('aria-label', label);
    if (paramForm) paramForm.sync();
  }
  // The parameter form (param-form.js), made once the app runs.
  var paramForm = null;
  function buildParamForm() {
    if (!window.PosencParamForm || !Module._posenc_form) return;
    paramForm = window.PosencParamForm({
      root: document.getElementById('params'),
      status: document.getElementById('param-status'),
      read: function () { try { return JSON.parse(call('posenc_form', 'string', [], [])); } catch (e) { return null; } },
      set: function (partial) { window.posenc.setState(partial); }
    });
  }
  // The views as real links (keyboard reachable, for readers who never see the canvas); not in embeds.
  function buildViewLinks() {
    if (embedded) { viewsNav.hidden = true; return; }
    var ul = viewsNav.querySelector('ul');
    ul.textContent = '';
    var current = window.posenc.getState().view;
    var titles = Module._posenc_view_titles ? call('posenc_view_titles', 'string', [], []).split('\n') : [];
    window.posenc.views().forEach(function (id, i) {
      var li = document.createElement('li'), a = document.createElement('a');
      a.href = '?view=' + encodeURIComponent(id);
      a.textContent = titles[i] || id;  // the name a reader knows the view by ("RoPE", not "rope")
      if (id === current) a.setAttribute('aria-current', 'page');
      li.appendChild(a); ul.appendChild(li);
    });
  }
  function viewId() { return parseQuery(stateQuery()).view || 'view'; }

  // ---- loading a model: bytes into the wasm buffer, then posenc_load_model for the current view
  var GGUF_FIRST_READ = 1 << 20, GGUF_MAX_READ = 64 << 20, CONFIG_MAX_BYTES = 8 << 20;
  // Returns the state query to load, or '' when `prefix` bytes end inside a GGUF header (read more).
  function loadBytes(bytes, size, prefix) {
    var p = bytes ? Module._posenc_model_buffer(bytes.length) : 0;
    if (p) Module.HEAPU8.set(bytes, p);
    return call('posenc_load_model', 'string', ['number', 'number', 'number', 'string'],
      [p, size, prefix ? 1 : 0, viewId()]);
  }
  // UTF-8 bytes of a string, without encoding it.
  function utf8Length(text) {
    var n = 0;
    for (var i = 0; i < text.length; ++i) {
      var c = text.charCodeAt(i);
      if (c < 0x80) n += 1;
      else if (c < 0x800) n += 2;
      else if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length) { n += 4; ++i; }
      else n += 3;
    }
    return n;
  }
  function applyLoaded(query) {
    window.posenc.setState(parseQuery(query));
    return window.posenc.noticeList();
  }
  function readSlice(file, end) {
    window.posenc.fileReads.push([0, end]);
    var part = file.slice(0, end);
    return part.arrayBuffer ? part.arrayBuffer() : new Response(part).arrayBuffer();
  }
  // A tensor for the Check view: the whole file (64 MiB at most) into posenc_load_tensor.
  var TENSOR_MAX_BYTES = 64 << 20;
  function loadTensorBytes(bytes, size, name) {
    var p = bytes ? Module._posenc_model_buffer(bytes.length) : 0;
    if (p) Module.HEAPU8.set(bytes, p);
    return call('posenc_load_tensor', 'string', ['number', 'number', 'string'], [p, size, name || '']);
  }
  function loadFile(file) {
    // The sniff reads 4 bytes (GGUF's magic); the Check view reads 16 to tell a .npy or text from a config.
    return ready.then(function () { return readSlice(file, Math.min(viewId() === 'check' ? 16 : 4, file.size)); }).then(function (head) {
      var h = new Uint8Array(head);
      var gguf = h.length >= 4 && h[0] === 71 && h[1] === 71 && h[2] === 85 && h[3] === 70;  // "GGUF"
      // In the Check view a .npy (its magic "\x93NUMPY"), a text or a JSON array is a tensor; a JSON
      // object is still a config.json for the reference.
      var npy = h.length >= 6 && h[0] === 0x93 && h[1] === 78 && h[2] === 85 && h[3] === 77 && h[4] === 80 && h[5] === 89;
      var first = String.fromCharCode.apply(null, Array.prototype.slice.call(h)).replace(/^[\s\ufeff]+/, '').charAt(0);
      if (viewId() === 'check' && !gguf && (npy || first !== '{')) {
        if (file.size > TENSOR_MAX_BYTES) return applyLoaded(loadTensorBytes(null, file.size, file.name));
        return readSlice(file, file.size).then(function (all) {
          return applyLoaded(loadTensorBytes(new Uint8Array(all), file.size, file.name));
        });
      }
      if (!gguf) {
        if (file.size > CONFIG_MAX_BYTES) return applyLoaded(loadBytes(null, file.size, false));  // a notice, not a read
        return readSlice(file, file.size).then(function (all) { return applyLoaded(loadBytes(new Uint8Array(all), file.size, false)); });
      }
      var step = function (n) {
        return readSlice(file, n).then(function (buf) {
          var more = n < file.size && n < GGUF_MAX_READ;
          var query = loadBytes(new Uint8Array(buf), n, more);
          return query ? applyLoaded(query) : step(Math.min(file.size, GGUF_MAX_READ, n * 4));
        });
      };
      return step(Math.min(file.size, GGUF_FIRST_READ));
    });
  }
  modelFile.addEventListener('change', function () {
    var f = modelFile.files && modelFile.files[0];
    if (f) loadFile(f).then(updateDescription);
  });
  // A file dropped anywhere on the page; text pasted while the canvas has the focus (below).
  window.addEventListener('dragover', function (e) {
    if (e.dataTransfer && Array.prototype.indexOf.call(e.dataTransfer.types || [], 'Files') >= 0) e.preventDefault();
  });
  window.addEventListener('drop', function (e) {
    var f = e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files[0];
    if (!f) return;
    e.preventDefault();
    if (alive) loadFile(f).then(updateDescription);
  });
  document.addEventListener('paste', function (e) {
    if (!alive || document.activeElement !== canvas || !e.clipboardData) return;
    var text = e.clipboardData.getData('text/plain') || e.clipboardData.getData('text');
    if (!text) return;
    if (/^\s*\{/.test(text)) {
      e.preventDefault();
      window.posenc.loadModel(text);
      updateDescription();
      return;
    }
    // Other text: SDL's clipboard in the browser is its own (it never reads the system's), so the page
    // types it into the app's active text field, rows kept (a multi-line field takes line breaks; a tab,
    // which ImGui drops, becomes a space); with no field active, the Check view takes it as its tensor.
    var field = call('posenc_text_field', 'string', [], []);
    if (field) {
      e.preventDefault();
      call('posenc_text_input', null, ['string'], [text.replace(/\r\n?/g, '\n').replace(/\t/g, ' ')]);
    } else if (viewId() === 'check') {
      e.preventDefault();
      window.posenc.setState({ source: 'text', tensor: text });
      updateDescription();
    }
  });
  function exportData(format) { return call('posenc_export', 'string', ['string'], [format]); }

  // An embed tells its parent how tall its content wants to be, whenever that changes.
  // (Called after every frame sequence settles and on every state change: the height changes only in a
  // frame. A poster asks nothing: the iframe keeps the height the page gave it.)
  function postHeight() {
    if (!inFrame || !alive) return;
    var h = Module._posenc_preferred_height();
    if (h > 0 && h !== lastHeight) { lastHeight = h; post({ type: 'posenc:height', height: h }); }
  }

  var urlQuery = window.location.search.slice(1), URL_ARGUMENT_MAX = 64 << 10;
  window.Module = {
    canvas: canvas,
    // The URL's state (a long one is set after the start, through the heap: argv is copied onto the stack).
    arguments: urlQuery && urlQuery.length <= URL_ARGUMENT_MAX ? ['--state', urlQuery] : [],
    print: function (t) { console.log(t); },
    printErr: function (t) { console.warn(t); },
    onAbort: function (what) { fail(String(what)); },
    onStartFailure: function (what) { fail(what); },  // e.g. no GL context (fail() then names WebGL2)
    onFirstFrame: function () {
      alive = true;  // exported functions may be called from now on
      if (urlQuery.length > URL_ARGUMENT_MAX) setStateQuery(cappedQuery(parseQuery(urlQuery)));
      if (window.performance && performance.mark) performance.mark('posenc:ready');  // bench/startup.mjs
      if (Module._posenc_set_page_scrolls) Module._posenc_set_page_scrolls(inFrame ? 1 : 0);
      statusEl.className = 'hidden';
      posterEl.className = '';
      pageTheme();
      buildViewLinks();
      buildParamForm();
      updateDescription();
      updateTouchClaims();
      resolveReady();
      postHeight();
    },
    // The app changed its state through the UI: mirror it into the address bar without reloading.
    // dragging: a slider is held; the description (which asks the view for its exact numbers, a double
    // computation that can take longer than a frame at full size) then waits for onSettled.
    onStateChange: function (dragging) {
      var q = stateQuery();
      history.replaceState(null, '', '?' + q);
      L.followLang(parseQuery(q).lang);
      pageTheme();
      post({ type: 'posenc:state', state: parseQuery(q) });
      postHeight();
      if (!dragging) updateDescription();
    },
    // The app stopped drawing (nothing changes any more); we are still inside its last frame, so the
    // canvas can be kept: an embed's poster of its current state, ready if it must give its context back.
    onSettled: function () {
      updateTouchClaims();
      updateDescription();
      postHeight();
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
      else if (name === 'open-model-file') { modelFile.value = ''; modelFile.click(); }
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
  L.installLanguageStart();  // adds to the Module's start: the Chinese files for lang=zh or CJK text in the URL

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
        current = { embed: current.embed, controls: current.controls, theme: current.theme, lang: current.lang };
        Object.keys(current).forEach(function (k) { if (current[k] === undefined) delete current[k]; });
      }
      // Another preset model likewise: the previous model's keys would be read over the new model's (a
      // fresh ?model=<id> holds none of them). (none keeps the keys; custom is a loaded config's.)
      else if (current.model !== undefined && ['', 'none', 'custom', current.model].indexOf(String(partial.model || '')) < 0) {
        current = { view: current.view, embed: current.embed, controls: current.controls, theme: current.theme, lang: current.lang };
        Object.keys(current).forEach(function (k) { if (current[k] === undefined) delete current[k]; });
      }
      var next = Object.assign(current, partial);
      // The language's files (the Chinese catalogue, the CJK face) are fetched now, not a frame later when
      // the app asks; the promise resolves once they are in the app.
      var files = L.languageFor(next);
      setStateQuery(cappedQuery(next));
      Module.onStateChange();
      return files;
    },
    notices: function () { return call('posenc_notices', 'string', [], []); },
    // The same, structured: [{key, message}], one entry per URL key.
    noticeList: function () { return JSON.parse(call('posenc_notice_list', 'string', [], []) || '[]'); },
    // Every view id in menu order.
    views: function () { return (call('posenc_view_ids', 'string', [], []) || '').split(',').filter(Boolean); },
    linkUrl: linkUrl,
    embedCode: embedCode,
    exportData: exportData,
    // A config.json text or a GGUF header (ArrayBuffer) into the views that take models; returns the notices.
    // Nothing over the limits is copied into the app (config.json: 8 MiB; a GGUF header is read from
    // prefixes of the bytes, as loadFile reads a file): the app names the size in a notice.
    loadModel: function (data) {
      if (typeof data === 'string') {
        var size = utf8Length(data);
        if (size > CONFIG_MAX_BYTES) return applyLoaded(loadBytes(null, size, false));
        data = new TextEncoder().encode(data);
      }
      var b = new Uint8Array(data);
      var gguf = b.length >= 4 && b[0] === 71 && b[1] === 71 && b[2] === 85 && b[3] === 70;  // "GGUF"
      if (!gguf) return applyLoaded(b.length > CONFIG_MAX_BYTES ? loadBytes(null, b.length, false) : loadBytes(b, b.length, false));
      for (var n = Math.min(b.length, GGUF_FIRST_READ); ; n = Math.min(b.length, GGUF_MAX_READ, n * 4)) {
        var query = loadBytes(b.subarray(0, n), n, n < b.length && n < GGUF_MAX_READ);
        if (query) return applyLoaded(query);
      }
    },
    // A File or Blob (file picker, drop): config.json as text (8 MiB at most), a GGUF through Blob.slice
    // prefixes of its start only (1 MiB, then 4x more while the header goes on, 64 MiB at most), never the
    // whole file. Resolves to the notices. The slices read are kept in fileReads (for tests).
    loadFile: loadFile,
    // The `check` op of posenc eval: a request object ({op: 'check', reference, kind, actual, ...}) ->
    // exactly its response object, or {error, field} as posenc eval reports bad input.
    // Any argument gets an answer, never an exception: what JSON cannot write (a cycle, a BigInt, a getter
    // that throws) is {error, field} naming the request's top-level key that holds it.
    check: function (request) {
      var text;
      try {
        text = typeof request === 'string' ? request : JSON.stringify(request);
      } catch (e) {
        var field = null;
        if (request && typeof request === 'object') {
          Object.keys(request).some(function (k) {
            try { JSON.stringify(request[k]); return false; } catch (_) { field = k; return true; }
          });
        }
        var why = String(e && e.message || e).replace(/\s+/g, ' ').slice(0, 200);
        return { error: (field ? field + ': ' : '') + 'the request cannot be written as JSON (' + why + ')', field: field };
      }
      try {
        var b = new TextEncoder().encode(text === undefined ? '' : text);
        var p = Module._posenc_model_buffer(b.length);
        if (p) Module.HEAPU8.set(b, p);
        return JSON.parse(call('posenc_check', 'string', ['number', 'number'], [p, b.length]));
      } catch (e) {
        return { error: 'the request could not be checked: ' + String(e && e.message || e).slice(0, 200), field: null };
      }
    },
    fileReads: [],
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
    started: function () { return started; },
    // Whether this page holds (or is creating) a WebGL context; how the page coordinates it (tests).
    hasContext: function () { return started && !releasing; },
    contextInfo: function () { return { live: started && !releasing, coordinated: coordinated, doc: docId, visible: visibleNow }; }
  };

  function start() {
    if (started) return;
    started = true;
    report();
    // With the poster still up, its note says we are loading (not the status drawn over it).
    if (posterEl.className === 'shown') posterEl.querySelector('span').textContent = L.t('Loading posenc…');
    else statusEl.className = '';
    var tmpl = document.getElementById('posenc-loader').content.querySelector('script');
    // posenc.js would only ask for posenc.wasm once it has run: fetch both at once (the preload is
    // what Emscripten's streaming fetch then takes: same URL, CORS mode, same-origin credentials).
    var wasm = document.createElement('link');
    wasm.rel = 'preload';
    wasm.as = 'fetch';
    wasm.crossOrigin = 'anonymous';
    wasm.href = new URL('posenc.wasm', new URL(tmpl.getAttribute('src'), window.location.href)).href;
    document.head.appendChild(wasm);
    var s = document.createElement('script');
    s.src = tmpl.getAttribute('src');
    s.async = true;
    s.onerror = function () { fail('could not load ' + s.src); };
    document.body.appendChild(s);
  }

  // Keyboard input: SDL reads keys from the canvas, but its mousedown handler prevents the default
  // (so a click would not focus it). Focus it ourselves on any press; Tab reaches it (tabindex=0).
  // (Not while a phone keyboard types into the app through the text element below: a tap elsewhere
  // closes the app's field, and the page then gives the focus back to the canvas.)
  // Tab leaves the canvas (SDL would keep it: it prevents Tab's default, a keyboard trap), except while
  // one of the app's text fields is being edited (there it moves between the app's fields).
  window.addEventListener('keydown', function (e) {
    if (e.key !== 'Tab' || e.target !== canvas || e.ctrlKey || e.altKey || e.metaKey) return;
    if (alive && call('posenc_text_field', 'string', [], [])) return;
    e.stopPropagation();
  }, true);
  ['pointerdown', 'touchstart'].forEach(function (type) {
    canvas.addEventListener(type, function () {
      if (document.activeElement !== canvas && !entryOpen()) canvas.focus({ preventScroll: true });
    }, { capture: true, passive: true });
  });

  // ---- Phone text entry (docs/input.md). A canvas is not editable, so tapping one of the app's text
  // fields would bring up no on-screen keyboard. While a field opened by touch is being edited (the app
  // reports it through Module.onTextField), a visually hidden <input> lies over it and has the focus: the
  // phone shows its keyboard, and what it types goes to the app (posenc_text_input, posenc_key). On a
  // desktop a text field (input.*) opened with the mouse takes the same element: an input method (IME)
  // composes only in an editable element, and its committed text reaches the app whole. A slider's
  // number field opened with the mouse changes nothing: the canvas keeps the focus and SDL reads the keys.
  // The element always holds one sentinel character before the caret, so a Backspace on an "empty"
  // element still deletes something (and fires its input event). Text is read from the element's value
  // after each input event (not from keydown: an Android keyboard sends keyCode 229 and composes
  // words), compared with what was already forwarded: deleted characters become Backspaces, new ones
  // text, also live while a word is being composed.
  var entry = document.getElementById('text-entry');
  var SENTINEL = '\u200b';
  var entryField = null;  // the app's field being edited by touch: {x, y, w, h, name, text}, or null
  var entryShown = SENTINEL;  // the element's value as already forwarded to the app
  var composing = false, entryTimer = null, touchDown = null;
  function entryOpen() { return !entry.hidden; }
  function resetEntry() {
    entry.value = SENTINEL;
    entryShown = SENTINEL;
    try { entry.setSelectionRange(1, 1); } catch (e) { /* not focusable yet */ }
  }
  function fieldKey(f) { return (f.name || '').replace(/^(input|slider)\./, '') || 'value'; }
  function showEntry(f) {
    entry.style.left = (canvas.offsetLeft + f.x) + 'px';
    entry.style.top = (canvas.offsetTop + f.y) + 'px';
    entry.style.width = Math.max(1, f.w) + 'px';
    entry.style.height = Math.max(1, f.h) + 'px';
    entry.inputMode = /^\d[\d.]*(e[+-]?\d+)?$/i.test(f.text || '') ? 'decimal' : 'text';
    entry.setAttribute('aria-label', 'Edit ' + fieldKey(f) + (f.text ? ', now ' + f.text : '') +
      '. Typing replaces it; Enter applies.');
    if (!entryOpen()) { entry.hidden = false; resetEntry(); }
    if (document.activeElement !== entry) { entry.focus({ preventScroll: true }); resetEntry(); }
  }
  function hideEntry() {
    clearTimeout(entryTimer);
    entryField = null;
    composing = false;
    if (!entryOpen()) return;
    var had = document.activeElement === entry;
    entry.hidden = true;  // hiding the focused element blurs it: the keyboard closes
    if (had || document.activeElement === document.body) canvas.focus({ preventScroll: true });
  }
  Module.onTextField = function (json) {
    var f = null;
    try { f = json ? JSON.parse(json) : null; } catch (e) { f = null; }
    clearTimeout(entryTimer);
    if (f && (f.touch || /^input\./.test(f.name || ''))) { entryField = f; showEntry(f); } else hideEntry();
  };
  function sendKey(key, mods) { return call('posenc_key', 'number', ['string', 'number'], [key, mods || 0]) !== 0; }
  // The element's value against what the app already has: Backspaces for what went, text for what came.
  function forwardEntry() {
    if (!alive || !entryField) return;
    // A desktop input method's composition (pinyin being typed) is not text yet: only its commit goes in.
    if (composing && !entryField.touch) return;
    var was = Array.from(entryShown), now = Array.from(entry.value), p = 0;
    while (p < was.length && p < now.length && was[p] === now[p]) ++p;
    for (var i = p; i < was.length; ++i) sendKey('Backspace', 0);
    var text = now.slice(p).join('').split(SENTINEL).join('');
    if (text) call('posenc_text_input', null, ['string'], [text]);
    entryShown = entry.value;
    if (!composing) resetEntry();  // never while a keyboard composes: it would lose its word
  }
  entry.addEventListener('compositionstart', function () { composing = true; });
  entry.addEventListener('compositionend', function () { composing = false; forwardEntry(); });
  entry.addEventListener('input', function (e) {
    if (e.isComposing) composing = true;
    forwardEntry();
  });
  // A line break (a textarea-like keyboard's Enter) applies the field.
  entry.addEventListener('beforeinput', function (e) {
    if (e.inputType === 'insertLineBreak' || e.inputType === 'insertParagraph') { e.preventDefault(); sendKey('Enter', 0); }
  });
  // Keys that edit without inserting text (a keyboard attached to a tablet, a phone keyboard's Enter or
  // arrows); Backspace and text come through the input event above.
  var ENTRY_KEYS = ['Enter', 'Escape', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp',
    'PageDown', 'Delete'];
  entry.addEventListener('keydown', function (e) {
    if (!alive || e.isComposing || e.keyCode === 229) return;
    var mods = (e.ctrlKey ? 1 : 0) | (e.shiftKey ? 2 : 0) | (e.altKey ? 4 : 0) | (e.metaKey ? 8 : 0);
    var shortcut = (e.ctrlKey || e.metaKey) && /^[aczxy]$/i.test(e.key);  // paste stays the browser's (input event)
    if (ENTRY_KEYS.indexOf(e.key) < 0 && !shortcut) return;
    e.preventDefault();
    if (e.key === 'Enter' || e.key === 'Escape') forwardEntry();  // a word still being composed goes first
    sendKey(shortcut ? e.key.toLowerCase() : e.key, mods);
  });
  // iOS shows its keyboard only for a focus inside the touch's own handler, not a frame later when the
  // app reports the field: a tap (short, still) on one of the app's text fields (input.*), or a
  // long-press (still, >= 500 ms: the app opens the slider's text field) lifted on a slider (slider.*),
  // focuses the element at once. If the app then opens no field, the canvas gets the focus back.
  canvas.addEventListener('touchstart', function (e) {
    var t = e.changedTouches[0];
    touchDown = e.touches.length === 1 ? { x: t.clientX, y: t.clientY, at: e.timeStamp } : null;
  }, { passive: true });
  canvas.addEventListener('touchend', function (e) {
    var d = touchDown, t = e.changedTouches[0];
    touchDown = null;
    if (!alive || !d) return;
    var held = e.timeStamp - d.at, tap = held <= 400, longPress = held >= 500;
    if (e.touches.length || !(tap || longPress) ||
        Math.abs(t.clientX - d.x) > 10 || Math.abs(t.clientY - d.y) > 10) return;
    var r = canvas.getBoundingClientRect(), x = t.clientX - r.left, y = t.clientY - r.top;
    if (entryField && tap) {
      // A tap on the field being edited after the keyboard was put away (Android's back key keeps the
      // focus): focusing the element again inside the touch brings the keyboard back.
      var f = entryField;
      if (!composing && document.activeElement === entry && x >= f.x && x <= f.x + f.w && y >= f.y && y <= f.y + f.h) {
        entry.blur();
        entry.focus({ preventScroll: true });
        resetEntry();
      }
      return;
    }
    if (entryField) return;
    var names = window.posenc.probes().filter(function (n) { return (tap ? /^input\./ : /^slider\./).test(n); });
    for (var i = 0; i < names.length; ++i) {
      var s = call('posenc_item_rect', 'string', ['string'], [names[i]]).split(',').map(Number);
      if (s.length === 4 && x >= s[0] && x <= s[0] + s[2] && y >= s[1] && y <= s[1] + s[3]) {
        entryField = { x: s[0], y: s[1], w: s[2], h: s[3], name: names[i], text: '' };
        showEntry(entryField);
        entryTimer = setTimeout(function () { if (!JSON.parse(call('posenc_text_field', 'string', [], []) || 'null')) hideEntry(); }, 1000);
        return;
      }
    }
  }, { passive: true });
  // Draw only on change: the app stops its main loop while nothing changes (no animation frames at all).
  // Every input event, a resize or a change of the page wakes it at once; SDL queues the event itself
  // and the app reads it in the frame this requests. (setState, theme, capture and loadModel wake it
  // from the C++ side.)
  function wakeApp() { if (alive && !contextLost) Module._posenc_wake(); }
  ['pointerdown', 'pointermove', 'pointerup', 'pointercancel', 'pointerover', 'pointerout', 'mousedown', 'mousemove',
    'mouseup', 'mouseover', 'mouseout', 'wheel', 'keydown', 'keyup', 'keypress', 'touchstart', 'touchmove',
    'touchend', 'touchcancel', 'focus', 'blur', 'compositionend'].forEach(function (type) {
    window.addEventListener(type, wakeApp, { capture: true, passive: true });
  });
  window.addEventListener('resize', wakeApp);
  document.addEventListener('visibilitychange', wakeApp);
  if ('ResizeObserver' in window) new ResizeObserver(wakeApp).observe(canvas);
  // Touch (docs/input.md): the app decides per gesture whether a touch is its own (it starts on a
  // zoomable plot, or turns into a sideways drag, a long-press, a two-finger pinch on a plot); only then
  // is the event's default (the page's scroll or zoom) prevented, so the page around an embed still
  // scrolls under a vertical swipe. Inside an iframe the page scrolls vertically (pan-y); the app's own
  // page does not scroll, so there a vertical swipe scrolls the app's panel under the finger.
  canvas.style.touchAction = inFrame ? 'pan-y pinch-zoom' : 'pinch-zoom';
  // The maps are claimed before any event: the browser decides at touchstart, from CSS, what it may do
  // with a gesture, and may deliver that touchstart uncancelable (a fling still running), so a
  // preventDefault() alone would come too late. Over each zoomable map of the last frame lies a box
  // with touch-action: none; it takes pointer events only on a device whose pointer cannot hover (a
  // touch screen), so a mouse still reaches the canvas itself. Its touches go to the same handler.
  var claimsEl = document.createElement('div'), claimsKey = '';
  claimsEl.id = 'touch-claims';
  claimsEl.addEventListener('contextmenu', function (e) { e.preventDefault(); });  // a long-press is the readout
  canvas.parentNode.insertBefore(claimsEl, canvas.nextSibling);
  function updateTouchClaims() {
    var key = alive && !contextLost && Module._posenc_zoomable_rects ? call('posenc_zoomable_rects', 'string', [], []) : '';
    if (key === claimsKey) return;
    claimsKey = key;
    claimsEl.textContent = '';
    key.split(';').forEach(function (rect) {
      var v = rect.split(',').map(Number);
      if (v.length !== 4 || !(v[2] > 0 && v[3] > 0)) return;
      var d = document.createElement('div');
      d.style.left = v[0] + 'px'; d.style.top = v[1] + 'px'; d.style.width = v[2] + 'px'; d.style.height = v[3] + 'px';
      claimsEl.appendChild(d);
    });
  }
  var touchTarget = function (t) { return t === canvas || t.parentNode === claimsEl; };
  [['touchstart', 0], ['touchmove', 1], ['touchend', 2], ['touchcancel', 3]].forEach(function (p) {
    document.getElementById('stage').addEventListener(p[0], function (e) {
      if (!alive || !Module._posenc_touch || !touchTarget(e.target)) return;
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
    releasing = true;
    window.location.reload();
  }
  // The wheel reaches the app only where it is used (a zoomable map, a scrolling panel); elsewhere
  // the page keeps scrolling, so an embedded view never traps the reader's scroll. An embed is
  // cooperative, as map embeds are: a plain wheel always scrolls the page around it (its document does
  // not scroll, so the browser hands the wheel on to the parent), Ctrl/Cmd + wheel zooms the map under
  // the pointer, and the first plain wheel over a map says so.
  var wheelHinted = false, mac = /Mac|iP(hone|ad)/.test(navigator.platform || '');
  document.getElementById('stage').addEventListener('wheel', function (e) {
    if (!alive) { e.stopPropagation(); return; }
    if (!embedded) {
      if (!Module._posenc_wants_wheel()) e.stopPropagation();
      return;
    }
    var r = canvas.getBoundingClientRect();
    var onMap = Module._posenc_zoomable_at(e.clientX - r.left, e.clientY - r.top) !== 0;
    if (onMap && (e.ctrlKey || e.metaKey)) { e.preventDefault(); return; }  // the app zooms; the browser does not
    e.stopPropagation();
    if (onMap && !wheelHinted) { wheelHinted = true; toast((mac ? '\u2318' : 'Ctrl') + ' + scroll to zoom the map'); }
  }, { capture: true, passive: false });
  if (darkQuery && darkQuery.addEventListener) darkQuery.addEventListener('change', function (e) {
    if (alive) { Module._posenc_set_system_dark(e.matches ? 1 : 0); setTimeout(pageTheme, 50); }
  });

  // ---------------------------------------------------------------- live WebGL contexts
  // Browsers cap the live WebGL contexts of a page (Chrome: 16, then the oldest is lost), so a page of
  // embeds keeps a bound of its own. With the embed code's page script present (the coordinator, see
  // embed.js) an embed takes a context only when the page grants one (at most 6 live)
  // and gives it back when asked. Without it, an embed gives its context back as soon as it has been out
  // of view for RELEASE_MS. Giving it back = reloading into poster mode in the same state: the URL holds
  // the state and the poster of that state was kept when it settled, so no frame is needed (Chrome sends
  // no animation frames to an off-screen cross-origin iframe).
  var RELEASE_MS = 500, COORDINATOR_WAIT_MS = 300;
  var docId = Math.random().toString(36).slice(2) + Date.now().toString(36);
  var coordinated = false, granted = false, helloAt = 0, startTimer = null, releaseTimer = null;
  function report() {
    if (!embedded || !inFrame || releasing) return;
    post({ type: 'posenc:context', doc: docId, visible: visibleNow, live: started || granted,
           want: visibleNow && !started && !granted });
  }
  function release() {
    if (!started || releasing || visibleNow) return;
    reloadInState();
  }
  // The embed is in view (or was clicked): take a context now, or ask the page for one.
  function requestContext() {
    if (started) return;
    clearTimeout(startTimer);
    if (coordinated) { report(); return; }
    var waited = performance.now() - helloAt;
    if (inFrame && waited < COORDINATOR_WAIT_MS) {
      startTimer = setTimeout(function () { if (visibleNow && !coordinated) requestContext(); }, COORDINATOR_WAIT_MS - waited);
      return;
    }
    start();
  }
  // The parent page may drive an embed (setState), and coordinate its WebGL context.
  window.addEventListener('message', function (e) {
    var m = e.data;
    if (!m || typeof m.type !== 'string') return;
    if (m.type === 'posenc:setState' && m.state && typeof m.state === 'object') {
      ready.then(function () { window.posenc.setState(m.state); });
      if (!started) start();
      return;
    }
    if (!embedded || e.source !== window.parent) return;
    if (m.type === 'posenc:coordinator') {
      if (!coordinated) {
        coordinated = true;
        clearTimeout(releaseTimer);
        // The page script may load after this embed spoke (embed.js is async): say it all again.
        lastHeight = 0;
        postHeight();
        if (visibleNow && !started) requestContext(); else report();
      }
    } else if (m.type === 'posenc:grant' && m.doc === docId) {
      granted = true;
      start();
    } else if (m.type === 'posenc:release' && m.doc === docId) {
      if (visibleNow) report();  // back in view meanwhile: keep it (the page then asks another embed)
      else release();
    }
  });

  if (!embedded || !('IntersectionObserver' in window)) {
    start();
  } else {
    // Many embeds on one page: each starts (and takes a WebGL context) only when it scrolls into
    // view and shows a poster until then.
    if (params.get('theme') === 'light' || (params.get('theme') !== 'dark' && darkQuery && !darkQuery.matches)) document.body.className = 'light';
    var saved = null;
    try { saved = sessionStorage.getItem(posterKey); } catch (e) { /* storage may be blocked */ }
    if (saved) showPosterImage(saved, 'posenc figure (picture of the last state; click to load the interactive view)');
    posterEl.className = 'shown';
    statusEl.className = 'hidden';
    posterEl.addEventListener('click', function () { visibleNow = true; requestContext(); });
    helloAt = performance.now();
    report();  // hello: a coordinator on the page answers
    new IntersectionObserver(function (entries) {
      var visible = entries.some(function (en) { return en.isIntersecting; });
      visibleNow = visible;
      if (visible && contextLost) { reloadInState(); return; }
      report();
      if (visible) {
        clearTimeout(releaseTimer);
        requestContext();
      } else {
        clearTimeout(startTimer);
        if (started && !coordinated) {
          clearTimeout(releaseTimer);
          releaseTimer = setTimeout(release, RELEASE_MS);
        }
      }
    }).observe(document.documentElement);
  }
})();
