/* global Module, POSENC_APP_TABLES */
// The interface's language on the page (docs/i18n.md): <html lang>, the page's own words, and the files a
// Chinese interface needs: its catalogue (posenc-zh.json, the app's catalogue, which holds the page's words
// too) and the CJK face (posenc-cjk.ttf). A cold default load fetches neither. With lang=zh (or CJK text)
// in the URL both are fetched at start beside posenc.wasm; the app's start waits for the catalogue only (a
// run dependency until its fetch settled; it goes in before main(): the first frame is already Chinese).
// The face, 0.7 MB, never holds the app: the first frame draws its characters as boxes with a notice that
// it is loading, and the app rebuilds its atlas and redraws when it arrives (a face that cannot be fetched
// is named in a notice). Later the app asks for them (Module.onNeedLanguage) when the language switches or
// CJK text is drawn, and setState waits for them (its promise).
// A classic script like param-form.js (loaded before posenc-page.js): window.PosencLang.
(function () {
  'use strict';
  // A reader who chose Chinese from the offer (below) gets it on later visits with no lang key: the key goes
  // into the address before anything reads it (the page script, the app's start). Never in an embed or
  // another page's frame: there the author's lang, or English, wins.
  const CHOICE_KEY = 'posenc:lang';
  const standalone = (function () {
    const q = new URLSearchParams(window.location.search);
    return window.parent === window && q.get('embed') !== '1' && q.get('embed') !== 'true';
  })();
  function storedChoice() { try { return localStorage.getItem(CHOICE_KEY); } catch (e) { return null; } }
  function storeChoice(lang) { try { localStorage.setItem(CHOICE_KEY, lang); } catch (e) { /* storage may be blocked */ } }
  if (standalone && !new URLSearchParams(window.location.search).has('lang') && storedChoice() === 'zh') {
    const q = window.location.search.replace(/^\?/, '');
    history.replaceState(null, '', '?' + (q ? q + '&' : '') + 'lang=zh' + window.location.hash);
  }
  const params = new URLSearchParams(window.location.search);

  // The app's tables the page needs before the app runs, written in by the build from their one home
  // (cmake/page_tables.cmake): the interface's languages (app/i18n.h's kLanguages) and the CJK blocks
  // (core/unicode_text.h's kCjkRanges, [first, last] code points), which decide whether text needs the CJK face.
  const APP_TABLES = POSENC_APP_TABLES;
  const LANGS = APP_TABLES.languages;
  const CJK = new RegExp('[' + APP_TABLES.cjk.map(function (r) {
    return '\\u{' + r[0].toString(16) + '}-\\u{' + r[1].toString(16) + '}';
  }).join('') + ']', 'u');
  const catalogues = {};  // lang -> {English: text}, as fetched
  const fetches = {};     // 'catalogue:<lang>' / 'font' -> Promise of the bytes or text
  let current = LANGS.indexOf(params.get('lang')) >= 0 ? params.get('lang') : 'en';
  const delivered = { font: false };

  // The page's own words in the current language (a key the catalogue lacks stays English).
  function t(en) {
    const c = catalogues[current];
    return current !== 'en' && c && typeof c[en] === 'string' ? c[en] : en;
  }
  // The same with {0}, {1}, ... filled after translation.
  function tf(en, args) {
    return t(en).replace(/\{(\d)\}/g, function (m, i) { return args[i] !== undefined ? String(args[i]) : m; });
  }
  function currentLang() { return current; }
  function hasCjk(text) { return CJK.test(String(text || '')); }

  // Beside the page: the site's files live next to index.html.
  function fileUrl(name) { return new URL(name, window.location.href).href; }
  // Fails with an Error whose message names the file and why ("posenc-cjk.ttf: HTTP 404").
  function fetchOnce(key, url, as) {
    if (!fetches[key]) {
      const name = url.split('/').pop().split('?')[0];
      fetches[key] = fetch(url).then(function (r) {
        if (!r.ok) throw new Error(name + ': HTTP ' + r.status);
        return as === 'bytes' ? r.arrayBuffer() : r.text();
      }, function (e) { throw new Error(name + ': network error (' + (e && e.message ? e.message : String(e)) + ')'); });
      fetches[key].catch(function () { /* delivered as unavailable below */ });
    }
    return fetches[key];
  }
  function fetchCatalogue(lang) { return fetchOnce('catalogue:' + lang, fileUrl('posenc-' + lang + '.json'), 'text'); }
  function fetchFont() { return fetchOnce('font', fileUrl('posenc-cjk.ttf'), 'bytes'); }

  // Into the app (the page ABI's posenc_set_catalogue / posenc_cjk_font_buffer / posenc_set_cjk_font; they
  // work before the app has started, once the runtime is up).
  function deliverCatalogue(lang, text) {
    try { catalogues[lang] = JSON.parse(text); } catch (e) { catalogues[lang] = {}; }
    Module.ccall('posenc_set_catalogue', 'string', ['string', 'string'], [lang, text]);
    applyDocumentLang(current);  // the page's own words, now that they can be had
  }
  // The face's bytes, or (null) why they cannot be had: the app names it in a notice.
  function deliverFont(bytes, why) {
    if (delivered.font) return;
    delivered.font = true;
    const data = bytes ? new Uint8Array(bytes) : null;
    const p = data ? Module._posenc_cjk_font_buffer(data.length) : 0;
    if (p) {
      Module.HEAPU8.set(data, p);
      Module._posenc_set_cjk_font(p, data.length);
    } else {
      Module.ccall('posenc_cjk_font_failed', null, ['string'],
        [why || (data ? 'posenc-cjk.ttf: ' + data.length + ' bytes, over the 8 MiB a face may have' : 'posenc-cjk.ttf: empty')]);
    }
  }
  // Into the app once its runtime is up (its C++ globals constructed): at once, or in onRuntimeInitialized,
  // synchronously, before main() runs the first frame.
  let runtimeIsUp = false;
  const whenUpQueue = [];
  function whenUp(fn) {
    if (runtimeIsUp) { fn(); return Promise.resolve(); }
    return new Promise(function (res) { whenUpQueue.push(function () { fn(); res(); }); });
  }
  // Fetches what `what` names (bit 1: the catalogue of `lang`, bit 2: the CJK face) and hands it to the app
  // once the runtime is up; resolves when both are in (or failed: the app then names the missing glyphs).
  function obtain(what, lang) {
    const parts = [];
    if ((what & 1) && lang !== 'en' && !catalogues[lang]) {
      parts.push(fetchCatalogue(lang).then(function (text) { return text; }, function () { return '{}'; })
        .then(function (text) { return whenUp(function () { if (!catalogues[lang]) deliverCatalogue(lang, text); }); }));
    }
    if ((what & 2) && !delivered.font) {
      parts.push(fetchFont().then(function (b) { return { bytes: b }; }, function (e) { return { bytes: null, why: e.message }; })
        .then(function (f) { return whenUp(function () { deliverFont(f.bytes, f.why); }); }));
    }
    return Promise.all(parts);
  }

  // At start (before posenc.js runs): lang=zh or CJK text in the URL fetches the files now. The app's start
  // waits for the catalogue (its first frame is Chinese), never for the face: its characters are boxes, with
  // a notice, until it arrives (delivered whenever that is: posenc_set_cjk_font wakes the app).
  function installLanguageStart() {
    const query = (function () { try { return decodeURIComponent(window.location.search); } catch (e) { return window.location.search; } })();
    const what = (current !== 'en' ? 1 | 2 : 0) | (hasCjk(query) ? 2 : 0);
    applyDocumentLang(current);
    if (what) obtain(what, current);
    // The start waits for the catalogue's text (a run dependency, removed once its fetch settled); it goes
    // into the app in onRuntimeInitialized, before the first frame. (Waiting for the delivery itself would
    // wait for the runtime, which waits for the dependency.)
    const fetched = (what & 1) ? fetchCatalogue(current).catch(function () { return null; }) : null;
    Module.preRun = (Module.preRun || []).concat([function () {
      if (!fetched) return;
      Module.addRunDependency('posenc-lang');
      fetched.then(function () { setTimeout(function () { Module.removeRunDependency('posenc-lang'); }, 0); });
    }]);
    const before = Module.onRuntimeInitialized;
    Module.onRuntimeInitialized = function () {
      runtimeIsUp = true;
      whenUpQueue.splice(0).forEach(function (fn) { fn(); });
      if (before) before();
    };
    // The app asks once per missing piece (posenc_set_* answer it): bit 1 the catalogue, bit 2 the face.
    Module.onNeedLanguage = function (what2, lang) { obtain(what2, lang).then(wakeForLanguage); };
  }
  function wakeForLanguage() { if (Module._posenc_wake) Module._posenc_wake(); }

  // What a state change needs before it shows right: the catalogue of its language, the CJK face for its
  // language or its CJK text. Resolves when they are in the app.
  function languageFor(state) {
    const lang = LANGS.indexOf(state.lang) >= 0 ? state.lang : current;
    const cjk = Object.keys(state).some(function (k) { return hasCjk(state[k]); });
    const what = (lang !== 'en' ? 1 | 2 : 0) | (cjk ? 2 : 0);
    return what ? obtain(what, lang).then(wakeForLanguage) : Promise.resolve();
  }

  // The page follows the app's lang key: <html lang>, and the words of the page itself (the shell's
  // labels). Called on every state change.
  function followLang(lang) {
    lang = LANGS.indexOf(lang) >= 0 ? lang : 'en';
    // A reader who chose once and now switches in the menu: later visits follow the new choice; the offer
    // is moot once the interface is Chinese.
    if (standalone && storedChoice() && storedChoice() !== lang) storeChoice(lang);
    const offer = document.getElementById('lang-offer');
    if (offer && lang === 'zh') offer.hidden = true;
    if (lang === current && document.documentElement.lang === lang) return;
    current = lang;
    applyDocumentLang(lang);
  }
  // The shell's own words (web/shell.html), each in the current language.
  const SHELL_WORDS = [
    ['views', 'aria-label', 'posenc views'],
    ['params', 'aria-label', 'Parameters'],
    ['text-entry', 'aria-label', 'Edit'],
    ['poster', 'aria-label', 'Load the interactive view'],
    ['readout', 'aria-label', 'hover readout'],
    ['model-file', 'aria-label', "Load a model's config.json or GGUF file"],
    ['weights-progress', 'aria-label', 'Reading weights'],
    ['weights-folder', 'aria-label', 'Load a model folder'],
    ['weights-files', 'aria-label', 'Load weights files or a weights JSON']
  ];
  // The form's own fieldsets (web/shell.html): the second model's button and the Share buttons, by selector.
  function formWords() {
    return [
      ['#model-files legend', t('Compare')],
      ['#load-compare', t('Load second model')],
      ['#load-compare-note', t('a config.json or GGUF file to show beside the model; a link cannot carry it')],
      ['#weights-files-group legend', t('Weights')],
      ['#load-weights-folder', t('Load model folder')],
      ['#load-weights-files', t('Load files')],
      ['#load-weights-note', t('a model folder (config.json and .safetensors), a .gguf, or a JSON written by posenc weights --json; nothing is uploaded')],
      ['#weights-cancel', t('Cancel')],
      ['#share legend', t('Share')],
      ['[data-share="copy-link"]', t('Copy link')],
      ['[data-share="copy-embed"]', t('Copy embed code')],
      ['[data-share="export-png"]', t('Export PNG')],
      ['[data-share="export-svg"]', t('Export SVG')],
      ['[data-share="export-csv"]', t('Export CSV')],
      ['[data-share="export-json"]', t('Export JSON')]
    ];
  }
  function applyDocumentLang(lang) {
    document.documentElement.lang = lang;
    SHELL_WORDS.forEach(function (w) {
      const el = document.getElementById(w[0]);
      if (el) el.setAttribute(w[1], t(w[2]));
    });
    formWords().forEach(function (w) {
      const el = document.querySelector(w[0]);
      if (el) el.textContent = w[1];
    });
    const heading = document.querySelector('#params .param-heading');
    if (heading && !heading.dataset.view) heading.textContent = t('Parameters');
    const poster = document.querySelector('#poster span');
    if (poster && poster.textContent === 'posenc — click to load the interactive view') poster.textContent = t(poster.textContent);
    document.title = t('posenc — Transformer positional encoding explorer');
  }

  // The offer: a visit with no lang key, from a browser whose first language is Chinese, that has not
  // chosen yet. "切换到中文" switches now and later visits open in Chinese; "Keep English" ends the offer.
  function wantsChinese() {
    const first = (navigator.languages && navigator.languages[0]) || navigator.language || '';
    return /^zh\b/i.test(first);
  }
  function installLanguageOffer() {
    const offer = document.getElementById('lang-offer');
    if (!offer || !standalone || params.has('lang') || storedChoice() || !wantsChinese()) return;
    const done = function (lang) {
      storeChoice(lang);
      offer.hidden = true;
      const canvas = document.getElementById('canvas');
      if (canvas) canvas.focus();
    };
    document.getElementById('lang-offer-switch').addEventListener('click', function () {
      done('zh');
      if (window.posenc && window.posenc.ready) window.posenc.ready.then(function () { window.posenc.setState({ lang: 'zh' }); });
    });
    document.getElementById('lang-offer-keep').addEventListener('click', function () { done('en'); });
    offer.hidden = false;
  }
  installLanguageOffer();

  window.PosencLang = { t: t, tf: tf, currentLang: currentLang, hasCjk: hasCjk, languages: LANGS.slice(),
    installLanguageStart: installLanguageStart, languageFor: languageFor, followLang: followLang };
})();
