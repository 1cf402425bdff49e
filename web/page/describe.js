// Words for readers who never see the canvas: the live description, the hover readout, the parameter
// form (param-form.js) and the views as links.
import { page, canvas, describeEl, readoutEl, viewsNav, embedded } from './page.js';
import { call, ask } from './abi.js';
import { t, tf } from './lang.js';

// Words for assistive technology: the view's title, its formula, parameters and the numbers that matter
// (from the app's posenc_describe when it has one), and what the notices say. Read by a live region.
export function describe() {
  if (!page.alive) return null;
  let d = null;
  if (Module._posenc_describe) { try { d = JSON.parse(call('posenc_describe', 'string', [], [])); } catch (e) { d = null; } }
  if (!d) {
    const st = window.posenc.getState(), ps = {};
    Object.keys(st).forEach(function (k) { if (['view', 'embed', 'controls', 'theme', 'lang'].indexOf(k) < 0) ps[k] = st[k]; });
    d = { title: ask('posenc_view_title'), formula: ask('posenc_view_caption'), params: ps, numbers: [] };
  }
  return d;
}
// A sentence ends once: "max_distance." stays, "max_distance" gets its full stop.
// `stop`: the language's full stop where one is added (a title keeps '.').
const sentence = function (text, stop = '.') {
  text = String(text).trim();
  return /[.!?…。！？]$/.test(text) || text.endsWith(stop) ? text : text + stop;
};
// A part the template ends itself ('Formula: {0}.', Chinese '公式：{0}。'): its own full stop goes, Latin or
// Chinese, so the sentence never ends in two.
const withoutStop = function (text) { return String(text).trim().replace(/[.。]$/, ''); };
function describeText(d) {
  if (!d) return '';
  // The title's full stop is the language's (a Chinese title gets 。, never '. ').
  const parts = [d.title ? sentence(d.title, t('.')) : ''];
  if (d.formula) parts.push(tf('Formula: {0}.', [withoutStop(d.formula)]));
  const ps = d.params || {};
  const pk = Array.isArray(ps) ? ps.map(function (p) { return p.name + ' ' + p.value; }) : Object.keys(ps).map(function (k) { return k + ' = ' + ps[k]; });
  if (pk.length) parts.push(tf('Parameters: {0}.', [withoutStop(pk.join(t(', ')))]));
  const ns = (d.numbers || []).map(function (n) { return n.name + ': ' + n.value; });
  if (ns.length) parts.push(sentence(ns.join(t('; ')), t('.')));
  const notes = page.alive ? window.posenc.notices() : '';
  if (notes) parts.push(tf('Notices: {0}', [notes]));
  return parts.filter(Boolean).join(' ');
}
export function updateDescription() {
  if (!page.alive) return;
  const d = describe();
  const text = describeText(d);
  if (describeEl.textContent !== text) describeEl.textContent = text;
  const title = d && d.title ? d.title : t('explorer');
  const label = d && d.formula ? tf('posenc figure: {0} ({1})', [title, d.formula]) : tf('posenc figure: {0}', [title]);
  if (canvas.getAttribute('aria-label') !== label) canvas.setAttribute('aria-label', label);
  if (paramForm) paramForm.sync();
}
// The parameter form (param-form.js), made once the app runs.
let paramForm = null;
export function buildParamForm() {
  if (!window.PosencParamForm || !Module._posenc_form) return;
  paramForm = window.PosencParamForm({
    root: document.getElementById('params'),
    status: document.getElementById('param-status'),
    read: function () { try { return JSON.parse(call('posenc_form', 'string', [], [])); } catch (e) { return null; } },
    set: function (partial) { window.posenc.setState(partial); }
  });
}
// The views as real links (keyboard reachable, for readers who never see the canvas); not in embeds.
// Built again whenever the titles (a live language switch) or the current view change.
let viewLinksShown = '';
export function buildViewLinks() {
  if (embedded) { viewsNav.hidden = true; return; }
  const current = window.posenc.getState().view;
  const titles = Module._posenc_view_titles ? call('posenc_view_titles', 'string', [], []).split('\n') : [];
  const shown = current + '\n' + titles.join('\n');
  if (shown === viewLinksShown) return;
  viewLinksShown = shown;
  const ul = viewsNav.querySelector('ul');
  ul.textContent = '';
  window.posenc.views().forEach(function (id, i) {
    const li = document.createElement('li'), a = document.createElement('a');
    a.href = '?view=' + encodeURIComponent(id);
    a.textContent = titles[i] || id;  // the name a reader knows the view by ("RoPE", not "rope")
    if (id === current) a.setAttribute('aria-current', 'page');
    li.appendChild(a); ul.appendChild(li);
  });
}
// The hover readout (the tooltip's text, from a mouse resting on a plot or a long-press) mirrored into
// its own polite live region once it has rested 300 ms: never every frame, and the description of the
// view beside it stays as it is.
let readoutTimer = null;
export function readoutText() { return ask('posenc_hover_readout'); }
export function scheduleReadout() {
  clearTimeout(readoutTimer);
  readoutTimer = setTimeout(function () {
    const text = readoutText().replace(/\n/g, '; ');
    if (readoutEl.textContent !== text) readoutEl.textContent = text;
  }, 300);
}
