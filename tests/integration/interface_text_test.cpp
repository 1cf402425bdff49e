// Every string the interface draws is in a catalogue (i18n/*.json), in English and in Chinese: each view
// is drawn headless (posenc render's runner; its frames built, not rasterised) in its default state, at
// every range end of its parameters and with a value it refuses (so its notices are drawn), at the four
// sizes the docs use, with the mouse on each of its plots (the hover readouts); every ImDrawList::AddText
// is watched (app/text_hook.h).
//
// The rule (docs/i18n.md): a drawn string passes when it is a catalogue key or a language's text, exactly
// or as an instance of a template ({N}, printf conversions); or a prefix of one cut with an ellipsis; or
// it is data (drawn inside VerbatimText: what the user typed, example sentences, a model's names); or
// it holds no word: after the URL keys and choice names (identifiers, never translated) are taken out,
// no run of two or more letters is left but formula words (sin, cos, exp, softmax, max, ...). In the
// Chinese interface an English key whose Chinese text differs is a failure too (shown untranslated), and
// no character may be drawn as a box (the CJK face covers the catalogue).
//
// POSENC_I18N_REPORT=<file> writes every failure and every key a catalogue lacked there (one a line).
#include <gtest/gtest.h>
#include <imgui.h>

#include <nlohmann/json.hpp>

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "app/app.h"
#include "app/compiled_languages.h"
#include "app/fonts.h"
#include "app/i18n.h"
#include "app/params.h"
#include "app/text_hook.h"
#include "app/ui_state.h"
#include "core/unicode_text.h"
#include "platform/headless_runner.h"
#include "test_paths.h"

using namespace posenc::app;

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Words a formula or a number may hold: function names, units, proper names of schemes and the program.
const std::set<std::string> kFormulaWords = {"sin",     "cos",    "tan",   "exp",  "log",  "ln",    "max",     "min", "mean",
                                             "softmax", "Attn",   "Re",    "Im",   "conj", "clip",  "sqrt",    "abs", "sgn",
                                             "mod",     "argmax", "perm",  "rad",  "inf",  "nan",   "NaN",     "Inf", "posenc",
                                             "RoPE",    "NoPE",   "ALiBi", "YaRN", "NTK",  "BERT",  "DeBERTa", "GPT", "XL",
                                             "GGUF",    "JSON",   "CSV",   "PNG",  "SVG",  "Llama", "LongRoPE"};

bool is_letter(char32_t c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) return true;
  if (c >= 0x370 && c <= 0x3FF) return true;  // Greek
  if (c >= 0xC0 && c <= 0x24F && c != 0xD7 && c != 0xF7) return true;
  return posenc::is_cjk(c) && !(c >= 0x3000 && c <= 0x303F) && !(c >= 0xFF00 && c <= 0xFF20);
}

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }

// The text with every identifier (a URL key or value) taken out where it stands as a whole word.
std::string without_identifiers(std::string text, const std::set<std::string>& identifiers) {
  for (const std::string& id : identifiers) {
    for (size_t at = text.find(id); at != std::string::npos; at = text.find(id, at + 1)) {
      const bool start = at == 0 || !ident_char(text[at - 1]);
      const bool end = at + id.size() >= text.size() || !ident_char(text[at + id.size()]);
      if (start && end) text.replace(at, id.size(), std::string(id.size(), ' '));
    }
  }
  return text;
}

bool holds_no_word(const std::string& text, const std::set<std::string>& identifiers) {
  const std::vector<char32_t> cps = posenc::utf8_code_points(without_identifiers(text, identifiers));
  std::u32string run;
  auto word = [&] {
    if (run.size() < 2) return false;
    std::string utf8;
    for (char32_t c : run) utf8 += posenc::utf8_encode(c);
    return kFormulaWords.count(utf8) == 0;
  };
  for (char32_t c : cps) {
    const bool cjk_ideograph = posenc::is_cjk(c) && is_letter(c);
    if (cjk_ideograph) return false;  // a CJK character is a word by itself
    if (is_letter(c)) {
      run += c;
      continue;
    }
    if (word()) return false;
    run.clear();
  }
  return !word();
}

