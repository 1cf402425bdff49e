#include "model_io/check_json.h"

#include <cmath>
#include <cstdint>

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

nlohmann::json check_reference_json(const RopeCheckReference& r) {
  nlohmann::json j = {{"dim", r.dim}, {"base", r.base}};
  if (r.rotary_dim) j["rotary_dim"] = r.rotary_dim;
  if (r.rotary_offset) j["rotary_offset"] = r.rotary_offset;
  j["layout"] = rope_layout_name(r.layout);
  if (r.softmax_scale) j["softmax_scale"] = *r.softmax_scale;
  const RopeScaling& s = r.scaling;
  if (s.type == RopeScalingType::None) return j;
  nlohmann::json sc = {{"type", rope_scaling_type_name(s.type)}, {"factor", s.factor}};
  if (s.type == RopeScalingType::Proportional) {
    sc["partial_rotary_factor"] = s.partial_rotary_factor;
    j["scaling"] = sc;
    return j;
  }
  if (s.original_max_position_embeddings > 0) sc["original_max_position_embeddings"] = s.original_max_position_embeddings;
  const bool yarn = s.type == RopeScalingType::Yarn, longrope = s.type == RopeScalingType::Longrope;
  if ((s.type == RopeScalingType::Dynamic || longrope) && s.seq_len) sc["seq_len"] = *s.seq_len;
  if (yarn) {
    sc["beta_fast"] = s.beta_fast;
    sc["beta_slow"] = s.beta_slow;
    sc["truncate"] = s.truncate;
    if (s.mscale) sc["mscale"] = *s.mscale;
    if (s.mscale_all_dim) sc["mscale_all_dim"] = *s.mscale_all_dim;
  }
  if ((yarn || longrope) && s.attention_factor) sc["attention_factor"] = *s.attention_factor;
  if (longrope) {
    sc["short_factor"] = s.short_factor;
    sc["long_factor"] = s.long_factor;
  }
  if (s.type == RopeScalingType::Llama3) {
    sc["low_freq_factor"] = s.low_freq_factor;
    sc["high_freq_factor"] = s.high_freq_factor;
  }
  j["scaling"] = sc;
  return j;
}

}  // namespace posenc::model_io
