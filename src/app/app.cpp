// The App (app.h).
//
// Index of this file:
// [SECTION] the views and loading
//     models, tensors, view ids
// [SECTION] notices, state and actions
//     what the platform takes
// [SECTION] theme
// [SECTION] export, description and the form
//     the parameter form's data
// [SECTION] the census and the embed's height
//     the shown controls
// [SECTION] the frame
//     menu bar, notices, controls panel, planning the layout, the main window, the controls area, the
//     content area, the preferred height
// [SECTION] the URL state
//     the query string read and written, the app-level keys declared, the embed's minimal query
#include "app/app.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <utility>

#include <nlohmann/json.hpp>

#include "app/controls.h"
#include "app/fonts.h"
#include "app/i18n.h"
#include "app/model_link.h"
#include "app/input.h"
#include "app/param_form.h"
#include "app/params.h"
#include "app/probe.h"
#include "app/state_params.h"
#include "app/text_hook.h"
#include "app/theme.h"
#include "app/ui_state.h"
#include "app/update_timer.h"
#include "app/view_error.h"
#include "app/views/views.h"
#include "posenc_version.h"

namespace posenc::app {

// [SECTION] the views and loading

App::App() {
  make_current();
  views_ = make_views();
  current_ = views_.front().get();
  // The views that take models receive what load_model_bytes loads while this App is current.
  for (auto& v : views_)
    if (auto* sink = dynamic_cast<ModelSink*>(v.get())) ui_.model_sinks.push_back(sink);
}

std::string App::load_model(const unsigned char* data, std::size_t size, const std::string& view, bool prefix) {
  make_current();
  return load_model_bytes(data, size, view, prefix);
}

std::string App::load_tensor(const unsigned char* data, std::size_t size, const std::string& name) {
  make_current();
  return load_tensor_bytes(find_view("check"), data, size, name);
}

std::string App::load_usage(const unsigned char* data, std::size_t size, const std::string& source, bool from_url,
                            const std::string& failure) {
  make_current();
  return load_usage_bytes(find_view("usage"), data, size, source, from_url, failure);
}

std::string App::usage_wanted_url() {
  return current_ && std::string(current_->id()) == "usage" ? app::usage_wanted_url(current_) : "";
}

namespace {
// The input method composition (App::set_preedit), drawn over the active text field after its caret
// with an underline, in front of everything (so also in a field of a child window), probed as
// text.preedit; nothing when no text field has the caret. Called once a frame, in the main window
// after everything else it draws.
void draw_preedit() {
  const std::string& text = current_ui().preedit;
  const ImGuiContext& g = *ImGui::GetCurrentContext();
  // A field with the caret sets PlatformImePos (the caret's top-left, for an input method) every frame it
  // draws the caret; NewFrame puts it back at (1, 1) (imgui.cpp 1.86).
  const bool caret = g.ActiveId != 0 && g.InputTextState.ID == g.ActiveId && g.PlatformImePos.x > 1.0f;
  if (text.empty() || !caret) return;
  const ImVec2 at(g.PlatformImePos.x + 1.0f, g.PlatformImePos.y);
  const VerbatimText data;  // what the user is typing
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  // On the field's own colour over what follows the caret, which it pushes aside as typing would.
  const ImVec2 end(at.x + size.x + 2.0f, at.y + size.y + 2.0f);
  dl->AddRectFilled(at, end, ImGui::GetColorU32(ImGuiCol_WindowBg) | IM_COL32_A_MASK);
  dl->AddRectFilled(at, end, ImGui::GetColorU32(ImGuiCol_FrameBg));
  dl->AddText(at, ImGui::GetColorU32(ImGuiCol_Text), text.c_str());
  dl->AddLine(ImVec2(at.x, at.y + size.y + 1.0f), ImVec2(at.x + size.x, at.y + size.y + 1.0f), ImGui::GetColorU32(ImGuiCol_Text));
  probe_rect("text.preedit", at, end);
}
}  // namespace

void App::replace_current_view() {
  for (auto& v : views_) {
    if (v.get() != current_) continue;
    ModelSink* old_sink = dynamic_cast<ModelSink*>(v.get());
    v = make_view(current_->id());
    current_ = v.get();
    // The model sinks are this App's views: the new view takes the old one's place.
    if (old_sink) std::replace(ui_.model_sinks.begin(), ui_.model_sinks.end(), old_sink, dynamic_cast<ModelSink*>(current_));
  }
}

std::vector<std::string> App::view_ids() {
  std::vector<std::string> ids;
  for (const auto& v : make_views()) ids.push_back(v->id());
  return ids;
}

App::~App() = default;

View* App::find_view(const std::string& id) {
  for (auto& v : views_)
    if (id == v->id()) return v.get();
  return nullptr;
}

// [SECTION] notices, state and actions

Notices App::notice_list() {
  Notices all = notices_;
  const Notices notes = current_notes();
  all.insert(all.end(), notes.begin(), notes.end());
  // In the interface's language (the keys stay the URL's); the view's error first, its wrapper apart.
  for (Notice& n : all) n.message = tr_message(n.message);
  if (const std::optional<Notice>& e = current_->error())
    all.insert(all.begin() + ptrdiff_t(notices_.size()), Notice{e->key, view_error_shown(*e, false)});
  return all;
}

Notices App::view_notes() {
  Notices notes;
  current_->prepare();
  current_->notes(notes);
  return notes;
}

Notices App::current_notes() {
  Notices notes = view_notes();
  const Notices fields = field_notices(current_->id());  // text typed into a field that it cannot take
  notes.insert(notes.end(), fields.begin(), fields.end());
  const Notices fonts = font_notices();
  notes.insert(notes.end(), fonts.begin(), fonts.end());
  return notes;
}

bool App::dragging() const {
  return ImGui::GetCurrentContext() && ImGui::IsAnyItemActive() && ImGui::IsMouseDown(ImGuiMouseButton_Left);
}

bool App::take_state_changed() { return std::exchange(state_changed_, false); }

AppAction App::take_action() { return std::exchange(action_, AppAction::None); }

bool App::take_capture_frame() { return std::exchange(capture_frame_, false); }

bool App::take_svg_frame() { return std::exchange(svg_frame_, false); }

SvgOptions App::svg_options() const {
  SvgOptions o;
  o.transparent = svg_transparent_;
  o.title = std::string("posenc: ") + current_->title();
  o.description = std::string("posenc ") + POSENC_VERSION + ", state " + state_query();
  return o;
}

// [SECTION] theme

void App::set_system_dark(bool dark) { system_dark_ = dark; }

bool App::dark() const { return keys_.theme == Theme::Auto ? system_dark_ : keys_.theme == Theme::Dark; }

void App::apply_theme() {
  const int want = dark() ? 1 : 0;
  if (want == applied_dark_) return;
  apply_theme_style(want == 1, ImGui::GetStyle());
  applied_dark_ = want;
}

// [SECTION] export, description and the form

ExportData App::export_data(size_t max_values) const {
  ExportData data;
  data.view = current_->id();
  data.state = state_query();
  // The view's data is a cache of its parameters: bring it up to date (no GL) before reading it, so a
  // headless export that never drew a frame gets the same numbers as the app.
  current_->prepare();
  const ExportBudget budget(max_values);
  current_->export_data(data.tables);
  current_->export_lists(data.lists);
  data.values = budget.counted();
  data.over = budget.over();
  if (data.over) data.tables.clear();
  return data;
}

std::string App::describe() {
  current_->prepare();
  nlohmann::json out;
  out["title"] = current_->title();
  out["formula"] = current_->formula_words_shown();
  nlohmann::json params = nlohmann::json::object();
  StateMap state;
  current_->save_state(state);
  // Only the parameters that matter for the current state (the ones its controls show): a T5 bucket
  // count is not part of a RoPE score.
  const std::vector<std::string> shown = shown_keys();
  if (!shown.empty())
    std::erase_if(state, [&](const auto& kv) { return std::find(shown.begin(), shown.end(), kv.first) == shown.end(); });
  // A long value (a factor list) and any multi-line text (a pasted tensor, whatever its size) are named by
  // their length: the live region reads this.
  const ParamList declared = current_->param_list();
  for (const auto& [k, v] : state) {
    const Param* p = declared.find(k);
    const bool rows = p && p->kind == ParamKind::Text && p->opt.multiline;
    params[k] = v.size() <= 200 && !rows ? v : "(" + std::to_string(v.size()) + " characters)";
  }
  out["params"] = params;
  nlohmann::json numbers = nlohmann::json::array();
  if (current_->error()) {
    out["error"] = view_error_shown(*current_->error(), false);
  } else {
    std::vector<DescribedNumber> list;
    current_->numbers(list);
    for (const DescribedNumber& n : list)
      numbers.push_back(
          {{"name", tr_message(n.name)}, {"value", std::isfinite(n.value) ? nlohmann::json(n.value) : nlohmann::json()}});
  }
  out["numbers"] = numbers;
  return out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::vector<std::string> App::shown_keys() const {
  if (ui_.shown_view != current_->id()) return {};
  return ui_.shown_keys;
}

std::string App::form() {
  const Notices notices = notice_list();
  return param_form_json(current_->id(), current_->title(), current_->param_list(), shown_keys(), notices,
                         keys_.controls != ControlsMode::Hidden, lang_code(keys_.lang));
}

// [SECTION] the census and the embed's height

void App::census_controls() {
  ImGui::SetNextWindowPos(ImVec2(-100000.0f, -100000.0f));
  ImGui::SetNextWindowSize(ImVec2(300.0f, 200.0f));
  ImGui::Begin("##controls_census", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoInputs | ImGuiWindowFlags_NoNav |
                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBackground);
  ui_.census = true;
  current_->draw_controls();
  ui_.census = false;
  ImGui::End();
}

float App::layout_height(float width, LayoutMode mode, float top, float controls_h, float caption_h,
                         const std::string& figure) const {
  const ImGuiStyle& style = ImGui::GetStyle();
  // The plots: one figure or the medium layout's box at a 4:3 aspect (at most 560 px tall), or the
  // narrow layout's stack of every figure at full width.
  float plots = std::min(560.0f, width * 0.75f);
  if (figure.empty() && mode == LayoutMode::Narrow) plots = current_->stacked_height(width);
  const float h = top + controls_h + caption_h + plots + style.WindowPadding.y;
  return std::clamp(std::round(h), 320.0f, 1400.0f);
}

int App::embed_height(float width) const {
  const ImGuiStyle& style = ImGui::GetStyle();
  const LayoutMode mode = layout_mode(width);
  // As App::frame lays the embed out: no menu bar, no notices (the snippet's URL is clean); the
  // Controls toggle line when the controls are above the plots (the strip starts closed under 600 px),
  // and compact's strip open at its smallest (three rows).
  float controls_h = 0;
  if (keys_.controls == ControlsMode::Compact)
    controls_h = ImGui::GetFrameHeightWithSpacing() + 3 * ImGui::GetFrameHeightWithSpacing() + style.ItemSpacing.y;
  else if (keys_.controls == ControlsMode::Shown && mode != LayoutMode::Wide) controls_h = ImGui::GetFrameHeightWithSpacing();
  return int(layout_height(width, mode, style.WindowPadding.y, controls_h, ImGui::GetTextLineHeightWithSpacing(), keys_.figure));
}

// [SECTION] the frame

void App::draw_menu_bar(bool picker) {
  // For a finger, every item of the bar and of its menus is kFingerTarget tall (a menu item is the text's
  // height plus ItemSpacing.y).
  const bool finger = finger_pointer();
  if (finger) {
    const ImGuiStyle& style = ImGui::GetStyle();
    ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(style.FramePadding.x, finger_frame_padding()));
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing,
                        ImVec2(style.ItemSpacing.x, std::max(style.ItemSpacing.y, kFingerTarget - ImGui::GetFontSize())));
  }
  struct PopFinger {
    bool finger;
    ~PopFinger() {
      if (finger) ImGui::PopStyleVar(2);
    }
  } pop_finger{finger};
  if (!ImGui::BeginMenuBar()) return;
  ImGui::TextUnformatted("posenc");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("posenc %s", POSENC_VERSION);
  ImGui::Separator();
  auto select = [&](View* v) {
    if (v == current_) return;
    current_ = v;
    keys_.figure.clear();
    state_changed_ = true;
  };
  if (picker) {
    // Not enough width for every title: one picker naming the current view.
    const bool open = ImGui::BeginMenu((std::string(current_->title()) + " v###menu.view").c_str());
    if (!open) menu_view_min_ = ImGui::GetItemRectMin(), menu_view_max_ = ImGui::GetItemRectMax();
    if (open) {
      for (auto& v : views_) {
        if (ImGui::MenuItem((std::string(v->title()) + "###" + v->id()).c_str(), nullptr, v.get() == current_)) select(v.get());
        probe_last_item(("menu.view." + std::string(v->id())).c_str());
      }
      ImGui::EndMenu();
    }
    // After the menu: inside its open popup the bar's rectangle would be clipped away.
    probe_rect("menu.view", menu_view_min_, menu_view_max_);
  } else {
    ImVec2 all_min(1e9f, 1e9f), all_max(-1e9f, -1e9f);
    for (auto& v : views_) {
      const bool selected = v.get() == current_;
      if (ImGui::MenuItem((std::string(v->title()) + "###" + v->id()).c_str(), nullptr, selected)) select(v.get());
      probe_last_item(("menu.view." + std::string(v->id())).c_str());
      const ImVec2 mn = ImGui::GetItemRectMin(), mx = ImGui::GetItemRectMax();
      all_min = ImVec2(std::min(all_min.x, mn.x), std::min(all_min.y, mn.y));
      all_max = ImVec2(std::max(all_max.x, mx.x), std::max(all_max.y, mx.y));
    }
    probe_rect("menu.view", all_min, all_max);
  }
  ImGui::Separator();
  if (ImGui::BeginMenu(tr_id("Share").c_str())) {
    // Each entry probed as menu.share.<the page's action name>.
    const auto item = [&](const char* label, AppAction action, const char* probe) {
      if (ImGui::MenuItem(label)) action_ = action;
      probe_last_item((std::string("menu.share.") + probe).c_str());
    };
    item("Copy link", AppAction::CopyLink, "copy-link");
    item("Copy embed code", AppAction::CopyEmbedCode, "copy-embed");
    ImGui::Separator();
    item("Export PNG", AppAction::ExportPng, "export-png");
    item("Export SVG", AppAction::ExportSvg, "export-svg");
    item("Export CSV", AppAction::ExportCsv, "export-csv");
    item("Export JSON", AppAction::ExportJson, "export-json");
    ImGui::EndMenu();
  }
  probe_last_item("menu.share");
  if (ImGui::BeginMenu(tr_id("Theme").c_str())) {
    Theme& theme = keys_.theme;
    const auto item = [&](const char* label, Theme value, const char* probe) {
      if (ImGui::MenuItem(tr_id(label).c_str(), nullptr, theme == value)) theme = value, state_changed_ = true;
      probe_last_item((std::string("menu.theme.") + probe).c_str());
    };
    item("Follow the system", Theme::Auto, "auto");
    item("Light", Theme::Light, "light");
    item("Dark", Theme::Dark, "dark");
    ImGui::EndMenu();
  }
  probe_last_item("menu.theme");
  // The language switch: one label in both scripts, the same in every interface language (a Chinese
  // reader finds it in an English interface), and each language named in its own script. Their CJK glyphs
  // are compiled in (fonts.h: the language names' face), so neither fetches the CJK face.
  if (ImGui::BeginMenu((std::string(tr(kLanguageLabel)) + "###Language").c_str())) {
    for (const LanguageRow& row : kLanguages) {
      if (ImGui::MenuItem(tr_id(row.name).c_str(), nullptr, keys_.lang == row.lang) && keys_.lang != row.lang)
        keys_.lang = row.lang, ui_.lang = row.lang, state_changed_ = true;
      probe_last_item((std::string("menu.lang.") + row.code).c_str());
    }
    ImGui::EndMenu();
  }
  probe_last_item("menu.lang");
  ImGui::EndMenuBar();
}

