// SPDX-License-Identifier: Apache-2.0
// The disk-array comparison's synthetic workloads; described in the header.
#include "sim/array_workload.h"

#include <algorithm>
#include <cmath>

namespace memstore::sim {

std::optional<ArrayWorkloadSpec> array_workload(const std::string& name) {
  ArrayWorkloadSpec s;
  if (name == "random") return s;
  if (name == "oltp") {
    s.mean_size_kb = 8;
    s.hot_fraction = 0.02;
    s.hot_share = 0.8;
    return s;
  }
  if (name == "dss") {
    s.mean_size_kb = 64;
    s.read_fraction = 0.95;
    s.run_length = 16;
    return s;
  }
  return std::nullopt;
}

std::vector<std::string> array_workload_names() {
  return {"random", "oltp", "dss"};
}

ArrayWorkload::ArrayWorkload(const ArrayWorkloadSpec& spec) : spec_(spec), rng_(spec.seed) {}

std::optional<model::Request> ArrayWorkload::next() {
  if (issued_ >= spec_.requests) return std::nullopt;
  const std::int64_t cap = spec_.capacity_blocks;
  const double bytes = rng_.exponential(spec_.mean_size_kb * 1024.0);
  const auto blocks = static_cast<std::int32_t>(std::clamp(
      std::ceil(bytes / 512.0), 1.0, static_cast<double>(std::min<std::int64_t>(cap, 1 << 20))));
  model::Request r;
  r.id = static_cast<std::uint64_t>(issued_);
  r.arrival_ns = static_cast<model::Ns>(std::llround(arrival_ns_));
  r.blocks = blocks;
  if (run_left_ == 0) {
    // A new run (every request, when runs are one long): hot or uniform start.
    std::int64_t span = cap;
    if (spec_.hot_fraction > 0 && rng_.uniform() < spec_.hot_share) {
      span = std::max<std::int64_t>(
          1, static_cast<std::int64_t>(spec_.hot_fraction * static_cast<double>(cap)));
    }
    run_next_ = static_cast<model::Lbn>(rng_.uniform_below(static_cast<std::uint64_t>(span)));
    run_left_ = spec_.run_length;
    run_read_ = rng_.uniform() < spec_.read_fraction;
  }
  // A run keeps its direction (read or write); past the end it wraps to the start.
  r.lbn = run_next_ + blocks <= cap ? run_next_ : 0;
  r.op = run_read_ ? model::Op::kRead : model::Op::kWrite;
  run_next_ = r.lbn + blocks;
  --run_left_;
  arrival_ns_ += rng_.exponential(spec_.interarrival_ms * 1e6);
  ++issued_;
  return r;
}

}  // namespace memstore::sim
