// The headless renderer (posenc render) in-process: its memory stays flat over frames. Each frame's GL
// work must be finished before the next is queued; when it was not, Mesa's software rasteriser kept every
// frame's vertex buffers (the waves view at 1200x800 grew 126 -> 290 MB from frame 10 to frame 100).
#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "app/app.h"
#include "platform/headless_runner.h"

namespace {

// The process's resident set now (VmRSS in /proc/self/status), in KiB; -1 if it cannot be read.
long resident_kib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmRSS:", 0) == 0) {
      std::istringstream in(line.substr(6));
      long kib = -1;
      in >> kib;
      return kib;
    }
  return -1;
}

TEST(RenderMemory, ResidentSetStaysFlatFromFrameTenToFrameHundred) {
  for (const char* state : {"view=waves&embed=1", "view=similarity&embed=1&n=512"}) {
    SCOPED_TRACE(state);
    auto app = std::make_unique<posenc::app::App>();
    app->load_state_query(state);
    ASSERT_EQ(app->notices(), "");
    posenc::platform::HeadlessRunner runner(std::move(app), 1200, 800);
    // Ten frames settle the layout, the textures and the renderer's caches.
    runner.render(10);
    const long at_ten = resident_kib();
    ASSERT_GT(at_ten, 0);
    runner.render(90);
    const long at_hundred = resident_kib();
    // Flat, with room for allocator noise: the growth was ~1.8 MB a frame (164 MB over these 90 frames).
    EXPECT_LT(at_hundred - at_ten, 24 * 1024)
        << "resident set at frame 10: " << at_ten << " KiB, at frame 100: " << at_hundred << " KiB";
  }
}

}  // namespace
