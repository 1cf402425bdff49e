// Texts several views share, in the interface's language. (Each view's own fixed texts are its row in
// registry.cpp.)
#pragma once

#include <cstdint>
#include <string>

#include "core/analysis/rope_analysis.h"

namespace posenc::app {

// The core's pair_behaviour_counts_text in the interface's language, one behaviour at a time (the core's
// phrases are the catalogue's keys, "{0} would exceed the trained angles"): "35 complete a full turn within
// the trained length, 29 would exceed the trained angles". The RoPE view and the Model view's card.
std::string pair_behaviour_counts_shown(const PairBehaviourCounts& counts, int64_t length, int64_t trained_length);

}  // namespace posenc::app
