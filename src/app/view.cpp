#include "app/view.h"

#include <imgui.h>

#include <cstdio>
#include <exception>

#include <algorithm>

#include "app/controls.h"
#include "app/i18n.h"
#include "app/update_timer.h"
#include "app/view_error.h"
#include "core/types.h"

namespace posenc::app {

LayoutMode layout_mode(float width) {
  return width >= 1000 ? LayoutMode::Wide : width >= 560 ? LayoutMode::Medium : LayoutMode::Narrow;
}

const char* View::title() const { return tr(text_.title); }

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

std::string View::key_for_field(const std::string& field) const { return param_list().find(field) ? field : std::string(); }

std::string View::renamed_key(const std::string& field,
                              std::initializer_list<std::pair<const char*, const char*>> renames) const {
  for (const auto& [from, to] : renames)
    if (field == from) return to;
  return View::key_for_field(field);
}

std::string View::scaling_key(const std::string& field, const std::string& prefix, const char* fallback) const {
  if (field.rfind(prefix, 0) != 0) return "";
  const std::string rest = field.substr(prefix.size());
  return rest != "type" && param_list().find(rest) ? rest : fallback;
}

int View::preview_stride(int64_t cells) {
  int stride = 1;
  if (dragging_ && full_ms_ > kFrameBudgetMs && full_cells_ > 0) {
    // Time scales with the cells: a stride s computes about cells / s^2 of them.
    const double per_cell = full_ms_ / double(full_cells_);
    while (stride < 64 && per_cell * double(cells) / (double(stride) * stride) > kPreviewMs) ++stride;
  }
  preview_ = stride > 1;
  if (!preview_) full_cells_ = cells;
  return stride;
}

void View::prepare() {
  std::string now = fingerprint();
  // A preview is replaced by the full computation once the drag is over.
  if (now == computed_ && !(preview_ && !dragging_)) return;
  computed_ = std::move(now);
  error_.reset();
  preview_ = false;
  try {
    {
      const UpdateTimer timer(current_ui().last_recompute_ms);
      recompute();
    }
    recompute_ms_ = current_ui().last_recompute_ms;
    upload_pending_ = true;
  } catch (const CannotCompute& e) { error_ = Notice{e.key, e.message}; } catch (const InvalidArgument& e) {
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
    error_text(view_error_shown(*error_, true));
    return;
  }
  // Nothing a view does while drawing may take the app down: a failure becomes the view's error (and is
  // printed, so a bug is still seen) instead of an uncaught exception.
  try {
    if (upload_pending_) {
      upload_pending_ = false;
      {
        const UpdateTimer timer(current_ui().last_upload_ms);
        upload();
      }
      if (!preview_) full_ms_ = recompute_ms_ + current_ui().last_upload_ms;
    }
    draw_figure(size);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "posenc: %s view failed to draw: %s\n", id(), e.what());
    error_ = Notice{"view", std::string("cannot draw (view): ") + e.what()};
  }
}

std::string View::formula_words_shown() const { return tr_message(formula_words()); }

std::string view_error_shown(const Notice& error, bool capital) {
  const std::string prefix = "cannot compute (" + error.key + "): ";
  if (error.message.rfind(prefix, 0) == 0)
    return trf(capital ? "Cannot compute ({0}): {1:tr}" : "cannot compute ({0}): {1:tr}",
               {error.key, error.message.substr(prefix.size())});
  return tr_message(capital && !error.message.empty() ? "C" + error.message.substr(1) : error.message);
}

}  // namespace posenc::app
