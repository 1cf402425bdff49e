// The page ABI: every function the page (web/page/, assembled into posenc-page.js) calls in the wasm
// module, through Module.ccall / Module._name, and nothing else is exported. They are listed in the order
// the page first calls them, top to bottom, so this file reads opposite the page's script; the last two serve the browser
// tests and benchmarks only. Each reaches the explorer through the web runner (page_runner(),
// web_runner.h), which owns the app; before the runner has started (the page may call in early) each
// returns its empty answer (0, "" or "[]"/"{}" as noted) and does nothing else.
//
// Strings returned stay valid until the next call of the same function. Names, signatures and behaviour
// are the page's contract (window.posenc, docs/embedding.md): change them together with the page.
#pragma once

extern "C" {

// ---- page helpers (stateQuery, pageTheme)
// The state as a URL query string (the URL's keys).
const char* posenc_get_state();
// 1 when the app draws in its dark theme (the page follows with its own colours).
int posenc_is_dark();

// ---- linkUrl: Share -> Copy link
// The link's URL query: view, the view's keys that differ from a fresh view, the app-level keys that are
// set (App::link_query: the embed code's rule, without embed=1).
const char* posenc_link_query();

// ---- embedCode: Share -> Copy embed code
// The embed's iframe height and its URL query (only non-default keys, embed=1): App::embed_height,
// App::embed_query; and the view's title for the iframe's title.
int posenc_embed_height();
const char* posenc_embed_query();
const char* posenc_view_title();

// ---- describe: words for assistive technology (the page's live region)
// The current view as JSON {title, formula, params, numbers} ("{}" before start), and its one-line
// formula (its caption), which the page uses when describe gives nothing.
const char* posenc_describe();
const char* posenc_view_caption();

// ---- the parameter form (web/param-form.js): the current view's declaration as JSON (App::form,
// app/param_form.h), and every view's title in menu order, one a line (the view links' names).
const char* posenc_form();
const char* posenc_view_titles();

// ---- loadBytes: window.posenc.loadModel / loadFile
// The app's file limits (app/file_limits.h), the one table the page reads its limits from: a JSON object of
// byte counts, {"config_json": 8388608, "gguf_header": 67108864, ...} (web/page/abi.js fileLimit).
const char* posenc_file_limits();
// A buffer of `len` bytes for the page to fill, or null when len is over the largest file limit.
unsigned char* posenc_model_buffer(unsigned len);
// Loads `len` bytes at `ptr` (a config.json or GGUF header; null = too large) into every view that takes
// models. `prefix` != 0: the bytes are the start of a larger file, and a GGUF header that goes on past
// them returns "" (the page reads a longer prefix, up to the gguf_header limit). Otherwise returns the state query of
// `view` if it takes models (model, rope, scores), else the Model view's; errors become notices naming
// the key path. Frees the buffer.
const char* posenc_load_model(const unsigned char* ptr, unsigned len, int prefix, const char* view);
// A tensor file (.npy, or text: rows of numbers / JSON arrays; null = too large) into the Check view
// (source=file, named `name`); returns its state query. Frees the buffer.
const char* posenc_load_tensor(const unsigned char* ptr, unsigned len, const char* name);

// ---- the Frequency usage view (web/page/weights.js): a weights report's JSON (`len` bytes at `ptr`, from
// posenc_model_buffer; null = larger than the usage_json limit) into the view: from_url 1 when it is the usage= URL's
// (`source` = that URL), else a file or the page's weights reader (`source` names it); `failure` non-empty:
// why the page could not get it (the view's error naming usage). Returns the view's state query. Frees the
// buffer. posenc_usage_wanted: the usage= URL the view shown waits for ("" when none): the page fetches it.
const char* posenc_load_usage(const unsigned char* ptr, unsigned len, const char* source, int from_url, const char* failure);
const char* posenc_usage_wanted();

// ---- check: window.posenc.check, the `check` op of posenc eval
// The request text (`len` bytes at `ptr`, from posenc_model_buffer) -> the check response JSON, or
// {"error": message, "field": field or null} as posenc eval writes on bad input. Frees the buffer.
const char* posenc_check(const unsigned char* ptr, unsigned len);

// ---- loadWeights: window.posenc.loadWeights and the usage view's loading (docs/weights.md, "The page"):
// the same reading as `posenc weights` (model_io/weights_session.h), driven by the page's File.slice reads.
// These work before the runner has started. Every answer that can fail is JSON: {"error", "field"} on bad
// input, as posenc weights writes it. Buffers come from posenc_model_buffer and are freed by the call.
// Starts a new reading (a reading in progress is dropped).
void posenc_weights_begin();
// A weight file: its name, size in bytes and its first `len` bytes (null/0 at first). Answers {"need": n}
// (read the file's first n bytes and call again with them) or {"ok": true} once its header is read.
const char* posenc_weights_file(const char* name, double size, const unsigned char* ptr, unsigned len);
// config.json ("config") or model.safetensors.index.json ("index") text.
const char* posenc_weights_text(const char* kind, const unsigned char* ptr, unsigned len);
// The plan for `layers` ("" = all, or like "0,3,5-7"): {"files": [names in posenc_weights_file order],
// "ranges": [{"file", "offset", "length", "tensor"}], "tensors", "bytes"}; read each range in order and feed it.
const char* posenc_weights_plan(const char* layers);
// The next bytes of the plan (any chunking; the page reads a few MiB at a time): {"bytes_done", "ranges_done"}.
const char* posenc_weights_feed(const unsigned char* ptr, unsigned len);
// The result: the JSON `posenc weights --json` writes for the same files.
const char* posenc_weights_finish();
// Cancel: drops the reading and its memory.
void posenc_weights_cancel();

// ---- exportData: the data behind the current view, format "csv" or "json" ("" for none)
const char* posenc_export(const char* format);

// ---- postHeight: the height an embed asks its parent for (0 before start)
int posenc_preferred_height();

// ---- onFirstFrame: whether the page around the app scrolls (1: an iframe, a vertical swipe outside
// plots is the page's; 2: an embed in an iframe, cooperative: one finger anywhere is the page's, two
// fingers move a map; 0: the app's own page)
void posenc_set_page_scrolls(int on);
// ---- onFirstFrame: the device's pointer is a finger (the page's `(pointer: coarse)`): targets a finger can
// hit and "tap" for "hover" before the first touch (app/input.h: finger_pointer).
void posenc_set_coarse_pointer(int coarse);

// ---- window.posenc
// frameCount: frames drawn so far.
unsigned posenc_frame_count();
// wake: draw again (something outside the app's input changed: setState, a theme change, a restored
// context, any page input event). Idle otherwise: frames are drawn only on change.
void posenc_wake();
// setState: loads a whole state query (and wakes the app).
void posenc_set_state(const char* query);
// setState's merge: the state query a partial one (`partial`) reaches from `current`, by the app's rule that a
// new view or model starts fresh (app/url_state.h's merged_state); the page then loads it.
const char* posenc_merged_state(const char* current, const char* partial);
// notices: what the last load ignored or corrected, as text; noticeList: the same as
// [{"key", "message"}, ...], one entry per URL key ("[]" before start).
const char* posenc_notices();
const char* posenc_notice_list();
// views: every view id, comma-separated, in menu order (also before start).
const char* posenc_view_ids();
// figures: the figures of view `id` (its plots, the main one first), comma-separated ("" for no such view).
const char* posenc_view_figures(const char* id);
// exportPng: the next frame is drawn chrome-less; the page reads the canvas in Module.onCapture.
void posenc_request_capture();
// exportSvg / Share -> Export SVG: the next frame is recorded (chrome-less; transparent: no background);
// Module.onSvg() is called with it ready: posenc_svg() is the document, whose pictures are referenced as
// href="posenc-image:<i>", each posenc_svg_image(i) = "width,height,address" of its RGBA bytes (rows from
// the top; valid only during onSvg).
void posenc_request_svg(int transparent);
const char* posenc_svg();
int posenc_svg_image_count();
const char* posenc_svg_image(int i);
// itemRect: "x,y,w,h" of a named UI item in CSS pixels relative to the canvas, "" if not drawn last frame.
const char* posenc_item_rect(const char* name);
// focusedSlider: the key of the focused slider (the one the arrow keys step), "" if none.
const char* posenc_focused_slider();
// zoom: "u0,v0,du,dv" of a zoomable plot's visible window (heatmap.<name> or plot.<figure>), "" if not
// drawn.
const char* posenc_zoom(const char* name);
// probes: every probe name drawn in the last frame, comma-separated.
const char* posenc_probe_names();
// drawnText: every text drawn in the last frame, as drawn (app/text_hook.h), as JSON
// {"texts": [{"lines": [...], "ends": [how each line ends: "end", "newline", "space", "break", "forced"],
// "wrapped", "data"}], "truncated"}.
const char* posenc_drawn_text();

// ---- phone text entry (sendKey, the hidden text element; README "Input")
// One key press by its DOM `key` name with modifiers (1 Ctrl, 2 Shift, 4 Alt, 8 Meta); 0 for a key the
// app does not use (the page leaves it to the browser).
int posenc_key(const char* key, int mods);
// Text a keyboard inserted (UTF-8).
void posenc_text_input(const char* utf8);
// A desktop input method's composition not yet committed (pinyin being typed), drawn in the active text
// field after its caret (App::set_preedit); "" when it ends (compositionend: the commit comes as text).
void posenc_set_preedit(const char* utf8);
// The text field being edited as JSON {x, y, w, h, name, text, touch} (CSS pixels relative to the canvas;
// name: the probe under its caret), "" for none; also reported to Module.onTextField whenever it changes.
const char* posenc_text_field();

// ---- touch on the canvas
// One changed touch point of a DOM touch event (phase 0 start, 1 move, 2 end, 3 cancel; x, y in CSS
// pixels relative to the canvas; cancelable and time_ms: the event's). Bit 1: the page should
// preventDefault(); bit 2: a one-finger swipe started on a map of a cooperative embed (the page hints
// that two fingers move it).
int posenc_touch(int phase, int id, double x, double y, int cancelable, double time_ms);

// ---- readout: the hover readout of the last frame (the tooltip's text, lines joined by newlines; "")
const char* posenc_hover_readout();

// ---- live WebGL contexts: while the context is lost, draw nothing (every GL call would fail);
// posenc_set_paused(0) resumes and wakes the app.
void posenc_set_paused(int paused);

// ---- the wheel: 1 when it should reach the app (over a zoomable map, or over a panel that can scroll);
// otherwise the page scrolls as if the canvas were not there.
int posenc_wants_wheel();
// 1 when (x, y) (CSS pixels relative to the canvas) lies on a zoomable map of the last frame: an embed's
// Ctrl/Cmd + wheel zooms it there, a plain wheel scrolls the page around the embed.
int posenc_zoomable_at(double x, double y);
// The zoomable maps of the last frame, "x,y,w,h" (CSS pixels relative to the canvas) joined by ';':
// the page lays touch-action: none over them, so the browser never scrolls under a finger that starts
// on a map, even when it delivers the touchstart uncancelable (during a fling).
const char* posenc_zoomable_rects();

// ---- prefers-color-scheme changed: theme=auto follows it.
void posenc_set_system_dark(int dark);

// ---- the Chinese interface's files: the page fetches them when the app asks (Module.onNeedLanguage(what):
// bit 1 the catalogue of the current language, bit 2 the CJK face), or at start for lang=zh or CJK text in
// the URL. These also work before the runner has started (they set what every App reads).
// The catalogue (JSON text) of `lang` ("zh"); returns "" or why it was not taken.
const char* posenc_set_catalogue(const char* lang, const char* json);
// A buffer of `len` bytes for the CJK face (null when len is 0 or over 8 MiB), kept for the life of the
// page; then posenc_set_cjk_font(that buffer, len) (null: the face cannot be had, its characters are
// drawn as boxes and named in a notice).
unsigned char* posenc_cjk_font_buffer(unsigned len);
void posenc_set_cjk_font(const unsigned char* ptr, unsigned len);
// The CJK face could not be fetched: `why` names the file and the failure ("posenc-cjk.ttf: HTTP 404"),
// the words of the app's notice. The app never waits for the face: it draws at once, the characters
// that wait for it as boxes with a notice that it is loading.
void posenc_cjk_font_failed(const char* why);

// ---- not called by the page
// Whether the main loop is paused because nothing changes (tests/e2e/idle: an idle page requests no
// frames).
int posenc_sleeping();
// Input events not handled yet (tests/e2e's waitFrames: frames counted after typing that outran the frames).
int posenc_input_pending();
// Wall-clock ms of the last view recompute (core computation + texture upload), for bench/frame-timing.mjs.
double posenc_last_update_ms();

}  // extern "C"
