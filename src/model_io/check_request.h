// The one reader of the `check` request (docs/cli.md): posenc eval's op check, `posenc check --reference`,
// the page's window.posenc.check and the Check view all read it here. Strict: a key the request does not
// define, a wrong type or a wrong shape throws InvalidArgument naming the field ("reference.dim",
// "reference.scaling.factor", "actual", "positions", "tolerance.abs", ...), never an element's index.
// Bounded: the text is parsed by model_io/json_request.h (size, depth and the values of each field counted
// before anything is built).
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "core/analysis/rope_check.h"

namespace posenc::model_io {

// The page refuses a longer request before copying it into the module.
inline constexpr std::size_t kMaxCheckRequestBytes = std::size_t{256} << 20;

// A tensor of the request: a number array (1 x n), an array of rows (n x w), an array of heads of rows
// (H x n x w, stacked head after head), or a string of rows of numbers (the text format: a row ends at a
// newline or ';', numbers are separated by spaces or commas, '#' starts a comment line).
struct CheckTensor {
  Matrix m;
  int heads = 0;  // 0: no heads axis
};
CheckTensor read_check_tensor(const nlohmann::json& v, const std::string& field);

// {"dim", "base", "scaling", "layout", "rotary_dim", "rotary_offset", "softmax_scale"} or {"config": {...},
// "layer_type"}.
RopeCheckReference read_check_reference(const nlohmann::json& j);

// {"op": "check", "reference", "kind", "actual", "positions", "x", "q", "k", "tolerance"} -> the reference
// and the input of rope_check. "positions" is an array of integers or a string of the position grammar
// (core/position_list.h). `actual`, when given, stands for a request without "actual" (the Check view's
// dropped file).
struct CheckRequest {
  RopeCheckReference reference;
  RopeCheckInput input;
};
CheckRequest read_check_request(const nlohmann::json& request, const CheckTensor* actual = nullptr);

// Request text -> response text (compact JSON, check_response_json): what window.posenc.check answers.
// Throws InvalidArgument (field "" for malformed JSON).
std::string check_response_text(const std::string& request_text);

}  // namespace posenc::model_io
