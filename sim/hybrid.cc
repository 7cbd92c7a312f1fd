// SPDX-License-Identifier: Apache-2.0
// Two devices working as one store; described in the header. A device alone is a one-device
// array of sim/array.h (the MEMStore's with the disk's LBNs folded into its capacity); the
// stripe unit is the whole device, so nothing is split.
#include "sim/hybrid.h"

#include <algorithm>

#include "sim/array.h"

namespace memstore::sim {
namespace {

HybridStats from_array(const ArrayStats& a) {
  HybridStats h;
  h.requests = a.requests;
  h.reads = a.reads;
  h.response_ms_sum = a.response_ms_sum;
  h.read_ms_sum = a.read_ms_sum;
  h.mems_requests = a.mems_read_parts + a.mems_write_parts;
  h.disk_requests = a.disk_read_parts + a.disk_write_parts;
  h.last_done_ns = a.last_done_ns;
  return h;
}

std::int32_t whole(std::int64_t blocks) {
  return static_cast<std::int32_t>(std::min<std::int64_t>(blocks, INT32_MAX));
}

}  // namespace

HybridStats run_hybrid(HybridMode mode, model::Device* mems, model::Device* disk,
                       const WriteBufferParams& params, const RequestSource& next) {
  ArrayParams p;
  switch (mode) {
    case HybridMode::kDiskAlone:
      p.stripe_blocks = whole(disk->blocks());
      p.volume_blocks = disk->blocks();
      return from_array(run_array(ArrayKind::kDiskOnly, p, {}, {disk}, next).value());
    case HybridMode::kMemsAlone: {
      // Folded into the MEMStore's capacity, as memsim replay folds traces.
      const std::int64_t cap = mems->blocks();
      p.stripe_blocks = whole(cap);
      p.volume_blocks = cap;
      const RequestSource folded = [&next, cap]() -> std::optional<model::Request> {
        std::optional<model::Request> r = next();
        if (r) {
          r->blocks = static_cast<std::int32_t>(std::min<std::int64_t>(r->blocks, cap));
          r->lbn = std::min<model::Lbn>(r->lbn % cap, cap - r->blocks);
        }
        return r;
      };
      return from_array(run_array(ArrayKind::kMemsOnly, p, {mems}, {}, folded).value());
    }
    case HybridMode::kWriteBuffered:
      return run_write_buffer(*mems, *disk, params, next);
  }
  return {};
}

}  // namespace memstore::sim