void App::draw_notices() {
  // The load's notices and the view's notes (what of a model it cannot show); dismissed notes stay hidden
  // until they change.
  Notices shown = notices_;
  Notices notes = current_notes();
  for (Notice& n : shown) n.message = tr_message(n.message);
  for (Notice& n : notes) n.message = tr_message(n.message);
  const std::string notes_text = notices_text(notes);
  if (notes_text != dismissed_notes_) shown.insert(shown.end(), notes.begin(), notes.end());
  if (notes.empty()) dismissed_notes_.clear();
  if (shown.empty()) return;
  // One line at most (cut with "..."), unless the reader asks for more: a long notice never pushes the
  // view down.
  const std::string text = trf("Notice: {0}", {notices_text(shown)});
  const ImGuiStyle& style = ImGui::GetStyle();
  const float buttons = ImGui::CalcTextSize(tr("more")).x + ImGui::CalcTextSize(tr("dismiss")).x + 4 * style.FramePadding.x +
                        2 * style.ItemSpacing.x;
  const float room = ImGui::GetContentRegionAvail().x - buttons;
  const bool fits = ImGui::CalcTextSize(text.c_str()).x <= room;
  ImGui::PushStyleColor(ImGuiCol_Text, warning_color());
  if (fits) {
    ImGui::TextUnformatted(text.c_str());
  } else if (notice_more_) {
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + room);
    ImGui::TextWrapped("%s", text.c_str());
    ImGui::PopTextWrapPos();
  } else {
    // The longest prefix (on a UTF-8 character boundary) that fits with "...".
    size_t lo = 0, hi = text.size();
    while (lo < hi) {
      const size_t mid = (lo + hi + 1) / 2;
      const std::string cut = text.substr(0, mid) + "...";
      if (ImGui::CalcTextSize(cut.c_str()).x <= room) lo = mid;
      else hi = mid - 1;
    }
    while (lo > 0 && (static_cast<unsigned char>(text[lo]) & 0xC0) == 0x80) --lo;
    ImGui::TextUnformatted((text.substr(0, lo) + "...").c_str());
  }
  ImGui::PopStyleColor();
  probe_last_item("notice");
  if (!fits) {
    ImGui::SameLine();
    if (ImGui::SmallButton((std::string(tr(notice_more_ ? "less" : "more")) + "###notice_more").c_str()))
      notice_more_ = !notice_more_;
    probe_last_item("button.notice_more");
  }
  ImGui::SameLine();
  if (ImGui::SmallButton(tr_id("dismiss").c_str())) notices_.clear(), notice_more_ = false, dismissed_notes_ = notes_text;
  probe_last_item("button.notice_dismiss");
}

