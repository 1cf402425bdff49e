// window.posenc: the page's API, used by embedders and by the browser tests.
import { page, ready, canvas, describeEl } from './page.js';
import { call, ask, cappedQuery, setStateQuery, stateQuery, parseQuery } from './abi.js';
import { linkUrl, embedCode, exportData, exportSvg, copyLinkMessage } from './share.js';
import { describe, updateDescription, readoutText } from './describe.js';
import { loadFile, loadModel, loadCompareModel, check } from './model-files.js';
import { contextInfo } from './contexts.js';
import { loadUsageFiles } from './weights.js';
import { languageFor } from './lang.js';

export function installApi() {
  window.posenc = {
    ready: ready,
    frameCount: function () { return page.alive ? Module._posenc_frame_count() : 0; },
    // Draw again (the app draws only on change; input, setState and resizes wake it by themselves).
    wake: function () { if (page.alive) Module._posenc_wake(); },
    // The text the live region reads (title, formula, parameters, numbers), and its parts.
    description: function () { updateDescription(); return describeEl.textContent; },
    describe: describe,
    getState: function () { return parseQuery(stateQuery()); },
    setState: function (partial) {
      // The state the partial reaches is the app's to say (a new view or another preset model starts
      // fresh, keeping the app-level keys: app/url_state.h's merged_state).
      const next = call('posenc_merged_state', 'string', ['string', 'string'], [stateQuery(), cappedQuery(partial || {})]);
      // The language's files (the Chinese catalogue, the CJK face) are fetched now, not a frame later when
      // the app asks; the promise resolves once they are in the app.
      const files = languageFor(parseQuery(next));
      setStateQuery(next);
      Module.onStateChange();
      return files;
    },
    notices: function () { return ask('posenc_notices'); },
    // The same, structured: [{key, message}], one entry per URL key.
    noticeList: function () { return JSON.parse(ask('posenc_notice_list') || '[]'); },
    // Every view id in menu order.
    views: function () { return (ask('posenc_view_ids') || '').split(',').filter(Boolean); },
    // A view's figures, the main one first (the figure a small embed shows alone); [] for no such view.
    figures: function (view) {
      return (ask('posenc_view_figures', ['string'], [String(view)]) || '').split(',').filter(Boolean);
    },
    linkUrl: linkUrl,
    // What Copy link says about the state (a second model loaded from a file is not in the link).
    copyLinkMessage: copyLinkMessage,
    embedCode: embedCode,
    exportData: exportData,
    // A config.json text or a GGUF header (ArrayBuffer) into the views that take models; returns the notices.
    loadModel: loadModel,
    // The same for the Model view's second model (compare=custom); returns the notices.
    loadCompareModel: loadCompareModel,
    // A File or Blob (file picker, drop): config.json as text (8 MiB at most), a GGUF through Blob.slice
    // prefixes of its start only (1 MiB, then 4x more while the header goes on, 64 MiB at most: the app's
    // limits, src/app/file_limits.h), never the whole file. Resolves to the notices. The slices read are
    // kept in fileReads (for tests).
    loadFile: loadFile,
    // Files (File objects: a model folder's, weights files, or a JSON written by posenc weights --json) into
    // the Frequency usage view; resolves to the report as posenc weights --json writes it, or {error, field}.
    loadWeights: function (files) { return loadUsageFiles(files).then(function (r) { return r.json; }); },
    // The `check` op of posenc eval: a request -> its response object, or {error, field}.
    check: check,
    fileReads: [],
    // SVG of the current view as the PNG export draws it: a Promise of the markup ({transparent: true}: no
    // background). docs/figures.md.
    exportSvg: exportSvg,
    // PNG of the current view (chrome-less, at canvas size x devicePixelRatio) as a data: URL.
    exportPng: function () {
      return new Promise(function (resolve) {
        window.posenc.quietCapture = true;
        const before = window.posenc.lastCapture;
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
      const s = ask('posenc_item_rect', ['string'], [name]);
      if (!s) return null;
      const p = s.split(',').map(Number), r = canvas.getBoundingClientRect();
      return { x: r.left + p[0], y: r.top + p[1], width: p[2], height: p[3] };
    },
    // The key of the focused slider (the one the arrow keys step: last clicked, dragged or entered), or "".
    focusedSlider: function () { return ask('posenc_focused_slider'); },
    // The hover readout of the last frame (what its tooltip says; "" if none), lines joined by "\n".
    readout: readoutText,
    // The visible part of a zoomable plot (heatmap.<name> or plot.<figure>) as fractions of the whole
    // matrix: {x, y, width, height} in [0, 1] ({0, 0, 1, 1} unzoomed), or null if it was not drawn.
    zoom: function (name) {
      const s = ask('posenc_zoom', ['string'], [name]);
      if (!s) return null;
      const p = s.split(',').map(Number);
      return { x: p[0], y: p[1], width: p[2], height: p[3] };
    },
    probes: function () { return (ask('posenc_probe_names') || '').split(',').filter(Boolean); },
    // Every text drawn in the last frame, as drawn: {texts: [{lines, ends, wrapped, data}], truncated}.
    drawnText: function () {
      const s = ask('posenc_drawn_text');
      return s ? JSON.parse(s) : { texts: [], truncated: false };
    },
    started: function () { return page.started; },
    // Whether this page holds (or is creating) a WebGL context; how the page coordinates it (tests).
    hasContext: function () { return page.started && !page.releasing; },
    contextInfo: contextInfo
  };
}
