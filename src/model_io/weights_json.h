// The result of `posenc weights` as JSON, the one writer the CLI (--json) and the page (window.posenc.loadWeights,
// the usage view) share: {"model_type", "rotary_dim", "layout", "pairs": {"inv_freq", "wavelength", "turns"},
// "layers": [...], "read": {"tensors", "bytes"}, "assumptions", "unread_keys"} (docs/weights.md, docs/cli.md).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>

#include "core/weights/qk_usage.h"

namespace posenc::model_io {

// `header_bytes`: the bytes read from the files' headers (read.bytes adds the plan's ranges). Numbers that
// cannot be finite are null (a frequency-0 pair's wavelength; the shares of a head whose q.k norms are all 0).
nlohmann::ordered_json weights_json(const QkUsage& usage, uint64_t header_bytes);

}  // namespace posenc::model_io
