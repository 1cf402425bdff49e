// The web build links with --wrap for ImFontAtlas::AddFontDefault (cmake/web.cmake): ImGui calls it only
// when no font was added before the atlas is built, and the app always adds its own (app/fonts.h) first.
// Standing in for it keeps ImGui's built-in ProggyClean data (~12 KB gzip) out of the page.
#include <imgui.h>

extern "C" ImFont* __wrap__ZN11ImFontAtlas14AddFontDefaultEPK12ImFontConfig(ImFontAtlas* /*atlas*/,
                                                                            const ImFontConfig* /*config*/) {
  return nullptr;
}
