// Sharing: the link, the embed code, the clipboard, downloads and the data export.
import { toast } from './page.js';
import { call, stateQuery } from './abi.js';

// The embed code's page script is embed.js beside this page (web/embed.js, docs/embedding.md): once
// per page, it sizes each embed to the height it asks for (posenc:height) and keeps at most 6 embeds
// live (posenc:context / grant / release).
function siteBase() { return window.location.origin + window.location.pathname.replace(/[^/]*$/, ''); }

export function linkUrl() {
  const q = new URLSearchParams(stateQuery());
  q.delete('embed'); q.delete('controls');
  return window.location.origin + window.location.pathname + '?' + q.toString();
}
// The embed code of docs/embedding.md: the iframe (only the keys that differ from a fresh view's, plus embed=1; the
// height the embed layout needs at a 720 px column, both from the app) and the page script (embed.js).
export function embedCode() {
  const h = call('posenc_embed_height', 'number', [], []);
  const src = window.location.origin + window.location.pathname + '?' + call('posenc_embed_query', 'string', [], []);
  const title = 'posenc: ' + call('posenc_view_title', 'string', [], []);
  const esc = function (t) { return t.replace(/&/g, '&amp;').replace(/"/g, '&quot;'); };
  return '<iframe src="' + esc(src) + '" width="100%" height="' + h + '" title="' + esc(title) +
    '" aria-label="' + esc(title) + ' (interactive)" loading="lazy" style="border:0"></iframe>\n' +
    '<script src="' + esc(siteBase() + 'embed.js') + '" async></scr' + 'ipt>';
}
export function copy(text, what) {
  const done = function () { toast(what + ' copied'); };
  if (navigator.clipboard && navigator.clipboard.writeText) {
    navigator.clipboard.writeText(text).then(done, function () { fallbackCopy(text); done(); });
  } else { fallbackCopy(text); done(); }
  window.posenc.lastCopied = text;
}
function fallbackCopy(text) {
  const ta = document.createElement('textarea');
  ta.value = text; document.body.appendChild(ta); ta.select();
  try { document.execCommand('copy'); } catch (e) { /* nothing else to try */ }
  ta.remove();
}
export function download(name, blob) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob); a.download = name;
  document.body.appendChild(a); a.click(); a.remove();
  setTimeout(function () { URL.revokeObjectURL(a.href); }, 1000);
}
export function exportData(format) { return call('posenc_export', 'string', ['string'], [format]); }
