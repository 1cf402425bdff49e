// The translate functions (app/i18n.h) against the catalogues as they are in the tree (i18n/*.json), and
// the lang key of the URL state.
#include "app/i18n.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "app/app.h"
#include "app/compiled_languages.h"
#include "app/fonts.h"
#include "app/state_params.h"
#include "app_test_util.h"
#include "test_paths.h"

using namespace posenc::app;

namespace {

std::string read_catalogue(const char* lang) {
  std::ifstream in(std::string(posenc::test::kI18nDir) + "/" + lang + ".json");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The current UI state's language for one test, English again after it.
struct InLanguage {
  explicit InLanguage(Lang lang) { set_ui_lang(lang); }
  ~InLanguage() { set_ui_lang(Lang::En); }
};

class I18n : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(load_catalogue(Lang::Zh, read_catalogue("zh")), "");
    ASSERT_EQ(load_catalogue(Lang::En, read_catalogue("en")), "");
    clear_missing_keys();
  }
};

}  // namespace

TEST_F(I18n, EnglishIsTheKeyItself) {
  EXPECT_STREQ(tr("Language"), "Language");
  const char* key = "a text no catalogue has";
  EXPECT_EQ(tr(key), key);  // the very pointer: English costs nothing
  EXPECT_EQ(tr_id("Language"), "Language###Language");
  EXPECT_EQ(trf("Notice: {0}", {"x"}), "Notice: x");
  EXPECT_TRUE(missing_keys().empty());
}

TEST_F(I18n, ChineseComesFromTheCatalogue) {
  const InLanguage zh(Lang::Zh);
  EXPECT_STREQ(tr("Language"), "语言");
  // The ImGui ID stays the English text.
  EXPECT_EQ(tr_id("Language"), "语言###Language");
  EXPECT_EQ(tr_id("Language##menu"), "语言###Language##menu");
  EXPECT_EQ(trf("Notice: {0}", {"x"}), "提示：x");
  EXPECT_TRUE(missing_keys().empty());
}

TEST_F(I18n, AMissingKeyShowsEnglishAndIsRecorded) {
  const InLanguage zh(Lang::Zh);
  EXPECT_STREQ(tr("no catalogue has this"), "no catalogue has this");
  EXPECT_EQ(missing_keys().count("no catalogue has this"), 1u);
}

TEST_F(I18n, MessagesAreTranslatedThroughTheirTemplate) {
  const InLanguage zh(Lang::Zh);
  // An exact entry, then a template ({0} data), then nothing (English stays, recorded).
  EXPECT_EQ(tr_message("Language"), "语言");
  EXPECT_EQ(tr_message("lang=\"fr\" is not en or zh: ignored."), "lang=\"fr\" 不是 en 或 zh：已忽略。");
  EXPECT_EQ(tr_message("Notice: Language"), "提示：Language");  // {0} is data: not translated
  EXPECT_EQ(tr_message("nothing like this"), "nothing like this");
  EXPECT_EQ(missing_keys().count("nothing like this"), 1u);
  // In English a message is itself.
  EXPECT_EQ(tr_message_in(Lang::En, "lang=\"fr\" is not en or zh: ignored."), "lang=\"fr\" is not en or zh: ignored.");
}

TEST_F(I18n, CatalogueTextsAreRecognisedForTheTextCheck) {
  EXPECT_EQ(match_catalogue_text(Lang::Zh, "Language"), CatalogueMatch::English);
  EXPECT_EQ(match_catalogue_text(Lang::Zh, "语言"), CatalogueMatch::Translated);
  EXPECT_EQ(match_catalogue_text(Lang::Zh, "提示：n=5 is bad"), CatalogueMatch::Translated);
  EXPECT_EQ(match_catalogue_text(Lang::Zh, "语"), CatalogueMatch::None);
  EXPECT_EQ(match_catalogue_text(Lang::Zh, "语", true), CatalogueMatch::Translated);  // cut with an ellipsis
  EXPECT_EQ(match_catalogue_text(Lang::Zh, "Lang", true), CatalogueMatch::English);
  EXPECT_EQ(match_catalogue_text(Lang::Zh, "Something else"), CatalogueMatch::None);
}

