// The `check` request of `posenc eval` (docs/cli.md) read without the CLI, for the page's
// window.posenc.check (posenc_cli is native-only); the response is model_io/check_json.h's, as eval's.
// tests/cli/check_request_test.cpp checks that both give the same response for the same request. Strict:
// a key the request does not define, a wrong type or a wrong shape throws InvalidArgument naming the field
// ("reference.dim", "actual", "tolerance.abs", ...). Bounded: the text's length and the JSON nesting depth are checked while
// parsing, before anything is built from it.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "core/analysis/rope_check.h"

namespace posenc::model_io {

inline constexpr std::size_t kMaxCheckRequestBytes = std::size_t{256} << 20;
inline constexpr int kMaxCheckDepth = 64;

// {"op": "check", "reference": {...}, "kind", "actual", "positions", "x", "q", "k", "tolerance"} -> the
// reference and the input of rope_check.
struct CheckRequest {
  RopeCheckReference reference;
  RopeCheckInput input;
};
CheckRequest read_check_request(const nlohmann::json& request);

// Request text -> response text (compact JSON, check_response_json). Throws InvalidArgument (field "" for malformed JSON).
std::string check_response_text(const std::string& request_text);

}  // namespace posenc::model_io
