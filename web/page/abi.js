// Calls into the wasm module (the page ABI, src/platform/web_api.h) and the state query it speaks.
import { page } from './page.js';

// ccall copies a string argument onto the wasm stack (5 MiB, at 4 bytes a character): a 2 MiB string
// overflows it and the module is dead. A long string goes through a malloc'd buffer instead.
const STACK_STRING_MAX = 1024;
export function call(name, ret, args, vals) {
  if (!Module.calledRun) throw new Error('posenc: ' + name + ' before the app runs (wait for window.posenc.ready)');
  const owned = [];
  try {
    for (let i = 0; i < args.length; ++i) {
      if (args[i] !== 'string' || typeof vals[i] !== 'string' || vals[i].length <= STACK_STRING_MAX) continue;
      const bytes = new TextEncoder().encode(vals[i]);
      const p = Module._malloc(bytes.length + 1);
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
// The most the app takes of each kind of file, and of a state value, in bytes: the app's table
// (src/app/file_limits.h), read once through posenc_file_limits; the page keeps no copy of a limit.
let fileLimits = null;
export function fileLimit(key) {
  if (!fileLimits) fileLimits = JSON.parse(call('posenc_file_limits', 'string', [], []));
  if (!(key in fileLimits)) throw new Error('posenc: the app names no file limit ' + key);
  return fileLimits[key];
}
// A state value longer than any key takes (the app's state_value limit) is cut to one character past it
// before it is copied into the app, which then names it in a notice: the copy is bounded however long the
// value.
function capped(v) {
  const max = fileLimit('state_value');
  v = String(v);
  return v.length > max ? v.slice(0, max + 1) : v;
}
export function cappedQuery(state) {
  const out = new URLSearchParams();
  Object.keys(state).forEach(function (k) { out.append(capped(k), capped(state[k])); });
  return out.toString();
}
export function setStateQuery(query) { call('posenc_set_state', null, ['string'], [query]); }
export function stateQuery() { return call('posenc_get_state', 'string', [], []); }
export function parseQuery(q) { const out = {}; new URLSearchParams(q).forEach(function (v, k) { out[k] = v; }); return out; }
export function pageTheme() { document.body.classList.toggle('light', !call('posenc_is_dark', 'number', [], [])); }
// A string the app returns, or '' while it is not running yet (a question asked before window.posenc.ready,
// e.g. an embedder polling probes(), has no answer rather than an error) or when this build has no such
// function.
export function ask(name, args = [], vals = []) {
  return page.alive && Module['_' + name] ? call(name, 'string', args, vals) : '';
}
export function viewId() { return parseQuery(stateQuery()).view || 'view'; }
