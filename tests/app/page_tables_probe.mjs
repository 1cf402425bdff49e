// What the page decides from its copy of the app's tables: runs posenc-lang.js as the build writes it
// (cmake/page_tables.cmake) outside a browser, with a bare window, and prints its languages and whether it
// finds CJK text in each code point given, as JSON (tests/app/page_tables_test.cpp compares them with the app's).
//   node page_tables_probe.mjs <posenc-lang.js> [code point]...
import { readFileSync } from 'node:fs';
import vm from 'node:vm';

const [file, ...points] = process.argv.slice(2);
const stored = {};
const window = { location: { search: '', href: 'http://localhost/index.html', hash: '' } };
window.parent = window;
const context = {
  window,
  document: { getElementById: () => null, querySelector: () => null, documentElement: {}, title: '' },
  navigator: { languages: ['en'], language: 'en' },
  localStorage: { getItem: (k) => stored[k] ?? null, setItem: (k, v) => { stored[k] = String(v); } },
  history: { replaceState() {} },
  URLSearchParams,
  URL,
  Module: {},
};
vm.runInNewContext(readFileSync(file, 'utf8'), context, { filename: file });
const lang = context.window.PosencLang;
console.log(JSON.stringify({
  languages: Array.from(lang.languages),
  cjk: points.map((p) => lang.hasCjk(String.fromCodePoint(Number(p)))),
}));