bool ends_cut(const std::string& text) {
  return text.size() >= 3 && (text.compare(text.size() - 3, 3, "...") == 0 || text.compare(text.size() - 3, 3, "\u2026") == 0);
}

// The lines of the last frame as drawn (app/line_break.h): no line begins with closing punctuation or ends
// with opening punctuation, and no wrap splits a number or a Latin word, except a line cut inside a run
// wider than the line (forced).
std::string line_break_failure(const std::string& a, const std::string& b, bool broken_without_blank) {
  static const char* const closing[] = {"\u3002", "\uff0c", "\u3001", "\uff1b", "\uff1a", "\uff01", "\uff1f",
                                        "\uff09", "\u300d", "\u300f", "\u3011", ".",      ",",      ";",
                                        ":",      "!",      "?",      ")",      "]",      "}"};
  static const char* const opening[] = {"\uff08", "\u300c", "\u300e", "\u3010", "(", "[", "{"};
  for (const char* c : closing)
    if (b.starts_with(c)) return "a line begins with closing punctuation";
  for (const char* o : opening)
    if (a.ends_with(o)) return "a line ends with opening punctuation";
  if (!broken_without_blank || a.empty() || b.empty()) return "";
  auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  if (alnum(a.back()) && alnum(b.front())) return "a number or a Latin word is split";
  if (a.size() >= 2 && (a.back() == '.' || a.back() == ',') && std::isdigit(static_cast<unsigned char>(a[a.size() - 2])) &&
      std::isdigit(static_cast<unsigned char>(b.front())))
    return "a number is split";
  if (a.size() >= 2 && (a.back() == '-' || a.back() == '+') && a[a.size() - 2] == 'e' &&
      std::isdigit(static_cast<unsigned char>(b.front())))
    return "a number is split";
  return "";
}

struct Checker {
  Lang lang = Lang::En;
  std::set<std::string> identifiers;
  std::map<std::string, std::string> failures;  // text -> where
  std::set<std::string> passed;                 // judged once: a frame draws the same labels again and again

  void check(const std::string& text, bool data, const std::string& where) {
    if (data || text.empty() || failures.count(text) || passed.count(text)) return;
    judge(text, where);
    if (!failures.count(text)) passed.insert(text);
  }

  void judge(const std::string& text, const std::string& where) {
    if (text == "Debug") return;  // ImGui's own implicit window (NewFrame's Debug##Default), not the app's
    // Chinese sentences end in one 。: none doubled by a template that adds its own, and no Latin full stop
    // after Chinese text ("位置编码波形. 公式").
    if (lang == Lang::Zh) {
      if (text.find("\u3002\u3002") != std::string::npos) {
        failures[text] = where + ": a doubled full stop";
        return;
      }
      const std::vector<char32_t> cps = posenc::utf8_code_points(text);
      for (size_t i = 0; i + 1 < cps.size(); ++i)
        if (posenc::is_cjk(cps[i]) && cps[i + 1] == U'.' && (i + 2 == cps.size() || cps[i + 2] == U' ')) {
          failures[text] = where + ": a Latin full stop after Chinese";
          return;
        }
    }
    if (holds_no_word(text, identifiers)) return;
    std::string key;
    const bool cut = ends_cut(text);
    const std::string body = cut ? text.substr(0, text.size() - (text.compare(text.size() - 3, 3, "...") == 0 ? 3 : 3)) : text;
    CatalogueMatch m = match_catalogue_text(lang, text, false, &key);
    if (m == CatalogueMatch::None && cut) m = match_catalogue_text(lang, body, true, &key);
    if (m == CatalogueMatch::None) {
      failures[text] = where + ": in no catalogue";
      return;
    }
    if (lang == Lang::Zh && m == CatalogueMatch::English && tr_in(Lang::Zh, key) != key)
      failures[text] = where + ": English in the Chinese interface (key \"" + key + "\")";
  }

