// Phone text entry (docs/input.md). A canvas is not editable, so tapping one of the app's text
// fields would bring up no on-screen keyboard. While a field opened by touch is being edited (the app
// reports it through Module.onTextField), a visually hidden <input> lies over it and has the focus: the
// phone shows its keyboard, and what it types goes to the app (posenc_text_input, posenc_key). A field
// opened with the mouse changes nothing: the canvas keeps the focus and SDL reads the keys as before.
// The element always holds one sentinel character before the caret, so a Backspace on an "empty"
// element still deletes something (and fires its input event). Text is read from the element's value
// after each input event (not from keydown: an Android keyboard sends keyCode 229 and composes
// words), compared with what was already forwarded: deleted characters become Backspaces, new ones
// text, also live while a word is being composed.
import { page, canvas } from './page.js';
import { call } from './abi.js';
import { tf } from './lang.js';

const entry = document.getElementById('text-entry');
const SENTINEL = '\u200b';
let entryField = null;  // the app's field being edited by touch: {x, y, w, h, name, text}, or null
let entryShown = SENTINEL;  // the element's value as already forwarded to the app
let composing = false, entryTimer = null, touchDown = null;
export function entryOpen() { return !entry.hidden; }
function resetEntry() {
  entry.value = SENTINEL;
  entryShown = SENTINEL;
  try { entry.setSelectionRange(1, 1); } catch (e) { /* not focusable yet */ }
}
function fieldKey(f) { return (f.name || '').replace(/^(input|slider)\./, '') || 'value'; }
function showEntry(f) {
  entry.style.left = (canvas.offsetLeft + f.x) + 'px';
  entry.style.top = (canvas.offsetTop + f.y) + 'px';
  entry.style.width = Math.max(1, f.w) + 'px';
  entry.style.height = Math.max(1, f.h) + 'px';
  entry.inputMode = /^\d[\d.]*(e[+-]?\d+)?$/i.test(f.text || '') ? 'decimal' : 'text';
  entry.setAttribute('aria-label', f.text ? tf('Edit {0}, now {1}. Typing replaces it; Enter applies.', [fieldKey(f), f.text])
    : tf('Edit {0}. Typing replaces it; Enter applies.', [fieldKey(f)]));
  if (!entryOpen()) { entry.hidden = false; resetEntry(); }
  if (document.activeElement !== entry) { entry.focus({ preventScroll: true }); resetEntry(); }
}
function hideEntry() {
  clearTimeout(entryTimer);
  entryField = null;
  composing = false;
  setPreedit('');
  if (!entryOpen()) return;
  const had = document.activeElement === entry;
  entry.hidden = true;  // hiding the focused element blurs it: the keyboard closes
  if (had || document.activeElement === document.body) canvas.focus({ preventScroll: true });
}
// A desktop input method's composition (pinyin being typed) is drawn in the app's field as a preedit until
// it is committed (compositionend: the commit goes in as text); a touch keyboard's goes in live instead.
const PREEDIT_MAX = 256;
let preeditShown = false;
function setPreedit(text) {
  if (!page.alive || (!text && !preeditShown)) return;
  preeditShown = !!text;
  call('posenc_set_preedit', null, ['string'], [text.slice(0, PREEDIT_MAX)]);
}
function sendKey(key, mods) { return call('posenc_key', 'number', ['string', 'number'], [key, mods || 0]) !== 0; }
// The element's value against what the app already has: Backspaces for what went, text for what came.
function forwardEntry() {
  if (!page.alive || !entryField) return;
  // A desktop input method's composition (pinyin being typed) is not text yet: only its commit goes in.
  if (composing && !entryField.touch) return;
  const was = Array.from(entryShown), now = Array.from(entry.value);
  let p = 0;
  while (p < was.length && p < now.length && was[p] === now[p]) ++p;
  for (let i = p; i < was.length; ++i) sendKey('Backspace', 0);
  const text = now.slice(p).join('').split(SENTINEL).join('');
  if (text) call('posenc_text_input', null, ['string'], [text]);
  entryShown = entry.value;
  if (!composing) resetEntry();  // never while a keyboard composes: it would lose its word
}
// Text for the app's active field, whole: a paste (the page's, or one into the text element, whose single
// line would drop the rows) goes in with its line breaks, which a multi-line field keeps (a single-line field
// drops them); a tab, which ImGui drops, becomes a space.
export function typeIntoAppField(text) {
  call('posenc_text_input', null, ['string'], [text.replace(/\r\n?/g, '\n').replace(/\t/g, ' ')]);
}

// Keys that edit without inserting text (a keyboard attached to a tablet, a phone keyboard's Enter or
// arrows); Backspace and text come through the input event above.
const ENTRY_KEYS = ['Enter', 'Escape', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp',
  'PageDown', 'Delete'];

