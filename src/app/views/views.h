// The views of the explorer: made from the one list of views (registry.cpp; each class lives in its own .cpp).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "app/view.h"

namespace posenc::app {

// A tensor file (.npy, or text: rows of numbers / JSON arrays) dropped on the page into `check` (an App's
// Check view; anything else: ""): source=file with the tensor held by the view (a link does not carry
// it); a file that cannot be read becomes the view's error naming `tensor`. Returns the Check view's
// state query for the page to load.
std::string load_tensor_bytes(View* check, const unsigned char* data, std::size_t size, const std::string& name);

// A weights report (the JSON posenc weights --json writes) into `usage` (an App's Frequency usage view;
// anything else: ""): `from_url` when it is the usage= URL's JSON (`source` = that URL; the link carries
// it), else a file or the page's weights reader (`source` names it; the link cannot carry it, usage= is
// cleared). `data` null: the JSON is `size` bytes, over the limit. `failure`: why the page could not get
// the JSON (a fetch that failed), shown as the view's error naming `usage`. Returns the view's state query.
std::string load_usage_bytes(View* usage, const unsigned char* data, std::size_t size, const std::string& source, bool from_url,
                             const std::string& failure = "");
// The usage= URL the view waits for ("" when none): the page fetches it and loads it with from_url.
std::string usage_wanted_url(const View* usage);

// All views in menu order: the one list of views (App::view_ids() reads it).
std::vector<std::unique_ptr<View>> make_views();
// A fresh view (every parameter at its declared default) with this id, or nullptr.
std::unique_ptr<View> make_view(const std::string& id);

}  // namespace posenc::app
