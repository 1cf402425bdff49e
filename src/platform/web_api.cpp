// The page ABI (web_api.h, in the same order): each function is exported as is (EMSCRIPTEN_KEEPALIVE)
// and reaches the app through the runner that owns it.
#include "platform/web_api.h"

#include <emscripten/emscripten.h>
#include <imgui_internal.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <span>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/app.h"
#include "app/controls.h"
#include "app/export.h"
#include "app/file_limits.h"
#include "app/fonts.h"
#include "app/i18n.h"
#include "app/input.h"
#include "app/notices.h"
#include "app/probe.h"
#include "app/state_params.h"
#include "app/svg_export.h"
#include "app/text_hook.h"
#include "app/update_timer.h"
#include "app/url_state.h"
#include "app/views/views.h"
#include "model_io/check_request.h"
#include "model_io/weights_session.h"
#include "platform/web_runner.h"

namespace {

using posenc::platform::page_runner;

// The page's app, or nullptr before the runner has started.
posenc::app::App* page_app() { return page_runner() ? &page_runner()->page_app() : nullptr; }

void wake_runner() {
  if (page_runner()) page_runner()->wake(3);
}

// A function's text for the page: kept in that function's own slot, so it stays valid until the
// function's next call (web_api.h's promise).
const char* returned_text(std::string& slot, std::string value) {
  slot = std::move(value);
  return slot.c_str();
}

// The bytes of a file the page is loading (posenc_model_buffer, then posenc_load_model, _load_tensor,
// _load_usage or _check): at most the largest of the app's file limits, each checked where it is read.
std::vector<unsigned char>& model_buffer() {
  static std::vector<unsigned char> buffer;
  return buffer;
}
void free_model_buffer() {
  model_buffer().clear();
  model_buffer().shrink_to_fit();
}

std::unique_ptr<posenc::model_io::WeightsSession>& weights_session() {
  static std::unique_ptr<posenc::model_io::WeightsSession> session;
  return session;
}

// Runs one step of the weights reading: its JSON answer, or the error as posenc weights writes it (the
// reading is dropped then: a failed step leaves nothing half read).
std::string weights_step(const std::function<nlohmann::ordered_json()>& step) {
  std::string out;
  try {
    if (!weights_session()) throw posenc::InvalidArgument("weights", "posenc_weights_begin was not called");
    out = step().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  } catch (const posenc::InvalidArgument& e) {
    nlohmann::json err;
    err["error"] = e.what();
    err["field"] = e.field().empty() ? nlohmann::json() : nlohmann::json(e.field());
    out = err.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    weights_session().reset();
  } catch (const std::bad_alloc&) {
    out = R"({"error":"out of memory while reading the weights","field":null})";
    weights_session().reset();
  }
  free_model_buffer();
  return out;
}

std::span<const uint8_t> buffer_bytes(const unsigned char* ptr, unsigned len) {
  return ptr ? std::span<const uint8_t>(ptr, len) : std::span<const uint8_t>();
}

// exportData: the page writes at most this many values (about 120 MB of JSON, a few seconds); a view
// whose tables hold more is refused before they are built: "" and a notice naming the size and the
// command line that writes it (posenc export runs natively, in double, without the page's memory bound).
constexpr std::size_t kPageExportMaxValues = std::size_t{1} << 22;

std::string export_refusal(const posenc::app::ExportData& data, const std::string& format) {
  const bool csv = format == "csv";
  const double mb = double(data.values) * (csv ? 25.0 : 30.0) / 1e6;  // ~25-30 bytes a value as text
  char size[160];
  std::snprintf(size, sizeof size, "%zu values (about %.0f MB of %s)", data.values, mb, csv ? "CSV" : "JSON");
  std::string state = data.state;
  for (std::size_t p; (p = state.find('\'')) != std::string::npos;) state.replace(p, 1, "%27");
  return "exportData: this view's tables hold " + std::string(size) + ", more than the page exports (" +
         std::to_string(kPageExportMaxValues) + " values): write them with posenc export --state '" + state + "' --format " +
         (csv ? "csv" : "json") + " -o " + data.view + "." + (csv ? "csv" : "json");
}

// The CJK face's bytes as the page hands them over (posenc_cjk_font_buffer).
constexpr unsigned kMaxCjkFontBytes = 8u << 20;
std::vector<unsigned char>& cjk_font_bytes() {
  static std::vector<unsigned char> bytes;  // the atlas keeps pointers into them: never freed
  return bytes;
}

}  // namespace

