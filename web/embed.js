// posenc embed script: <script src="https://YOUR-HOST/posenc/embed.js" async></script>, once per page
// (docs/embedding.md). Optional: without it the embeds still work, each fitting the height its iframe has.
// It sizes each posenc embed to the height it asks for (posenc:height), except an iframe that says
// data-posenc-height="fixed", and keeps at most LIMIT embeds live (holding a WebGL context) at a time;
// the others show a picture of their state until scrolled to. An embed asks for a context when it
// scrolls into view (posenc:context, want); the page grants one while fewer than LIMIT are live,
// otherwise it asks the embed least recently in view to give its context back (posenc:release: it
// reloads into a picture of its state) and grants the freed context to the oldest request. A document
// id in every message keeps a reloaded embed's fresh document (which holds nothing) apart from the old
// one. The same code, inline in a <script> element, is the embed code's long form.
window.posencEmbeds = window.posencEmbeds || (() => {
  const LIMIT = 6, embeds = new Map();
  let clock = 0;
  const frameOf = (w) => [...document.querySelectorAll('iframe')].find((f) => f.contentWindow === w);
  const live = () => [...embeds.values()].filter((s) => s.live).length;
  function pump() {
    for (const w of [...embeds.keys()]) if (!frameOf(w)) embeds.delete(w);
    const all = [...embeds.entries()];
    let free = LIMIT - live(), coming = all.filter(([, s]) => s.live && s.asked).length;
    for (const [w, s] of all.filter(([, s]) => s.want && !s.live).sort((a, b) => a[1].since - b[1].since)) {
      if (free > 0) { free--; s.live = true; w.postMessage({ type: 'posenc:grant', doc: s.doc }, '*'); }
      else if (coming > 0) coming--;
      else {
        const idle = all.filter(([, o]) => o.live && !o.visible && !o.asked).sort((a, b) => a[1].seen - b[1].seen)[0];
        if (!idle) break;
        idle[1].asked = true;
        idle[0].postMessage({ type: 'posenc:release', doc: idle[1].doc }, '*');
      }
    }
  }
  addEventListener('message', (e) => {
    const m = e.data, f = m && typeof m.type === 'string' && frameOf(e.source);
    if (!f) return;
    if (m.type === 'posenc:height' && m.height > 0 && f.dataset.posencHeight !== 'fixed') f.style.height = m.height + 'px';
    if (m.type !== 'posenc:context') return;
    let s = embeds.get(e.source);
    if (!s || s.doc !== m.doc) embeds.set(e.source, s = { doc: m.doc, live: false, since: ++clock, seen: 0 });
    s.live = s.live || m.live;
    s.want = m.want;
    s.visible = m.visible;
    if (m.visible) { s.seen = ++clock; s.asked = false; }
    e.source.postMessage({ type: 'posenc:coordinator', limit: LIMIT }, '*');
    pump();
  });
  // Loaded after the embeds spoke (async): tell them a coordinator is here; they say it all again.
  for (const f of document.querySelectorAll('iframe')) if (f.contentWindow) f.contentWindow.postMessage({ type: 'posenc:coordinator', limit: LIMIT }, '*');
  return { limit: LIMIT, live };
})();
