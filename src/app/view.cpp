#include "app/view.h"

#include <imgui.h>

#include <cstdio>
#include <exception>

#include <algorithm>

#include "app/controls.h"
#include "core/types.h"

namespace posenc::app {

ParamList View::param_list() const {
  ParamList list;
  // Declaring only takes the members' addresses; nothing is changed here.
  const_cast<View*>(this)->params(list);
  return list;
}

void View::save_state(StateMap& out) const {
  const ParamList list = param_list();
  for (const Param& p : list.items()) out[p.key] = p.text();
}

void View::load_state(const StateMap& in, Notices& notices) {
  // One parameter at a time, re-declaring in between: a range may depend on a parameter read before it
  // (head < heads, pos < target).
  for (size_t k = 0;; ++k) {
    const ParamList list = param_list();
    if (k >= list.items().size()) break;
    const Param& p = list.items()[k];
    // A rejected value stays as it was, and a dependency may have moved its range: fit it either way.
    if (auto it = in.find(p.key); it != in.end()) p.read(it->second, notices);
    p.fit();
  }
}

std::string View::fingerprint() const {
  std::string out;
  const ParamList list = param_list();
  for (const Param& p : list.items()) out += p.key + '=' + p.text() + '&';
  return out;
}

std::string View::key_for_field(const std::string& field) const {
  return param_list().find(field) ? field : std::string();
}

void View::prepare() {
  std::string now = fingerprint();
  if (now == computed_) return;
  computed_ = std::move(now);
  error_.reset();
  try {
    recompute();
    upload_pending_ = true;
  } catch (const CannotCompute& e) {
    error_ = Notice{e.key, e.message};
  } catch (const InvalidArgument& e) {
    std::string key = key_for_field(e.field());
    if (key.empty()) key = e.field();
    error_ = Notice{key, e.what()};
  }
  if (error_) {
    if (error_->key.empty()) error_->key = "view";
    error_->message = "cannot compute (" + error_->key + "): " + error_->message;
  }
}

float View::stacked_height(float width) const {
  // One plot per row, each about 4:3 (never below a readable 220 px).
  const size_t n = figure_.empty() ? figures().size() : 1;
  return float(n) * std::max(220.0f, std::min(width * 0.8f, 520.0f));
}

void View::draw_controls() {
  const ParamList list = param_list();
  Controls c(list, id());
  controls(c);
}

void View::draw_content(ImVec2 size) {
  prepare();
  if (error_) {
    error_text("C" + error_->message.substr(1));
    return;
  }
  // Nothing a view does while drawing may take the app down: a failure becomes the view's error (and is
  // printed, so a bug is still seen) instead of an uncaught exception.
  try {
    if (upload_pending_) {
      upload_pending_ = false;
      upload();
    }
    draw_figure(size);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "posenc: %s view failed to draw: %s\n", id(), e.what());
    error_ = Notice{"view", std::string("cannot draw (view): ") + e.what()};
  }
}

}  // namespace posenc::app
