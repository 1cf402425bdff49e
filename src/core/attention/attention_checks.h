// Argument checks shared by the double-precision attention (attention.cpp) and its float32 kernels
// (score_kernels.cpp), so both reject the same requests with the same field names.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/attention/attention.h"
#include "core/bounds.h"
#include "core/encodings/deberta.h"
#include "core/encodings/rope.h"
#include "core/types.h"

namespace posenc::detail {

// Core helpers name their own arguments ("base", "scaling.factor", "bias"): inside attention they are
// fields of the position object.
template <class F>
auto in_position(F&& f) {
  try {
    return f();
  } catch (const InvalidArgument& e) {
    const std::string& fld = e.field();
    if (fld == "q" || fld == "k" || fld == "v" || fld.rfind("position", 0) == 0) throw;
    if (fld == "dim") throw InvalidArgument("q", std::string("the width d of q: ") + e.what());
    throw InvalidArgument("position." + fld, e.what());
  }
}

inline void check_positions(std::span<const int64_t> pos, Eigen::Index rows, const char* field, const char* matrix) {
  require(static_cast<Eigen::Index>(pos.size()) == rows, field, std::string(field) + " must have one entry per row of " + matrix);
  for (int64_t p : pos)  // the message is built only for a position out of range (this runs per frame)
    if (p < -kMaxPosition || p > kMaxPosition)
      require(false, field,
              std::string(field) + " must lie in [-" + limit_text(kMaxPosition) + ", " + limit_text(kMaxPosition) + "]");
}

inline void check_work(int64_t work, const char* field) {
  require(work <= kMaxWork, field, "the request exceeds the work limit (" + limit_text(kMaxWork) + " multiply-adds)");
}

// Shaw's key table: K in range, (2K+1) x d, and the work of the gathers within the limit.
template <class ShawPosition>
void check_shaw(const ShawPosition& p, int64_t n, int64_t d) {
  const int64_t K = p.max_relative_position;
  require_in_range(K, 0, kMaxPosition, "position.max_relative_position");
  require(p.key_table.rows() == 2 * K + 1 && p.key_table.cols() == d, "position.key_table",
          "position.key_table must be (2K+1) x d");
  check_work(n * (2 * K + 1) * d, "position.key_table");
}

// DeBERTa's buckets and position tables: the span s >= 1, the tables 2s x d within 2^24 entries (s bounded
// first, so 2 s d cannot overflow: max_position has no upper limit of its own), and the work of the two
// table products within the limit. Returns s.
inline int64_t check_deberta(const DebertaPosition& p, int64_t n, int64_t m, int64_t d) {
  in_position([&] {
    validate_deberta_buckets(p.bucket_size, p.max_position);
    return 0;
  });
  const int64_t s = deberta_span(p.bucket_size, p.max_position);
  require(s >= 1, "position.max_position",
          "position.bucket_size or position.max_position must be > 0 (the span of the position tables)");
  require(s <= kMaxCells && 2 * s * d <= kMaxCells, "position.pos_key", "position tables exceed 2^24 entries");
  require(p.pos_key.rows() == 2 * s && p.pos_key.cols() == d, "position.pos_key", "position.pos_key must be 2s x d");
  require(p.pos_query.rows() == 2 * s && p.pos_query.cols() == d, "position.pos_query", "position.pos_query must be 2s x d");
  check_work((n + m) * 2 * s * d, "position.pos_key");
  return s;
}

// RoPE inside attention, for a head of width d: the rotary width (rotary_dim, even and in [2, d], else
// the even d) and the frequencies, where dynamic / longrope scaling take one past the largest query or key
// position as their current length.
inline RopeFrequencies attention_rope_frequencies(const RopePosition& p, Eigen::Index d, std::span<const int64_t> qpos,
                                                  std::span<const int64_t> kpos) {
  const int rd = p.rotary_dim.value_or(static_cast<int>(d));
  if (p.rotary_dim)
    require(rd >= 2 && rd % 2 == 0 && rd <= d, "position.rotary_dim", "position.rotary_dim must be even, >= 2 and <= d");
  else require(d % 2 == 0, "q", "RoPE needs an even width d (rotation pairs)");
  std::vector<int64_t> all(qpos.begin(), qpos.end());
  all.insert(all.end(), kpos.begin(), kpos.end());
  const RopeScaling s = with_seq_len_from_positions(p.scaling, all);
  return in_position([&] { return rope_frequencies(rd, p.base, s); });
}

}  // namespace posenc::detail
