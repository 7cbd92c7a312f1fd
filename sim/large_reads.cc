// SPDX-License-Identifier: Apache-2.0
#include "sim/large_reads.h"

#include <cstdlib>
#include <string>

#include "model/disk_zoned.h"
#include "model/geometry.h"
#include "model/mems_mechanism.h"
#include "model/request.h"
#include "sim/rng.h"

namespace memstore::sim {

Expected<std::vector<LargeReadSample>> measure_large_reads(const model::DeviceParams& params,
                                                           const LargeReadSpec& spec) {
  if (spec.requests <= 0 || spec.size_kb <= 0) {
    return Error("--requests and --size-kb must be positive");
  }
  model::DeviceParams p = params;
  // No spin-down: a restart would start from the rest position, not from the
  // initial position the X distance is measured from.
  p.power.idle_timeout_ns = -1;
  const model::Geometry g(p);
  if (g.sleds() != 1) return Error("the large-read profile needs a device of one sled");
  const std::int64_t bytes = spec.size_kb * 1024;
  if (bytes % p.block_bytes != 0) {
    return Error("--size-kb: " + std::to_string(spec.size_kb) + " KB is not a whole number of " +
                 std::to_string(p.block_bytes) + "-byte blocks");
  }
  const std::int64_t blocks = bytes / p.block_bytes;
  if (blocks > g.blocks()) return Error("--size-kb: the read is larger than the device");
  model::MemsMechanism m(p);
  // Initial positions and reads from two streams of the same seed: the reads
  // are the same whatever the initial positions, and the other way round.
  Rng initial(spec.seed);
  Rng reads(spec.seed + 1);
  std::vector<LargeReadSample> out;
  out.reserve(static_cast<std::size_t>(spec.requests));
  for (std::int64_t i = 0; i < spec.requests; ++i) {
    const auto from =
        static_cast<model::Lbn>(initial.uniform_below(static_cast<std::uint64_t>(g.blocks())));
    model::Request r;
    r.id = static_cast<std::uint64_t>(i);
    r.op = model::Op::kRead;
    r.blocks = static_cast<std::int32_t>(blocks);
    r.lbn = static_cast<model::Lbn>(
        reads.uniform_below(static_cast<std::uint64_t>(g.blocks() - blocks + 1)));
    // The sled has just read `from` and is still spun up (place_sled: no
    // time or energy accounted for getting there).
    m.place_sled(m.state_after_reading(from), 0);
    const model::Breakdown b = m.service(r, 0);
    LargeReadSample s;
    s.x_distance = std::abs(g.to_physical(r.lbn).x - g.to_physical(from).x);
    s.service_ms = static_cast<double>(b.service_ns()) / 1e6;
    s.seek_ms = static_cast<double>(b.startup_ns + b.seek_ns) / 1e6;
    s.media_ms = static_cast<double>(b.switch_ns + b.transfer_ns) / 1e6;
    out.push_back(s);
  }
  return out;
}

Expected<std::vector<LargeReadSample>> measure_disk_large_reads(
    const model::ZonedDiskParams& params, const LargeReadSpec& spec) {
  if (spec.requests <= 0 || spec.size_kb <= 0) {
    return Error("--requests and --size-kb must be positive");
  }
  if (!model::validate(params).empty()) return Error("the disk's parameters are not valid");
  const model::ZonedDisk disk(params);
  const model::ZonedLayout& layout = disk.layout();
  const std::int64_t bytes = spec.size_kb * 1024;
  if (bytes % params.block_bytes != 0) {
    return Error("--size-kb: " + std::to_string(spec.size_kb) + " KB is not a whole number of " +
                 std::to_string(params.block_bytes) + "-byte blocks");
  }
  const std::int64_t blocks = bytes / params.block_bytes;
  if (blocks > layout.blocks()) return Error("--size-kb: the read is larger than the device");
  // The MEMStore's streams (initial positions; reads), and a third for the
  // platter's angle.
  Rng initial(spec.seed);
  Rng reads(spec.seed + 1);
  Rng angle(spec.seed + 2);
  const auto revolution = static_cast<std::uint64_t>(disk.revolution_ns());
  std::vector<LargeReadSample> out;
  out.reserve(static_cast<std::size_t>(spec.requests));
  for (std::int64_t i = 0; i < spec.requests; ++i) {
    const model::DiskAddress from = layout.locate(static_cast<model::Lbn>(
        initial.uniform_below(static_cast<std::uint64_t>(layout.blocks()))));
    const auto lbn = static_cast<model::Lbn>(
        reads.uniform_below(static_cast<std::uint64_t>(layout.blocks() - blocks + 1)));
    const auto start = static_cast<model::Ns>(angle.uniform_below(revolution));
    const model::MediaPass pass =
        disk.media_pass(lbn, static_cast<std::int32_t>(blocks), model::Op::kRead, start,
                        {from.cylinder, from.surface});
    LargeReadSample s;
    s.x_distance = std::abs(layout.locate(lbn).cylinder - from.cylinder);
    s.service_ms = static_cast<double>(pass.end_ns - start) / 1e6;
    s.seek_ms = static_cast<double>(pass.seek_ns + pass.settle_ns + pass.latency_ns) / 1e6;
    s.media_ms = static_cast<double>(pass.switch_ns + pass.transfer_ns) / 1e6;
    out.push_back(s);
  }
  return out;
}

}  // namespace memstore::sim
