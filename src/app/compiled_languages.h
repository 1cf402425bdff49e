// Native programs (the desktop app, the posenc CLI, the tests) have the Chinese catalogue and the CJK
// face compiled in (cmake/native.cmake, posenc_app_languages); the page fetches them instead when needed
// (src/platform/web_api.h). Not part of the web build.
#pragma once

namespace posenc::app {

// Loads the compiled-in catalogue (i18n.h) and provides the CJK face (fonts.h). Idempotent.
void load_compiled_languages();

}  // namespace posenc::app
