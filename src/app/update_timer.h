// Wall-clock time of the last view recompute (core computation + texture upload), for the per-frame
// benchmark (bench/frame-timing.mjs reads it through posenc_last_update_ms in the web build).
#pragma once

#include <chrono>

#include "app/ui_state.h"
#include "core/noncopyable.h"

namespace posenc::app {

inline double last_update_ms() { return current_ui().last_update_ms; }
// Its parts: the view's recompute() (core, no GL) and its upload() (texture uploads), the last of each.
inline double last_recompute_ms() { return current_ui().last_recompute_ms; }
inline double last_upload_ms() { return current_ui().last_upload_ms; }

// Scoped timer writing its wall-clock ms into `out`: `{ const UpdateTimer timer; recompute(); }`.
class UpdateTimer : NonCopyable {
 public:
  explicit UpdateTimer(double& out = current_ui().last_update_ms) : out_(out), t0_(std::chrono::steady_clock::now()) {}
  ~UpdateTimer() { out_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0_).count(); }

 private:
  double& out_;
  std::chrono::steady_clock::time_point t0_;
};

}  // namespace posenc::app