  void check_lines(const std::string& where) {
    EXPECT_FALSE(drawn_texts_truncated()) << where;
    for (const DrawnText& d : drawn_texts())
      for (size_t i = 1; i < d.lines.size(); ++i) {
        if (d.ends[i - 1] == LineEnd::Forced) continue;
        const std::string why = line_break_failure(d.lines[i - 1], d.lines[i], d.ends[i - 1] == LineEnd::Break);
        if (!why.empty()) failures["\"" + d.lines[i - 1] + "\" | \"" + d.lines[i] + "\""] = where + ": " + why;
      }
  }
};

struct Size {
  int w, h;
  bool embed;
};

// The states of a view this test draws: its default, each numeric parameter at its low end and one step
// past the top (refused: a notice), each choice's every name and a name it refuses, each flag on and off,
// each text refused (a control byte).
std::vector<std::string> states_of(App& app, const std::string& view) {
  std::vector<std::string> out = {""};
  app.load_state_query("view=" + view);
  const ParamList list = app.current_view()->param_list();
  for (const Param& p : list.items()) {
    switch (p.kind) {
      case ParamKind::Integer:
      case ParamKind::Real:
        // The low end (small problems, edge cases such as a single position) and one past the top (refused:
        // a notice); the top itself is the costliest state to compute and says nothing new in words.
        out.push_back(p.key + "=" + format_number(p.lo));
        out.push_back(p.key + "=" + format_number(p.hi + 1));
        break;
      case ParamKind::Choice:
        for (const char* name : p.names) out.push_back(p.key + "=" + name);
        out.push_back(p.key + "=not_a_choice");
        break;
      case ParamKind::Flag:
        out.push_back(p.key + "=1");
        out.push_back(p.key + "=0");
        break;
      default: out.push_back(p.key + "=%01"); break;  // a control byte: refused with a notice
    }
  }
  return out;
}

std::set<std::string> identifiers_of(App& app) {
  std::set<std::string> ids = {"view", "embed", "controls", "figure", "theme", "lang", "en", "zh", "light", "dark"};
  for (const std::string& view : App::view_ids()) {
    ids.insert(view);
    app.load_state_query("view=" + view);
    const ParamList list = app.current_view()->param_list();
    for (const Param& p : list.items()) {
      ids.insert(p.key);
      for (const char* name : p.names) ids.insert(name);
    }
    for (const std::string& f : app.current_view()->figures()) ids.insert(f);
  }
  return ids;
}

// The description (title, formula in words, the numbers' names, an error), the notices and the form (labels,
// help, choice labels, notices): what the page reads out or shows beside the canvas.
void check_page_words(App& app, Checker& checker, const std::string& where) {
  using nlohmann::json;
  const json d = json::parse(app.describe());
  checker.check(d.value("title", ""), false, where + " (description)");
  checker.check(d.value("formula", ""), false, where + " (description)");
  if (d.contains("error")) checker.check(d["error"].get<std::string>(), false, where + " (description)");
  for (const json& n : d["numbers"]) checker.check(n["name"].get<std::string>(), false, where + " (description)");
  for (const Notice& n : app.notice_list()) checker.check(n.message, false, where + " (notice)");
  const json f = json::parse(app.form());
  checker.check(f.value("heading", ""), false, where + " (form)");
  for (const json& p : f["params"]) {
    checker.check(p["label"].get<std::string>(), false, where + " (form)");
    checker.check(p["help"].get<std::string>(), false, where + " (form)");
    // The form shows a key's notices side by side (each checked above as a notice of its own).
    std::string joined;
    for (const Notice& n : app.notice_list())
      if (n.key == p["key"].get<std::string>()) joined += (joined.empty() ? "" : " ") + n.message;
    if (p["notice"].get<std::string>() != joined) checker.check(p["notice"].get<std::string>(), false, where + " (form)");
    if (p.contains("choices"))
      for (const json& c : p["choices"]) checker.check(c["label"].get<std::string>(), false, where + " (form)");
  }
}

