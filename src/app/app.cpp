#include "app/app.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include <nlohmann/json.hpp>

#include "app/controls.h"
#include "app/model_link.h"
#include "app/input.h"
#include "app/params.h"
#include "app/probe.h"
#include "app/state_params.h"
#include "app/update_timer.h"
#include "app/views/views.h"

namespace posenc::app {

App::App() : views_(make_views()) { current_ = views_.front().get(); }

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

std::string App::state_query() const {
  StateMap state;
  state["view"] = current_->id();
  current_->save_state(state);
  // App-level keys only when they differ from the default, so ordinary links stay short.
  if (embed_) state["embed"] = "1";
  if (controls_ == ControlsMode::Hidden) state["controls"] = "0";
  if (controls_ == ControlsMode::Compact) state["controls"] = "compact";
  if (!figure_.empty()) state["figure"] = figure_;
  if (theme_ != Theme::Auto) state["theme"] = theme_ == Theme::Dark ? "dark" : "light";
  return to_query(state);
}

void App::load_state_query(const std::string& query) {
  notices_.clear();
  time_next_update_ = true;
  StateMap in = parse_query(query);
  // A value with a NUL, another control byte or invalid UTF-8 is never used (nor cut at the NUL).
  for (auto it = in.begin(); it != in.end();) {
    if (is_clean_text(it->first) && is_clean_text(it->second)) {
      ++it;
      continue;
    }
    const std::string key = quote_for_notice(it->first);
    notices_.push_back({key, key + "=\"" + quote_for_notice(it->second) +
                                 "\" holds a control character or invalid UTF-8: ignored."});
    it = in.erase(it);
  }
  if (auto it = in.find("view"); it != in.end()) {
    if (View* v = find_view(it->second)) {
      if (v != current_) figure_.clear();
      current_ = v;
    }
    else
      notices_.push_back({"view", "view=\"" + quote_for_notice(it->second) + "\" is not a view: ignored."});
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
    if (it->second == "light") theme_ = Theme::Light;
    else if (it->second == "dark") theme_ = Theme::Dark;
    else if (it->second == "auto" || it->second.empty()) theme_ = Theme::Auto;
    else notices_.push_back({"theme", "theme=\"" + quote_for_notice(it->second) + "\" is not light or dark: ignored."});
    in.erase(it);
  }
  // Keys no view parameter claims are reported, not silently dropped.
  const ParamList known = current_->param_list();
  for (const auto& [key, value] : in)
    if (!known.find(key)) notices_.push_back({key, "unknown parameter \"" + key + "\": ignored."});
  current_->load_state(in, notices_);
  if (figure_value) {
    current_->prepare();
    for (const Param& p : app_list.items())
      if (p.key == "figure") p.read(*figure_value, notices_);
  }
}

void App::app_params(ParamList& list) {
  list.flag("embed", embed_, {.label = "embed: only the view"});
  list.text(
      "controls",
      [this](const std::string& s) -> std::string {
        if (s == "1" || s == "true") controls_ = ControlsMode::Shown;
        else if (s == "0" || s == "false") controls_ = ControlsMode::Hidden;
        else if (s == "compact") controls_ = ControlsMode::Compact;
        else return "is not 0, 1 or compact";
        return {};
      },
      [this] { return controls_ == ControlsMode::Hidden ? "0" : controls_ == ControlsMode::Compact ? "compact" : "1"; },
      {.label = "controls: 0, 1 or compact"});
  list.text(
      "figure",
      [this](const std::string& s) -> std::string {
        if (s.empty()) {
          figure_.clear();
          return {};
        }
        std::string names;
        for (const std::string& f : current_->figures()) {
          if (f == s) {
            figure_ = s;
            return {};
          }
          names += (names.empty() ? "" : ", ") + f;
        }
        return std::string("is not a figure of the ") + current_->id() + " view (" + names + ")";
      },
      [this] { return figure_; }, {.label = "figure: one plot alone"});
}

Notices App::notice_list() {
  Notices all = notices_;
  current_->prepare();
  if (current_->error()) all.push_back(*current_->error());
  current_->notes(all);
  return all;
}

Notices App::view_notes() {
  Notices notes;
  current_->prepare();
  current_->notes(notes);
  return notes;
}

bool App::load_state_query_strict(const std::string& query, std::string& field, std::string& message) {
  load_state_query(query);
  Notices all = notices_;
  current_->prepare();
  if (current_->error()) all.push_back(*current_->error());
  if (all.empty()) return true;
  field = all.front().key;
  // The lenient wording says what the app does instead ("ignored", "using 4"); here nothing is used.
  message = "invalid state: " + notices_text(all);
  for (size_t p; (p = message.find(": ignored.")) != std::string::npos;) message.replace(p, 10, ".");
  return false;
}

bool App::take_state_changed() {
  const bool changed = state_changed_;
  state_changed_ = false;
  return changed;
}

AppAction App::take_action() {
  const AppAction a = action_;
  action_ = AppAction::None;
  return a;
}

bool App::take_capture_frame() {
  const bool c = capture_frame_;
  capture_frame_ = false;
  return c;
}

void App::set_system_dark(bool dark) { system_dark_ = dark; }

bool App::dark() const { return theme_ == Theme::Auto ? system_dark_ : theme_ == Theme::Dark; }

void App::apply_theme() {
  const int want = dark() ? 1 : 0;
  if (want == applied_dark_) return;
  if (want) ImGui::StyleColorsDark();
  else ImGui::StyleColorsLight();
  ImGuiStyle& style = ImGui::GetStyle();
  style.FrameRounding = 3.0f;
  style.GrabRounding = 3.0f;
  applied_dark_ = want;
}

ExportData App::export_data() const {
  ExportData data;
  data.view = current_->id();
  data.state = state_query();
  // The view's data is a cache of its parameters: bring it up to date (no GL) before reading it, so a
  // headless export that never drew a frame gets the same numbers as the app.
  current_->prepare();
  current_->export_data(data.tables);
  return data;
}

std::string App::describe() {
  current_->prepare();
  nlohmann::json out;
  out["title"] = current_->title();
  out["formula"] = current_->formula_words();
  nlohmann::json params = nlohmann::json::object();
  StateMap state;
  current_->save_state(state);
  // A long value (a pasted tensor, a factor list) is named by its length: the live region reads this.
  for (const auto& [k, v] : state) params[k] = v.size() <= 200 ? v : "(" + std::to_string(v.size()) + " characters)";
  out["params"] = params;
  nlohmann::json numbers = nlohmann::json::array();
  if (current_->error()) {
    out["error"] = current_->error()->message;
  } else {
    std::vector<DescribedNumber> list;
    current_->numbers(list);
    for (const DescribedNumber& n : list)
      numbers.push_back({{"name", n.name}, {"value", std::isfinite(n.value) ? nlohmann::json(n.value) : nlohmann::json()}});
  }
  out["numbers"] = numbers;
  return out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
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
  const LayoutMode mode = width >= 1000 ? LayoutMode::Wide : width >= 560 ? LayoutMode::Medium : LayoutMode::Narrow;
  // As App::frame lays the embed out: no menu bar, no notices (the snippet's URL is clean); the
  // Controls toggle line when the controls are above the plots (the strip starts closed under 600 px),
  // and compact's strip open at its smallest (three rows).
  float controls_h = 0;
  if (controls_ == ControlsMode::Compact)
    controls_h = ImGui::GetFrameHeightWithSpacing() + 3 * ImGui::GetFrameHeightWithSpacing() + style.ItemSpacing.y;
  else if (controls_ == ControlsMode::Shown && mode != LayoutMode::Wide)
    controls_h = ImGui::GetFrameHeightWithSpacing();
  return int(layout_height(width, mode, style.WindowPadding.y, controls_h, ImGui::GetTextLineHeightWithSpacing(), figure_));
}

std::string App::embed_query() const {
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
  // view first, the view's keys in declaration order, then the app-level keys.
  std::string out = to_query({{"view", current_->id()}});
  for (const Param& p : list.items())
    if (auto it = chosen.find(p.key); it != chosen.end()) out += "&" + to_query({{it->first, it->second}});
  out += "&embed=1";
  if (controls_ == ControlsMode::Hidden) out += "&controls=0";
  if (controls_ == ControlsMode::Compact) out += "&controls=compact";
  if (!figure_.empty()) out += "&" + to_query({{"figure", figure_}});
  if (theme_ != Theme::Auto) out += theme_ == Theme::Dark ? "&theme=dark" : "&theme=light";
  return out;
}

void App::draw_menu_bar(bool picker) {
  if (!ImGui::BeginMenuBar()) return;
  ImGui::TextUnformatted("posenc");
  ImGui::Separator();
  auto select = [&](View* v) {
    if (v == current_) return;
    current_ = v;
    figure_.clear();
    state_changed_ = true;
  };
  if (picker) {
    // Not enough width for every title: one picker naming the current view.
    static ImVec2 header_min, header_max;
    const bool open = ImGui::BeginMenu((std::string(current_->title()) + " v###menu.view").c_str());
    if (!open) header_min = ImGui::GetItemRectMin(), header_max = ImGui::GetItemRectMax();
    probe_rect("menu.view", header_min, header_max);
    if (open) {
      for (auto& v : views_) {
        if (ImGui::MenuItem(v->title(), nullptr, v.get() == current_)) select(v.get());
        probe_last_item(("menu.view." + std::string(v->id())).c_str());
      }
      ImGui::EndMenu();
    }
  } else {
    ImVec2 all_min(1e9f, 1e9f), all_max(-1e9f, -1e9f);
    for (auto& v : views_) {
      const bool selected = v.get() == current_;
      if (ImGui::MenuItem(v->title(), nullptr, selected)) select(v.get());
      probe_last_item(("menu.view." + std::string(v->id())).c_str());
      const ImVec2 mn = ImGui::GetItemRectMin(), mx = ImGui::GetItemRectMax();
      all_min = ImVec2(std::min(all_min.x, mn.x), std::min(all_min.y, mn.y));
      all_max = ImVec2(std::max(all_max.x, mx.x), std::max(all_max.y, mx.y));
    }
    probe_rect("menu.view", all_min, all_max);
  }
  ImGui::Separator();
  if (ImGui::BeginMenu("Share")) {
    if (ImGui::MenuItem("Copy link")) action_ = AppAction::CopyLink;
    if (ImGui::MenuItem("Copy embed code")) action_ = AppAction::CopyEmbedCode;
    ImGui::Separator();
    if (ImGui::MenuItem("Export PNG")) action_ = AppAction::ExportPng;
    if (ImGui::MenuItem("Export CSV")) action_ = AppAction::ExportCsv;
    if (ImGui::MenuItem("Export JSON")) action_ = AppAction::ExportJson;
    ImGui::EndMenu();
  }
  probe_last_item("menu.share");
  if (ImGui::BeginMenu("Theme")) {
    if (ImGui::MenuItem("Follow the system", nullptr, theme_ == Theme::Auto)) theme_ = Theme::Auto, state_changed_ = true;
    if (ImGui::MenuItem("Light", nullptr, theme_ == Theme::Light)) theme_ = Theme::Light, state_changed_ = true;
    if (ImGui::MenuItem("Dark", nullptr, theme_ == Theme::Dark)) theme_ = Theme::Dark, state_changed_ = true;
    ImGui::EndMenu();
  }
  ImGui::EndMenuBar();
}

void App::draw_notices() {
  // The load's notices and the view's notes (what of a model it cannot show); dismissed notes stay hidden
  // until they change.
  Notices shown = notices_;
  Notices notes;
  current_->prepare();
  current_->notes(notes);
  const std::string notes_text = notices_text(notes);
  if (notes_text != dismissed_notes_) shown.insert(shown.end(), notes.begin(), notes.end());
  if (notes.empty()) dismissed_notes_.clear();
  if (shown.empty()) return;
  // One line at most (cut with "..."), unless the reader asks for more: a long notice never pushes the
  // view down.
  const std::string text = "Notice: " + notices_text(shown);
  const ImGuiStyle& style = ImGui::GetStyle();
  const float buttons = ImGui::CalcTextSize("more").x + ImGui::CalcTextSize("dismiss").x +
                        4 * style.FramePadding.x + 2 * style.ItemSpacing.x;
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
    if (ImGui::SmallButton(notice_more_ ? "less" : "more")) notice_more_ = !notice_more_;
    probe_last_item("button.notice_more");
  }
  ImGui::SameLine();
  if (ImGui::SmallButton("dismiss")) notices_.clear(), notice_more_ = false, dismissed_notes_ = notes_text;
  probe_last_item("button.notice_dismiss");
}

