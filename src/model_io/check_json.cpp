#include "model_io/check_json.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace posenc::model_io {
namespace {

using ojson = nlohmann::ordered_json;

ojson number_or_null(double v) { return std::isfinite(v) ? ojson(v) : ojson(nullptr); }

}  // namespace

ojson check_response_json(const RopeCheckResult& r) {
  ojson o;
  o["match"] = r.match;
  o["max_abs_error"] = number_or_null(r.max_abs_error);
  o["max_rel_error"] = number_or_null(r.max_rel_error);
  if (r.default_tolerance)
    o["tolerance"] = {{"rule", "float32"}, {"angle_rel", number_or_null(r.angle_rel)}, {"max", number_or_null(r.max_tolerance)}};
  else o["tolerance"] = {{"rule", "given"}, {"abs", r.given_tolerance.abs}, {"rel", r.given_tolerance.rel}};
  o["worst"] = {
      {"index", r.worst_index}, {"expected", number_or_null(r.worst_expected)}, {"actual", number_or_null(r.worst_actual)}};
  ojson diag = ojson::array();
  for (const RopeCheckDiagnosis& d : r.diagnosis) {
    ojson fitted = ojson::object();
    for (const auto& [k, v] : d.fitted) {
      // Counts (offsets, lengths, dims, sign) print as JSON integers.
      const bool count = k == "offset" || k == "seq_len" || k == "exponent_dim" || k == "pair_offset" || k == "sin_sign" ||
                         k == "rotated_dims" || k == "length" || k == "per_head_offset";
      if (const double* x = std::get_if<double>(&v))
        fitted[k] =
            count && std::fabs(*x) < 0x1p53 && *x == std::floor(*x) ? ojson(static_cast<int64_t>(*x)) : number_or_null(*x);
      else if (const bool* b = std::get_if<bool>(&v)) fitted[k] = *b;
      else if (const auto* idx = std::get_if<std::vector<int64_t>>(&v)) fitted[k] = *idx;
      else if (const auto* names = std::get_if<std::vector<std::string>>(&v)) fitted[k] = *names;
      else fitted[k] = std::get<std::string>(v);
    }
    diag.push_back({{"cause", check_cause_name(d.cause)},
                    {"explains", number_or_null(d.explains)},
                    {"fitted", std::move(fitted)},
                    {"message", d.message},
                    {"fix", d.fix}});
  }
  o["diagnosis"] = std::move(diag);
  if (r.equivalent_under_softmax) o["equivalent_under_softmax"] = *r.equivalent_under_softmax;
  return o;
}

namespace {

// A scaling's value of one key of kRopeScalingKeys; null where it is unset (an optional, or a length of 0).
nlohmann::json scaling_value(const RopeScaling& s, std::string_view key) {
  auto optional = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); };
  if (key == "factor") return s.factor;
  if (key == "original_max_position_embeddings")
    return s.original_max_position_embeddings > 0 ? nlohmann::json(s.original_max_position_embeddings) : nlohmann::json();
  if (key == "seq_len") return s.seq_len ? nlohmann::json(*s.seq_len) : nlohmann::json();
  if (key == "beta_fast") return s.beta_fast;
  if (key == "beta_slow") return s.beta_slow;
  if (key == "truncate") return s.truncate;
  if (key == "attention_factor") return optional(s.attention_factor);
  if (key == "mscale") return optional(s.mscale);
  if (key == "mscale_all_dim") return optional(s.mscale_all_dim);
  if (key == "short_factor") return s.short_factor;
  if (key == "long_factor") return s.long_factor;
  if (key == "low_freq_factor") return s.low_freq_factor;
  if (key == "high_freq_factor") return s.high_freq_factor;
  if (key == "partial_rotary_factor") return s.partial_rotary_factor;
  throw std::logic_error("check_reference_json: scaling key '" + std::string(key) + "' has no value");
}

}  // namespace

nlohmann::json check_reference_json(const RopeCheckReference& r) {
  nlohmann::json j = {{"dim", r.dim}, {"base", r.base}};
  if (r.rotary_dim) j["rotary_dim"] = r.rotary_dim;
  if (r.rotary_offset) j["rotary_offset"] = r.rotary_offset;
  j["layout"] = rope_layout_name(r.layout);
  if (r.softmax_scale) j["softmax_scale"] = *r.softmax_scale;
  const RopeScaling& s = r.scaling;
  if (s.type == RopeScalingType::None) return j;
  // The keys the type takes (kRopeScalingKeys), those set.
  nlohmann::json sc = {{"type", rope_scaling_type_name(s.type)}};
  for (const char* key : rope_scaling_keys(s.type))
    if (nlohmann::json v = scaling_value(s, key); !v.is_null()) sc[key] = std::move(v);
  j["scaling"] = sc;
  return j;
}

}  // namespace posenc::model_io