void draw_states(posenc::platform::HeadlessRunner& runner, Checker& checker, const std::string& lang, bool all_states,
                 const std::string& size_name) {
  App& app = runner.app();
  for (const std::string& view : App::view_ids()) {
    const std::vector<std::string> states = all_states ? states_of(app, view) : std::vector<std::string>{""};
    // Each state starts from the view's defaults (the App keeps a key a state leaves out).
    std::string defaults;
    {
      App fresh;
      fresh.load_state_query("view=" + view);
      defaults = fresh.state_query();
    }
    for (const std::string& state : states) {
      const std::string where = size_name + " view=" + view + (state.empty() ? "" : "&" + state);
      set_text_observer([&](std::string_view text, const ImFont*, bool data) { checker.check(std::string(text), data, where); });
      app.load_state_query(defaults + "&lang=" + lang + (state.empty() ? "" : "&" + state));
      ImGui::GetIO().MousePos = ImVec2(-1e6f, -1e6f);
      runner.build_frames(2);
      // The mouse on each plot: its hover readout (the default state's and each choice's: the readouts
      // follow the scheme, not the numbers).
      std::vector<std::pair<ImVec2, ImVec2>> plots;
      const bool hover = state.empty() || state.find('=') == std::string::npos ||
                         !std::isdigit(static_cast<unsigned char>(state[state.find('=') + 1]));
      for (const auto& [name, rect] : app.ui().probes)
        if (hover && (name.rfind("heatmap.", 0) == 0 || name.rfind("plot.", 0) == 0 || name.rfind("canvas.", 0) == 0))
          plots.push_back(rect);
      for (const auto& [mn, mx] : plots) {
        ImGui::GetIO().MousePos = ImVec2((mn.x + mx.x) * 0.5f, (mn.y + mx.y) * 0.5f);
        runner.build_frames(2);
      }
      set_text_observer({});
      checker.check_lines(where);
      // The words outside the canvas: the description (the live region), the notices, the HTML form.
      if (all_states) check_page_words(app, checker, where);
    }
  }
}

class InterfaceText : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    load_compiled_languages();
    ASSERT_EQ(load_catalogue(Lang::En, read_file(std::string(posenc::test::kI18nDir) + "/en.json")), "");
  }
};

void run_language(Lang lang) {
  Checker checker;
  checker.lang = lang;
  {
    App ids_app;
    checker.identifiers = identifiers_of(ids_app);
  }
  clear_missing_keys();
  reset_seen_glyphs();
  const std::string code = lang_code(lang);
  const Size sizes[] = {{1280, 800, false}, {720, 480, false}, {390, 844, false}, {400, 300, true}};
  for (const Size& s : sizes) {
    auto app = std::make_unique<App>();
    app->set_system_dark(false);
    if (s.embed) app->load_state_query("embed=1");
    posenc::platform::HeadlessRunner runner(std::move(app), s.w, s.h);
    const std::string size_name = std::to_string(s.w) + "x" + std::to_string(s.h) + (s.embed ? " embed" : "");
    // Every state at the largest size; the default states at the others (the layouts differ by size).
    draw_states(runner, checker, code, s.w == 1280, size_name);
  }
  std::ostringstream report;
  for (const auto& [text, where] : checker.failures) report << "\"" << text << "\"  (" << where << ")\n";
  if (lang != Lang::En)
    for (const std::string& key : missing_keys()) report << "missing in " << code << ".json: \"" << key << "\"\n";
  if (lang != Lang::En)
    for (char32_t c : missing_glyphs()) report << "drawn as a box: U+" << std::hex << unsigned(c) << std::dec << "\n";
  if (const char* path = std::getenv("POSENC_I18N_REPORT")) {
    std::ofstream out(std::string(path) + "." + code);
    out << report.str();
  }
  EXPECT_EQ(report.str(), "") << "strings drawn in the " << code << " interface that no catalogue has";
}

}  // namespace

TEST_F(InterfaceText, EveryStringDrawnInEnglishIsInTheCatalogue) { run_language(Lang::En); }

TEST_F(InterfaceText, EveryStringDrawnInChineseIsTranslated) { run_language(Lang::Zh); }
