// The `check` request and response of `posenc eval` (docs/cli.md) as JSON, shared by the CLI and the page
// (window.posenc.check), so both give the same response for the same request. Strict: a key the request
// does not define, a wrong type or a wrong shape throws InvalidArgument naming the field ("reference.dim",
// "actual", "tolerance.abs", ...). Bounded: the text's length and the JSON nesting depth are checked while
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

// The response as compact JSON text, keys in this order: {"match", "max_abs_error", "max_rel_error",
// "tolerance" ({"rule": "float32", "angle_rel"} or {"abs", "rel"}), "worst": {"index", "expected", "actual"},
// "diagnosis": [{"cause", "explains", "fitted": {in the cause's order}, "message", "fix"}],
// "equivalent_under_softmax" (logits only)}. Text, not an ordered_json: the page carries one JSON type.
std::string check_response_dump(const RopeCheckResult& result, CheckKind kind);

// Request text -> response text (compact JSON). Throws InvalidArgument (field "" for malformed JSON).
std::string check_response_text(const std::string& request_text);

}  // namespace posenc::model_io
