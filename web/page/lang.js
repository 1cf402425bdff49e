// The interface's language as the page's modules see it: web/posenc-lang.js (a classic script loaded
// before this page script) holds the catalogue, <html lang> and the Chinese files fetched on demand; this
// module only reaches it, and stands in with English when it is missing.
function lang() { return window.PosencLang || null; }
export function t(en) { const L = lang(); return L ? L.t(en) : en; }
export function tf(en, args) {
  const L = lang();
  return L ? L.tf(en, args) : en.replace(/\{(\d)\}/g, function (m, i) { return args[i]; });
}
// Adds to the Module's start: the Chinese files for lang=zh or CJK text in the URL.
export function installLanguageStart() { const L = lang(); if (L) L.installLanguageStart(); }
// The files a state's language needs, fetched now; a promise that resolves once they are in the app.
export function languageFor(state) { const L = lang(); return L ? L.languageFor(state) : Promise.resolve(); }
// <html lang> and the page's words follow the app's lang value.
export function followLang(value) { const L = lang(); if (L) L.followLang(value); }
