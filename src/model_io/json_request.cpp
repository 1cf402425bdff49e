#include "model_io/json_request.h"

#include <set>
#include <string>
#include <vector>

#include "core/bounds.h"
#include "core/types.h"

namespace posenc::model_io {
namespace {

using json = nlohmann::json;

// A SAX pass over the request that builds nothing: it rejects a document whose top-level field carries
// more numbers than any input may hold (2^24, limits.h) before the DOM parse would allocate for them.
class SizeScan : public nlohmann::json_sax<json> {
 public:
  std::string too_large;  // the field that exceeded the limit
  bool too_deep = false;  // nesting beyond kMaxJsonDepth (stopped there: nothing deeper is read)

  bool null() override { return count(); }
  bool boolean(bool) override { return count(); }
  bool number_integer(number_integer_t) override { return count(); }
  bool number_unsigned(number_unsigned_t) override { return count(); }
  bool number_float(number_float_t, const string_t&) override { return count(); }
  bool string(string_t&) override { return count(); }
  bool binary(binary_t&) override { return count(); }
  bool start_object(std::size_t) override { return enter(); }
  bool end_object() override {
    --depth_;
    return true;
  }
  bool start_array(std::size_t) override { return enter(); }
  bool end_array() override {
    --depth_;
    return true;
  }
  bool key(string_t& k) override {
    if (depth_ == 1) {
      top_ = k.substr(0, kMaxEchoedKey);
      values_ = 0;
    }
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

 private:
  bool enter() {
    if (++depth_ > kMaxJsonDepth) {
      too_deep = true;
      return false;
    }
    return true;
  }
  bool count() {
    if (depth_ >= 2 && ++values_ > kMaxCells) {
      too_large = top_;
      return false;
    }
    return true;
  }
  int depth_ = 0;
  int64_t values_ = 0;
  std::string top_;
};

void refuse_scanned(const SizeScan& scan) {
  if (scan.too_deep) throw InvalidArgument("", "the request is nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  if (!scan.too_large.empty()) throw InvalidArgument(scan.too_large, "'" + scan.too_large + "' holds more than 2^24 values");
}

}  // namespace

void scan_request(std::istream& in) {
  SizeScan scan;
  nlohmann::json::sax_parse(in, &scan, nlohmann::json::input_format_t::json, /*strict=*/true);
  refuse_scanned(scan);
}

// Parses strictly: one value, no comments, no NaN/Infinity, no duplicate keys (the parser would
// silently keep the last one).
json parse_request(const std::string& text) {
  if (text.size() > kMaxRequestBytes)
    throw InvalidArgument("", "the request is " + std::to_string(text.size()) + " bytes; the limit is 1 GiB");
  {
    SizeScan scan;
    // Syntax errors are reported by the full parse below, with nlohmann's message.
    nlohmann::json::sax_parse(text.data(), text.data() + text.size(), &scan, nlohmann::json::input_format_t::json,
                              /*strict=*/true);
    refuse_scanned(scan);
  }
  struct Frame {
    std::set<std::string> keys;
    std::string last;
  };
  std::vector<Frame> stack;
  std::string duplicate;
  auto callback = [&](int, json::parse_event_t ev, json& parsed) {
    switch (ev) {
      case json::parse_event_t::object_start: stack.emplace_back(); break;
      case json::parse_event_t::object_end:
        if (!stack.empty()) stack.pop_back();
        break;
      case json::parse_event_t::key: {
        // By reference: a long key is not copied again (the set holds the one copy duplicates need).
        const std::string& key = parsed.get_ref<const std::string&>();
        if (!stack.empty()) {
          if (!stack.back().keys.insert(key).second && duplicate.empty()) {
            for (size_t i = 0; i + 1 < stack.size(); ++i) duplicate += stack[i].last.substr(0, kMaxEchoedKey) + ".";
            duplicate += key.substr(0, kMaxEchoedKey);
          }
          stack.back().last = key.substr(0, kMaxEchoedKey);  // only echoed in a duplicate's path
        }
        break;
      }
      default: break;
    }
    return true;
  };
  json j;
  try {
    j = json::parse(text.data(), text.data() + text.size(), callback, /*allow_exceptions=*/true, /*ignore_comments=*/false);
  } catch (const json::exception& e) {
    std::string what = e.what();
    // Drop nlohmann's "[json.exception.parse_error.101] " prefix: the sentence is for people.
    if (auto p = what.find("] "); p != std::string::npos) what = what.substr(p + 2);
    throw InvalidArgument("", "malformed JSON: " + what);
  }
  if (!duplicate.empty()) throw InvalidArgument(duplicate, "duplicate field '" + duplicate + "'");
  return j;
}

}  // namespace posenc::model_io
