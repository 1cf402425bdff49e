#include "app/views/views.h"

namespace posenc::app {

std::vector<std::unique_ptr<View>> make_views() {
  using Factory = std::unique_ptr<View> (*)();
  static constexpr Factory kFactories[] = {
      make_waves_view,
      make_frequencies_view,
      make_similarity_view,
      make_buckets_view,
      make_scores_view,
      make_rope_view,
      make_permutation_view,
      make_toy_view,
      make_model_view,
  };
  std::vector<std::unique_ptr<View>> views;
  for (Factory make : kFactories) views.push_back(make());
  return views;
}

}  // namespace posenc::app
