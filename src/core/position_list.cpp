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
  if (begin != end && *begin == '+') ++begin;  // "+3" reads as 3, as Python's int() does
  const auto [ptr, ec] = std::from_chars(begin, end, v);
  if (ec != std::errc() || ptr != end || begin == end)
    throw InvalidArgument(field, field + ": '" + shown_text(std::string(item)) +
                                     "' is not a position (an integer, start:stop[:step] or a..b)");
  if (!(v >= -kMaxPosition && v <= kMaxPosition)) throw InvalidArgument(field, field + " must lie in [-10^6, 10^6]");
  return v;
}

void append_range(int64_t start, int64_t stop, int64_t step, bool inclusive, std::vector<int64_t>& out, const std::string& field) {
  if (!(step != 0)) throw InvalidArgument(field, field + ": a range's step must not be 0");
  if (inclusive) stop += step > 0 ? 1 : -1;
  const int64_t count = step > 0 ? (stop > start ? (stop - start + step - 1) / step : 0)
                                 : (stop < start ? (start - stop - step - 1) / -step : 0);
  if (!(static_cast<int64_t>(out.size()) + count <= kMaxCells)) throw InvalidArgument(field, field + " has more than 2^24 positions");
  for (int64_t i = 0, p = start; i < count; ++i, p += step) out.push_back(p);
}

}  // namespace

std::vector<int64_t> parse_position_list(std::string_view text, const std::string& field) {
  std::vector<int64_t> out;
  size_t i = 0;
  while (i < text.size()) {
    auto sep = [](char c) { return c == ',' || c == ';' || c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (i < text.size() && sep(text[i])) ++i;
    const size_t start = i;
    while (i < text.size() && !sep(text[i])) ++i;
    if (i == start) break;
    const std::string_view item = text.substr(start, i - start);
    if (const size_t dots = item.find(".."); dots != std::string_view::npos) {
      const int64_t a = integer_of(item, item.substr(0, dots), field), b = integer_of(item, item.substr(dots + 2), field);
      append_range(a, b, b >= a ? 1 : -1, true, out, field);
    } else if (const size_t c1 = item.find(':'); c1 != std::string_view::npos) {
      const size_t c2 = item.find(':', c1 + 1);
      const int64_t a = integer_of(item, item.substr(0, c1), field);
      const int64_t b = integer_of(item, item.substr(c1 + 1, c2 == std::string_view::npos ? std::string_view::npos : c2 - c1 - 1), field);
      const int64_t st = c2 == std::string_view::npos ? 1 : integer_of(item, item.substr(c2 + 1), field);
      append_range(a, b, st, false, out, field);
    } else {
      if (!(static_cast<int64_t>(out.size()) < kMaxCells)) throw InvalidArgument(field, field + " has more than 2^24 positions");
      out.push_back(integer_of(item, item, field));
    }
  }
  return out;
}

}  // namespace posenc
