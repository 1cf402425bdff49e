// posenc embed script: <script src="https://YOUR-HOST/posenc/embed.js" async></script>, once per page
// (docs/embedding.md). Optional: without it the embeds still work, each fitting the height its iframe has.
// It defines <posenc-figure state="view=rope&factor=8" theme="dark|light|auto" height lang figure
// controls>, which renders the embed's iframe near the viewport and removes it far away (keeping its
// height and the reader's state). It sizes each embed to the height it asks for (posenc:height), but only
// an iframe it created or one that asks (data-posenc-fit), never one marked data-posenc-height="fixed":
// any other iframe keeps the height its author gave it. It keeps at most LIMIT embeds live (holding a
// WebGL context) at a time; the others show a picture of their state until scrolled to. An embed asks
// for a context when it scrolls into view (posenc:context, want); the page grants one while fewer than
// LIMIT are live, otherwise it asks the embed least recently in view to give its context back
// (posenc:release: it reloads into a picture of its state) and grants the freed context to the oldest
// request. A document id in every message keeps a reloaded embed's fresh document (which holds nothing)
// apart from the old one. Only its own iframes count: a message is read only from an iframe of this page
// whose document is on posenc's site (where this script came from, or a <posenc-figure>'s iframe's
// site), so another frame on the page can neither claim a live slot nor be sized. It keeps every iframe
// it sizes within MAX_HEIGHT CSS pixels, and a figure's state within MAX_STATE characters (a longer
// address gets "414 URI Too Long" from a host): a state over it, or one that is not a query (a malformed
// %-escape), is a notice in the figure. The same code, inline in a <script> element, is the embed code's
// long form.
window.posencEmbeds = window.posencEmbeds || (() => {
  const LIMIT = 6, MAX_HEIGHT = 8192, MAX_STATE = 8192, embeds = new Map(), script = document.currentScript;
  let clock = 0;
  const originOf = (src) => { try { const o = new URL(src, location.href).origin; return o === 'null' ? '' : o; } catch (e) { return ''; } };
  const siteOrigin = script && script.src ? originOf(script.src) : '';
  const inFigure = (f) => f.parentNode && f.parentNode.localName === 'posenc-figure';
  // An iframe's site: where its src points (none for srcdoc, about:, data: or blob: documents).
  const frameSite = (f) => f.hasAttribute('srcdoc') || !f.getAttribute('src') ? '' : originOf(f.src);
  // The iframes that are posenc's: on embed.js's site, or a figure's own (its site when pasted inline).
  const ownFrames = () => [...document.querySelectorAll('iframe')].filter((f) => f.contentWindow && frameSite(f) &&
    (frameSite(f) === siteOrigin || inFigure(f)));
  const frameOf = (w, origin) => ownFrames().find((f) => f.contentWindow === w && frameSite(f) === origin);
  const live = () => [...embeds.values()].filter((s) => s.live).length;
  function pump() {
    for (const [w, s] of [...embeds]) if (!frameOf(w, s.origin)) embeds.delete(w);
    const all = [...embeds.entries()];
    let free = LIMIT - live(), coming = all.filter(([, s]) => s.live && s.asked).length;
    for (const [w, s] of all.filter(([, s]) => s.want && !s.live).sort((a, b) => a[1].since - b[1].since)) {
      if (free > 0) { free--; s.live = true; w.postMessage({ type: 'posenc:grant', doc: s.doc }, s.origin); }
      else if (coming > 0) coming--;
      else {
        const idle = all.filter(([, o]) => o.live && !o.visible && !o.asked).sort((a, b) => a[1].seen - b[1].seen)[0];
        if (!idle) break;
        idle[1].asked = true;
        idle[0].postMessage({ type: 'posenc:release', doc: idle[1].doc }, idle[1].origin);
      }
    }
  }
  addEventListener('message', (e) => {
    const m = e.data, f = m && typeof m.type === 'string' && frameOf(e.source, e.origin);
    if (!f) return;
    if (m.type === 'posenc:height' && m.height > 0 && f.hasAttribute('data-posenc-fit') && f.dataset.posencHeight !== 'fixed') f.style.height = Math.min(MAX_HEIGHT, m.height) + 'px';
    if (m.type === 'posenc:state' && m.state && f.parentNode && f.parentNode.localName === 'posenc-figure') f.parentNode.lastState = m.state;
    if (m.type !== 'posenc:context') return;
    let s = embeds.get(e.source);
    if (!s || s.doc !== m.doc) embeds.set(e.source, s = { doc: m.doc, origin: e.origin, live: false, since: ++clock, seen: 0 });
    s.live = s.live || m.live;
    s.want = m.want;
    s.visible = m.visible;
    if (m.visible) { s.seen = ++clock; s.asked = false; }
    e.source.postMessage({ type: 'posenc:coordinator', limit: LIMIT }, e.origin);
    pump();
  });
  // Loaded after the embeds spoke (async): tell them a coordinator is here; they say it all again.
  for (const f of ownFrames()) f.contentWindow.postMessage({ type: 'posenc:coordinator', limit: LIMIT }, frameSite(f));

  // <posenc-figure>: the site is where this script came from (or, pasted inline, where the figure's own
  // fallback iframe points). Each view's title names the iframe before it loads (a test keeps the list
  // equal to the app's views).
  const TITLES = { waves: 'PE waves', frequencies: 'Frequencies', similarity: 'Similarity', buckets: 'Bias buckets',
    scores: 'Scores', rope: 'RoPE', permutation: 'Permutation', toy: 'Toy sentence', model: 'Model', check: 'Check',
    usage: 'Frequency usage' };
  // The same in Chinese, for an embed with lang=zh (the app's catalogue's words; a test keeps them equal).
  const TITLES_ZH = { waves: '位置编码波形', frequencies: '频率', similarity: '相似度', buckets: '偏置分桶',
    scores: '注意力分数', rope: '旋转位置编码 RoPE', permutation: '置换', toy: '玩具句子', model: '模型', check: '核对',
    usage: '频率使用' };
  const KEYS = ['lang', 'figure', 'controls'], siteOf = (src) => src ? new URL(src, location.href).href.replace(/[?#].*$/, '').replace(/[^/]*$/, '') : '';
  // The height an embed of `q` needs at `width` before it loads (docs/embedding.md: padding, the Controls
  // line, the formula line, plots at a 4:3 box of at most 560 px); it then asks for its own.
  const reserve = (q, width) => 16 + ({ 0: 0, false: 0, compact: 96 }[q.get('controls')] ?? 23) + 17 + Math.min(560, 0.75 * (width || 720));
  const params = (src) => { const q = new URLSearchParams(new URL(src, location.href).search); if (q.get('theme') === 'auto') q.delete('theme'); return [...q].sort().join('&'); };
  class PosencFigure extends HTMLElement {
    static get observedAttributes() { return ['state', 'theme', 'height', ...KEYS]; }
    connectedCallback() {
      // Made within a screen of the viewport, removed past three (a far embed holds no document).
      this.io = this.io || [new IntersectionObserver((es) => es.some((x) => x.isIntersecting) && this.render(), { rootMargin: '100% 0px' }),
        new IntersectionObserver((es) => es.every((x) => !x.isIntersecting) && this.drop(), { rootMargin: '300% 0px' })];
      this.io.forEach((o) => o.observe(this));
      this.render(true);
    }
    disconnectedCallback() { this.io.forEach((o) => o.disconnect()); }
    attributeChangedCallback() { if (this.frame) { this.lastState = null; this.stale = true; this.render(); } }
    // The iframe's query, and what a notice in the figure says about the state (or '').
    query() {
      const state = (this.lastState ? new URLSearchParams(this.lastState).toString() : this.getAttribute('state') || '').replace(/^\?/, '');
      const q = new URLSearchParams(state), own = ['embed', 'theme', ...KEYS.filter((k) => this.hasAttribute(k))];
      const decoded = (t) => { try { return decodeURIComponent(t.replace(/\+/g, ' ')); } catch (e) { return null; } };
      const bad = [];
      let out = state.split('&').filter((p) => {
        const key = decoded(p.split('=')[0]);
        if (p && (key === null || decoded(p) === null)) bad.push(p);
        return p && key !== null && decoded(p) !== null && !own.includes(key);
      }).join('&');
      const quote = (t) => JSON.stringify(t.length > 40 ? t.slice(0, 40) + '…' : t);
      let notice = bad.length ? 'posenc: the state\'s ' + bad.map(quote).join(', ') + ' is not a URL query (a malformed %-escape): ignored.' : '';
      if (out.length > MAX_STATE) {
        const view = q.get('view');
        notice = 'posenc: the state is ' + out.length + ' characters, more than the ' + MAX_STATE + ' an address may carry: ' +
          'the figure shows ' + (view && view.length <= 40 ? 'the ' + view + ' view' : 'the first view') + ' with its defaults.';
        out = view && view.length <= 40 ? 'view=' + encodeURIComponent(view) : '';
      }
      out += (out ? '&' : '') + 'embed=1&theme=' + encodeURIComponent((this.getAttribute('theme') || q.get('theme') || 'auto').slice(0, 40));
      for (const k of KEYS) if (this.hasAttribute(k)) out += '&' + k + '=' + encodeURIComponent(this.getAttribute(k).slice(0, 200));
      return { query: out, notice };
    }
    // A line above the figure saying what of its state it cannot show (role status: read when it comes).
    notice(text) {
      let n = this.querySelector(':scope > .posenc-notice');
      if (!text) { if (n) n.remove(); return; }
      if (!n) {
        n = document.createElement('p');
        n.className = 'posenc-notice';
        n.setAttribute('role', 'status');
        this.prepend(n);
      }
      n.textContent = text;
    }
    // The iframe: adopted from the fallback inside the tag, or made when near the viewport (`first`: only
    // reserve its height, so the text below does not move when it comes).
    render(first) {
      if (this.frame && !this.stale) return;
      this.stale = false;
      const fallback = this.querySelector(':scope > iframe'), ns = this.querySelector(':scope > noscript');
      const site = siteOf(script && script.src) || siteOf(fallback && fallback.getAttribute('src')) ||
        siteOf(ns && (ns.textContent.match(/src="([^"]*)"/) || [])[1]);
      const { query: q, notice } = this.query(), view = new URLSearchParams(q).get('view') || 'waves', h = this.getAttribute('height');
      this.notice(notice);
      const height = h ? (/^\d+(\.\d+)?$/.test(h) ? Math.min(MAX_HEIGHT, +h) + 'px' : h) : reserve(new URLSearchParams(q), this.clientWidth) + 'px';
      if (!site || (first && !fallback)) { if (!this.frame) this.style.minHeight = height; return; }
      const f = this.frame || fallback || document.createElement('iframe'), src = site + 'index.html?' + q;
      const zh = new URLSearchParams(q).get('lang') === 'zh';
      const title = 'posenc: ' + ((zh ? TITLES_ZH : TITLES)[view] || view);
      f.title = title;
      f.setAttribute('aria-label', zh ? title + '（可交互）' : title + ' (interactive)');
      f.toggleAttribute('data-posenc-fit', !h);
      f.style.maxHeight = MAX_HEIGHT + 'px';
      if (h) f.dataset.posencHeight = 'fixed'; else delete f.dataset.posencHeight;
      if (!f.getAttribute('src') || params(f.getAttribute('src')) !== params(src)) f.src = src;
      if (h) f.style.height = height;
      else if (!this.frame) f.style.height = this.style.minHeight || height;
      if (!f.isConnected) {
        Object.assign(f, { width: '100%', loading: 'lazy' });
        f.style.border = '0';
        f.style.display = 'block';
        this.appendChild(f);
      }
      this.style.minHeight = '';
      this.frame = f;
    }
    // Far away: the iframe goes (its WebGL context and memory with it); the tag keeps its height and the
    // state the reader left it in, for when it comes near again.
    drop() {
      if (!this.frame) return;
      this.style.minHeight = this.frame.getBoundingClientRect().height + 'px';
      this.frame.remove();
      this.frame = null;
      this.stale = false;
    }
  }
  if (window.customElements && !customElements.get('posenc-figure')) {
    const css = document.createElement('style');
    css.textContent = 'posenc-figure{display:block}posenc-figure>.posenc-notice{margin:0 0 .4em;font:13px/1.4 system-ui,sans-serif;color:#b3261e}';
    document.head.prepend(css);
    customElements.define('posenc-figure', PosencFigure);
  }
  return { limit: LIMIT, live };
})();
