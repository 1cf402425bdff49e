// Model files: a config.json, a GGUF header or (in the Check view) a tensor, from the file picker, a drop,
// a paste or the API, as bytes into the wasm buffer and then posenc_load_model / posenc_load_tensor.
import { page, ready, canvas, modelFile } from './page.js';
import { call, fileLimit, parseQuery, viewId } from './abi.js';
import { updateDescription } from './describe.js';
import { loadUsageDrop } from './weights.js';
import { typeIntoAppField } from './text-entry.js';

// Returns the state query to load, or '' when `prefix` bytes end inside a GGUF header (read more).
// `target`: the view the model goes to (the one shown), or 'compare' (the Model view's second model).
function loadBytes(bytes, size, prefix, target) {
  const p = bytes ? Module._posenc_model_buffer(bytes.length) : 0;
  if (p) Module.HEAPU8.set(bytes, p);
  return call('posenc_load_model', 'string', ['number', 'number', 'number', 'string'],
    [p, size, prefix ? 1 : 0, target || viewId()]);
}
// UTF-8 bytes of a string, without encoding it.
function utf8Length(text) {
  let n = 0;
  for (let i = 0; i < text.length; ++i) {
    const c = text.charCodeAt(i);
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
  const part = file.slice(0, end);
  return part.arrayBuffer ? part.arrayBuffer() : new Response(part).arrayBuffer();
}
// A tensor for the Check view: the whole file (the app's tensor_file limit at most) into posenc_load_tensor.
function loadTensorBytes(bytes, size, name) {
  const p = bytes ? Module._posenc_model_buffer(bytes.length) : 0;
  if (p) Module.HEAPU8.set(bytes, p);
  return call('posenc_load_tensor', 'string', ['number', 'number', 'string'], [p, size, name || '']);
}
export function loadFile(file, target) {
  // The sniff reads 4 bytes (GGUF's magic); the Check view reads 16 to tell a .npy or text from a config.
  return ready.then(function () { return readSlice(file, Math.min(viewId() === 'check' ? 16 : 4, file.size)); }).then(function (head) {
    const h = new Uint8Array(head);
    const gguf = h.length >= 4 && h[0] === 71 && h[1] === 71 && h[2] === 85 && h[3] === 70;  // "GGUF"
    // In the Check view a .npy (its magic "\x93NUMPY"), a text or a JSON array is a tensor; a JSON
    // object is still a config.json for the reference.
    const npy = h.length >= 6 && h[0] === 0x93 && h[1] === 78 && h[2] === 85 && h[3] === 77 && h[4] === 80 && h[5] === 89;
    const first = String.fromCharCode.apply(null, Array.prototype.slice.call(h)).replace(/^[\s\ufeff]+/, '').charAt(0);
    if (!target && viewId() === 'check' && !gguf && (npy || first !== '{')) {
      if (file.size > fileLimit('tensor_file')) return applyLoaded(loadTensorBytes(null, file.size, file.name));
      return readSlice(file, file.size).then(function (all) {
        return applyLoaded(loadTensorBytes(new Uint8Array(all), file.size, file.name));
      });
    }
    if (!gguf) {
      if (file.size > fileLimit('config_json')) return applyLoaded(loadBytes(null, file.size, false, target));  // a notice, not a read
      return readSlice(file, file.size).then(function (all) { return applyLoaded(loadBytes(new Uint8Array(all), file.size, false, target)); });
    }
    const step = function (n) {
      return readSlice(file, n).then(function (buf) {
        const more = n < file.size && n < fileLimit('gguf_header');
        const query = loadBytes(new Uint8Array(buf), n, more, target);
        return query ? applyLoaded(query) : step(Math.min(file.size, fileLimit('gguf_header'), n * 4));
      });
    };
    return step(Math.min(file.size, fileLimit('gguf_first_read')));
  });
}
// A config.json text or a GGUF header (ArrayBuffer) into the views that take models; returns the notices.
// Nothing over the app's limits is copied into the app (config_json; a GGUF header is read from
// prefixes of the bytes, as loadFile reads a file): the app names the size in a notice.
export function loadModel(data, target) {
  if (typeof data === 'string') {
    const size = utf8Length(data);
    if (size > fileLimit('config_json')) return applyLoaded(loadBytes(null, size, false, target));
    data = new TextEncoder().encode(data);
  }
  const b = new Uint8Array(data);
  const gguf = b.length >= 4 && b[0] === 71 && b[1] === 71 && b[2] === 85 && b[3] === 70;  // "GGUF"
  if (!gguf) return applyLoaded(b.length > fileLimit('config_json') ? loadBytes(null, b.length, false, target) : loadBytes(b, b.length, false, target));
  for (let n = Math.min(b.length, fileLimit('gguf_first_read')); ; n = Math.min(b.length, fileLimit('gguf_header'), n * 4)) {
    const query = loadBytes(b.subarray(0, n), n, n < b.length && n < fileLimit('gguf_header'), target);
    if (query) return applyLoaded(query);
  }
}
// A second model for the Model view to compare with (compare=custom; a link cannot carry it): a config.json
// text or a GGUF header, as loadModel takes them. Returns the notices.
export function loadCompareModel(data) { return loadModel(data, 'compare'); }
// The file picker, for the model shown or (the Model view's "Load second model") the one compared with.
let pickerTarget = '';
export function openModelFile(compare) {
  pickerTarget = compare ? 'compare' : '';
  modelFile.value = '';
  modelFile.click();
}
// The form's "Load second model" button (a keyboard reaches it with Tab): only in the Model view.
const compareGroup = document.getElementById('model-files');
export function updateModelFileButtons() {
  if (compareGroup) compareGroup.hidden = viewId() !== 'model';
}
// The `check` op of posenc eval: a request object ({op: 'check', reference, kind, actual, ...}) ->
// exactly its response object, or {error, field} as posenc eval reports bad input.
// Any argument gets an answer, never an exception: what JSON cannot write (a cycle, a BigInt, a getter
// that throws) is {error, field} naming the request's top-level key that holds it.
export function check(request) {
  let text;
  try {
    text = typeof request === 'string' ? request : JSON.stringify(request);
  } catch (e) {
    let field = null;
    if (request && typeof request === 'object') {
      Object.keys(request).some(function (k) {
        try { JSON.stringify(request[k]); return false; } catch (_) { field = k; return true; }
      });
    }
    const why = String((e && e.message) || e).replace(/\s+/g, ' ').slice(0, 200);
    return { error: (field ? field + ': ' : '') + 'the request cannot be written as JSON (' + why + ')', field: field };
  }
  try {
    const b = new TextEncoder().encode(text === undefined ? '' : text);
    const p = Module._posenc_model_buffer(b.length);
    if (p) Module.HEAPU8.set(b, p);
    return JSON.parse(call('posenc_check', 'string', ['number', 'number'], [p, b.length]));
  } catch (e) {
    return { error: 'the request could not be checked: ' + String((e && e.message) || e).slice(0, 200), field: null };
  }
}
export function installModelFiles() {
  const compareButton = document.getElementById('load-compare');
  if (compareButton) compareButton.addEventListener('click', function () { openModelFile(true); });
  modelFile.addEventListener('change', function () {
    const f = modelFile.files && modelFile.files[0];
    if (f) loadFile(f, pickerTarget).then(updateDescription);
  });
  // A file dropped anywhere on the page; text pasted while the canvas has the focus (below).
  window.addEventListener('dragover', function (e) {
    if (e.dataTransfer && Array.prototype.indexOf.call(e.dataTransfer.types || [], 'Files') >= 0) e.preventDefault();
  });
  window.addEventListener('drop', function (e) {
    const f = e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files[0];
    if (!f) return;
    e.preventDefault();
    // The Frequency usage view takes a model folder, weights files or a weights JSON (weights.js).
    if (page.alive && viewId() === 'usage') { loadUsageDrop(e.dataTransfer); return; }
    if (page.alive) loadFile(f).then(updateDescription);
  });
  document.addEventListener('paste', function (e) {
    if (!page.alive || document.activeElement !== canvas || !e.clipboardData) return;
    const text = e.clipboardData.getData('text/plain') || e.clipboardData.getData('text');
    if (!text) return;
    if (/^\s*\{/.test(text)) {
      e.preventDefault();
      window.posenc.loadModel(text);
      updateDescription();
      return;
    }
    // Other text: SDL's clipboard in the browser is its own (it never reads the system's), so the page
    // types it into the app's active text field whole (typeIntoAppField); with no field active, the Check
    // view takes it as its tensor. (A field being edited has the page's text element focused instead: its
    // own paste handler does the same, text-entry.js.)
    const field = call('posenc_text_field', 'string', [], []);
    if (field) {
      e.preventDefault();
      typeIntoAppField(text);
    } else if (viewId() === 'check') {
      e.preventDefault();
      window.posenc.setState({ source: 'text', tensor: text });
      updateDescription();
    }
  });
}