void App::draw_controls_panel(int columns) {
  controls_drawn_ = true;
  ImGui::PushItemWidth(-1);
  const std::string before = state_query();
  if (columns > 1 && ImGui::BeginTable("controls_grid", columns, ImGuiTableFlags_SizingStretchSame)) {
    ImGui::TableNextColumn();
    set_controls_columns(true);
    current_->draw_controls();
    set_controls_columns(false);
    ImGui::EndTable();
  } else {
    current_->draw_controls();
  }
  if (state_query() != before) state_changed_ = true;
  ImGui::PopItemWidth();
}

App::FrameLayout App::plan_frame() const {
  FrameLayout layout;
  // The layout follows the frame (the canvas), never the screen.
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  layout.width = vp->WorkSize.x;
  layout.height = vp->WorkSize.y;
  layout.mode = layout_mode(layout.width);
  // A small embed shows the view's main figure alone unless figure= picks another.
  layout.small_embed = keys_.embed && (layout.mode == LayoutMode::Narrow || layout.height < 400);
  const std::vector<std::string> figures = current_->figures();
  layout.figure = keys_.figure;
  if (std::find(figures.begin(), figures.end(), layout.figure) == figures.end()) layout.figure.clear();
  if (layout.figure.empty() && layout.small_embed && !figures.empty()) layout.figure = figures.front();
  layout.side = keys_.controls == ControlsMode::Shown && layout.mode == LayoutMode::Wide;
  return layout;
}

