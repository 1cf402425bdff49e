// The `check` response as JSON (docs/cli.md): shared by `posenc eval` op check, `posenc check --json` and the
// browser's window.posenc.check. Depends on nlohmann-json (header-only) and the core.
#pragma once

#include <nlohmann/json.hpp>

#include "core/analysis/rope_check.h"

namespace posenc::model_io {

// {"match", "max_abs_error", "max_rel_error", "tolerance", "worst": {"index", "expected", "actual"},
//  "diagnosis": [{"cause", "explains", "fitted", "message", "fix"}], "equivalent_under_softmax" (logits)}.
// Non-finite numbers are written as null.
nlohmann::ordered_json check_response_json(const RopeCheckResult& r);

// A reference as the check request writes it ({"dim", "base", "rotary_dim", "layout", "softmax_scale",
// "scaling": {"type", ... the type's own keys}}): what read_check_reference reads back to the same reference.
nlohmann::json check_reference_json(const RopeCheckReference& r);

}  // namespace posenc::model_io
