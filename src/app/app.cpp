#include "app/app.h"

#include <imgui.h>

#include "app/probe.h"
#include "app/state_params.h"
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
  return to_query(state);
}

void App::load_state_query(const std::string& query) {
  notices_.clear();
  StateMap in = parse_query(query);
  if (auto it = in.find("view"); it != in.end()) {
    if (View* v = find_view(it->second))
      current_ = v;
    else
      notices_ += "view=\"" + it->second + "\" is not a view: ignored. ";
    in.erase(it);
  }
  // Keys no view parameter claims are reported, not silently dropped.
  StateMap known;
  current_->save_state(known);
  for (const auto& [key, value] : in)
    if (!known.count(key)) notices_ += "unknown parameter \"" + key + "\": ignored. ";
  current_->load_state(in, notices_);
}

bool App::take_state_changed() {
  const bool changed = state_changed_;
  state_changed_ = false;
  return changed;
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
  ImGui::EndMenuBar();
}

void App::frame() {
  clear_probes();
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(vp->WorkSize);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_MenuBar |
                                 ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
  ImGui::Begin("posenc", nullptr, flags);
  ImGui::PopStyleVar();
  draw_menu_bar();

  if (!notices_.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.75f, 0.3f, 1.0f));
    ImGui::TextWrapped("Notice: %s", notices_.c_str());
    ImGui::PopStyleColor();
    ImGui::SameLine();
    if (ImGui::SmallButton("dismiss")) notices_.clear();
  }

  const float controls_w = 250.0f;
  ImGui::BeginChild("controls", ImVec2(controls_w, 0), true);
  ImGui::TextWrapped("%s", current_->title());
  ImGui::Separator();
  ImGui::PushItemWidth(-1);
  if (current_->draw_controls()) state_changed_ = true;
  ImGui::PopItemWidth();
  ImGui::EndChild();
  ImGui::SameLine();

  ImGui::BeginChild("content", ImVec2(0, 0), false);
  ImGui::TextDisabled("%s", current_->caption());
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  current_->draw_content(avail);
  ImGui::EndChild();

  ImGui::End();
  ++frame_count_;
}

}  // namespace posenc::app