TEST_F(I18n, CatalogueLoadRejectsWhatIsNotOne) {
  EXPECT_NE(load_catalogue(Lang::Zh, "[1, 2]"), "");
  EXPECT_NE(load_catalogue(Lang::Zh, "{\"a\": 1}"), "");
  EXPECT_NE(load_catalogue(Lang::Zh, "{"), "");
  // A failed load keeps the catalogue it had.
  const InLanguage zh(Lang::Zh);
  EXPECT_STREQ(tr("Language"), "语言");
}

TEST(I18nState, LangIsAnAppKeyThatLinksKeep) {
  App app;
  EXPECT_EQ(posenc::test::state_value(app, "lang"), "<absent>");  // English: links stay as they were
  app.load_state_query("view=permutation&lang=zh");
  EXPECT_EQ(posenc::test::state_value(app, "lang"), "zh");
  EXPECT_EQ(ui_lang(), Lang::Zh);
  EXPECT_NE(app.embed_query().find("lang=zh"), std::string::npos);
  // Another state without the key keeps the language (as it keeps the theme); lang=en switches back.
  app.load_state_query("view=waves");
  EXPECT_EQ(posenc::test::state_value(app, "lang"), "zh");
  app.load_state_query("lang=en");
  EXPECT_EQ(posenc::test::state_value(app, "lang"), "<absent>");
  EXPECT_EQ(ui_lang(), Lang::En);
  // Anything else is a notice naming the key, and changes nothing.
  app.load_state_query("lang=fr");
  ASSERT_EQ(app.notice_list().size(), 1u);
  EXPECT_EQ(app.notice_list()[0].key, "lang");
  EXPECT_EQ(ui_lang(), Lang::En);
  std::string field, message;
  EXPECT_FALSE(app.load_state_query_strict("lang=de", field, message));
  EXPECT_EQ(field, "lang");
}

TEST(I18nState, NoticesAndTheDescriptionSpeakTheLanguage) {
  load_compiled_languages();
  App app;
  app.load_state_query("view=permutation&lang=zh&bogus=1");
  const std::string description = app.describe();
  EXPECT_NE(description.find("\"formula\":\""), std::string::npos);
  // The notice of the unknown key is Chinese, its key stays the URL's.
  const Notices notices = app.notice_list();
  ASSERT_FALSE(notices.empty());
  EXPECT_EQ(notices[0].key, "bogus");
  EXPECT_NE(notices[0].message.find("bogus"), std::string::npos);
  app.load_state_query("lang=en");
}

// A character no face has is drawn as the box glyph and named in a notice (key "text"), with its code
// point; an atlas without posenc's faces (ImGui's default font) is not judged.
TEST(MissingGlyphs, ACharacterNoFaceHasIsABoxNamedInANotice) {
  reset_seen_glyphs();
  posenc::test::ImGuiFrames frames;
  App app;
  app.load_state_query("view=permutation&sentence=%F0%9F%98%80%20cat");  // U+1F600: beyond every face
  for (int f = 0; f < 2; ++f) frames.frame(app);
  EXPECT_EQ(app.notices().find("U+1F600"), std::string::npos) << "ImGui's default font is not judged: " << app.notices();
  load_fonts(1.0f);
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  ASSERT_NE(ImGui::GetIO().Fonts->Fonts[0]->FindGlyphNoFallback(ImWchar(0xFFFD)), nullptr) << "the box glyph";
  for (int f = 0; f < 2; ++f) frames.frame(app);
  const std::string notices = app.notices();
  EXPECT_NE(notices.find("No font has a glyph for \"\xF0\x9F\x98\x80\" (U+1F600): drawn as a box."), std::string::npos)
      << notices;
  EXPECT_TRUE(missing_glyphs().count(U'\U0001F600'));
  EXPECT_FALSE(missing_glyphs().count(U'c')) << "ASCII is the text face's";
  reset_seen_glyphs();
}
