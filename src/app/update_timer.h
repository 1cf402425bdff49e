// Wall-clock time of the last view recompute (core computation + texture upload), for the per-frame
// benchmark (bench/frame-timing.mjs reads it through posenc_last_update_ms in the web build).
#pragma once

#include <chrono>

#include "app/ui_state.h"

namespace posenc::app {

inline double last_update_ms() { return current_ui().last_update_ms; }

// Scoped timer: `if (dirty_) { const UpdateTimer timer; recompute(); }`.
class UpdateTimer {
 public:
  UpdateTimer() : t0_(std::chrono::steady_clock::now()) {}
  ~UpdateTimer() {
    current_ui().last_update_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0_).count();
  }
  UpdateTimer(const UpdateTimer&) = delete;
  UpdateTimer& operator=(const UpdateTimer&) = delete;

 private:
  std::chrono::steady_clock::time_point t0_;
};

}  // namespace posenc::app