extern "C" {

// ---- page helpers

EMSCRIPTEN_KEEPALIVE const char* posenc_get_state() {
  static std::string state;
  return returned_text(state, page_app() ? page_app()->state_query() : "");
}

EMSCRIPTEN_KEEPALIVE int posenc_is_dark() { return page_app() && page_app()->dark() ? 1 : 0; }

// ---- linkUrl

EMSCRIPTEN_KEEPALIVE const char* posenc_link_query() {
  static std::string query;
  return returned_text(query, page_app() ? page_app()->link_query() : "");
}

// ---- embedCode

EMSCRIPTEN_KEEPALIVE int posenc_embed_height() { return page_app() ? page_app()->embed_height() : 0; }

EMSCRIPTEN_KEEPALIVE const char* posenc_embed_query() {
  static std::string query;
  return returned_text(query, page_app() ? page_app()->embed_query() : "");
}

EMSCRIPTEN_KEEPALIVE const char* posenc_view_title() { return page_app() ? page_app()->current_view()->title() : ""; }

// ---- describe

EMSCRIPTEN_KEEPALIVE const char* posenc_describe() {
  static std::string text;
  return returned_text(text, page_app() ? page_app()->describe() : "{}");
}

EMSCRIPTEN_KEEPALIVE const char* posenc_view_caption() { return page_app() ? page_app()->current_view()->caption() : ""; }

// ---- the parameter form

EMSCRIPTEN_KEEPALIVE const char* posenc_form() {
  static std::string text;
  return returned_text(text, page_app() ? page_app()->form() : "{}");
}

// Every view's title in menu order, one a line (the names of the page's view links).
EMSCRIPTEN_KEEPALIVE const char* posenc_view_titles() {
  static std::string slot;
  std::string titles;
  for (const auto& v : posenc::app::make_views()) titles += (titles.empty() ? "" : "\n") + std::string(v->title());
  return returned_text(slot, std::move(titles));
}

// ---- loadBytes

EMSCRIPTEN_KEEPALIVE const char* posenc_file_limits() {
  static const std::string limits = posenc::app::file_limits_json();
  return limits.c_str();
}

EMSCRIPTEN_KEEPALIVE unsigned char* posenc_model_buffer(unsigned len) {
  if (std::size_t(len) > posenc::app::largest_file_limit()) return nullptr;
  model_buffer().assign(std::size_t(len) + 1, 0);
  return model_buffer().data();
}

EMSCRIPTEN_KEEPALIVE const char* posenc_load_model(const unsigned char* ptr, unsigned len, int prefix, const char* view) {
  static std::string query;
  const char* text = returned_text(query, page_app() ? page_app()->load_model(ptr, len, view ? view : "model", prefix != 0) : "");
  free_model_buffer();
  return text;
}

EMSCRIPTEN_KEEPALIVE const char* posenc_load_tensor(const unsigned char* ptr, unsigned len, const char* name) {
  static std::string query;
  const char* text = returned_text(query, page_app() ? page_app()->load_tensor(ptr, len, name ? name : "") : "");
  free_model_buffer();
  return text;
}

EMSCRIPTEN_KEEPALIVE const char* posenc_load_usage(const unsigned char* ptr, unsigned len, const char* source, int from_url,
                                                   const char* failure) {
  static std::string query;
  const char* text = returned_text(
      query, page_app() ? page_app()->load_usage(ptr, len, source ? source : "", from_url != 0, failure ? failure : "") : "");
  free_model_buffer();
  return text;
}

EMSCRIPTEN_KEEPALIVE const char* posenc_usage_wanted() {
  static std::string url;
  return returned_text(url, page_app() ? page_app()->usage_wanted_url() : "");
}

// ---- check

EMSCRIPTEN_KEEPALIVE void posenc_weights_begin() { weights_session() = std::make_unique<posenc::model_io::WeightsSession>(); }

EMSCRIPTEN_KEEPALIVE const char* posenc_weights_file(const char* name, double size, const unsigned char* ptr, unsigned len) {
  static std::string out;
  return returned_text(out, weights_step([&] {
                         if (!(size >= 0 && size < 9007199254740992.0))
                           throw posenc::InvalidArgument("size", "a file size must be a whole number of bytes");
                         const uint64_t need =
                             weights_session()->add_file(name ? name : "", static_cast<uint64_t>(size), buffer_bytes(ptr, len));
                         return need ? nlohmann::ordered_json{{"need", need}} : nlohmann::ordered_json{{"ok", true}};
                       }));
}

EMSCRIPTEN_KEEPALIVE const char* posenc_weights_text(const char* kind, const unsigned char* ptr, unsigned len) {
  static std::string out;
  return returned_text(out, weights_step([&] {
                         const std::string_view text(
                             reinterpret_cast<const char*>(ptr ? ptr : reinterpret_cast<const unsigned char*>("")),
                             ptr ? len : 0);
                         const std::string k = kind ? kind : "";
                         if (k == "config") weights_session()->set_config(text);
                         else if (k == "index") weights_session()->set_index(text);
                         else throw posenc::InvalidArgument("kind", "the text is 'config' or 'index'");
                         return nlohmann::ordered_json{{"ok", true}};
                       }));
}

EMSCRIPTEN_KEEPALIVE const char* posenc_weights_plan(const char* layers) {
  static std::string out;
  return returned_text(
      out, weights_step([&] {
        posenc::model_io::WeightsSession& s = *weights_session();
        const std::vector<posenc::WeightRange>& plan = s.plan(layers ? layers : "");
        nlohmann::ordered_json ranges = nlohmann::ordered_json::array();
        for (const posenc::WeightRange& r : plan)
          ranges.push_back({{"file", r.file}, {"offset", r.offset}, {"length", r.length}, {"tensor", r.tensor}});
        return nlohmann::ordered_json{
            {"files", s.file_names()}, {"ranges", std::move(ranges)}, {"tensors", s.total_tensors()}, {"bytes", s.total_bytes()}};
      }));
}

EMSCRIPTEN_KEEPALIVE const char* posenc_weights_feed(const unsigned char* ptr, unsigned len) {
  static std::string out;
  return returned_text(out, weights_step([&] {
                         posenc::model_io::WeightsSession& s = *weights_session();
                         s.feed(buffer_bytes(ptr, len));
                         return nlohmann::ordered_json{{"bytes_done", s.bytes_done()}, {"ranges_done", s.ranges_done()}};
                       }));
}

EMSCRIPTEN_KEEPALIVE const char* posenc_weights_finish() {
  static std::string out;
  return returned_text(out, weights_step([&] {
                         nlohmann::ordered_json j = weights_session()->finish();
                         weights_session().reset();
                         return j;
                       }));
}

EMSCRIPTEN_KEEPALIVE void posenc_weights_cancel() { weights_session().reset(); }

EMSCRIPTEN_KEEPALIVE const char* posenc_check(const unsigned char* ptr, unsigned len) {
  static std::string out;
  try {
    if (!ptr)
      throw posenc::InvalidArgument(
          "", "the request is larger than " + posenc::app::limit_bytes_text(posenc::app::file_limit("check_request")));
    out = posenc::model_io::check_response_text(std::string(reinterpret_cast<const char*>(ptr), len));
  } catch (const posenc::InvalidArgument& e) {
    nlohmann::json err;
    err["error"] = e.what();
    err["field"] = e.field().empty() ? nlohmann::json() : nlohmann::json(e.field());
    out = err.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  free_model_buffer();
  return out.c_str();
}

// ---- exportData

EMSCRIPTEN_KEEPALIVE const char* posenc_export(const char* format) {
  static std::string out;
  out.clear();
  if (!page_app() || !format) return "";
  const std::string f = format;
  try {
    const posenc::app::ExportData data = page_app()->export_data(kPageExportMaxValues);
    if (data.over) {
      page_app()->add_notice({"export", export_refusal(data, f)});
      wake_runner();  // the notice line shows
      return "";
    }
    out = f == "csv" ? posenc::app::export_csv(data) : posenc::app::export_json(data);
  } catch (const std::exception& e) {  // never a bare exception pointer for the page: a notice that says it
    out.clear();
    page_app()->add_notice({"export", std::string("exportData failed: ") + e.what()});
  }
  return out.c_str();
}

// ---- postHeight, onFirstFrame

EMSCRIPTEN_KEEPALIVE int posenc_preferred_height() { return page_app() ? page_app()->preferred_height() : 0; }

EMSCRIPTEN_KEEPALIVE void posenc_set_page_scrolls(int on) {
  if (page_runner()) page_runner()->set_page_scrolls(on == 1 || on == 2 ? on : 0);
}

EMSCRIPTEN_KEEPALIVE void posenc_set_coarse_pointer(int coarse) {
  if (page_app()) page_app()->set_coarse_pointer(coarse != 0);
  wake_runner();
}

// ---- window.posenc

EMSCRIPTEN_KEEPALIVE unsigned posenc_frame_count() { return page_app() ? unsigned(page_app()->frame_count()) : 0u; }

EMSCRIPTEN_KEEPALIVE void posenc_wake() { wake_runner(); }

EMSCRIPTEN_KEEPALIVE void posenc_set_state(const char* query) {
  if (page_app() && query) page_app()->load_state_query(query);
  wake_runner();
}

EMSCRIPTEN_KEEPALIVE const char* posenc_merged_state(const char* current, const char* partial) {
  static std::string merged;
  namespace app = posenc::app;
  return returned_text(merged, app::to_query(app::merged_state(app::parse_query(current ? current : ""),
                                                               app::parse_query(partial ? partial : ""))));
}

EMSCRIPTEN_KEEPALIVE const char* posenc_notices() {
  static std::string notices;
  return returned_text(notices, page_app() ? page_app()->notices() : "");
}

EMSCRIPTEN_KEEPALIVE const char* posenc_notice_list() {
  static std::string list;
  return returned_text(list, page_app() ? posenc::app::notices_json(page_app()->notice_list()) : "[]");
}

EMSCRIPTEN_KEEPALIVE const char* posenc_view_ids() {
  static std::string slot;
  std::string ids;
  for (const std::string& id : posenc::app::App::view_ids()) ids += (ids.empty() ? "" : ",") + id;
  return returned_text(slot, std::move(ids));
}

EMSCRIPTEN_KEEPALIVE const char* posenc_view_figures(const char* id) {
  static std::string slot;
  std::string figures;
  if (const auto view = posenc::app::make_view(id ? id : ""))
    for (const std::string& f : view->figures()) figures += (figures.empty() ? "" : ",") + f;
  return returned_text(slot, std::move(figures));
}

EMSCRIPTEN_KEEPALIVE void posenc_request_capture() {
  if (page_app()) page_app()->request_capture();
  wake_runner();
}

EMSCRIPTEN_KEEPALIVE void posenc_request_svg(int transparent) {
  if (page_app()) page_app()->request_svg(true, transparent != 0);
  wake_runner();
}

EMSCRIPTEN_KEEPALIVE const char* posenc_svg() { return page_runner() ? page_runner()->svg().c_str() : ""; }

EMSCRIPTEN_KEEPALIVE int posenc_svg_image_count() { return page_runner() ? int(page_runner()->svg_images().size()) : 0; }

// "width,height,address" of picture i's RGBA bytes (rows from the top), "" past the last.
EMSCRIPTEN_KEEPALIVE const char* posenc_svg_image(int i) {
  static std::string out;
  out.clear();
  if (!page_runner() || i < 0 || i >= int(page_runner()->svg_images().size())) return "";
  const posenc::app::SvgImage& image = page_runner()->svg_images()[size_t(i)];
  return returned_text(
      out, std::to_string(image.width) + "," + std::to_string(image.height) + "," + std::to_string(uintptr_t(image.rgba.data())));
}

EMSCRIPTEN_KEEPALIVE const char* posenc_item_rect(const char* name) {
  static char buf[96];
  ImVec2 min, max;
  if (!name || !posenc::app::find_probe(name, &min, &max)) return "";
  std::snprintf(buf, sizeof buf, "%.2f,%.2f,%.2f,%.2f", min.x, min.y, max.x - min.x, max.y - min.y);
  return buf;
}

EMSCRIPTEN_KEEPALIVE const char* posenc_focused_slider() { return posenc::app::focused_slider_key().c_str(); }

EMSCRIPTEN_KEEPALIVE const char* posenc_zoom(const char* name) {
  static char buf[128];
  ImVec4 w;
  if (!name || !posenc::app::find_zoom_window(name, &w)) return "";
  std::snprintf(buf, sizeof buf, "%.9g,%.9g,%.9g,%.9g", w.x, w.y, w.z, w.w);
  return buf;
}

EMSCRIPTEN_KEEPALIVE const char* posenc_probe_names() {
  static std::string names;
  return returned_text(names, posenc::app::probe_names());
}

EMSCRIPTEN_KEEPALIVE const char* posenc_drawn_text() {
  nlohmann::ordered_json texts = nlohmann::ordered_json::array();
  for (const posenc::app::DrawnText& d : posenc::app::drawn_texts()) {
    nlohmann::ordered_json ends = nlohmann::ordered_json::array();
    for (posenc::app::LineEnd e : d.ends) ends.push_back(posenc::app::line_end_name(e));
    texts.push_back({{"lines", d.lines}, {"ends", ends}, {"wrapped", d.wrap_width > 0}, {"data", d.data}});
  }
  static std::string json;
  const nlohmann::ordered_json out{{"texts", texts}, {"truncated", posenc::app::drawn_texts_truncated()}};
  return returned_text(json, out.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
}

// ---- phone text entry

EMSCRIPTEN_KEEPALIVE int posenc_key(const char* key, int mods) { return page_runner() && page_runner()->key(key, mods) ? 1 : 0; }

EMSCRIPTEN_KEEPALIVE void posenc_text_input(const char* utf8) {
  if (page_runner()) page_runner()->text_input(utf8);
}

EMSCRIPTEN_KEEPALIVE void posenc_set_preedit(const char* utf8) {
  if (!page_app()) return;
  // A composition is a few syllables: read at most kMaxPreeditBytes of it, cut on a character boundary.
  constexpr size_t kMaxPreeditBytes = 1024;
  std::string text(utf8 ? utf8 : "", utf8 ? strnlen(utf8, kMaxPreeditBytes + 1) : 0);
  if (text.size() > kMaxPreeditBytes) {
    text.resize(kMaxPreeditBytes + 1);
    while (!text.empty() && (static_cast<unsigned char>(text.back()) & 0xC0) == 0x80) text.pop_back();
    if (!text.empty()) text.pop_back();  // the lead byte of the character cut (or the byte past the limit)
  }
  page_app()->set_preedit(std::move(text));
  wake_runner();
}

EMSCRIPTEN_KEEPALIVE const char* posenc_text_field() { return page_runner() ? page_runner()->text_field().c_str() : ""; }

// ---- touch

EMSCRIPTEN_KEEPALIVE int posenc_touch(int phase, int id, double x, double y, int cancelable, double time_ms) {
  if (!page_runner() || phase < 0 || phase > 3) return 0;
  return page_runner()->touch(posenc::platform::TouchPhase(phase), id, ImVec2(float(x), float(y)), cancelable != 0, time_ms);
}

// ---- readout

EMSCRIPTEN_KEEPALIVE const char* posenc_hover_readout() { return posenc::app::last_readout().c_str(); }

// ---- live WebGL contexts

EMSCRIPTEN_KEEPALIVE void posenc_set_paused(int paused) {
  if (page_runner()) page_runner()->set_paused(paused != 0);
}

// ---- the wheel

EMSCRIPTEN_KEEPALIVE int posenc_wants_wheel() {
  if (posenc::app::wheel_requested()) return 1;
  const ImGuiWindow* hovered = ImGui::GetCurrentContext() ? ImGui::GetCurrentContext()->HoveredWindow : nullptr;
  return hovered && hovered->ScrollMax.y > 0.0f ? 1 : 0;
}

EMSCRIPTEN_KEEPALIVE int posenc_zoomable_at(double x, double y) {
  return posenc::app::zoomable_at(ImVec2(float(x), float(y))) ? 1 : 0;
}

EMSCRIPTEN_KEEPALIVE const char* posenc_zoomable_rects() {
  static std::string out;
  out.clear();
  char buf[96];
  for (const auto& [min, max] : posenc::app::zoomable_areas()) {
    std::snprintf(buf, sizeof buf, "%s%.1f,%.1f,%.1f,%.1f", out.empty() ? "" : ";", double(min.x), double(min.y),
                  double(max.x - min.x), double(max.y - min.y));
    out += buf;
  }
  return out.c_str();
}

// ---- prefers-color-scheme

EMSCRIPTEN_KEEPALIVE void posenc_set_system_dark(int dark) {
  if (page_app()) page_app()->set_system_dark(dark != 0);
  wake_runner();
}

// ---- the Chinese interface's files

EMSCRIPTEN_KEEPALIVE const char* posenc_set_catalogue(const char* lang, const char* json) {
  static std::string why;
  const std::optional<posenc::app::Lang> l = posenc::app::lang_from_code(lang ? lang : "");
  const char* text = returned_text(why, !l || *l == posenc::app::Lang::En ? "not a language with a catalogue"
                                                                          : posenc::app::load_catalogue(*l, json ? json : ""));
  wake_runner();
  return text;
}

EMSCRIPTEN_KEEPALIVE unsigned char* posenc_cjk_font_buffer(unsigned len) {
  if (len == 0 || len > kMaxCjkFontBytes || posenc::app::cjk_font_provided()) return nullptr;
  cjk_font_bytes().assign(len, 0);
  return cjk_font_bytes().data();
}

EMSCRIPTEN_KEEPALIVE void posenc_set_cjk_font(const unsigned char* ptr, unsigned len) {
  if (ptr && ptr == cjk_font_bytes().data() && len == cjk_font_bytes().size()) posenc::app::provide_cjk_font(ptr, len);
  else if (!posenc::app::cjk_font_provided()) posenc::app::cjk_font_unavailable();
  wake_runner();
}

EMSCRIPTEN_KEEPALIVE void posenc_cjk_font_failed(const char* why) {
  if (!posenc::app::cjk_font_provided()) posenc::app::cjk_font_unavailable(why ? why : "");
  wake_runner();
}

// ---- not called by the page

EMSCRIPTEN_KEEPALIVE int posenc_sleeping() { return page_runner() && page_runner()->sleeping() ? 1 : 0; }
EMSCRIPTEN_KEEPALIVE int posenc_input_pending() { return page_runner() ? page_runner()->input_pending() : 0; }

EMSCRIPTEN_KEEPALIVE double posenc_last_update_ms() { return posenc::app::last_update_ms(); }
// Its parts: the view's recompute() (the core) and upload() (the heatmaps' texture uploads).
EMSCRIPTEN_KEEPALIVE double posenc_last_recompute_ms() { return posenc::app::last_recompute_ms(); }
EMSCRIPTEN_KEEPALIVE double posenc_last_upload_ms() { return posenc::app::last_upload_ms(); }

}  // extern "C"