void App::begin_main_window(const FrameLayout& layout) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(vp->WorkSize);
  ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                           ImGuiWindowFlags_NoBringToFrontOnFocus;
  if (!keys_.embed) flags |= ImGuiWindowFlags_MenuBar;
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
  if (layout.small_embed) ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(4, 4));
  // For a finger, the menu bar is as tall as a finger's target (its height is the frame padding's when
  // the window begins, and again in draw_menu_bar).
  const bool finger_bar = !keys_.embed && finger_pointer();
  if (finger_bar)
    ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(ImGui::GetStyle().FramePadding.x, finger_frame_padding()));
  ImGui::Begin("posenc", nullptr, flags);
  ImGui::PopStyleVar((layout.small_embed ? 3 : 2) + (finger_bar ? 1 : 0));
}

float App::draw_controls_area(const FrameLayout& layout) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const ControlsMode controls = keys_.controls;
  if (layout.side) {
    const float controls_w = keys_.embed ? 220.0f : 250.0f;
    ImGui::BeginChild("controls", ImVec2(controls_w, 0), true);
    if (!keys_.embed) {
      ImGui::TextWrapped("%s", current_->title());
      ImGui::Separator();
    }
    draw_controls_panel(1);
    controls_natural_h_ = ImGui::GetCursorPosY() + style.WindowPadding.y;
    ImGui::EndChild();
    ImGui::SameLine();
    return 0;
  }
  if (controls == ControlsMode::Hidden) return 0;
  // Medium and compact: a strip of controls in columns above the plots; narrow: a panel behind a toggle
  // (closed at first, so the plot gets the screen).
  float controls_h = 0;
  const bool narrow = layout.mode == LayoutMode::Narrow && controls != ControlsMode::Compact;
  // The strip starts open where the frame leaves room for the plots under it (>= 600 px tall).
  if (controls_open_ < 0) controls_open_ = layout.height >= 600 || controls == ControlsMode::Compact ? 1 : 0;
  bool strip_open = controls_open_ == 1;
  bool& open = narrow ? narrow_controls_open_ : strip_open;
  // A small button for a mouse; for a finger one kFingerTarget tall.
  const std::string toggle = std::string(tr(open ? "Hide controls" : "Controls")) + "###controls_toggle";
  const bool finger = finger_pointer();
  if (finger) ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(style.FramePadding.x, finger_frame_padding()));
  const float toggle_w = std::max(kFingerTarget, ImGui::CalcTextSize(toggle.c_str(), nullptr, true).x + 2 * style.FramePadding.x);
  if (finger ? ImGui::Button(toggle.c_str(), ImVec2(toggle_w, 0)) : ImGui::SmallButton(toggle.c_str())) open = !open;
  if (finger) ImGui::PopStyleVar();
  if (!narrow) controls_open_ = strip_open ? 1 : 0;
  probe_last_item("button.controls");
  if (open) {
    const int columns = narrow ? 1 : std::max(1, int(layout.width / 240.0f));
    const float cap = (narrow ? 0.6f : controls == ControlsMode::Compact ? 0.3f : 0.4f) * layout.height;
    const float h = std::clamp(controls_natural_h_, 3 * ImGui::GetFrameHeightWithSpacing(), std::max(60.0f, cap));
    ImGui::BeginChild("controls", ImVec2(0, h), true);
    draw_controls_panel(columns);
    controls_natural_h_ = ImGui::GetCursorPosY() + style.WindowPadding.y;
    ImGui::EndChild();
    controls_h = h + style.ItemSpacing.y;
  }
  return controls_h + ImGui::GetFrameHeightWithSpacing();
}

