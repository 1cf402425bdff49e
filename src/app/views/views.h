// Every view of the explorer, made by its factory (each class lives in its own .cpp).
#pragma once

#include <memory>
#include <vector>

#include "app/view.h"

namespace posenc::app {

std::unique_ptr<View> make_waves_view();
std::unique_ptr<View> make_frequencies_view();
std::unique_ptr<View> make_similarity_view();
std::unique_ptr<View> make_buckets_view();
std::unique_ptr<View> make_scores_view();
std::unique_ptr<View> make_rope_view();
std::unique_ptr<View> make_permutation_view();
std::unique_ptr<View> make_toy_view();

// All views in menu order: the one list of views (App::view_ids() reads it).
std::vector<std::unique_ptr<View>> make_views();

}  // namespace posenc::app
