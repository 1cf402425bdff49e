#include "model_io/weights_json.h"

#include <cmath>

#include "core/encodings/rope.h"
#include "core/names.h"

namespace posenc::model_io {
namespace {

using ojson = nlohmann::ordered_json;

ojson numbers(const std::vector<double>& v) {
  ojson a = ojson::array();
  for (double x : v) a.push_back(std::isfinite(x) ? ojson(x) : ojson(nullptr));
  return a;
}

ojson pairs_json(const QkPairs& p) {
  ojson o;
  o["inv_freq"] = numbers(p.inv_freq);
  o["wavelength"] = numbers(p.wavelength);
  o["turns"] = numbers(p.turns);
  if (!p.mrope_axis.empty()) {
    static constexpr const char* kAxes[] = {"t", "h", "w"};
    ojson a = ojson::array();
    for (int axis : p.mrope_axis) a.push_back(kAxes[axis]);
    o["mrope_axis"] = a;
  }
  return o;
}

}  // namespace

nlohmann::ordered_json weights_json(const QkUsage& u, uint64_t header_bytes) {
  ojson o;
  o["model_type"] = u.model_type;
  o["rotary_dim"] = u.rotary_dim;
  o["layout"] = name_of(u.layout);
  o["pairs"] = pairs_json(u.pairs);
  ojson layers = ojson::array();
  for (const QkLayerUsage& l : u.layers) {
    ojson lj;
    lj["layer"] = l.layer;
    lj["position"] = l.rope ? "rope" : "none";
    lj["kind"] = l.kind;
    if (l.own_pairs) lj["pairs"] = pairs_json(*l.own_pairs);
    if (l.rope) {
      ojson heads = ojson::array();
      for (const QkHeadUsage& h : l.heads) {
        ojson hj;
        hj["head"] = h.head;
        hj["kv_head"] = h.kv_head;
        hj["q_norm"] = numbers(h.q_norm);
        hj["k_norm"] = numbers(h.k_norm);
        hj["qk"] = numbers(h.qk);
        if (h.semantic_share) {
          hj["qk_share"] = numbers(h.qk_share);
          hj["semantic_share"] = *h.semantic_share;
        } else {
          hj["qk_share"] = ojson(std::vector<std::nullptr_t>(h.qk.size(), nullptr));
          hj["semantic_share"] = nullptr;
        }
        hj["top_pairs"] = h.top_pairs;
        heads.push_back(std::move(hj));
      }
      lj["heads"] = std::move(heads);
    }
    layers.push_back(std::move(lj));
  }
  o["layers"] = std::move(layers);
  o["read"] = {{"tensors", u.tensors_read}, {"bytes", u.bytes_read + header_bytes}};
  ojson assumptions = ojson::array();
  for (const Assumption& a : u.assumptions) assumptions.push_back({{"what", a.what}, {"value", a.value}, {"why", a.why}});
  o["assumptions"] = std::move(assumptions);
  o["unread_keys"] = u.unread_keys;
  return o;
}

}  // namespace posenc::model_io
