// SPDX-License-Identifier: Apache-2.0
#include "sim/workload.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace memstore::sim {
namespace {

constexpr double kNsPerMs = 1e6;
constexpr double kBytesPerKb = 1024.0;
// Far beyond any run, and keeps llround() inside int64.
constexpr double kMaxArrivalNs = 0x1.0p62;

}  // namespace

std::vector<std::string> validate(const RandomWorkloadSpec& spec) {
  std::vector<std::string> errors;
  if (spec.requests <= 0) errors.emplace_back("--requests must be positive");
  // Written as !(x > 0) so NaN is rejected too.
  if (!(spec.interarrival_ms > 0.0) || !std::isfinite(spec.interarrival_ms)) {
    errors.emplace_back("--interarrival-ms must be positive");
  }
  if (!(spec.mean_size_kb > 0.0) || !std::isfinite(spec.mean_size_kb)) {
    errors.emplace_back("--mean-size-kb must be positive");
  }
  if (!(spec.read_fraction >= 0.0 && spec.read_fraction <= 1.0)) {
    errors.emplace_back("--read-fraction must be in [0, 1]");
  }
  if (spec.capacity_blocks <= 0)
    errors.emplace_back(
        "the device's capacity must be a positive number of blocks (check --config and --set)");
  if (spec.block_bytes <= 0)
    errors.emplace_back("the device's block size must be positive (check --config and --set)");
  if (spec.max_blocks < 0)
    errors.emplace_back("the workload's largest request must be >= 0 blocks (0 = no cap)");
  return errors;
}

RandomWorkload::RandomWorkload(const RandomWorkloadSpec& spec)
    : spec_(spec), valid_(validate(spec).empty()), rng_(spec.seed) {}

std::optional<model::Request> RandomWorkload::next() {
  if (!valid_ || issued_ >= spec_.requests || !(arrival_ns_ < kMaxArrivalNs)) return std::nullopt;

  // Size: ceil to whole blocks in double (the exponential can exceed every
  // integer type for absurd means), clamp, then convert.
  const double bytes = rng_.exponential(spec_.mean_size_kb * kBytesPerKb);
  double limit = static_cast<double>(
      std::min<std::int64_t>(spec_.capacity_blocks, std::numeric_limits<std::int32_t>::max()));
  if (spec_.max_blocks > 0) limit = std::min(limit, static_cast<double>(spec_.max_blocks));
  const double blocks_d =
      std::clamp(std::ceil(bytes / static_cast<double>(spec_.block_bytes)), 1.0, limit);
  const auto blocks = static_cast<std::int32_t>(blocks_d);

  model::Request r;
  r.id = static_cast<std::uint64_t>(issued_);
  r.arrival_ns = static_cast<model::Ns>(std::llround(arrival_ns_));
  r.blocks = blocks;
  const auto slots = static_cast<std::uint64_t>(spec_.capacity_blocks - blocks + 1);
  r.lbn = static_cast<model::Lbn>(rng_.uniform_below(slots));
  r.op = rng_.uniform() < spec_.read_fraction ? model::Op::kRead : model::Op::kWrite;

  arrival_ns_ += spec_.constant_interarrival ? spec_.interarrival_ms * kNsPerMs
                                             : rng_.exponential(spec_.interarrival_ms * kNsPerMs);
  ++issued_;
  return r;
}

}  // namespace memstore::sim
