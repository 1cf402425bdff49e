// The current view's parameters as a real HTML form (docs/accessibility.md, "The parameter form"), for
// the keyboard and for assistive technology: the canvas draws its own controls, which neither reaches.
// The form is generated from the view's one parameter declaration (src/app/params.h, read through the
// page ABI's posenc_form): a range input (a slider of its own for a logarithmic real; plus an exact
// number field) for a number, a select for a
// choice, a checkbox for a flag, a text field for a list or a text, each labelled with the declared
// label and carrying data-param="<URL key>". Only the parameters the current state's controls show (the
// ones that matter for the current scheme) have a row. A change in the form sets the app's state; a
// change in the app (its own controls, setState, the URL, a model load) updates the form (sync()).
// posenc-page.js creates it once the app runs: PosencParamForm({read, set, root, status}).
(function () {
  'use strict';

  // A point on a logarithmic track, rounded to 3 significant digits (a short URL); the arrow keys' steps
  // come from the app (the declaration's "steps").
  function round3(v) {
    if (!(v > 0)) return v;
    const mag = Math.pow(10, Math.floor(Math.log10(v)) - 2);
    return Math.round(v / mag) * mag;
  }
  // The shortest text of a number (no float noise like 0.30000000000000004).
  function numberText(v) { return String(Number(v.toPrecision(12))); }

  window.PosencParamForm = function (api) {
    const root = api.root, status = api.status;
    const rowsEl = root.querySelector('.param-rows');
    const headingEl = root.querySelector('.param-heading');
    let rows = {};        // key -> {row, el, exact, msg, decl}
    let view = '';
    let announce = null;  // the key a form change set: the status region says its new value at the next sync
    let rejected = {};    // key -> text the user committed that the app refused (shown with its notice)
    let words = { exact: ', exact value', on: 'on', off: 'off', empty: '(empty)' };  // the app's, per language
    let heading = '';

    function idFor(key, part) { return 'param-' + key.replace(/[^A-Za-z0-9_-]/g, '_') + (part ? '-' + part : ''); }
    function isRange(d) { return d.kind === 'integer' || d.kind === 'real'; }
    // A logarithmic real moves on the exponent (base 2..1e7 would be useless on a linear range);
    // integers stay linear so an arrow key is one unit.
    function logRange(d) { return d.kind === 'real' && d.log; }
    function fromRange(d, x) {
      let v = Number(x);
      v = Math.min(d.max, Math.max(d.min, v));
      return d.kind === 'integer' ? String(Math.round(v)) : numberText(v);
    }
    function choiceLabel(d, name) {
      for (let i = 0; i < d.choices.length; ++i) if (d.choices[i].name === name) return d.choices[i].label;
      return name;
    }
    // The value as the status region says it.
    function spoken(d) {
      if (d.kind === 'flag') return d.value === '1' ? words.on : words.off;
      if (d.kind === 'choice') return choiceLabel(d, d.value);
      return d.value === '' ? words.empty : d.value;
    }

    // quiet: set without the status region saying the value (a text being typed, a pasted tensor).
    function commit(key, value, quiet) {
      if (!quiet) announce = key;
      const partial = {};
      partial[key] = value;
      // A text whose edit also selects another key's value (the Check view's tensor: source=text), as the
      // app's own field does (the declaration's "selects").
      const selects = rows[key] && rows[key].decl.selects;
      if (selects) Object.keys(selects).forEach(function (k) { partial[k] = selects[k]; });
      api.set(partial);
    }

    // A logarithmic real (a base from 2 to 1e7): a slider of its own (role=slider), since a native range
    // would move and speak its exponent. Its value is the app's exact value; an arrow moves it one step of
    // the app's arrow keys (the declaration's "steps": the app computes them), Page Up/Down 10 steps,
    // Home/End go to the ends; a press or drag on the track sets the value at that point.
    function makeLogSlider(d, label) {
      const el = document.createElement('div');
      el.setAttribute('role', 'slider');
      el.tabIndex = 0;
      el.className = 'param-log';
      label.id = idFor(d.key, 'label');
      el.setAttribute('aria-labelledby', label.id);
      const thumb = document.createElement('span');
      thumb.className = 'param-thumb';
      el.appendChild(thumb);
      const keys = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1, PageUp: 10, PageDown: -10 };
      el.addEventListener('keydown', function (e) {
        const decl = rows[d.key].decl, v = Number(decl.value);
        let next;
        if (e.key === 'Home') next = decl.min;
        else if (e.key === 'End') next = decl.max;
        else if (keys[e.key] && decl.steps) next = decl.steps[String(keys[e.key] * (e.shiftKey ? 10 : 1))];
        else return;
        e.preventDefault();
        next = Math.min(decl.max, Math.max(decl.min, next));
        if (next !== v) commit(d.key, numberText(next));
      });
      let dragging = false;
      function at(e) {
        const decl = rows[d.key].decl, box = el.getBoundingClientRect();
        const t = Math.min(1, Math.max(0, (e.clientX - box.left) / Math.max(1, box.width)));
        let v = round3(Math.pow(10, Math.log10(decl.min) + t * (Math.log10(decl.max) - Math.log10(decl.min))));
        v = Math.min(decl.max, Math.max(decl.min, v));
        if (numberText(v) !== decl.value) commit(d.key, numberText(v));
      }
      el.addEventListener('pointerdown', function (e) { dragging = true; el.setPointerCapture(e.pointerId); el.focus(); at(e); });
      el.addEventListener('pointermove', function (e) { if (dragging) at(e); });
      el.addEventListener('pointerup', function () { dragging = false; });
      el.addEventListener('pointercancel', function () { dragging = false; });
      return el;
    }

    function makeRow(d) {
      const row = document.createElement('div');
      row.className = 'param-row param-' + d.kind;
      const label = document.createElement('label');
      label.className = 'param-label';
      label.textContent = d.label;
      const msg = document.createElement('span');
      let el, exact = null;
      msg.className = 'param-msg';
      msg.id = idFor(d.key, 'msg');
      if (isRange(d)) {
        el = logRange(d) ? makeLogSlider(d, label) : document.createElement('input');
        if (!logRange(d)) {
          el.type = 'range';
          el.addEventListener('input', function () { commit(d.key, fromRange(rows[d.key].decl, el.value)); });
        }
        exact = document.createElement('input');
        exact.type = 'number';
        exact.className = 'param-exact';
        exact.setAttribute('data-param-exact', d.key);
        exact.setAttribute('aria-label', d.label + words.exact);
        exact.addEventListener('change', function () { if (exact.value !== '') commit(d.key, exact.value); });
      } else if (d.kind === 'choice' && d.widget !== 'checkbox') {
        el = document.createElement('select');
        d.choices.forEach(function (c) {
          const o = document.createElement('option');
          o.value = c.name;
          o.textContent = c.label;
          el.appendChild(o);
        });
        el.addEventListener('change', function () { commit(d.key, el.value); });
      } else if (d.kind === 'flag' || d.kind === 'choice') {
        el = document.createElement('input');
        el.type = 'checkbox';
        el.addEventListener('change', function () {
          const decl = rows[d.key].decl;
          commit(d.key, decl.kind === 'flag' ? (el.checked ? '1' : '0') : decl.choices[el.checked ? 1 : 0].name);
        });
        row.className += ' param-check';
      } else {
        // A multi-line text (the Check view's tensor: one row a line) is a textarea: Enter starts a row,
        // Tab leaves the field (the browser's default). It is applied as it changes (a paste, each
        // keystroke), so the figure never shows what the text it replaced gave (a verdict of the old
        // tensor); a one-line text is applied by Enter or when it loses focus.
        el = document.createElement(d.multiline ? 'textarea' : 'input');
        if (d.multiline) { el.rows = 4; el.wrap = 'off'; } else el.type = 'text';
        el.spellcheck = false;
        el.autocomplete = 'off';
        el.addEventListener('input', function () {
          el.dataset.dirty = '1';
          if (rows[d.key].decl.multiline) commit(d.key, el.value, true);
        });
        // (A tensor's rows are not read aloud: the description says its shape and verdict.)
        el.addEventListener('change', function () { delete el.dataset.dirty; commit(d.key, el.value, rows[d.key].decl.multiline); });
      }
      el.id = idFor(d.key);
      el.setAttribute('data-param', d.key);
      el.className = (el.className ? el.className + ' ' : '') + 'param-control';
      if (el.tagName !== 'DIV') label.htmlFor = el.id;
      if (el.type === 'checkbox') { row.appendChild(el); row.appendChild(label); }
      else {
        row.appendChild(label);
        const line = document.createElement('span');
        line.className = 'param-line';
        line.appendChild(el);
        if (exact) line.appendChild(exact);
        row.appendChild(line);
      }
      row.appendChild(msg);
      return { row: row, el: el, exact: exact, msg: msg, decl: d };
    }

    // Values, ranges and validation of one row from the declaration `d`.
    function update(r, d) {
      r.decl = d;
      const el = r.el, focused = document.activeElement;
      if (isRange(d) && logRange(d)) {
        el.setAttribute('aria-valuemin', String(d.min));
        el.setAttribute('aria-valuemax', String(d.max));
        el.setAttribute('aria-valuenow', d.value);
        el.setAttribute('aria-valuetext', d.value);
        const t = (Math.log10(Number(d.value)) - Math.log10(d.min)) / (Math.log10(d.max) - Math.log10(d.min));
        el.firstChild.style.left = (100 * Math.min(1, Math.max(0, t))) + '%';
      } else if (isRange(d)) {
        // Integers on their grid (1, or 2 when even); reals exact (step any: the arrows move 1/100 of the
        // range, as the app's arrow keys).
        el.min = String(d.min); el.max = String(d.max); el.step = d.kind === 'integer' ? String(d.step) : 'any';
        if (el.value !== d.value) el.value = d.value;
      }
      if (isRange(d)) {
        r.exact.min = String(d.min); r.exact.max = String(d.max);
        r.exact.step = d.kind === 'integer' ? String(d.step) : 'any';
        if (focused !== r.exact && r.exact.value !== d.value) r.exact.value = d.value;
      } else if (el.tagName === 'SELECT') {
        if (el.value !== d.value) el.value = d.value;
      } else if (el.type === 'checkbox') {
        el.checked = d.kind === 'flag' ? d.value === '1' : d.value === d.choices[1].name;
      } else {
        // Text the app refused stays in the field with the reason until the value moves another way.
        if (rejected[d.key] !== undefined && (!d.notice || rejected[d.key].value !== d.value)) delete rejected[d.key];
        let want = rejected[d.key] !== undefined ? rejected[d.key].text : d.value;
        // The state writes a multi-line text's rows as "a; b" (a URL value): the textarea shows one a line.
        if (d.multiline && rejected[d.key] === undefined) want = want.replace(/;[ \t]*/g, '\n');
        if (!(focused === el && el.dataset.dirty) && el.value !== want) el.value = want;
      }
      const notice = d.notice || '';
      if (r.msg.textContent !== notice) r.msg.textContent = notice;
      [el, r.exact].forEach(function (c) {
        if (!c) return;
        if (notice) { c.setAttribute('aria-invalid', 'true'); c.setAttribute('aria-describedby', r.msg.id); }
        else { c.removeAttribute('aria-invalid'); c.removeAttribute('aria-describedby'); }
      });
      r.row.title = d.help && d.help !== d.label ? d.help : '';
    }

    // Rows for the shown parameters in declaration order; a row whose key stays keeps its element (and
    // the focus).
    function reconcile(shown) {
      const keep = {};
      shown.forEach(function (d) { keep[d.key] = true; });
      Object.keys(rows).forEach(function (k) {
        if (!keep[k]) { rows[k].row.remove(); delete rows[k]; }
      });
      let ref = rowsEl.firstChild;
      shown.forEach(function (d) {
        let r = rows[d.key];
        if (r && r.decl.kind !== d.kind) { r.row.remove(); r = null; }
        if (!r) r = rows[d.key] = makeRow(d);
        if (r.row === ref) ref = ref.nextSibling;
        else rowsEl.insertBefore(r.row, ref);
      });
    }

    function sync() {
      const f = api.read();
      if (!f || !f.params) return;
      root.hidden = f.controls === false;
      if (f.words) words = f.words;
      // Another view, or another language (its labels): the rows are made again.
      const head = f.heading || f.title + ' parameters';
      if (f.view !== view || head !== heading) {
        view = f.view;
        heading = head;
        rowsEl.textContent = '';
        rows = {};
        rejected = {};
        headingEl.textContent = head;
        root.setAttribute('aria-label', head);
      }
      const shown = f.params.filter(function (d) { return d.shown; });
      reconcile(shown);
      shown.forEach(function (d) { update(rows[d.key], d); });
      if (announce !== null) {
        const d = f.params.filter(function (p) { return p.key === announce; })[0];
        announce = null;
        if (d) status.textContent = d.label + ': ' + spoken(d) + (d.notice ? '. ' + d.notice : '');
      }
    }

    // Enter in a text field applies it (the form is never submitted).
    root.addEventListener('submit', function (e) {
      e.preventDefault();
      const el = document.activeElement;
      if (el && el.getAttribute && el.getAttribute('data-param') && el.type === 'text') {
        delete el.dataset.dirty;
        const key = el.getAttribute('data-param');
        const before = rows[key] ? rows[key].decl.value : null;
        if (el.value !== before) commit(key, el.value);
      }
    });
    // A committed text the app refused: kept in the field (with the notice) until the value moves.
    const set = api.set;
    api.set = function (partial) {
      Object.keys(partial).forEach(function (k) {
        const r = rows[k];
        if (r && r.el.type === 'text') rejected[k] = { text: String(partial[k]), value: r.decl.value };
      });
      set(partial);
    };
    // Visible while a control has the focus (a sighted keyboard user sees what they change); the figure
    // keeps the rest of the page (the page lays the canvas out above it).
    root.addEventListener('focusin', function (e) {
      const opening = !document.body.classList.contains('form-open');
      document.body.classList.add('form-open');
      // The browser scrolled the control into view while the form was still hidden: again, now it shows.
      if (opening) {
        root.scrollTop = 0;
        if (e.target && e.target.scrollIntoView) e.target.scrollIntoView({ block: 'nearest' });
      }
    });
    root.addEventListener('focusout', function (e) {
      if (!e.relatedTarget || !root.contains(e.relatedTarget)) document.body.classList.remove('form-open');
    });
    sync();
    return { sync: sync };
  };
})();
