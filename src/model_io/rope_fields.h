// The RoPE fields of a request (posenc eval's rope ops and `check`'s reference), read strictly: a scaling
// object per its type's keys (docs/cli.md), a pair layout. Errors name the field's path.
#pragma once

#include "core/encodings/rope.h"
#include "model_io/json_fields.h"

namespace posenc::model_io {

// parent[key] as a RoPE scaling (absent: none): type, factor, original_max_position_embeddings and the
// type's own keys; a key another type takes is refused naming it.
RopeScaling read_scaling(const Fields& parent, const char* key);
// f["layout"]: "half" or "interleaved".
RopeLayout read_layout(const Fields& f);

}  // namespace posenc::model_io
