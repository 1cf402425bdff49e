#include "app/views/view_texts.h"

#include "app/i18n.h"

namespace posenc::app {

std::string pair_behaviour_counts_shown(const PairBehaviourCounts& counts, int64_t length, int64_t trained_length) {
  std::string list;
  for (size_t b = 0; b < counts.size(); ++b) {
    const auto kind = static_cast<PairBehaviour>(b);
    if (counts[b] == 0 && !(kind == PairBehaviour::Extrapolated && length > trained_length)) continue;
    list += (list.empty() ? "" : tr(", ")) + tr_message(std::to_string(counts[b]) + " " + pair_behaviour_phrase(kind));
  }
  return list;
}

}  // namespace posenc::app
