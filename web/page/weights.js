// The Frequency usage view's inputs: a weights report (the JSON `posenc weights --json` writes) from the
// URL key usage= (a same-origin relative URL, fetched with its size bounded), a dropped or picked JSON file,
// or a model folder / weights files read by the app's weights reader; the progress bar with Cancel while
// reading; window.posenc.loadWeights. Everything goes into the app through posenc_load_usage.
import { page, ready } from './page.js';
import { call, fileLimit, parseQuery, viewId } from './abi.js';
import { updateDescription } from './describe.js';
import { t, tf } from './lang.js';

const folderInput = document.getElementById('weights-folder');
const filesInput = document.getElementById('weights-files');
const progressEl = document.getElementById('weights-progress');
const progressBar = document.getElementById('weights-progress-bar');
const progressText = document.getElementById('weights-progress-text');
const cancelButton = document.getElementById('weights-cancel');
const weightsGroup = document.getElementById('weights-files-group');
let reading = null;  // the read in progress: {cancelled}
let fetchedUrl = '';  // the usage= URL last fetched (or being fetched)

function showProgress(doneItems, totalItems, doneBytes, totalBytes, what) {
  progressEl.hidden = false;
  const fraction = totalBytes > 0 ? Math.min(1, doneBytes / totalBytes) : 0;
  progressBar.value = fraction;
  progressBar.max = 1;
  const mb = function (b) { return (b / 1e6).toFixed(b < 1e7 ? 2 : 1); };
  progressText.textContent = tf('{0}: {1} / {2} tensors, {3} / {4} MB', [what, doneItems, totalItems, mb(doneBytes), mb(totalBytes)]);
}
function hideProgress() { progressEl.hidden = true; }

// The JSON's bytes into the view; returns the view's state query.
function loadUsageBytes(bytes, size, source, fromUrl, failure) {
  const p = bytes ? Module._posenc_model_buffer(bytes.length) : 0;
  if (p) Module.HEAPU8.set(bytes, p);
  return call('posenc_load_usage', 'string', ['number', 'number', 'string', 'number', 'string'],
    [p, size, source, fromUrl ? 1 : 0, failure || '']);
}
function after(query, fromUrl) {
  // A file's report clears usage= (a link cannot carry it): the page's state follows the view's, and a
  // usage= set again is fetched again.
  if (!fromUrl) fetchedUrl = '';
  if (!fromUrl && query) window.posenc.setState(parseQuery(query));
  else if (page.alive) Module._posenc_wake();
  updateDescription();
  return window.posenc.noticeList();
}

// A body read in chunks, refused past `max` bytes (a Content-Length over it is refused before reading).
function readBounded(response, max, state) {
  const declared = Number(response.headers.get('Content-Length') || 0);
  if (declared > max) return Promise.reject(new Error(tf('the JSON is {0} bytes; the limit is {1} MiB', [declared, max >> 20])));
  if (!response.body || !response.body.getReader) {
    return response.arrayBuffer().then(function (b) {
      if (b.byteLength > max) throw new Error(tf('the JSON is {0} bytes; the limit is {1} MiB', [b.byteLength, max >> 20]));
      return new Uint8Array(b);
    });
  }
  const reader = response.body.getReader(), parts = [];
  let total = 0;
  return (function next() {
    return reader.read().then(function (r) {
      if (state.cancelled) { reader.cancel(); throw new Error(t('cancelled')); }
      if (r.done) {
        const all = new Uint8Array(total);
        let at = 0;
        parts.forEach(function (p) { all.set(p, at); at += p.length; });
        return all;
      }
      total += r.value.length;
      if (total > max) { reader.cancel(); throw new Error(tf('the JSON is over {0} MiB', [max >> 20])); }
      parts.push(r.value);
      showProgress(0, 1, total, Math.max(total, declared), t('Reading the weights JSON'));
      return next();
    });
  })();
}

// usage= names a JSON the view waits for: fetch it once (same origin only) and load it.
export function followUsage() {
  if (!page.alive || viewId() !== 'usage') return;
  const wanted = call('posenc_usage_wanted', 'string', [], []);
  if (!wanted || wanted === fetchedUrl) return;
  fetchedUrl = wanted;
  let url;
  try { url = new URL(wanted, window.location.href); } catch (e) { url = null; }
  const state = { cancelled: false };
  reading = state;
  const failed = function (why) { return after(loadUsageBytes(null, 0, wanted, true, why), true); };
  if (!url || url.origin !== window.location.origin) { failed(t('not a URL on this site')); return; }
  fetch(url.href, { credentials: 'same-origin' }).then(function (r) {
    if (!r.ok) throw new Error('HTTP ' + r.status + (r.statusText ? ' ' + r.statusText : ''));
    return readBounded(r, fileLimit('usage_json'), state);
  }).then(function (bytes) {
    if (fetchedUrl !== wanted) return;
    after(loadUsageBytes(bytes, bytes.length, wanted, true, ''), true);
  }, function (e) {
    if (fetchedUrl !== wanted) return;
    failed(tf('could not fetch it ({0})', [String((e && e.message) || e).slice(0, 200)]));
  }).then(function () { if (reading === state) { reading = null; hideProgress(); } });
}

