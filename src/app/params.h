// View parameters, declared once. A view lists its parameters in `params(ParamList&)` (key, member,
// range or choices, label); that one list drives URL save and load (with range checks and notices),
// the list of known keys, the generated parameter table, change detection and the controls' ranges.
// No ImGui here: drawing the declared controls is controls.h.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "app/notices.h"
#include "core/names.h"

namespace posenc::app {

// How a declared parameter is edited and stored.
enum class ParamKind {
  Integer,  // int in [lo, hi] (optionally even)
  Real,     // finite double in [lo, hi]
  Choice,   // one of a list of names (stored as an index)
  Flag,     // bool; the URL accepts 0/1 and true/false, writes 0/1
  Numbers,  // a fixed count of doubles in [lo, hi], written "a,b,c"
  Text,     // free text with its own parser (sentence, lists)
};

// How a choice is drawn.
enum class ChoiceWidget { Combo, Radio, Checkbox /* two names: unchecked = names[0], checked = names[1] */ };

}  // namespace posenc::app

namespace posenc {
// Their names in the parameter form's JSON ("kind", "widget": app/param_form.h).
template <>
struct EnumNames<app::ParamKind> {
  static constexpr std::array<const char*, 6> names{"integer", "real", "choice", "flag", "numbers", "text"};
};
template <>
struct EnumNames<app::ChoiceWidget> {
  static constexpr std::array<const char*, 3> names{"combo", "radio", "checkbox"};
};
}  // namespace posenc

namespace posenc::app {

struct ParamOptions {
  const char* label = nullptr;   // text above the control (the key when null)
  const char* format = nullptr;  // slider format ("n = %d"); default "<key> = %d" / "%.6g"
  const char* help = nullptr;    // one line for the generated parameter table (the label when null)
  bool log = false;              // logarithmic slider
  bool even = false;             // integers: only even values (an odd URL value becomes value - 1)
  ChoiceWidget widget = ChoiceWidget::Combo;
  std::span<const char* const> labels = {};  // choices: what the control shows (the names when empty)
  bool multiline = false;                    // text: rows of text (a tensor): the page's form shows a multi-line field
  // An edit of this parameter from a control (the canvas field, the page's form) also sets `key` to `value`
  // (the Check view's tensor: source=text); a URL or setState sets only what it names.
  struct Selects {
    const char* key = nullptr;
    const char* value = nullptr;
  } selects = {};
};

// Parses a text parameter: on success applies the value and returns ""; otherwise returns why not
// (the value stays). `format` gives the current text.
using TextParse = std::function<std::string(const std::string&)>;
using TextFormat = std::function<std::string()>;

// One declared parameter: its key, kind, range and where its value lives. Valid while the view lives.
struct Param {
  std::string key;
  ParamKind kind = ParamKind::Integer;
  ParamOptions opt;
  int* i = nullptr;                    // Integer
  std::function<int()> get_index;      // Choice
  std::function<void(int)> set_index;  // Choice
  double* d = nullptr;                 // Real, Numbers (count values)
  bool* b = nullptr;                   // Flag
  int count = 0;                       // Numbers
  double lo = 0, hi = 0;               // Integer, Real, Numbers
  std::span<const char* const> names;  // Choice
  TextParse parse;                     // Text
  TextFormat format;                   // Text

  // The value as URL text.
  std::string text() const;
  // Reads URL text: applies it when valid, else keeps the value and adds a notice for `key`.
  void read(const std::string& text, Notices& notices) const;
  // Text and Numbers: applies `text` when valid and returns ""; else returns why not ("has a number
  // outside [-10, 10]") and keeps the value. (read() is this with the notice; a text field shows it.)
  std::string apply_text(const std::string& text) const;
  // Brings a value that a dependency moved out of range back into it (e.g. head < heads).
  void fit() const;
  // "1..4096", "even, 2..1024", "`a`, `b`", "0, 1": the accepted values, for the parameter table.
  std::string range_text() const;
  const char* label() const { return opt.label ? opt.label : key.c_str(); }
};

// The builder views declare into. Declaration order is the URL order of reading (a parameter's range may
// depend on one declared before it) and the order of the generated tables.
class ParamList {
 public:
  void integer(const char* key, int& value, int lo, int hi, ParamOptions opt = {});
  void real(const char* key, double& value, double lo, double hi, ParamOptions opt = {});
  void flag(const char* key, bool& value, ParamOptions opt = {});
  void choice(const char* key, int& index, std::span<const char* const> names, ParamOptions opt = {});
  // Enum-valued: the enum's values are 0..names.size()-1 in the order of `names`.
  template <class Enum>
  void choice(const char* key, Enum& value, std::span<const char* const> names, ParamOptions opt = {}) {
    choice_fn(
        key, [&value] { return static_cast<int>(value); }, [&value](int i) { value = static_cast<Enum>(i); }, names, opt);
  }
  void numbers(const char* key, std::span<double> values, double lo, double hi, ParamOptions opt = {});
  void text(const char* key, TextParse parse, TextFormat format, ParamOptions opt = {});

  const std::vector<Param>& items() const { return items_; }
  const Param* find(std::string_view key) const;

 private:
  Param& add(const char* key, ParamKind kind, const ParamOptions& opt, double lo = 0, double hi = 0);
  void choice_fn(const char* key, std::function<int()> get, std::function<void(int)> set, std::span<const char* const> names,
                 ParamOptions opt);
  std::vector<Param> items_;
};

// The range of every frequency base slider (sinusoidal, RoPE, Transformer-XL).
inline constexpr double kBaseMin = 2.0;
inline constexpr double kBaseMax = 1.0e7;

// The value `steps` units of the declared slider `p` away from `value`, clamped to its range (docs/input.md,
// "Arrow keys"): integers 1 (2 for even parameters; an odd end of the range moves inwards); reals 1/100 of
// the range, or for a logarithmic slider a factor of (hi/lo)^(1/100), rounded to 3 significant digits
// when that still moves it. Other kinds do not step (the value is returned). The one home of the rule:
// the controls' arrow keys (step_param) and the page's form (param_form.h's "steps") read it.
double step_value(const Param& p, double value, int steps);

// Shortest text that reads back as the same double.
std::string format_number(double v);

}  // namespace posenc::app