float App::draw_content_area(const FrameLayout& layout) {
  ImGui::BeginChild("content", ImVec2(0, 0), false);
  // The formula line; on a phone it wraps (a small embed keeps one line, the plot needs the room).
  if (layout.mode == LayoutMode::Narrow && !layout.small_embed) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", tr_message(current_->caption()).c_str());
    ImGui::PopStyleColor();
  } else {
    const ImVec4 disabled = ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled);
    text_fit(tr_message(current_->caption()), &disabled);
  }
  probe_last_item("text.caption");
  const float caption_h = ImGui::GetItemRectSize().y + ImGui::GetStyle().ItemSpacing.y;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // Plots keep a readable size: past the frame, the content scrolls. Not in an embed: it fits the
  // frame its page gave it (an inner scroll would trap the reader's wheel); the plots shrink, and a frame
  // too small for them all shows the main figure alone (plan_frame).
  ImVec2 size = avail;
  if (keys_.embed) size.y = std::max(avail.y, 1.0f);
  else if (!layout.figure.empty()) size.y = std::max(avail.y, 200.0f);
  else if (layout.mode == LayoutMode::Narrow) size.y = std::max(avail.y, current_->stacked_height(avail.x));
  else if (layout.mode == LayoutMode::Medium) size.y = std::max(avail.y, std::min(560.0f, layout.width * 0.75f));
  // A slider held by the mouse (or a finger) this frame: views over the frame budget show a preview.
  current_->set_dragging(dragging());
  if (state_changed_ || time_next_update_) {
    // The frame that carries a change: time recompute + upload (+ drawing), for bench/frame-timing.mjs.
    const UpdateTimer timer;
    current_->prepare();
    current_->draw_content(size);
    time_next_update_ = false;
  } else {
    current_->draw_content(size);
  }
  ImGui::EndChild();
  return caption_h;
}

