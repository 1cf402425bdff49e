// Touch (docs/input.md): the app decides per gesture whether a touch is its own (it starts on a
// zoomable plot, or turns into a sideways drag, a long-press, a two-finger pinch on a plot); only then
// is the event's default (the page's scroll or zoom) prevented, so the page around an embed still
// scrolls under a vertical swipe. Inside an iframe the page scrolls vertically (pan-y); the app's own
// page does not scroll, so there a vertical swipe scrolls the app's panel under the finger.
// An embed (embed=1 in an iframe) is cooperative, as map embeds are: one finger anywhere, a map
// included, is the page's (touch-action pan-y everywhere and no box claims the maps, so the browser
// chains the swipe to the page around by itself, across origins and with no page script); two fingers
// on a map are the app's (pinch-zoom is not the browser's there); the first swipe over a map says so.
import { page, canvas, inFrame, embedded, toast } from './page.js';
import { call } from './abi.js';

const cooperative = embedded && inFrame;
let hinted = false;

// The maps are claimed before any event: the browser decides at touchstart, from CSS, what it may do
// with a gesture, and may deliver that touchstart uncancelable (a fling still running), so a
// preventDefault() alone would come too late. Over each zoomable map of the last frame lies a box
// with touch-action: none; it takes pointer events only on a device whose pointer cannot hover (a
// touch screen), so a mouse still reaches the canvas itself. Its touches go to the same handler.
const claimsEl = document.createElement('div');
let claimsKey = '';
export function updateTouchClaims() {
  const key = !cooperative && page.alive && !page.contextLost && Module._posenc_zoomable_rects ? call('posenc_zoomable_rects', 'string', [], []) : '';
  if (key === claimsKey) return;
  claimsKey = key;
  claimsEl.textContent = '';
  key.split(';').forEach(function (rect) {
    const v = rect.split(',').map(Number);
    if (v.length !== 4 || !(v[2] > 0 && v[3] > 0)) return;
    const d = document.createElement('div');
    d.style.left = v[0] + 'px'; d.style.top = v[1] + 'px'; d.style.width = v[2] + 'px'; d.style.height = v[3] + 'px';
    claimsEl.appendChild(d);
  });
}
const touchTarget = function (t) { return t === canvas || t.parentNode === claimsEl; };
export function installTouch() {
  canvas.style.touchAction = cooperative ? 'pan-y' : inFrame ? 'pan-y pinch-zoom' : 'pinch-zoom';
  claimsEl.id = 'touch-claims';
  claimsEl.addEventListener('contextmenu', function (e) { e.preventDefault(); });  // a long-press is the readout
  canvas.parentNode.insertBefore(claimsEl, canvas.nextSibling);
  [['touchstart', 0], ['touchmove', 1], ['touchend', 2], ['touchcancel', 3]].forEach(function (p) {
    document.getElementById('stage').addEventListener(p[0], function (e) {
      if (!page.alive || !Module._posenc_touch || !touchTarget(e.target)) return;
      const r = canvas.getBoundingClientRect();
      let own = false, hint = false;
      for (let i = 0; i < e.changedTouches.length; ++i) {
        const t = e.changedTouches[i];
        const said = Module._posenc_touch(p[1], t.identifier, t.clientX - r.left, t.clientY - r.top, e.cancelable ? 1 : 0, e.timeStamp);
        own = (said & 1) !== 0 || own;
        hint = (said & 2) !== 0 || hint;
      }
      if (own && e.cancelable) e.preventDefault();
      if (hint && !hinted) { hinted = true; toast('Use two fingers to move the map'); }
    }, { passive: false });
  });
}