export function installTextEntry() {
  Module.onTextField = function (json) {
    let f = null;
    try { f = json ? JSON.parse(json) : null; } catch (e) { f = null; }
    clearTimeout(entryTimer);
    if (f && (f.touch || /^input\./.test(f.name || ''))) { entryField = f; showEntry(f); } else hideEntry();
  };
  entry.addEventListener('compositionstart', function () { composing = true; });
  entry.addEventListener('compositionupdate', function (e) {
    if (entryField && !entryField.touch) setPreedit(e.data || '');
  });
  entry.addEventListener('compositionend', function () { composing = false; setPreedit(''); forwardEntry(); });
  entry.addEventListener('input', function (e) {
    if (e.isComposing) composing = true;
    forwardEntry();
  });
  // A paste (Ctrl+V, a phone's paste button) goes to the app's field whole: an <input> would join its rows.
  entry.addEventListener('paste', function (e) {
    const text = e.clipboardData && (e.clipboardData.getData('text/plain') || e.clipboardData.getData('text'));
    if (!page.alive || !entryField || !text) return;
    e.preventDefault();
    forwardEntry();  // what was typed before it goes first
    typeIntoAppField(text);
  });
  // A line break (a textarea-like keyboard's Enter) applies the field.
  entry.addEventListener('beforeinput', function (e) {
    if (e.inputType === 'insertLineBreak' || e.inputType === 'insertParagraph') { e.preventDefault(); sendKey('Enter', 0); }
  });
  entry.addEventListener('keydown', function (e) {
    if (!page.alive || e.isComposing || e.keyCode === 229) return;
    const mods = (e.ctrlKey ? 1 : 0) | (e.shiftKey ? 2 : 0) | (e.altKey ? 4 : 0) | (e.metaKey ? 8 : 0);
    const shortcut = (e.ctrlKey || e.metaKey) && /^[aczxy]$/i.test(e.key);  // paste stays the browser's (input event)
    if (ENTRY_KEYS.indexOf(e.key) < 0 && !shortcut) return;
    e.preventDefault();
    if (e.key === 'Enter' || e.key === 'Escape') forwardEntry();  // a word still being composed goes first
    sendKey(shortcut ? e.key.toLowerCase() : e.key, mods);
  });
  // iOS shows its keyboard only for a focus inside the touch's own handler, not a frame later when the
  // app reports the field: a tap (short, still) on one of the app's text fields (input.*), or a
  // long-press (still, >= 500 ms: the app opens the slider's text field) lifted on a slider (slider.*),
  // focuses the element at once. If the app then opens no field, the canvas gets the focus back.
  canvas.addEventListener('touchstart', function (e) {
    const t = e.changedTouches[0];
    touchDown = e.touches.length === 1 ? { x: t.clientX, y: t.clientY, at: e.timeStamp } : null;
  }, { passive: true });
  canvas.addEventListener('touchend', function (e) {
    const d = touchDown, t = e.changedTouches[0];
    touchDown = null;
    if (!page.alive || !d) return;
    const held = e.timeStamp - d.at, tap = held <= 400, longPress = held >= 500;
    if (e.touches.length || !(tap || longPress) ||
        Math.abs(t.clientX - d.x) > 10 || Math.abs(t.clientY - d.y) > 10) return;
    const r = canvas.getBoundingClientRect(), x = t.clientX - r.left, y = t.clientY - r.top;
    if (entryField && tap) {
      // A tap on the field being edited after the keyboard was put away (Android's back key keeps the
      // focus): focusing the element again inside the touch brings the keyboard back.
      const f = entryField;
      if (!composing && document.activeElement === entry && x >= f.x && x <= f.x + f.w && y >= f.y && y <= f.y + f.h) {
        entry.blur();
        entry.focus({ preventScroll: true });
        resetEntry();
      }
      return;
    }
    if (entryField) return;
    const names = window.posenc.probes().filter(function (n) { return (tap ? /^input\./ : /^slider\./).test(n); });
    for (let i = 0; i < names.length; ++i) {
      const s = call('posenc_item_rect', 'string', ['string'], [names[i]]).split(',').map(Number);
      if (s.length === 4 && x >= s[0] && x <= s[0] + s[2] && y >= s[1] && y <= s[1] + s[3]) {
        entryField = { x: s[0], y: s[1], w: s[2], h: s[3], name: names[i], text: '' };
        showEntry(entryField);
        entryTimer = setTimeout(function () { if (!JSON.parse(call('posenc_text_field', 'string', [], []) || 'null')) hideEntry(); }, 1000);
        return;
      }
    }
  }, { passive: true });
}