void App::update_preferred_height(const FrameLayout& layout, float top_used, float controls_h, float caption_h) {
  // An embed asks for enough height to show all its controls, and a pleasant plot aspect.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float top = ImGui::GetFrameHeight() + 2 * style.WindowPadding.y;
  // A small embed (one figure) fits the frame its page gave it and asks for nothing: a page script
  // resizing it as it scrolls into view would move the text below.
  if (layout.small_embed) preferred_height_ = 0;
  else if (layout.mode == LayoutMode::Wide)
    preferred_height_ =
        int(std::clamp(std::max((layout.side ? controls_natural_h_ : 0.0f) + top, layout.width * 0.62f), 320.0f, 1400.0f));
  else preferred_height_ = int(layout_height(layout.width, layout.mode, top_used, controls_h, caption_h, layout.figure));
}

void App::frame() {
  make_current();
  clear_probes();
  clear_drawn_texts();
  begin_input_frame();
  ui_.shown_now.clear();
  controls_drawn_ = false;
  // A PNG or SVG export draws one frame with only the view, as an embed without controls would show it.
  const bool svg = svg_pending_, png = capture_pending_;
  const bool capturing = png || (svg && svg_chrome_less_);
  capture_pending_ = svg_pending_ = false;
  set_svg_recording(svg);
  const AppKeys saved_keys = keys_;
  if (capturing) keys_.embed = true, keys_.controls = ControlsMode::Hidden;
  apply_theme();
  const FrameLayout layout = plan_frame();
  current_->set_layout(layout.mode, layout.figure);

  begin_main_window(layout);
  if (!keys_.embed) draw_menu_bar(layout.mode != LayoutMode::Wide);
  draw_notices();
  const float top_used = ImGui::GetCursorPosY();
  const float controls_h = draw_controls_area(layout);
  const float caption_h = draw_content_area(layout);
  update_preferred_height(layout, top_used, controls_h, caption_h);
  draw_preedit();  // in the main window's scope, which clips its probe to the frame
  ImGui::End();
  if (!controls_drawn_) census_controls();
  ui_.shown_keys = ui_.shown_now;
  ui_.shown_view = current_->id();

  // A view's "Load config.json / GGUF" button: the platform opens its file picker after this frame.
  if (take_model_file_request()) action_ = AppAction::OpenModelFile;
  if (take_compare_file_request()) action_ = AppAction::OpenCompareFile;
  if (ui_.weights_requested) action_ = ui_.weights_requested == 1 ? AppAction::OpenWeightsFolder : AppAction::OpenWeightsFiles;
  ui_.weights_requested = 0;
  end_controls_frame();
  if (capturing) {
    keys_.embed = saved_keys.embed;
    keys_.controls = saved_keys.controls;
  }
  if (svg) svg_frame_ = true;
  if (png) capture_frame_ = true;
  ++frame_count_;
}

