// SPDX-License-Identifier: Apache-2.0
#include "target/scsi/lun_stats.h"

#include <algorithm>
#include <cmath>

namespace memstore::scsi {

using modepages::PositioningMetric;

void LunStats::Acc::add(std::uint64_t v) {
  ++count;
  sum += static_cast<long double>(v);
  max = std::max(max, v);
}

void LunStats::on_arrival(std::size_t queued_before) {
  acc_[static_cast<int>(PositioningMetric::kQueueDepth)].add(queued_before);
}

void LunStats::on_completion(const model::Breakdown& b) {
  auto add = [&](PositioningMetric m, model::Ns v) {
    acc_[static_cast<int>(m)].add(static_cast<std::uint64_t>(std::max<model::Ns>(0, v)));
  };
  add(PositioningMetric::kSeekX, b.seek_x_ns);
  add(PositioningMetric::kSeekY, b.seek_y_ns);
  add(PositioningMetric::kSettle, b.settle_ns);
  add(PositioningMetric::kTurnaround, b.turnaround_ns);
  add(PositioningMetric::kTransfer, b.transfer_ns);
}

void LunStats::on_delivery(std::uint64_t late_ns) {
  acc_[static_cast<int>(PositioningMetric::kDeliveryLateness)].add(late_ns);
}

modepages::PositioningLog LunStats::log() const {
  modepages::PositioningLog out;
  for (int i = 0; i < kMetrics; ++i) {
    const Acc& a = acc_[i];
    auto& m = out[static_cast<PositioningMetric>(i)];
    m.count = a.count;
    m.max = a.max;
    // Queue depth is reported in thousandths of a request (log page 31h).
    const long double scale = i == static_cast<int>(PositioningMetric::kQueueDepth) ? 1000 : 1;
    m.mean = a.count == 0 ? 0 : static_cast<std::uint64_t>(std::llround(a.sum * scale / a.count));
  }
  return out;
}

}  // namespace memstore::scsi
