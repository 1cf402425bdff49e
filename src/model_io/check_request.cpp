#include "model_io/check_request.h"

#include <algorithm>
#include <string_view>

#include "core/bounds.h"
#include "core/models/model_config.h"
#include "core/names.h"
#include "core/position_list.h"
#include "model_io/check_json.h"
#include "model_io/config_json.h"
#include "model_io/json_fields.h"
#include "model_io/json_read.h"
#include "model_io/json_request.h"
#include "model_io/rope_fields.h"
#include "model_io/tensor_file.h"

namespace posenc::model_io {
namespace {

using json = nlohmann::json;

// Core errors about "scaling.*", "dim", ... re-rooted under `prefix` ("reference.config.").
template <class F>
auto under(const std::string& prefix, F&& f) {
  return rethrow_renamed(f, [&](const InvalidArgument& e) {
    if (e.field().rfind(prefix, 0) == 0) return e;
    return InvalidArgument(prefix + e.field(), e.what());
  });
}

// Rows of numbers (depth 2) from j, appended to `values`; returns the row width.
size_t append_rows(const json& j, const std::string& field, const std::string& shape, std::vector<double>& values, size_t& rows,
                   size_t width) {
  for (const json& row : j) {
    if (!row.is_array() || row.empty() || (width && row.size() != width)) throw InvalidArgument(field, shape);
    width = row.size();
    for (const json& v : row) values.push_back(json_number(v, field));
    ++rows;
  }
  return width;
}

std::vector<int64_t> read_positions(const json& v) {
  if (v.is_string()) return parse_position_list(v.get_ref<const std::string&>(), "positions");
  if (!v.is_array()) throw InvalidArgument("positions", "positions must be an array of integers or a string like \"0:128\"");
  if (static_cast<int64_t>(v.size()) > kMaxCells) throw InvalidArgument("positions", "positions has more than 2^24 entries");
  std::vector<int64_t> out;
  out.reserve(v.size());
  for (const json& e : v) {
    if (!e.is_number_integer()) throw InvalidArgument("positions", "positions must be an array of integers");
    out.push_back(e.get<int64_t>());
  }
  return out;
}

}  // namespace

CheckTensor read_check_tensor(const json& v, const std::string& field) {
  CheckTensor t;
  if (v.is_string()) {
    // Rows as text, or a JSON tensor as text (its heads kept, as a JSON array's are).
    t.m = tensor_matrix(parse_tensor_text(v.get_ref<const std::string&>(), field, /*semicolon_rows=*/true), field, &t.heads);
    return t;
  }
  const std::string shape =
      field + " must be an array of numbers, of rows or of heads of rows (each row the same length), or rows of numbers as text";
  if (!v.is_array() || v.empty()) throw InvalidArgument(field, shape);
  std::vector<double> values;
  size_t rows = 0, width = 0;
  if (!v.front().is_array()) {  // 1 x n
    values.reserve(v.size());
    for (const json& e : v) values.push_back(json_number(e, field));
    rows = 1, width = values.size();
  } else if (v.front().empty() || !v.front().front().is_array()) {  // n x w
    width = append_rows(v, field, shape, values, rows, 0);
  } else {  // H x n x w: every head the same n
    size_t per_head = 0;
    for (const json& head : v) {
      if (!head.is_array() || head.empty()) throw InvalidArgument(field, shape);
      const size_t before = rows;
      width = append_rows(head, field, shape, values, rows, width);
      if (per_head && rows - before != per_head) throw InvalidArgument(field, shape + " (every head the same number of rows)");
      per_head = rows - before;
    }
    if (v.size() > static_cast<size_t>(kMaxHeads)) throw InvalidArgument(field, field + " has more than 1024 heads");
    t.heads = static_cast<int>(v.size());
  }
  if (static_cast<int64_t>(values.size()) > kMaxCells) throw InvalidArgument(field, field + " has more than 2^24 numbers");
  t.m = Eigen::Map<const Matrix>(values.data(), static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(width));
  return t;
}

RopeCheckReference read_check_reference(const json& j) {
  if (!j.is_object()) throw InvalidArgument("reference", "reference must be a JSON object");
  if (j.contains("config")) {
    const Fields f(j, "reference.", {"config", "layer_type"});
    if (!j.at("config").is_object())
      throw InvalidArgument("reference.config", "reference.config must be a JSON object (a Hugging Face config.json)");
    const std::string layer_type = f.has("layer_type") ? f.string("layer_type") : "";
    const ConfigValue config = config_from_json(j.at("config"), "reference.config");
    const ModelPosition m = under("reference.config.", [&] { return read_hf_config(config); });
    return rope_check_reference(m, layer_type);
  }
  const Fields f(j, "reference.", {"dim", "base", "scaling", "layout", "rotary_dim", "rotary_offset", "softmax_scale"});
  RopeCheckReference r;
  r.dim = static_cast<int>(std::clamp<int64_t>(f.integer("dim"), -1, kMaxDim + 1));
  r.base = f.number("base");
  r.scaling = read_scaling(f, "scaling");
  if (f.has("layout")) r.layout = read_layout(f);
  if (f.has("rotary_dim")) r.rotary_dim = static_cast<int>(std::clamp<int64_t>(f.integer("rotary_dim"), -1, kMaxDim + 1));
  require(!f.has("rotary_dim") || r.rotary_dim != 0, "reference.rotary_dim",
          "reference.rotary_dim must be even and in [2, reference.dim]");
  if (f.has("rotary_offset"))
    r.rotary_offset = static_cast<int>(std::clamp<int64_t>(f.integer("rotary_offset"), -1, kMaxDim + 1));
  r.softmax_scale = f.opt_number("softmax_scale");
  return r;
}

CheckRequest read_check_request(const json& req, const CheckTensor* actual) {
  const Fields f(req, "", {"op", "reference", "kind", "actual", "positions", "x", "q", "k", "tolerance"});
  if (f.has("op") && req.at("op") != "check") throw InvalidArgument("op", "op must be \"check\"");
  if (!f.has("reference")) throw InvalidArgument("reference", "missing field 'reference'");
  CheckRequest out;
  out.reference = read_check_reference(req.at("reference"));
  const std::string kind_name = f.string("kind");
  const auto kind = from_name<CheckKind>(kind_name);
  if (!kind) throw InvalidArgument("kind", "kind must be one of inv_freq, cos, sin, rotated, logits");
  RopeCheckInput& in = out.input;
  in.kind = *kind;
  const std::string what = "kind " + kind_name;
  if (in.kind != CheckKind::Rotated) f.forbid("x", what);
  if (in.kind != CheckKind::Logits) {
    f.forbid("q", what);
    f.forbid("k", what);
  }
  if (!f.has("actual") && !actual) throw InvalidArgument("actual", "missing field 'actual'");
  CheckTensor a = f.has("actual") ? read_check_tensor(req.at("actual"), "actual") : *actual;
  in.actual = std::move(a.m);
  in.heads = a.heads;
  if (in.kind == CheckKind::InvFreq && in.actual.cols() == 1) in.actual.transposeInPlace();
  if (f.has("positions")) in.positions = read_positions(req.at("positions"));
  else if (in.kind != CheckKind::InvFreq) throw InvalidArgument("positions", "missing field 'positions'");
  if (in.kind == CheckKind::Rotated) {
    if (!f.has("x")) throw InvalidArgument("x", "missing field 'x'");
    const CheckTensor x = read_check_tensor(req.at("x"), "x");
    if (x.heads != in.heads)
      throw InvalidArgument("x", "x must have the same heads axis as actual (" + std::to_string(in.heads) + " heads; x has " +
                                     std::to_string(x.heads) + ")");
    in.x = x.m;
  }
  if (in.kind == CheckKind::Logits) {
    for (const char* k : {"q", "k"}) {
      if (!f.has(k)) throw InvalidArgument(k, std::string("missing field '") + k + "'");
      const CheckTensor t = read_check_tensor(req.at(k), k);
      if (t.heads) throw InvalidArgument(k, std::string(k) + " must be n x dim (kind logits has no heads axis)");
      (std::string(k) == "q" ? in.q : in.k) = t.m;
    }
  }
  if (f.has("tolerance")) {
    const Fields t = f.object("tolerance", {"abs", "rel"});
    if (!t.has("abs") && !t.has("rel")) throw InvalidArgument("tolerance", "tolerance needs abs, rel or both");
    in.tolerance = RopeCheckTolerance{t.opt_number("abs").value_or(0.0), t.opt_number("rel").value_or(0.0)};
  }
  return out;
}

std::string check_response_text(const std::string& text) {
  if (text.size() > kMaxCheckRequestBytes)
    throw InvalidArgument("", "the request is " + std::to_string(text.size()) + " bytes; the limit is 256 MiB");
  const json req = parse_request(text);
  if (!req.is_object()) throw InvalidArgument("", "the request must be a JSON object");
  if (!req.contains("op")) throw InvalidArgument("op", "missing field 'op'");
  CheckRequest c = read_check_request(req);
  c.input.keep_tensors = false;  // the response is numbers only
  return check_response_json(rope_check(c.reference, std::move(c.input))).dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace posenc::model_io
