#include "app/compiled_languages.h"

#include <cstdio>
#include <string>

#include "app/fonts.h"
#include "app/i18n.h"
#include "posenc_lang_data.h"

namespace posenc::app {

void load_compiled_languages() {
  static const bool loaded = [] {
    const std::string why = load_catalogue(Lang::Zh, lang_data::k_zh_catalogue);
    if (!why.empty()) std::fprintf(stderr, "posenc: the compiled-in Chinese catalogue: %s\n", why.c_str());
    provide_cjk_font(lang_data::k_cjk_font, sizeof lang_data::k_cjk_font);
    return true;
  }();
  (void)loaded;
}

}  // namespace posenc::app