void App::draw_controls_panel(int columns) {
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

void App::frame() {
  clear_probes();
  begin_input_frame();
  // A PNG export draws one frame with only the view, as an embed without controls would show it.
  const bool capturing = capture_pending_;
  capture_pending_ = false;
  const bool saved_embed = embed_;
  const ControlsMode saved_controls = controls_;
  if (capturing) embed_ = true, controls_ = ControlsMode::Hidden;
  apply_theme();
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  // The layout follows the frame (the canvas), never the screen.
  const float frame_w = vp->WorkSize.x, frame_h = vp->WorkSize.y;
  const LayoutMode mode = frame_w >= 1000 ? LayoutMode::Wide : frame_w >= 560 ? LayoutMode::Medium : LayoutMode::Narrow;
  // A small embed shows the view's main figure alone unless figure= picks another.
  const bool small_embed = embed_ && (mode == LayoutMode::Narrow || frame_h < 400);
  std::string figure = figure_;
  const std::vector<std::string> figures = current_->figures();
  if (std::find(figures.begin(), figures.end(), figure) == figures.end()) figure.clear();
  if (figure.empty() && small_embed && !current_->figures().empty()) figure = current_->figures().front();
  current_->set_layout(mode, figure);

  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(vp->WorkSize);
  ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                           ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  if (!embed_) flags |= ImGuiWindowFlags_MenuBar;
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
  if (small_embed) ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(4, 4));
  ImGui::Begin("posenc", nullptr, flags);
  ImGui::PopStyleVar(small_embed ? 3 : 2);
  if (!embed_) draw_menu_bar(mode != LayoutMode::Wide);
  draw_notices();

  const ImGuiStyle& style = ImGui::GetStyle();
  const float top_used = ImGui::GetCursorPosY();
  float controls_h = 0;  // height of the controls above the plots (strip or panel)
  const bool side = controls_ == ControlsMode::Shown && mode == LayoutMode::Wide;
  const bool above = controls_ == ControlsMode::Compact || (controls_ == ControlsMode::Shown && mode != LayoutMode::Wide);
  if (side) {
    const float controls_w = embed_ ? 220.0f : 250.0f;
    ImGui::BeginChild("controls", ImVec2(controls_w, 0), true);
    if (!embed_) {
      ImGui::TextWrapped("%s", current_->title());
      ImGui::Separator();
    }
    draw_controls_panel(1);
    controls_natural_h_ = ImGui::GetCursorPosY() + style.WindowPadding.y;
    ImGui::EndChild();
    ImGui::SameLine();
  } else if (above) {
    // Medium and compact: a strip of controls in columns above the plots; narrow: a panel behind a
    // toggle (closed at first, so the plot gets the screen).
    const bool narrow = mode == LayoutMode::Narrow && controls_ != ControlsMode::Compact;
    // The strip starts open where the frame leaves room for the plots under it (>= 600 px tall).
    if (controls_open_ < 0) controls_open_ = frame_h >= 600 || controls_ == ControlsMode::Compact ? 1 : 0;
    bool strip_open = controls_open_ == 1;
    bool& open = narrow ? narrow_controls_open_ : strip_open;
    if (ImGui::SmallButton(open ? "Hide controls" : "Controls")) open = !open;
    if (!narrow) controls_open_ = strip_open ? 1 : 0;
    probe_last_item("button.controls");
    if (open) {
      const int columns = narrow ? 1 : std::max(1, int(frame_w / 240.0f));
      const float cap = (narrow ? 0.6f : controls_ == ControlsMode::Compact ? 0.3f : 0.4f) * frame_h;
      const float h = std::clamp(controls_natural_h_, 3 * ImGui::GetFrameHeightWithSpacing(), std::max(60.0f, cap));
      ImGui::BeginChild("controls", ImVec2(0, h), true);
      draw_controls_panel(columns);
      controls_natural_h_ = ImGui::GetCursorPosY() + style.WindowPadding.y;
      ImGui::EndChild();
      controls_h = h + style.ItemSpacing.y;
    }
    controls_h += ImGui::GetFrameHeightWithSpacing();
  }

  ImGui::BeginChild("content", ImVec2(0, 0), false);
  // The formula line; on a phone it wraps (a small embed keeps one line, the plot needs the room).
  if (mode == LayoutMode::Narrow && !small_embed) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", current_->caption());
    ImGui::PopStyleColor();
  } else {
    const ImVec4 disabled = ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled);
    text_fit(current_->caption(), &disabled);
  }
  probe_last_item("text.caption");
  const float caption_h = ImGui::GetItemRectSize().y + style.ItemSpacing.y;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // Plots keep a readable size: past the frame, the content scrolls.
  ImVec2 size = avail;
  float wanted = avail.y;
  if (!figure.empty()) wanted = std::max(avail.y, 200.0f);
  else if (mode == LayoutMode::Narrow) wanted = std::max(avail.y, current_->stacked_height(avail.x));
  else if (mode == LayoutMode::Medium) wanted = std::max(avail.y, std::min(560.0f, frame_w * 0.75f));
  size.y = wanted;
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

  // An embed asks for enough height to show all its controls, and a pleasant plot aspect.
  const float top = ImGui::GetFrameHeight() + 2 * style.WindowPadding.y;
  if (mode == LayoutMode::Wide)
    preferred_height_ = int(std::clamp(std::max((side ? controls_natural_h_ : 0.0f) + top, frame_w * 0.62f), 320.0f, 1400.0f));
  else
    preferred_height_ = int(layout_height(frame_w, mode, top_used, controls_h, caption_h, figure));

  ImGui::End();
  // A view's "Load config.json / GGUF" button: the platform opens its file picker after this frame.
  if (take_model_file_request()) action_ = AppAction::OpenModelFile;
  end_controls_frame();
  if (capturing) {
    embed_ = saved_embed;
    controls_ = saved_controls;
    capture_frame_ = true;
  }
  ++frame_count_;
}

}  // namespace posenc::app
