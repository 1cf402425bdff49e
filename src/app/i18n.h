// The interface's languages: English and Simplified Chinese, one catalogue per language (i18n/en.json,
// i18n/zh.json: JSON objects from the English text to the language's text).
//
// Every text the app shows goes through one of the functions below, keyed by its English text:
//   tr("Copy link")                    a fixed text; printf formats keep their specifiers ("n = %d")
//   tr_id("Copy link")                 a widget label: "复制链接###Copy link" (the ImGui ID stays English)
//   trf("{0} is not a view", {id})     a template whose {N} are filled after translation
//   tr_message(notice.message)         a finished English message (a notice, a core error): an exact
//                                      entry, or the template entry it was made from
// English is the identity (the key is the English text; i18n/en.json lists every key). A key a
// catalogue lacks shows in English and is recorded (missing_keys): the catalogue test names it.
// Placeholders: {N} is data, filled as it is (a key, a number, a URL value); {N:tr} is an English
// message itself, translated with tr_message before it is filled.
// URL keys and values, JSON keys, probe names, ImGui IDs and formulas are never translated.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace posenc::app {

enum class Lang : int { En, Zh };  // En is 0: a UiState starts in English (ui_state.h)

// The interface's languages in menu order (and Lang's), each with its URL value and its name in its own
// script: the one list. The Language menu, the form's lang choice, the lang key and the page read it (the
// page's copy, web/posenc-lang.js's, is written from these rows at build time by cmake/page_tables.cmake).
struct LanguageRow {
  Lang lang;
  const char* code;
  const char* name;
};
inline constexpr LanguageRow kLanguages[] = {
    {Lang::En, "en", "English"},
    {Lang::Zh, "zh", "中文"},
};

// The Language menu's and the parameter form's label: both scripts, the same text in every language.
inline constexpr const char* kLanguageLabel = "Language · 语言";

// The URL value of a language ("en", "zh") and back; the values as a notice lists them ("en or zh").
const char* lang_code(Lang lang);
std::optional<Lang> lang_from_code(std::string_view code);
std::string lang_codes_text();

// The language the current App shows (its lang key; English when no App is current).
Lang ui_lang();
void set_ui_lang(Lang lang);

// Loads a language's catalogue from its JSON text (process-wide: every App reads it). Returns "" or why
// the text is not a catalogue (not a JSON object of strings). English needs none.
std::string load_catalogue(Lang lang, std::string_view json);
// Whether the language's texts are there (English always).
bool catalogue_loaded(Lang lang);
// Every code point the catalogue's texts use (the glyphs the language's interface needs).
const std::set<char32_t>& catalogue_code_points(Lang lang);

// The current language's text for the English `en` (see the top of this file).
const char* tr(const char* en);
std::string tr(const std::string& en);
std::string tr_id(const char* en);
std::string trf(const char* en, std::initializer_list<std::string_view> args);
std::string tr_message(const std::string& en);
// A URL value shown as a choice (a scheme's or scaling's name): its catalogue text when the catalogue has
// one ("sinusoidal" -> 正弦余弦), else the name itself, unrecorded (identifiers such as yarn or llama3
// stay as they are, like URL keys).
const char* tr_name(const char* name);

// The same in a given language (the CLI's strict messages stay English whatever the state's lang).
std::string tr_in(Lang lang, const std::string& en);
std::string tr_message_in(Lang lang, const std::string& en);

// Keys asked for in a language whose catalogue lacks them (since the last clear).
const std::set<std::string>& missing_keys();
void clear_missing_keys();

// For tests and tools: whether `text` is a catalogue key or a language's text, exactly or as an instance
// of a template or printf format (its placeholders and conversions matching any text). `prefix`: a
// prefix of an exact entry is enough (a label cut with an ellipsis).
// `key`: the entry matched.
enum class CatalogueMatch { None, English, Translated };
CatalogueMatch match_catalogue_text(Lang lang, std::string_view text, bool prefix = false, std::string* key = nullptr);

}  // namespace posenc::app
