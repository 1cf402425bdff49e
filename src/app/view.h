// A view of the explorer: one window in the app, and one embeddable single view.
#pragma once

#include <imgui.h>

#include <map>
#include <vector>
#include <string>

#include "app/export.h"

namespace posenc::app {

// Key/value parameters of a view as they appear in the URL query string.
using StateMap = std::map<std::string, std::string>;

class View {
 public:
  virtual ~View() = default;
  virtual const char* id() const = 0;       // stable id used in URLs and tests ("waves", ...)
  virtual const char* title() const = 0;    // menu title
  virtual const char* caption() const = 0;  // one-line formula of what the view shows
  // The view's own controls (sliders); returns true when a parameter changed.
  virtual bool draw_controls() = 0;
  // The view's plots, filling `size`.
  virtual void draw_content(ImVec2 size) = 0;
  // Parameters to and from the URL state. `notices` collects what was ignored and why.
  virtual void save_state(StateMap& out) const = 0;
  virtual void load_state(const StateMap& in, std::string& notices) = 0;
  // Brings the view's data (double-precision matrices and curves) up to date with its parameters.
  // No GL and no ImGui calls here: the headless `posenc export` runs it without any context.
  virtual void prepare() {}
  // Why the current parameters cannot be computed (empty when they can); valid after prepare().
  virtual std::string error() const { return {}; }
  // The data behind the current picture (matrices with their axes, curves), for CSV / JSON export.
  // Call prepare() first.
  virtual void export_data(std::vector<ExportTable>& /*tables*/) const {}
};

}  // namespace posenc::app
