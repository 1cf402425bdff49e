// Keyboard focus, waking the app on input, and the wheel (the page or the app scrolls).
import { page, canvas, embedded, toast } from './page.js';
import { call } from './abi.js';
import { entryOpen } from './text-entry.js';

// Keyboard input: SDL reads keys from the canvas, but its mousedown handler prevents the default
// (so a click would not focus it). Focus it ourselves on any press; Tab reaches it (tabindex=0).
// (Not while a phone keyboard types into the app through the text element (text-entry.js): a tap elsewhere
// closes the app's field, and the page then gives the focus back to the canvas.)
// Tab leaves the canvas (SDL would keep it: it prevents Tab's default, a keyboard trap), except while
// one of the app's text fields is being edited (there it moves between the app's fields).
export function installFocus() {
  window.addEventListener('keydown', function (e) {
    if (e.key !== 'Tab' || e.target !== canvas || e.ctrlKey || e.altKey || e.metaKey) return;
    if (page.alive && call('posenc_text_field', 'string', [], [])) return;
    e.stopPropagation();
  }, true);
  ['pointerdown', 'touchstart'].forEach(function (type) {
    canvas.addEventListener(type, function () {
      if (document.activeElement !== canvas && !entryOpen()) canvas.focus({ preventScroll: true });
    }, { capture: true, passive: true });
  });
}

// Draw only on change: the app stops its main loop while nothing changes (no animation frames at all).
// Every input event, a resize or a change of the page wakes it at once; SDL queues the event itself
// and the app reads it in the frame this requests. (setState, theme, capture and loadModel wake it
// from the C++ side.)
function wakeApp() { if (page.alive && !page.contextLost) Module._posenc_wake(); }
export function installWake() {
  ['pointerdown', 'pointermove', 'pointerup', 'pointercancel', 'pointerover', 'pointerout', 'mousedown', 'mousemove',
    'mouseup', 'mouseover', 'mouseout', 'wheel', 'keydown', 'keyup', 'keypress', 'touchstart', 'touchmove',
    'touchend', 'touchcancel', 'focus', 'blur', 'compositionend'].forEach(function (type) {
    window.addEventListener(type, wakeApp, { capture: true, passive: true });
  });
  window.addEventListener('resize', wakeApp);
  document.addEventListener('visibilitychange', wakeApp);
  if ('ResizeObserver' in window) new ResizeObserver(wakeApp).observe(canvas);
}

// The wheel reaches the app only where it is used (a zoomable map, a scrolling panel); elsewhere
// the page keeps scrolling, so an embedded view never traps the reader's scroll. An embed is
// cooperative, as map embeds are: a plain wheel always scrolls the page around it (its document does
// not scroll, so the browser hands the wheel on to the parent), Ctrl/Cmd + wheel zooms the map under
// the pointer, and the first plain wheel over a map says so.
let wheelHinted = false;
const mac = /Mac|iP(hone|ad)/.test(navigator.platform || '');
export function installWheel() {
  document.getElementById('stage').addEventListener('wheel', function (e) {
    if (!page.alive) { e.stopPropagation(); return; }
    if (!embedded) {
      if (!Module._posenc_wants_wheel()) e.stopPropagation();
      return;
    }
    const r = canvas.getBoundingClientRect();
    const onMap = Module._posenc_zoomable_at(e.clientX - r.left, e.clientY - r.top) !== 0;
    if (onMap && (e.ctrlKey || e.metaKey)) { e.preventDefault(); return; }  // the app zooms; the browser does not
    e.stopPropagation();
    if (onMap && !wheelHinted) { wheelHinted = true; toast((mac ? '\u2318' : 'Ctrl') + ' + scroll to zoom the map'); }
  }, { capture: true, passive: false });
}
