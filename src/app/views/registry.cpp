#include "app/views/views.h"

namespace posenc::app {

namespace {
using Factory = std::unique_ptr<View> (*)();
constexpr Factory kFactories[] = {
    make_waves_view,       make_frequencies_view, make_similarity_view, make_buckets_view, make_scores_view, make_rope_view,
    make_permutation_view, make_toy_view,         make_model_view,      make_check_view,   make_usage_view,
};
}  // namespace

std::vector<std::unique_ptr<View>> make_views() {
  std::vector<std::unique_ptr<View>> views;
  for (Factory make : kFactories) views.push_back(make());
  return views;
}

std::unique_ptr<View> make_view(const std::string& id) {
  static const std::vector<std::string> ids = [] {
    std::vector<std::string> out;
    for (const auto& v : make_views()) out.push_back(v->id());
    return out;
  }();
  for (size_t k = 0; k < ids.size(); ++k)
    if (ids[k] == id) return kFactories[k]();
  return nullptr;
}

}  // namespace posenc::app