// [SECTION] the URL state

std::string App::state_query() const {
  StateMap state;
  state["view"] = current_->id();
  current_->save_state(state);
  if (keys_.embed) state["embed"] = "1";
  for (const auto& [key, value] : keys_.set_keys()) state[key] = value;
  return to_query(state);
}

void App::load_state_query(const std::string& query) {
  notices_.clear();
  time_next_update_ = true;
  // The view the query shows (its own, else the current one) says which keys are multi-line text.
  const StateMap raw = parse_query(query);
  const View* target = current_;
  if (auto it = raw.find("view"); it != raw.end())
    if (View* v = find_view(it->second)) target = v;
  const ParamList target_params = target->param_list();
  StateMap in = parse_clean_query(query, notices_, [&](const std::string& key) {
    const Param* p = target_params.find(key);
    return p && p->kind == ParamKind::Text && p->opt.multiline;
  });
  if (auto it = in.find("view"); it != in.end()) {
    if (View* v = find_view(it->second)) {
      if (v != current_) keys_.figure.clear();
      current_ = v;
    } else {
      notices_.push_back({"view", "view=\"" + quote_for_notice(it->second) + "\" is not a view: ignored."});
    }
    in.erase(it);
  }
  // App-level keys, declared once (flags follow the views' flag rule: 0/1 or false/true).
  ParamList app_list;
  app_params(app_list);
  // figure= names a plot of the view as its parameters make it (the scores view's terms depend on the
  // scheme): read after the view's own keys.
  std::optional<std::string> figure_value;
  if (auto it = in.find("figure"); it != in.end()) figure_value = it->second, in.erase(it);
  for (const Param& p : app_list.items())
    if (auto it = in.find(p.key); it != in.end()) {
      p.read(it->second, notices_);
      in.erase(it);
    }
  if (auto it = in.find("theme"); it != in.end()) {
    keys_.read_theme(it->second, notices_);
    in.erase(it);
  }
  if (auto it = in.find("lang"); it != in.end()) {
    keys_.read_lang(it->second, notices_);
    in.erase(it);
  }
  ui_.lang = keys_.lang;
  // Another preset model starts from a fresh view: no key of the previous model stays, so the state is
  // exactly what a fresh ?model=<id> gives. (custom keeps the loaded config it names; none keeps the keys.)
  if (auto it = in.find("model"); it != in.end()) {
    const ParamList declared = current_->param_list();
    const Param* model = declared.find("model");
    const std::string shown = model ? model->text() : std::string();
    if (starts_fresh_model(model ? &shown : nullptr, it->second)) replace_current_view();
  }
  // Keys no view parameter claims are reported, not silently dropped.
  const ParamList known = current_->param_list();
  for (const auto& [key, value] : in)
    if (!known.find(key))
      notices_.push_back({quote_for_notice(key), "unknown parameter \"" + quote_for_notice(key) + "\": ignored."});
  current_->load_state(in, notices_);
  if (figure_value) {
    current_->prepare();
    for (const Param& p : app_list.items())
      if (p.key == "figure") p.read(*figure_value, notices_);
  }
}

