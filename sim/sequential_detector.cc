// SPDX-License-Identifier: Apache-2.0
// DualStripe's sequentiality detection; described in the header.
#include "sim/sequential_detector.h"

#include <algorithm>
#include <vector>

namespace memstore::sim {

bool SequentialDetector::preceded(model::Lbn lbn) const {
  const model::Lbn want_begin = lbn - p_.threshold_blocks;
  if (want_begin < 0) return false;
  // The recorded reads that overlap [want_begin, lbn), in order of their start: covered when
  // they leave no gap.
  std::vector<Range> overlapping;
  for (const Range& r : last_) {
    if (r.end > want_begin && r.begin < lbn) overlapping.push_back(r);
  }
  std::sort(overlapping.begin(), overlapping.end(),
            [](const Range& a, const Range& b) { return a.begin < b.begin; });
  model::Lbn covered_to = want_begin;
  for (const Range& r : overlapping) {
    if (r.begin > covered_to) return false;
    covered_to = std::max(covered_to, r.end);
    if (covered_to >= lbn) return true;
  }
  return covered_to >= lbn;
}

bool SequentialDetector::read(model::Lbn lbn, std::int32_t blocks) {
  const bool sequential = preceded(lbn);
  last_.push_back({lbn, lbn + blocks});
  if (static_cast<std::int32_t>(last_.size()) > p_.window) last_.pop_front();
  return sequential;
}

}  // namespace memstore::sim