function isWeightsFile(name) { return /\.(safetensors|gguf)$/i.test(name) || /(^|\/)config\.json$/i.test(name) || /\.index\.json$/i.test(name); }

// Files (a picked or dropped folder's, or single files) into the view. A lone JSON that is not a model's
// config.json or index is a weights report; anything else goes to the app's weights reader. Resolves to
// {json, notices}: json is the report as the CLI writes it (parsed), or {error, field}.
export function loadUsageFiles(files) {
  files = Array.prototype.slice.call(files || []);
  return ready.then(function () {
    if (!files.length) return { json: { error: 'no files', field: 'files' }, notices: [] };
    const weights = files.filter(function (f) { return isWeightsFile(f.webkitRelativePath || f.name); });
    if (weights.length === 0 && files.length === 1) return loadReportFile(files[0]);
    return readWeights(files);
  });
}
function loadReportFile(file) {
  const name = file.name;
  if (file.size > fileLimit('usage_json')) {
    const notices = after(loadUsageBytes(null, file.size, name, false, ''), false);
    return { json: { error: tf('the JSON is {0} bytes; the limit is {1} MiB', [file.size, fileLimit('usage_json') >> 20]), field: 'usage' }, notices: notices };
  }
  window.posenc.fileReads.push([0, file.size]);
  return file.arrayBuffer().then(function (buf) {
    const bytes = new Uint8Array(buf);
    const notices = after(loadUsageBytes(bytes, bytes.length, name, false, ''), false);
    let json;
    const failure = notices.filter(function (n) { return n.key === 'usage' && /^cannot compute|^Cannot compute|无法计算/.test(n.message); })[0];
    try { json = failure ? { error: failure.message, field: 'usage' } : JSON.parse(new TextDecoder().decode(bytes)); } catch (e) {
      json = { error: String(e.message || e), field: 'usage' };
    }
    return { json: json, notices: notices };
  });
}
// Model weights read by the app's weights reader (posenc_weights_*, the same reader as posenc weights).
function readWeights(files) {
  const source = (files[0].webkitRelativePath || files[0].name).split('/')[0] || files[0].name;
  return readWeightsWithReader(files, source);
}
// The app's weights reader (src/platform/web_api.h, docs/weights.md "The page"): each weight file's header
// by prefixes it asks for, config.json and the shard index as text, then the plan's byte ranges read with
// File.slice in 16 MiB reads (a Blob read costs about the same per call whatever its size: Chromium read 16 MiB
// slices twice as fast as 4 MiB ones, bench/README.md) and fed in order in 4 MiB pieces (the wasm heap holds one
// piece), then the report (what posenc weights --json writes).
const READ = 16 << 20, CHUNK = 4 << 20, TEXT_MAX = 16 << 20;
function bytesCall(name, extra, bytes) {
  const p = bytes && bytes.length ? Module._posenc_model_buffer(bytes.length) : 0;
  if (p) Module.HEAPU8.set(bytes, p);
  const types = extra.map(function (v) { return typeof v === 'number' ? 'number' : 'string'; });
  return JSON.parse(call(name, 'string', types.concat(['number', 'number']), extra.concat([p, bytes ? bytes.length : 0])) || '{}');
}
function sliceBytes(file, from, to) {
  window.posenc.fileReads.push([from, to]);
  return file.slice(from, to).arrayBuffer().then(function (b) { return new Uint8Array(b); });
}
function readWeightsWithReader(files, source) {
  const state = { cancelled: false };
  reading = state;
  const named = function (re) { return files.filter(function (f) { return re.test(f.webkitRelativePath || f.name); }); };
  const weightFiles = named(/\.(safetensors|gguf)$/i), config = named(/(^|\/)config\.json$/i)[0];
  const index = named(/\.index\.json$/i)[0];
  const fail = function (error) {
    Module._posenc_weights_cancel();
    const why = error.field ? error.field + ': ' + error.error : String(error.error || error);
    const notices = after(loadUsageBytes(null, 0, source, false, why), false);
    return { json: { error: error.error || String(error), field: error.field || null }, notices: notices };
  };
  const check = function (r) { if (r && r.error) throw r; if (state.cancelled) throw { error: t('cancelled'), field: null }; return r; };
  Module._posenc_weights_begin();
  let chain = Promise.resolve();
  weightFiles.forEach(function (f) {
    chain = chain.then(function () {
      const step = function (bytes) {
        const r = check(bytesCall('posenc_weights_file', [f.name, f.size], bytes));
        if (r.ok) return null;
        return sliceBytes(f, 0, Math.min(f.size, r.need)).then(step);
      };
      return step(null);
    });
  });
  [['config', config], ['index', index]].forEach(function (pair) {
    if (!pair[1]) return;
    chain = chain.then(function () {
      if (pair[1].size > TEXT_MAX) throw { error: tf('the JSON is {0} bytes; the limit is {1} MiB', [pair[1].size, TEXT_MAX >> 20]), field: pair[0] };
      return sliceBytes(pair[1], 0, pair[1].size).then(function (b) { check(bytesCall('posenc_weights_text', [pair[0]], b)); });
    });
  });
  return chain.then(function () {
    const plan = check(JSON.parse(call('posenc_weights_plan', 'string', ['string'], ['']) || '{}'));
    const byName = {};
    weightFiles.forEach(function (f) { byName[f.name] = f; });
    let done = 0, ranges = 0;
    showProgress(0, plan.tensors, 0, plan.bytes, source);
    const chunks = [];
    plan.ranges.forEach(function (range) {
      const file = byName[plan.files[range.file]];
      for (let at = 0; at < range.length; at += READ)
        chunks.push([file, range.offset + at, range.offset + Math.min(range.length, at + READ)]);
    });
    // Two reads ahead: the browser reads the next two while the app decodes this one (at most three 16 MiB reads
    // held in JS, one 4 MiB piece in the heap); two slices in flight read about 1.4x faster than one.
    let next = 0;
    const read = function () {
      const c = chunks[next++];
      if (!c) return null;
      const p = sliceBytes(c[0], c[1], c[2]);
      p.catch(function () { /* feed sees it; a read left behind by a cancel is not an unhandled rejection */ });
      return p;
    };
    const ahead = [];
    const fill = function () {
      while (ahead.length < 2) {
        const p = read();
        if (!p) return;
        ahead.push(p);
      }
    };
    fill();
    const feed = function () {
      if (!ahead.length) return Promise.resolve();
      return ahead.shift().then(function (b) {
        check(null);
        fill();
        for (let at = 0; at < b.length; at += CHUNK) {
          const r = check(bytesCall('posenc_weights_feed', [], b.subarray(at, Math.min(b.length, at + CHUNK))));
          done = r.bytes_done || done + Math.min(CHUNK, b.length - at);
          ranges = r.ranges_done || ranges;
        }
        showProgress(Math.min(ranges, plan.tensors), plan.tensors, done, plan.bytes, source);
        return feed();
      });
    };
    return feed();
  }).then(function () {
    const text = call('posenc_weights_finish', 'string', [], []);
    const json = check(JSON.parse(text));
    Module._posenc_weights_cancel();  // the reading's memory
    const bytes = new TextEncoder().encode(text);
    const notices = after(loadUsageBytes(bytes, bytes.length, source, false, ''), false);
    return { json: json, notices: notices };
  }).catch(fail).then(function (r) { if (reading === state) { reading = null; hideProgress(); } return r; });
}

