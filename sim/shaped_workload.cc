// SPDX-License-Identifier: Apache-2.0
#include "sim/shaped_workload.h"

#include <algorithm>
#include <cmath>

namespace memstore::sim {
namespace {

// Numbers for the descriptions in shaped_workload.h: memstore's choices (the
// excerpt gives none), tabled in docs/reproduction.md. What they keep from
// the descriptions: user and mobile are strongly sequential, server mostly
// random; user and mobile idle for long stretches between bursts (a
// workstation, a portable), server is busier; mobile and user issue many
// metadata requests (file-system workloads, second paper §5.2.3).
constexpr WorkloadShape kShapes[] = {
    // name     reads  meta  meta B  data KB  seq   burst  in-gap  idle-gap
    {"user", 0.60, 0.30, 256, 8.0, 0.70, 10.0, 2.0, 500.0},
    {"server", 0.50, 0.15, 256, 8.0, 0.20, 5.0, 5.0, 50.0},
    {"mobile", 0.70, 0.40, 256, 16.0, 0.80, 20.0, 1.0, 1000.0},
};

constexpr std::int32_t kMetadataMinBytes = 16;
constexpr double kMaxDataKb = 1024;  // a file-system transfer larger than 1 MB is split

}  // namespace

std::optional<WorkloadShape> workload_shape(std::string_view name) {
  for (const WorkloadShape& s : kShapes) {
    if (name == s.name) return s;
  }
  return std::nullopt;
}

std::vector<std::string> workload_shape_names() {
  std::vector<std::string> out;
  for (const WorkloadShape& s : kShapes) out.emplace_back(s.name);
  return out;
}

std::vector<std::string> validate(const ShapedWorkloadSpec& spec) {
  std::vector<std::string> errors;
  if (spec.requests < 1) errors.emplace_back("--requests must be at least 1");
  if (!(spec.scale > 0) || !std::isfinite(spec.scale)) {
    errors.emplace_back("--scales must be positive numbers");
  }
  if (spec.block_bytes < 1 || spec.shape.metadata_max_bytes >= spec.block_bytes) {
    errors.emplace_back("the device's block_bytes must exceed the shape's metadata sizes (" +
                        std::to_string(spec.shape.metadata_max_bytes) + " bytes)");
  }
  const double max_blocks = kMaxDataKb * 1024 / std::max(1, spec.block_bytes);
  if (static_cast<double>(spec.capacity_blocks) < max_blocks) {
    errors.emplace_back("the device is too small for the shaped workloads (1 MB requests)");
  }
  return errors;
}

ShapedWorkload::ShapedWorkload(const ShapedWorkloadSpec& spec) : spec_(spec), rng_(spec.seed) {}

std::optional<model::Request> ShapedWorkload::next() {
  if (issued_ >= spec_.requests) return std::nullopt;
  const WorkloadShape& s = spec_.shape;
  model::Request r;
  r.id = static_cast<std::uint64_t>(issued_);
  r.arrival_ns = static_cast<model::Ns>(std::llround(arrival_ns_));
  // Draws per request, in order: kind, then size and place, then the gap.
  if (rng_.uniform() < s.metadata_fraction) {
    const auto span = static_cast<std::uint64_t>(s.metadata_max_bytes - kMetadataMinBytes + 1);
    r.tail_bytes = static_cast<std::uint16_t>(kMetadataMinBytes + rng_.uniform_below(span));
    r.blocks = 1;
    r.lbn = static_cast<model::Lbn>(
        rng_.uniform_below(static_cast<std::uint64_t>(spec_.capacity_blocks)));
    r.op = model::Op::kRead;
  } else {
    const double kb = std::min(kMaxDataKb, rng_.exponential(s.data_mean_kb));
    r.blocks = std::max<std::int32_t>(
        1, static_cast<std::int32_t>(std::ceil(kb * 1024 / spec_.block_bytes)));
    const bool sequential = rng_.uniform() < s.sequential;
    const model::Lbn random_lbn = static_cast<model::Lbn>(
        rng_.uniform_below(static_cast<std::uint64_t>(spec_.capacity_blocks - r.blocks + 1)));
    const model::Op random_op =
        rng_.uniform() < s.read_fraction ? model::Op::kRead : model::Op::kWrite;
    if (sequential && sequential_next_ >= 0 &&
        sequential_next_ + r.blocks <= spec_.capacity_blocks) {
      r.lbn = sequential_next_;
      r.op = sequential_op_;
    } else {
      r.lbn = random_lbn;
      r.op = random_op;
    }
    sequential_next_ = r.lbn + r.blocks;
    sequential_op_ = r.op;
  }
  // The burst goes on with probability 1 - 1/mean (a geometric length).
  const bool burst_ends = rng_.uniform() * s.burst_mean_requests < 1.0;
  const double gap_ms = rng_.exponential(burst_ends ? s.idle_gap_ms : s.in_burst_gap_ms);
  arrival_ns_ += gap_ms * 1e6 / spec_.scale;
  ++issued_;
  return r;
}

}  // namespace memstore::sim
