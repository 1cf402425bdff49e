#include "model_io/check_request.h"

#include "model_io/check_json.h"

#include <cmath>
#include <initializer_list>
#include <string_view>

#include "core/models/model_config.h"
#include "core/names.h"
#include "model_io/config_json.h"
#include "model_io/json_read.h"

namespace posenc::model_io {
namespace {

using json = nlohmann::json;
constexpr std::size_t kMaxTensorElements = std::size_t{1} << 24;

// Keys are echoed in errors at most this long (a huge unknown key must not become a huge message).
std::string shown_key(const std::string& k) { return k.size() <= 64 ? k : k.substr(0, 64) + "..."; }

void only_keys(const json& j, const std::string& prefix, std::initializer_list<const char*> allowed, const std::string& what) {
  if (!j.is_object())
    throw InvalidArgument(
        prefix.empty() ? "" : prefix.substr(0, prefix.size() - 1),
        (prefix.empty() ? std::string("the request") : prefix.substr(0, prefix.size() - 1)) + " must be an object");
  for (const auto& [k, v] : j.items()) {
    bool ok = false;
    for (const char* a : allowed) ok = ok || k == a;
    if (!ok) throw InvalidArgument(prefix + shown_key(k), "\"" + prefix + shown_key(k) + "\" is not a field of " + what);
  }
}

int64_t integer(const json& j, const std::string& field) {
  if (!j.is_number_integer() && !(j.is_number_float() && std::floor(j.get<double>()) == j.get<double>()))
    throw InvalidArgument(field, field + " must be an integer");
  const double d = j.get<double>();
  if (std::fabs(d) > 9.0e15) throw InvalidArgument(field, field + " is out of range");
  return j.is_number_integer() ? j.get<int64_t>() : static_cast<int64_t>(d);
}

// A flat array of numbers (1 x n) or an array of equal-length rows.
Matrix matrix(const json& j, const std::string& field) {
  if (!j.is_array()) throw InvalidArgument(field, field + " must be an array of numbers or of rows");
  if (j.empty()) throw InvalidArgument(field, field + " is empty");
  if (!j.front().is_array()) {
    if (j.size() > kMaxTensorElements) throw InvalidArgument(field, field + " has more than 2^24 numbers");
    Matrix m(1, static_cast<Eigen::Index>(j.size()));
    for (std::size_t i = 0; i < j.size(); ++i) m(0, Eigen::Index(i)) = json_number(j[i], field + "[" + std::to_string(i) + "]");
    return m;
  }
  const std::size_t cols = j.front().size();
  if (cols == 0 || j.size() * cols > kMaxTensorElements) throw InvalidArgument(field, field + " must have 1 to 2^24 numbers");
  Matrix m(static_cast<Eigen::Index>(j.size()), static_cast<Eigen::Index>(cols));
  for (std::size_t r = 0; r < j.size(); ++r) {
    const json& row = j[r];
    const std::string rf = field + "[" + std::to_string(r) + "]";
    if (!row.is_array() || row.size() != cols)
      throw InvalidArgument(field, rf + " must be a row of " + std::to_string(cols) + " numbers (as " + field + "[0])");
    for (std::size_t c = 0; c < cols; ++c)
      m(Eigen::Index(r), Eigen::Index(c)) = json_number(row[c], rf + "[" + std::to_string(c) + "]");
  }
  return m;
}

RopeScaling read_scaling(const json& j) {
  const std::string p = "reference.scaling.";
  if (!j.is_object()) throw InvalidArgument("reference.scaling", "reference.scaling must be an object");
  RopeScaling s;
  if (!j.contains("type")) throw InvalidArgument(p + "type", p + "type is missing");
  if (!j["type"].is_string()) throw InvalidArgument(p + "type", p + "type must be a string");
  const auto type = from_name<RopeScalingType>(j["type"].get<std::string>());
  if (!type)
    throw InvalidArgument(p + "type", p + "type \"" + shown_key(j["type"].get<std::string>()) + "\" is not a scaling type");
  s.type = *type;
  const bool yarn = s.type == RopeScalingType::Yarn, longrope = s.type == RopeScalingType::Longrope;
  const bool llama3 = s.type == RopeScalingType::Llama3, dynamic = s.type == RopeScalingType::Dynamic;
  const std::string what = std::string("scaling type ") + name_of(s.type);
  for (const auto& [k, v] : j.items()) {
    const bool ok =
        k == "type" || k == "factor" || k == "original_max_position_embeddings" || ((dynamic || longrope) && k == "seq_len") ||
        (yarn && (k == "beta_fast" || k == "beta_slow" || k == "mscale" || k == "mscale_all_dim" || k == "truncate")) ||
        ((yarn || longrope) && k == "attention_factor") || (longrope && (k == "short_factor" || k == "long_factor")) ||
        (llama3 && (k == "low_freq_factor" || k == "high_freq_factor"));
    if (!ok) throw InvalidArgument(p + shown_key(k), "\"" + p + shown_key(k) + "\" is not a field of " + what);
  }
  auto need = [&](const char* k) -> const json& {
    if (!j.contains(k)) throw InvalidArgument(p + k, p + k + " is missing (" + what + ")");
    return j[k];
  };
  const bool needs_factor = s.type != RopeScalingType::None && !longrope;
  const bool needs_length = dynamic || yarn || longrope || llama3;
  if (needs_factor || j.contains("factor")) s.factor = json_number(need("factor"), p + "factor");
  if (needs_length || j.contains("original_max_position_embeddings"))
    s.original_max_position_embeddings =
        integer(need("original_max_position_embeddings"), p + "original_max_position_embeddings");
  if (j.contains("seq_len")) s.seq_len = integer(j["seq_len"], p + "seq_len");
  if (j.contains("beta_fast")) s.beta_fast = json_number(j["beta_fast"], p + "beta_fast");
  if (j.contains("beta_slow")) s.beta_slow = json_number(j["beta_slow"], p + "beta_slow");
  if (j.contains("mscale")) s.mscale = json_number(j["mscale"], p + "mscale");
  if (j.contains("mscale_all_dim")) s.mscale_all_dim = json_number(j["mscale_all_dim"], p + "mscale_all_dim");
  if (j.contains("truncate")) {
    if (!j["truncate"].is_boolean()) throw InvalidArgument(p + "truncate", p + "truncate must be true or false");
    s.truncate = j["truncate"].get<bool>();
  }
  if (j.contains("attention_factor")) s.attention_factor = json_number(j["attention_factor"], p + "attention_factor");
  if (longrope) {
    for (const char* k : {"short_factor", "long_factor"}) {
      const Matrix m = matrix(need(k), p + k);
      if (m.rows() != 1) throw InvalidArgument(p + k, p + k + " must be a flat array of numbers");
      (std::string(k) == "short_factor" ? s.short_factor : s.long_factor).assign(m.data(), m.data() + m.size());
    }
  }
  if (llama3) {
    s.low_freq_factor = json_number(need("low_freq_factor"), p + "low_freq_factor");
    s.high_freq_factor = json_number(need("high_freq_factor"), p + "high_freq_factor");
  }
  return s;
}

RopeCheckReference read_reference(const json& j) {
  if (!j.is_object()) throw InvalidArgument("reference", "reference must be an object");
  if (j.contains("config")) {
    only_keys(j, "reference.", {"config", "layer_type"}, "a reference from a config (config, layer_type)");
    std::string layer_type;
    if (j.contains("layer_type")) {
      if (!j["layer_type"].is_string()) throw InvalidArgument("reference.layer_type", "reference.layer_type must be a string");
      layer_type = j["layer_type"].get<std::string>();
    }
    const ModelPosition m = rethrow_renamed(
        [&] { return read_hf_config(config_from_json(j["config"], "reference.config")); },
        [](const InvalidArgument& e) {
          const std::string f = e.field();
          return InvalidArgument(f.rfind("reference.", 0) == 0 ? f : "reference.config" + (f.empty() ? "" : "." + f), e.what());
        });
    return rope_check_reference(m, layer_type);
  }
  only_keys(j, "reference.", {"dim", "base", "scaling", "layout", "rotary_dim", "softmax_scale"},
            "the reference (dim, base, scaling, layout, rotary_dim, softmax_scale; or config, layer_type)");
  RopeCheckReference r;
  if (!j.contains("dim")) throw InvalidArgument("reference.dim", "reference.dim is missing");
  const int64_t dim = integer(j["dim"], "reference.dim");
  if (dim < 2 || dim > 4096 || dim % 2) throw InvalidArgument("reference.dim", "reference.dim must be even and in [2, 4096]");
  r.dim = int(dim);
  if (!j.contains("base")) throw InvalidArgument("reference.base", "reference.base is missing");
  r.base = json_number(j["base"], "reference.base");
  if (j.contains("scaling")) r.scaling = read_scaling(j["scaling"]);
  if (j.contains("layout")) {
    const auto layout = j["layout"].is_string() ? from_name<RopeLayout>(j["layout"].get<std::string>()) : std::nullopt;
    if (!layout) throw InvalidArgument("reference.layout", "reference.layout must be \"half\" or \"interleaved\"");
    r.layout = *layout;
  }
  if (j.contains("rotary_dim")) {
    const int64_t rd = integer(j["rotary_dim"], "reference.rotary_dim");
    if (rd < 2 || rd > dim || rd % 2)
      throw InvalidArgument("reference.rotary_dim", "reference.rotary_dim must be even and in [2, reference.dim]");
    r.rotary_dim = int(rd);
  }
  if (j.contains("softmax_scale")) r.softmax_scale = json_number(j["softmax_scale"], "reference.softmax_scale");
  return r;
}

}  // namespace

CheckRequest read_check_request(const json& req) {
  only_keys(req, "", {"op", "reference", "kind", "actual", "positions", "x", "q", "k", "tolerance"},
            "the check request (op, reference, kind, actual, positions, x, q, k, tolerance)");
  CheckRequest out;
  if (!req.contains("reference")) throw InvalidArgument("reference", "reference is missing");
  out.reference = read_reference(req["reference"]);
  if (!req.contains("kind")) throw InvalidArgument("kind", "kind is missing");
  const auto kind = req["kind"].is_string() ? from_name<CheckKind>(req["kind"].get<std::string>()) : std::nullopt;
  if (!kind) throw InvalidArgument("kind", "kind must be one of inv_freq, cos, sin, rotated, logits");
  out.input.kind = *kind;
  if (!req.contains("actual")) throw InvalidArgument("actual", "actual is missing");
  out.input.actual = matrix(req["actual"], "actual");
  if (req.contains("positions")) {
    const json& p = req["positions"];
    if (!p.is_array()) throw InvalidArgument("positions", "positions must be an array of integers");
    if (p.size() > kMaxTensorElements) throw InvalidArgument("positions", "positions has more than 2^24 entries");
    for (std::size_t i = 0; i < p.size(); ++i)
      out.input.positions.push_back(integer(p[i], "positions[" + std::to_string(i) + "]"));
  } else if (*kind != CheckKind::InvFreq) {
    throw InvalidArgument("positions", "positions is missing (kind " + std::string(name_of(*kind)) + ")");
  }
  const std::string what = "kind " + std::string(name_of(*kind));
  if (*kind != CheckKind::Rotated && req.contains("x")) throw InvalidArgument("x", "x is not a field of " + what);
  for (const char* k : {"q", "k"})
    if (*kind != CheckKind::Logits && req.contains(k)) throw InvalidArgument(k, std::string(k) + " is not a field of " + what);
  for (const char* k : {"x", "q", "k"})
    if (req.contains(k))
      (std::string(k) == "x" ? out.input.x : std::string(k) == "q" ? out.input.q : out.input.k) = matrix(req[k], k);
  if (req.contains("tolerance")) {
    const json& t = req["tolerance"];
    only_keys(t, "tolerance.", {"abs", "rel"}, "tolerance (abs, rel)");
    if (!t.contains("abs") && !t.contains("rel")) throw InvalidArgument("tolerance", "tolerance needs abs, rel or both");
    RopeCheckTolerance tol;
    if (t.contains("abs")) tol.abs = json_number(t["abs"], "tolerance.abs");
    if (t.contains("rel")) tol.rel = json_number(t["rel"], "tolerance.rel");
    out.input.tolerance = tol;
  }
  return out;
}

std::string check_response_text(const std::string& text) {
  if (text.size() > kMaxCheckRequestBytes)
    throw InvalidArgument("", "the request is " + std::to_string(text.size()) + " bytes; the limit is 256 MiB");
  // The depth is checked while parsing (a deep document never gets built).
  const json::parser_callback_t depth_limit = [](int depth, json::parse_event_t, json&) {
    if (depth > kMaxCheckDepth) throw InvalidArgument("", "the request nests deeper than 64 levels");
    return true;
  };
  json req;
  try {
    const std::string_view view(text);  // the iterator type config.json's parse uses: one parser in the page
    req = json::parse(view.begin(), view.end(), depth_limit);
  } catch (const json::parse_error& e) { throw InvalidArgument("", std::string("the request is not JSON: ") + e.what()); }
  if (!req.is_object()) throw InvalidArgument("", "the request must be a JSON object");
  if (!req.contains("op") || req["op"] != "check") throw InvalidArgument("op", "op must be \"check\"");
  const CheckRequest c = read_check_request(req);
  return check_response_json(rope_check(c.reference, c.input)).dump();
}

}  // namespace posenc::model_io
