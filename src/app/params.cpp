#include "app/params.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <climits>
#include <cstdlib>

#include "app/number_text.h"

namespace posenc::app {

std::string format_number(double v) {
  char buf[32];
  for (int precision = 6; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

namespace {

// key="value" with the value made safe to show (see quote_for_notice).
std::string quoted(const std::string& key, const std::string& value) { return key + "=\"" + quote_for_notice(value) + "\""; }

// Plain decimal only (app/number_text.h): "0x10", "010", "inf" are not numbers here.
bool parse_int(const std::string& s, int& out) {
  long long v = 0;
  if (!parse_decimal_int(s, v) || v < INT_MIN || v > INT_MAX) return false;
  out = int(v);
  return true;
}

bool parse_finite(const std::string& s, double& out) { return parse_decimal(s, out); }

std::string join_names(std::span<const char* const> names, const char* sep = ", ") {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) out += (i ? sep : "") + std::string(names[i]);
  return out;
}

}  // namespace

std::string Param::text() const {
  switch (kind) {
    case ParamKind::Integer: return std::to_string(*i);
    case ParamKind::Real: return format_number(*d);
    case ParamKind::Choice: return names[size_t(std::clamp(get_index(), 0, int(names.size()) - 1))];
    case ParamKind::Flag: return *b ? "1" : "0";
    case ParamKind::Numbers: {
      std::string out;
      for (int k = 0; k < count; ++k) out += (k ? "," : "") + format_number(d[k]);
      return out;
    }
    case ParamKind::Text: return format();
  }
  return {};
}

void Param::read(const std::string& s, Notices& notices) const {
  auto reject = [&](const std::string& message) { notices.push_back({key, message}); };
  switch (kind) {
    case ParamKind::Integer: {
      int v = 0;
      if (!parse_int(s, v)) return reject(quoted(key, s) + " is not an integer: ignored.");
      if (v < lo || v > hi)
        return reject(key + "=" + s + " is outside [" + std::to_string(int(lo)) + ", " + std::to_string(int(hi)) + "]: ignored.");
      if (opt.even && v % 2) {
        const int even = v - 1 >= lo ? v - 1 : v + 1;
        reject(key + " must be even: using " + std::to_string(even) + ".");
        v = even;
      }
      *i = v;
      return;
    }
    case ParamKind::Real: {
      double v = 0;
      if (!parse_finite(s, v)) return reject(quoted(key, s) + " is not a finite number: ignored.");
      if (v < lo || v > hi)
        return reject(key + "=" + s + " is outside [" + format_number(lo) + ", " + format_number(hi) + "]: ignored.");
      *d = v;
      return;
    }
    case ParamKind::Choice:
      for (size_t k = 0; k < names.size(); ++k)
        if (s == names[k]) return set_index(int(k));
      return reject(quoted(key, s) + " is not one of " + join_names(names) + ": ignored.");
    case ParamKind::Flag:
      if (s == "1" || s == "true") *b = true;
      else if (s == "0" || s == "false") *b = false;
      else reject(quoted(key, s) + " is not 0 or 1: ignored.");
      return;
    case ParamKind::Numbers:
    case ParamKind::Text: {
      const std::string why = apply_text(s);
      if (!why.empty()) reject(quoted(key, s) + " " + why + ": ignored.");
      return;
    }
  }
}

std::string Param::apply_text(const std::string& s) const {
  if (kind == ParamKind::Text) return parse(s);
  if (kind != ParamKind::Numbers) return "is not a text parameter";
  const std::string needs = "needs " + std::to_string(count) + " comma-separated numbers";
  std::vector<double> values;
  size_t start = 0;
  while (true) {
    const size_t comma = s.find(',', start);
    std::string item = s.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    // Spaces around a number are a typist's ("1, 0"), not part of it.
    const size_t first = item.find_first_not_of(' '), last = item.find_last_not_of(' ');
    item = first == std::string::npos ? std::string() : item.substr(first, last - first + 1);
    double v = 0;
    if (!parse_finite(item, v) || int(values.size()) == count) return needs;
    values.push_back(v);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (int(values.size()) != count) return needs;  // (an empty entry, "1,,2", is no number: refused above)
  for (double v : values)
    if (v < lo || v > hi) return "has a number outside [" + format_number(lo) + ", " + format_number(hi) + "]";
  std::copy(values.begin(), values.end(), d);
  return "";
}

void Param::fit() const {
  switch (kind) {
    case ParamKind::Integer: {
      int v = std::clamp(*i, int(lo), int(hi));
      if (opt.even && v % 2) v = v - 1 >= lo ? v - 1 : v + 1;
      *i = v;
      return;
    }
    case ParamKind::Real: *d = std::clamp(*d, lo, hi); return;
    case ParamKind::Numbers:
      for (int k = 0; k < count; ++k) d[k] = std::clamp(d[k], lo, hi);
      return;
    case ParamKind::Choice: set_index(std::clamp(get_index(), 0, int(names.size()) - 1)); return;
    case ParamKind::Flag:
    case ParamKind::Text: return;
  }
}

std::string Param::range_text() const {
  switch (kind) {
    case ParamKind::Integer: return (opt.even ? "even, " : "") + std::to_string(int(lo)) + ".." + std::to_string(int(hi));
    case ParamKind::Real: return format_number(lo) + ".." + format_number(hi);
    case ParamKind::Choice: return "`" + join_names(names, "`, `") + "`";
    case ParamKind::Flag: return "0, 1 (or false, true)";
    case ParamKind::Numbers: return std::to_string(count) + " numbers in [" + format_number(lo) + ", " + format_number(hi) + "]";
    case ParamKind::Text: return opt.help ? opt.help : "text";
  }
  return {};
}

Param& ParamList::add(const char* key, ParamKind kind, const ParamOptions& opt, double lo, double hi) {
  Param& p = items_.emplace_back();
  p.key = key;
  p.kind = kind;
  p.opt = opt;
  p.lo = lo;
  p.hi = std::max(lo, hi);  // a dependent range that collapsed (heads = 1: head in [0, 0])
  return p;
}

void ParamList::integer(const char* key, int& value, int lo, int hi, ParamOptions opt) {
  add(key, ParamKind::Integer, opt, lo, hi).i = &value;
}

void ParamList::real(const char* key, double& value, double lo, double hi, ParamOptions opt) {
  add(key, ParamKind::Real, opt, lo, hi).d = &value;
}

void ParamList::flag(const char* key, bool& value, ParamOptions opt) { add(key, ParamKind::Flag, opt).b = &value; }

void ParamList::choice(const char* key, int& index, std::span<const char* const> names, ParamOptions opt) {
  choice_fn(
      key, [&index] { return index; }, [&index](int i) { index = i; }, names, opt);
}

void ParamList::choice_fn(const char* key, std::function<int()> get, std::function<void(int)> set,
                          std::span<const char* const> names, ParamOptions opt) {
  Param& p = add(key, ParamKind::Choice, opt);
  p.get_index = std::move(get);
  p.set_index = std::move(set);
  p.names = names;
}

void ParamList::numbers(const char* key, std::span<double> values, double lo, double hi, ParamOptions opt) {
  Param& p = add(key, ParamKind::Numbers, opt, lo, hi);
  p.d = values.data();
  p.count = int(values.size());
}

void ParamList::text(const char* key, TextParse parse, TextFormat format, ParamOptions opt) {
  Param& p = add(key, ParamKind::Text, opt);
  p.parse = std::move(parse);
  p.format = std::move(format);
}

const Param* ParamList::find(std::string_view key) const {
  for (const Param& p : items_)
    if (p.key == key) return &p;
  return nullptr;
}

}  // namespace posenc::app
