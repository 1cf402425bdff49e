#include "app/app.h"

#include <imgui.h>

#include <algorithm>

#include "app/controls.h"
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
  if (!show_controls_) state["controls"] = "0";
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
    if (View* v = find_view(it->second))
      current_ = v;
    else
      notices_.push_back({"view", "view=\"" + quote_for_notice(it->second) + "\" is not a view: ignored."});
    in.erase(it);
  }
  // App-level flags follow the views' flag rule (0/1 or false/true).
  ParamList app_params;
  app_params.flag("embed", embed_);
  app_params.flag("controls", show_controls_);
  for (const Param& p : app_params.items())
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
}

Notices App::notice_list() {
  Notices all = notices_;
  current_->prepare();
  if (current_->error()) all.push_back(*current_->error());
  return all;
}

bool App::load_state_query_strict(const std::string& query, std::string& field, std::string& message) {
  load_state_query(query);
  const Notices all = notice_list();
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

void App::draw_menu_bar() {
  if (!ImGui::BeginMenuBar()) return;
  ImGui::TextUnformatted("posenc");
  ImGui::Separator();
  for (auto& v : views_) {
    const bool selected = v.get() == current_;
    if (ImGui::MenuItem(v->title(), nullptr, selected) && !selected) {
      current_ = v.get();
      state_changed_ = true;
    }
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
  if (notices_.empty()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, warning_color());
  ImGui::TextWrapped("Notice: %s", notices_text(notices_).c_str());
  ImGui::PopStyleColor();
  probe_last_item("notice");
  ImGui::SameLine();
  if (ImGui::SmallButton("dismiss")) notices_.clear();
}

void App::frame() {
  clear_probes();
  // A PNG export draws one frame with only the view, as an embed without controls would show it.
  const bool capturing = capture_pending_;
  capture_pending_ = false;
  const bool saved_embed = embed_, saved_controls = show_controls_;
  if (capturing) embed_ = true, show_controls_ = false;
  apply_theme();
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(vp->WorkSize);
  ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                           ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  if (!embed_) flags |= ImGuiWindowFlags_MenuBar;
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
  ImGui::Begin("posenc", nullptr, flags);
  ImGui::PopStyleVar(2);
  if (!embed_) draw_menu_bar();
  draw_notices();

  float controls_bottom = 0;
  if (show_controls_) {
    const float controls_w = embed_ ? 220.0f : 250.0f;
    ImGui::BeginChild("controls", ImVec2(controls_w, 0), true);
    if (!embed_) {
      ImGui::TextWrapped("%s", current_->title());
      ImGui::Separator();
    }
    ImGui::PushItemWidth(-1);
    const std::string before = state_query();
    current_->draw_controls();
    if (state_query() != before) state_changed_ = true;
    ImGui::PopItemWidth();
    controls_bottom = ImGui::GetCursorPosY() + ImGui::GetStyle().WindowPadding.y;
    ImGui::EndChild();
    ImGui::SameLine();
  }

  ImGui::BeginChild("content", ImVec2(0, 0), false);
  ImGui::TextDisabled("%s", current_->caption());
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  if (state_changed_ || time_next_update_) {
    // The frame that carries a change: time recompute + upload (+ drawing), for bench/frame-timing.mjs.
    const UpdateTimer timer;
    current_->prepare();
    current_->draw_content(avail);
    time_next_update_ = false;
  } else {
    current_->draw_content(avail);
  }
  ImGui::EndChild();

  // An embed asks for enough height to show all its controls, and a pleasant plot aspect.
  const float width = vp->WorkSize.x;
  const float top = ImGui::GetFrameHeight() + 2 * ImGui::GetStyle().WindowPadding.y;
  preferred_height_ = int(std::clamp(std::max(controls_bottom + top, width * 0.62f), 320.0f, 1400.0f));

  ImGui::End();
  if (capturing) {
    embed_ = saved_embed;
    show_controls_ = saved_controls;
    capture_frame_ = true;
  }
  ++frame_count_;
}

}  // namespace posenc::app
