// Sharing: the link, the embed code, the clipboard, downloads, the data export, the SVG export and the
// form's Share group (real buttons for the Share menu's items, with a live region that confirms).
import { page, toast } from './page.js';
import { call, parseQuery, stateQuery, viewId } from './abi.js';
import { tf } from './lang.js';

// The embed code's page script is embed.js beside this page (web/embed.js, docs/embedding.md): once
// per page, it sizes each embed to the height it asks for (posenc:height) and keeps at most 6 embeds
// live (posenc:context / grant / release).
function siteBase() { return window.location.origin + window.location.pathname.replace(/[^/]*$/, ''); }

// Copy link: view, the view's keys that differ from a fresh view and the app-level keys that are set (the
// app's link_query, the embed code's rule): a short link that loads exactly this state.
export function linkUrl() {
  return window.location.origin + window.location.pathname + '?' + call('posenc_link_query', 'string', [], []);
}
// The embed code of docs/embedding.md: the <posenc-figure> tag (its state: the keys that differ from a fresh
// view's, its theme) around the plain iframe (what a page without scripts shows: embed=1, the height the
// embed layout needs at a 720 px column, both from the app; data-posenc-fit: embed.js sizes it), and the
// page script (embed.js).
export function embedCode() {
  const h = call('posenc_embed_height', 'number', [], []);
  const query = call('posenc_embed_query', 'string', [], []);
  const src = window.location.origin + window.location.pathname + '?' + query;
  const title = 'posenc: ' + call('posenc_view_title', 'string', [], []);
  const esc = function (t) { return t.replace(/&/g, '&amp;').replace(/"/g, '&quot;'); };
  const theme = new URLSearchParams(query).get('theme') || 'auto';
  const state = query.split('&').filter(function (p) { return !/^(embed|theme)=/.test(p); }).join('&');
  return '<posenc-figure state="' + esc(state) + '" theme="' + esc(theme) + '">\n' +
    '<iframe src="' + esc(src) + '" width="100%" height="' + h + '" title="' + esc(title) +
    '" aria-label="' + esc(tf('{0} (interactive)', [title])) + '" loading="lazy" style="border:0" data-posenc-fit></iframe>\n' +
    '</posenc-figure>\n<script src="' + esc(siteBase() + 'embed.js') + '" async></scr' + 'ipt>';
}
// Says what was done in the Share group's live region (emptied first, so the same words are said again).
function announce(text) {
  const status = document.getElementById('share-status');
  toast(text);
  if (!status) return;
  status.textContent = '';
  setTimeout(function () { status.textContent = text; }, 50);
}
// What Copy link (what: 'Link') or Copy embed code ('Embed code') says: a second model loaded from a file
// (compare=custom) is not in the link, nor in the embed.
export function copyLinkMessage(what) {
  what = what || 'Link';
  if (parseQuery(stateQuery()).compare !== 'custom') return what + ' copied';
  return what + ' copied; the second model (loaded from a file) cannot travel in a link: it opens with ' +
    'compare=custom and no second model';
}
export function copy(text, what, message) {
  const done = function () { announce(message || what + ' copied'); };
  if (navigator.clipboard && navigator.clipboard.writeText) {
    navigator.clipboard.writeText(text).then(done, function () { fallbackCopy(text); done(); });
  } else { fallbackCopy(text); done(); }
  window.posenc.lastCopied = text;
}
// A browser that refuses navigator.clipboard (no permission, a page served over plain http): copied from a
// selected textarea. The focus goes back where it was, so a keyboard user's next Tab goes on from the button.
function fallbackCopy(text) {
  const focused = document.activeElement;
  const ta = document.createElement('textarea');
  ta.value = text; ta.setAttribute('aria-hidden', 'true'); ta.style.position = 'fixed'; ta.style.opacity = '0';
  document.body.appendChild(ta); ta.select();
  try { document.execCommand('copy'); } catch (e) { /* nothing else to try */ }
  ta.remove();
  if (focused && focused !== document.body && focused.focus) focused.focus({ preventScroll: true });
}
export function download(name, blob) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob); a.download = name;
  document.body.appendChild(a); a.click(); a.remove();
  setTimeout(function () { URL.revokeObjectURL(a.href); }, 1000);
}
// The data behind the view as text: a Promise, null when the view's tables are more than the page
// exports (the app refuses before building them and adds an `export` notice naming the size and the
// posenc export command); an Error, never a bare value, when the export fails.
export function exportData(format) {
  return new Promise(function (resolve, reject) {
    let text = '';
    try { text = call('posenc_export', 'string', ['string'], [String(format)]); } catch (e) {
      reject(e instanceof Error ? e : new Error('exportData failed: ' + String(e)));
      return;
    }
    if (text) { resolve(text); return; }
    const why = window.posenc.noticeList().filter(function (n) { return n.key === 'export'; }).pop();
    if (why) resolve(null);
    else reject(new Error('exportData: the app wrote nothing'));
  });
}
function exportDownload(format) {
  return exportData(format).then(function (text) {
    if (text === null) { announce(window.posenc.noticeList().filter(function (n) { return n.key === 'export'; }).pop().message); return; }
    download('posenc-' + viewId() + '.' + format, new Blob([text], { type: format === 'csv' ? 'text/csv' : 'application/json' }));
  }, function (e) { announce(e.message); });
}

