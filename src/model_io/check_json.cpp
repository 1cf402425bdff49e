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
    o["tolerance"] = {{"rule", "float32"},
                      {"angle_rel", number_or_null(r.angle_rel)},
                      {"max", number_or_null(r.tolerance.size() ? r.tolerance.maxCoeff() : 0.0)}};
  else o["tolerance"] = {{"rule", "given"}, {"abs", r.given_tolerance.abs}, {"rel", r.given_tolerance.rel}};
  o["worst"] = {
      {"index", r.worst_index}, {"expected", number_or_null(r.worst_expected)}, {"actual", number_or_null(r.worst_actual)}};
  ojson diag = ojson::array();
  for (const RopeCheckDiagnosis& d : r.diagnosis) {
    ojson fitted = ojson::object();
    for (const auto& [k, v] : d.fitted) {
      // Counts (offset, seq_len, dims, sign) print as JSON integers.
      const bool count = k == "offset" || k == "seq_len" || k == "exponent_dim" || k == "pair_offset" || k == "sin_sign";
      if (const double* x = std::get_if<double>(&v))
        fitted[k] =
            count && std::fabs(*x) < 0x1p53 && *x == std::floor(*x) ? ojson(static_cast<int64_t>(*x)) : number_or_null(*x);
      else if (const bool* b = std::get_if<bool>(&v)) fitted[k] = *b;
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

}  // namespace posenc::model_io
