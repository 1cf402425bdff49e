#include "core/models/rope_assembly.h"

#include "core/types.h"

namespace posenc {

ModelRope assemble_rope(const RopeParts& p, const FieldRename& rename) {
  ModelRope m;
  m.head_dim = p.head_dim;
  m.rotary_dim = p.rotary_dim;
  m.rotary_offset = p.rotary_offset;
  m.layout = p.layout;
  m.base = p.base;
  m.scaling = p.scaling;
  m.max_position_embeddings = p.max_position_embeddings;
  m.original_max_position_embeddings = trained_length(p.scaling.original_max_position_embeddings, p.max_position_embeddings);
  m.mrope_section = p.mrope_section;
  m.mrope_interleaved = p.mrope_interleaved;
  m.frequencies = rethrow_renamed([&] { return rope_frequencies(p.rotary_dim, p.base, p.scaling); }, rename);
  m.softmax_scale = p.softmax_scale;
  const RopeScaling& s = p.scaling;
  if (p.yarn_softmax_mscale && s.type == RopeScalingType::Yarn && s.mscale_all_dim && *s.mscale_all_dim != 0) {
    const double ms = yarn_get_mscale(s.factor, *s.mscale_all_dim);
    m.softmax_scale *= ms * ms;
  }
  return m;
}

ModelRope sliding_layer_rope(const ModelRope& full, double base, double softmax_scale) {
  ModelRope m = full;
  m.base = base;
  m.scaling = RopeScaling{};
  m.original_max_position_embeddings = full.max_position_embeddings;
  m.frequencies = rope_frequencies(m.rotary_dim, base, m.scaling);
  m.softmax_scale = softmax_scale;
  return m;
}

std::string rope_width_text(const ModelRope& r, int head_dim) {
  const int pairs = r.rotary_dim / 2, zero = rope_frequency_zero_pairs(r);
  std::string t = std::to_string(r.rotary_dim) + " of " + std::to_string(head_dim) + " (" + std::to_string(pairs) + " pairs";
  if (zero > 0) t += ": " + std::to_string(pairs - zero) + " rotating, " + std::to_string(zero) + " at frequency 0;";
  else t += ",";
  t += std::string(" ") + rope_layout_name(r.layout) + " layout";
  // Where the slice sits when it does not start the head (MLA: the last dims, after the unrotated ones).
  if (r.rotary_offset > 0)
    t += "; dims " + std::to_string(r.rotary_offset) + ".." + std::to_string(r.rotary_offset + r.rotary_dim - 1) +
         (r.rotary_offset + r.rotary_dim == head_dim ? ", the last" : "");
  return t + ")";
}

}  // namespace posenc
