// SPDX-License-Identifier: Apache-2.0
// Positioning statistics a LUN keeps for its vendor log page 31h: count,
// mean and maximum of each breakdown component over the media commands
// served, of the queue depth seen by arriving media commands, and of how
// late the transport delivered completions.
#pragma once

#include <array>
#include <cstdint>

#include "model/request.h"
#include "modepages/log_pages.h"

namespace memstore::scsi {

class LunStats {
 public:
  void on_arrival(std::size_t queued_before);
  void on_completion(const model::Breakdown& b);
  void on_delivery(std::uint64_t late_ns);
  modepages::PositioningLog log() const;
  void reset() { *this = LunStats{}; }

 private:
  struct Acc {
    std::uint64_t count = 0;
    long double sum = 0;  // exact enough for years of nanoseconds
    std::uint64_t max = 0;
    void add(std::uint64_t v);
  };
  static constexpr int kMetrics = modepages::kPositioningMetrics;
  std::array<Acc, kMetrics> acc_;
};

}  // namespace memstore::scsi