// The SVG export: the app records its next (chrome-less) frame and hands the document over (onSvg) with
// each heatmap's picture as RGBA bytes, which the page turns into PNGs with a canvas of its own.
const svgWaiting = [];
export function exportSvg(options) {
  return new Promise(function (resolve, reject) {
    if (!page.alive) { reject(new Error('exportSvg: posenc is not running')); return; }
    svgWaiting.push(resolve);
    call('posenc_request_svg', null, ['number'], [options && options.transparent ? 1 : 0]);
  });
}
export function onSvg() {
  let svg = call('posenc_svg', 'string', [], []);
  const images = Module._posenc_svg_image_count();
  for (let i = 0; i < images; ++i) {
    const v = call('posenc_svg_image', 'string', ['number'], [i]).split(',').map(Number);
    const c = document.createElement('canvas');
    c.width = v[0]; c.height = v[1];
    const pixels = new Uint8ClampedArray(Module.HEAPU8.buffer, v[2], v[0] * v[1] * 4).slice();
    c.getContext('2d').putImageData(new ImageData(pixels, v[0], v[1]), 0, 0);
    svg = svg.split('"posenc-image:' + i + '"').join('"' + c.toDataURL('image/png') + '"');
  }
  const waiting = svgWaiting.splice(0);
  if (waiting.length) waiting.forEach(function (resolve) { resolve(svg); });
  else download('posenc-' + viewId() + '.svg', new Blob([svg], { type: 'image/svg+xml' }));
}

// One Share action, from the menu (the app's onAction) or the form's buttons.
export function share(name) {
  if (name === 'copy-link') copy(linkUrl(), 'Link', copyLinkMessage());
  else if (name === 'copy-embed') copy(embedCode(), 'Embed code', copyLinkMessage('Embed code'));
  else if (name === 'export-csv' || name === 'export-json') exportDownload(name.slice(7));
  else if (name === 'export-png' && page.alive) call('posenc_request_capture', null, [], []);  // onCapture downloads
  else if (name === 'export-svg' && page.alive) exportSvg().then(function (svg) {
    download('posenc-' + viewId() + '.svg', new Blob([svg], { type: 'image/svg+xml' }));
  });
}
// The form's Share group: each button does what its menu item does.
export function installShare() {
  const group = document.getElementById('share');
  if (!group) return;
  group.addEventListener('click', function (e) {
    const b = e.target.closest && e.target.closest('button[data-share]');
    if (b) share(b.getAttribute('data-share'));
  });
}