void App::app_params(ParamList& list) {
  list.flag("embed", keys_.embed, {.label = "embed: only the view"});
  list.text(
      "controls",
      [this](const std::string& s) -> std::string {
        if (s == "1" || s == "true") keys_.controls = ControlsMode::Shown;
        else if (s == "0" || s == "false") keys_.controls = ControlsMode::Hidden;
        else if (s == "compact") keys_.controls = ControlsMode::Compact;
        else return "is not 0, 1 or compact";
        return {};
      },
      [this] { return keys_.controls == ControlsMode::Hidden    ? "0"
                      : keys_.controls == ControlsMode::Compact ? "compact"
                                                                : "1"; },
      {.label = "controls: 0, 1 or compact"});
  list.text(
      "figure",
      [this](const std::string& s) -> std::string {
        if (s.empty()) {
          keys_.figure.clear();
          return {};
        }
        std::string names;
        for (const std::string& f : current_->figures()) {
          if (f == s) {
            keys_.figure = s;
            return {};
          }
          names += (names.empty() ? "" : ", ") + f;
        }
        return std::string("is not a figure of the ") + current_->id() + " view (" + names + ")";
      },
      [this] { return keys_.figure; }, {.label = "figure: one plot alone"});
}

bool App::load_state_query_strict(const std::string& query, std::string& field, std::string& message) {
  load_state_query(query);
  Notices all = notices_;
  current_->prepare();
  if (current_->error()) all.push_back(*current_->error());
  if (all.empty()) return true;
  field = all.front().key;
  message = strict_message(all);
  return false;
}

std::string App::embed_query() const {
  std::string out = short_view_query() + "&embed=1";
  for (const auto& [key, value] : keys_.set_keys()) out += "&" + to_query({{key, value}});
  return out;
}

std::string App::link_query() const {
  std::string out = short_view_query();
  for (const auto& [key, value] : keys_.set_keys()) out += "&" + to_query({{key, value}});
  return out;
}

std::string App::short_view_query() const {
  StateMap full;
  current_->save_state(full);
  // In reading (declaration) order, a key is needed when a fresh view that read the keys needed before
  // it does not hold its value already: a default value is left out, and so is a value another key
  // fills (a model preset fills the positional keys; a range depends on a key read before it).
  auto fresh_state = [this](const StateMap& keys) {
    const std::unique_ptr<View> fresh = make_view(current_->id());
    Notices ignored;
    fresh->load_state(keys, ignored);
    StateMap out;
    fresh->save_state(out);
    return out;
  };
  const ParamList list = current_->param_list();
  StateMap chosen;
  for (const Param& p : list.items())
    if (fresh_state(chosen)[p.key] != full[p.key]) chosen[p.key] = full[p.key];
  // A key that a later one moves back (none does today) would be lost: then keep every differing key.
  if (fresh_state(chosen) != full)
    for (const auto& [key, value] : fresh_state({}))
      if (value != full[key]) chosen[key] = full[key];
  // view first, then the view's keys in declaration order.
  std::string out = to_query({{"view", current_->id()}});
  for (const Param& p : list.items())
    if (auto it = chosen.find(p.key); it != chosen.end()) out += "&" + to_query({{it->first, it->second}});
  return out;
}

}  // namespace posenc::app
