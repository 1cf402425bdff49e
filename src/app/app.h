// The posenc explorer: owns the views, lays out the main window and holds the URL state.
// Knows ImGui and GL, nothing of SDL or the browser (src/platform/ drives it).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/view.h"

namespace posenc::app {

class App {
 public:
  App();
  ~App();

  // Builds one frame's UI. Call between ImGui::NewFrame() and ImGui::Render().
  void frame();

  // The whole state as a URL query string ("view=waves&n=64&..."), and back.
  std::string state_query() const;
  void load_state_query(const std::string& query);
  // What the last load ignored and why (empty when everything was taken).
  const std::string& notices() const { return notices_; }
  // True once per state change made through the UI (the platform mirrors it into the URL).
  bool take_state_changed();

  uint64_t frame_count() const { return frame_count_; }
  View* current_view() { return current_; }

 private:
  void draw_menu_bar();
  View* find_view(const std::string& id);

  std::vector<std::unique_ptr<View>> views_;
  View* current_ = nullptr;
  std::string notices_;
  bool state_changed_ = false;
  uint64_t frame_count_ = 0;
};

}  // namespace posenc::app
