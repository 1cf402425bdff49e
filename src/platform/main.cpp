// posenc-app: the explorer in a window (desktop) or a canvas (web, where the page passes --state from its
// URL). Reads the command line; the platform's runner does the rest (desktop_runner.cpp, web_runner.cpp).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "platform/sdl_runner.h"

namespace {

void usage() {
  std::fputs(
      "usage: posenc-app [--frames N] [--screenshot out.png] [--size WxH] [--state 'view=waves&n=64'] [--model FILE]\n"
      "  --frames N        render N frames, then exit (with --screenshot: save the last one)\n"
      "  --model FILE      open with a model's config.json or .gguf (its header) loaded; a file dropped on\n"
      "                    the window loads too\n",
      stderr);
}

}  // namespace

int main(int argc, char** argv) {
  posenc::platform::AppOptions options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto next = [&]() -> const char* {
      if (i + 1 >= argc) {
        usage();
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--frames") options.frames = std::max(1, std::atoi(next()));
    else if (arg == "--screenshot") options.screenshot = next();
    else if (arg == "--state") options.state = next();
    else if (arg == "--model") options.model = next();
    else if (arg == "--size") {
      if (std::sscanf(next(), "%dx%d", &options.width, &options.height) != 2 || options.width < 64 || options.height < 64) {
        usage();
        return 2;
      }
    } else {
      usage();
      return 2;
    }
  }
  if (!options.screenshot.empty() && options.frames < 0) options.frames = 3;
  return posenc::platform::run_app(options);
}