// A dropped folder: its files, from DataTransferItem.webkitGetAsEntry (one level of folders is a model's).
function entryFiles(entry, prefix) {
  if (entry.isFile) {
    return new Promise(function (resolve) {
      entry.file(function (f) {
        try { Object.defineProperty(f, 'webkitRelativePath', { value: prefix + f.name }); } catch (e) { /* read-only */ }
        resolve([f]);
      }, function () { resolve([]); });
    });
  }
  if (!entry.isDirectory) return Promise.resolve([]);
  const reader = entry.createReader(), all = [];
  return new Promise(function (resolve) {
    (function more() {
      reader.readEntries(function (entries) {
        if (!entries.length) {
          Promise.all(all.map(function (e) { return e.isFile ? entryFiles(e, prefix + entry.name + '/') : Promise.resolve([]); }))
            .then(function (lists) { resolve([].concat.apply([], lists)); });
          return;
        }
        all.push.apply(all, entries);
        more();
      }, function () { resolve([]); });
    })();
  });
}
export function loadUsageDrop(dataTransfer) {
  const items = Array.prototype.slice.call(dataTransfer.items || []);
  const entries = items.map(function (it) { return it.webkitGetAsEntry ? it.webkitGetAsEntry() : null; }).filter(Boolean);
  if (entries.length) {
    return Promise.all(entries.map(function (e) { return entryFiles(e, ''); })).then(function (lists) {
      return loadUsageFiles([].concat.apply([], lists));
    });
  }
  return loadUsageFiles(dataTransfer.files);
}

export function openWeightsPicker(folder) {
  const input = folder ? folderInput : filesInput;
  input.value = '';
  input.click();
}
// The form's Weights buttons: only in the Frequency usage view.
export function updateWeightsButtons() { if (weightsGroup) weightsGroup.hidden = viewId() !== 'usage'; }

export function installWeights() {
  [folderInput, filesInput].forEach(function (input) {
    input.addEventListener('change', function () { if (input.files && input.files.length) loadUsageFiles(input.files); });
  });
  const folderButton = document.getElementById('load-weights-folder');
  const filesButton = document.getElementById('load-weights-files');
  if (folderButton) folderButton.addEventListener('click', function () { openWeightsPicker(true); });
  if (filesButton) filesButton.addEventListener('click', function () { openWeightsPicker(false); });
  cancelButton.addEventListener('click', function () {
    if (reading) reading.cancelled = true;
    hideProgress();
  });
}
