#include "app/app.h"

#include <imgui.h>

#include <algorithm>

#include "app/probe.h"
#include "app/state_params.h"
#include "app/update_timer.h"
#include "app/views/buckets_view.h"
#include "app/views/frequencies_view.h"
#include "app/views/similarity_view.h"
#include "app/views/toy_view.h"
#include "app/views/permutation_view.h"
#include "app/views/rope_view.h"
#include "app/views/scores_view.h"
#include "app/views/waves_view.h"

namespace posenc::app {

App::App() {
  views_.push_back(std::make_unique<WavesView>());
  views_.push_back(std::make_unique<FrequenciesView>());
  views_.push_back(std::make_unique<SimilarityView>());
  views_.push_back(std::make_unique<BucketsView>());
  views_.push_back(std::make_unique<ScoresView>());
  views_.push_back(std::make_unique<RopeView>());
  views_.push_back(std::make_unique<PermutationView>());
  views_.push_back(std::make_unique<ToyView>());
  current_ = views_.front().get();
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
  if (auto it = in.find("view"); it != in.end()) {
    if (View* v = find_view(it->second))
      current_ = v;
    else
      notices_ += "view=\"" + it->second + "\" is not a view: ignored. ";
    in.erase(it);
  }
  auto read_flag = [&](const char* key, bool& value) {
    auto it = in.find(key);
    if (it == in.end()) return;
    if (it->second == "1" || it->second == "true") value = true;
    else if (it->second == "0" || it->second == "false") value = false;
    else notices_ += std::string(key) + "=\"" + it->second + "\" is not 0 or 1: ignored. ";
    in.erase(it);
  };
  read_flag("embed", embed_);
  read_flag("controls", show_controls_);
  if (auto it = in.find("theme"); it != in.end()) {
    if (it->second == "light") theme_ = Theme::Light;
    else if (it->second == "dark") theme_ = Theme::Dark;
    else if (it->second == "auto" || it->second.empty()) theme_ = Theme::Auto;
    else notices_ += "theme=\"" + it->second + "\" is not light or dark: ignored. ";
    in.erase(it);
  }
  // Keys no view parameter claims are reported, not silently dropped.
  StateMap known;
  current_->save_state(known);
  for (const auto& [key, value] : in)
    if (!known.count(key)) notices_ += "unknown parameter \"" + key + "\": ignored. ";
  current_->load_state(in, notices_);
}

bool App::load_state_query_strict(const std::string& query, std::string& field, std::string& message) {
  load_state_query(query);
  if (notices_.empty()) return true;
  field = notice_field(notices_);
  // The lenient wording says what the app does instead ("ignored", "using 4"); here nothing is used.
  message = "invalid state: " + notices_;
  for (size_t p; (p = message.find(": ignored.")) != std::string::npos;) message.replace(p, 10, ".");
  while (!message.empty() && message.back() == ' ') message.pop_back();
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
  ImGui::PushStyleColor(ImGuiCol_Text, dark() ? ImVec4(1.0f, 0.75f, 0.3f, 1.0f) : ImVec4(0.65f, 0.3f, 0.0f, 1.0f));
  ImGui::TextWrapped("Notice: %s", notices_.c_str());
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
    if (current_->draw_controls()) state_changed_ = true;
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
