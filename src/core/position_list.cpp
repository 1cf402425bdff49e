#include "core/position_list.h"

#include <charconv>

#include "core/bounds.h"
#include "core/text_split.h"
#include "core/types.h"

namespace posenc {
namespace {

int64_t integer_of(std::string_view item, std::string_view part, const std::string& field) {
  int64_t v = 0;
  const char* end = part.data() + part.size();
  const char* begin = part.data();
  // Plain decimal only: no '+', no leading zero before another digit ("010" is octal to some readers).
  const char* digits = begin != end && *begin == '-' ? begin + 1 : begin;
  const bool leading_zero = end - digits > 1 && *digits == '0';
  const auto [ptr, ec] = std::from_chars(begin, end, v);
  if (ec != std::errc() || ptr != end || begin == end || leading_zero)
    throw InvalidArgument(
        field, field + ": '" + shown_text(std::string(item)) + "' is not a position (an integer, start:stop[:step] or a..b)");
  if (!(v >= -kMaxPosition && v <= kMaxPosition)) throw InvalidArgument(field, field + " must lie in [-10^6, 10^6]");
  return v;
}

void append_range(int64_t start, int64_t stop, int64_t step, bool inclusive, std::vector<int64_t>& out,
                  const std::string& field) {
  if (!(step != 0)) throw InvalidArgument(field, field + ": a range's step must not be 0");
  if (inclusive) stop += step > 0 ? 1 : -1;
  const int64_t count =
      step > 0 ? (stop > start ? (stop - start + step - 1) / step : 0) : (stop < start ? (start - stop - step - 1) / -step : 0);
  if (!(static_cast<int64_t>(out.size()) + count <= kMaxCells))
    throw InvalidArgument(field, field + " has more than 2^24 positions");
  for (int64_t i = 0, p = start; i < count; ++i, p += step) out.push_back(p);
}

}  // namespace

std::vector<int64_t> parse_position_list(std::string_view text, const std::string& field) {
  std::vector<int64_t> out;
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  auto comma = [](char c) { return c == ',' || c == ';'; };
  // An empty entry (a comma with no item before it, since the start or the previous comma, or a comma at
  // the end) is refused: "1,,2" and "1," are mistakes, not lists.
  bool item_since_comma = false, any_comma = false;
  size_t i = 0;
  while (i < text.size()) {
    if (space(text[i])) {
      ++i;
      continue;
    }
    if (comma(text[i])) {
      if (!item_since_comma) throw InvalidArgument(field, field + " has an empty entry");
      item_since_comma = false;
      any_comma = true;
      ++i;
      continue;
    }
    const size_t start = i;
    while (i < text.size() && !space(text[i]) && !comma(text[i])) ++i;
    item_since_comma = true;
    const std::string_view item = text.substr(start, i - start);
    if (const size_t dots = item.find(".."); dots != std::string_view::npos) {
      const int64_t a = integer_of(item, item.substr(0, dots), field), b = integer_of(item, item.substr(dots + 2), field);
      append_range(a, b, b >= a ? 1 : -1, true, out, field);
    } else if (const size_t c1 = item.find(':'); c1 != std::string_view::npos) {
      const size_t c2 = item.find(':', c1 + 1);
      const int64_t a = integer_of(item, item.substr(0, c1), field);
      const int64_t b =
          integer_of(item, item.substr(c1 + 1, c2 == std::string_view::npos ? std::string_view::npos : c2 - c1 - 1), field);
      const int64_t st = c2 == std::string_view::npos ? 1 : integer_of(item, item.substr(c2 + 1), field);
      append_range(a, b, st, false, out, field);
    } else {
      if (!(static_cast<int64_t>(out.size()) < kMaxCells)) throw InvalidArgument(field, field + " has more than 2^24 positions");
      out.push_back(integer_of(item, item, field));
    }
  }
  if (any_comma && !item_since_comma) throw InvalidArgument(field, field + " has an empty entry");
  return out;
}

}  // namespace posenc
