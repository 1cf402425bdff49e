// The page around the explorer (index.html, built from shell.html): loads the wasm module (at once, or
// for an embed when it scrolls into view), mirrors the app's state into the address bar, carries out
// the UI's actions (clipboard, downloads), talks to a parent page when embedded, and offers window.posenc,
// the API embedders and the browser tests use, and keeps a page of embeds within a bound of live WebGL
// contexts (contexts.js). The C++ side is src/platform/web_api.h.
//
// The modules of web/page/ are assembled at build time into the one served posenc-page.js
// (scripts/assemble-js.mjs, then minified): one scope, in the order ES modules evaluate.
// page.js      the page's elements, shared state, failure, toast, poster
// abi.js       calls into the wasm module; the state query
// share.js     link, embed code, clipboard, downloads, data export
// describe.js  the live description, hover readout, parameter form, view links
// model-files.js  config.json / GGUF / tensor files into the app
// weights.js   the Frequency usage view's weights report: usage= URL, files, folders, progress
// loader.js    Emscripten's Module (the app's callbacks), starting the module, the theme
// api.js       window.posenc
// input.js     keyboard focus, waking the app, the wheel
// text-entry.js  a phone keyboard typing into the app's text fields
// touch.js     touch gestures and the boxes that claim them
// contexts.js  the embed's height, parent messages, posters, live WebGL contexts
import { installModelFiles } from './model-files.js';
import { installModule, installSystemTheme, start } from './loader.js';
import { installApi } from './api.js';
import { installFocus, installWake, installWheel } from './input.js';
import { installTextEntry } from './text-entry.js';
import { installTouch } from './touch.js';
import { installContextLoss, installContexts } from './contexts.js';
import { installShare } from './share.js';
import { installWeights } from './weights.js';

// In this order: listeners on one target run in the order they were added.
installModelFiles();
installWeights();
installModule();
installApi();
installShare();
installFocus();
installTextEntry();
installWake();
installTouch();
installContextLoss();
installWheel();
installSystemTheme();
installContexts(start);  // last: it may start the module at once
