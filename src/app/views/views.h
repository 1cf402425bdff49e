// Every view of the explorer, made by its factory (each class lives in its own .cpp).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
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
std::unique_ptr<View> make_model_view();

// A config.json text or GGUF header (window.posenc.loadModel) loaded into every Model view: on success
// view=model&model=custom with its positional keys filled; otherwise the Model view shows the error as a
// notice naming the key path. Returns the Model view's state query for the page to load.
std::string load_model_bytes(const unsigned char* data, std::size_t size);

// All views in menu order: the one list of views (App::view_ids() reads it).
std::vector<std::unique_ptr<View>> make_views();
// A fresh view (every parameter at its declared default) with this id, or nullptr.
std::unique_ptr<View> make_view(const std::string& id);

}  // namespace posenc::app
