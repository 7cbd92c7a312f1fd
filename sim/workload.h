// SPDX-License-Identifier: Apache-2.0
// The thesis' "Random" synthetic workload (Schlosser thesis §6.1.1): request
// inter-arrival times exponential with a given mean; 67% reads by default;
// request sizes exponential with mean 4 KB; start locations uniform over the
// device's capacity. All aspects are independent.
//
// Choices the thesis leaves open:
// - 1 KB = 1024 bytes; a size is rounded UP to whole blocks, at least 1
//   block, then capped at max_blocks (if set) and at the capacity.
// - The start LBN is uniform over [0, capacity - blocks], so every request
//   fits on the device.
// - Request i has id i; the first request arrives at 0 ns and each later one
//   one exponential gap after the previous. Arrival times are accumulated in
//   double nanoseconds and rounded to the nearest integer ns per request, so
//   rounding never accumulates and arrivals are non-decreasing.
// - constant_interarrival: every gap is exactly interarrival_ms, as in the
//   thesis' Fig. 5.1 ("Requests were issued every 50 ms", §5.1.5); no gap is
//   drawn then.
//
// Determinism: the same spec gives the same byte-for-byte sequence on every
// platform. Raw bits come from std::mt19937_64 (fully specified by the
// standard); the distributions are implemented here, not with
// std::*_distribution (whose algorithms are implementation-defined). The one
// remaining dependence is libm's log1p, accurate to within an ulp on glibc,
// musl and macOS, which can change an integer result only on an exact tie.
// Draws per request, in order: size, start LBN, read/write, next gap.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/request.h"
#include "sim/rng.h"

namespace memstore::sim {

struct RandomWorkloadSpec {
  std::int64_t requests = 0;
  double interarrival_ms = 0.0;  // mean of the exponential inter-arrival time
  bool constant_interarrival = false;  // every gap exactly interarrival_ms (see above)
  double mean_size_kb = 4.0;     // mean of the exponential request size
  double read_fraction = 0.67;
  std::uint64_t seed = 0;
  std::int64_t capacity_blocks = 0;
  std::int32_t block_bytes = 512;
  std::int32_t max_blocks = 0;  // 0 = no cap
};

// Everything wrong with `spec`, each message naming the memsim option, e.g.
// "--read-fraction must be in [0, 1]". Empty when the spec is usable.
std::vector<std::string> validate(const RandomWorkloadSpec& spec);

class RandomWorkload {
 public:
  // REQUIRES: validate(spec).empty(); otherwise next() returns nullopt at once.
  explicit RandomWorkload(const RandomWorkloadSpec& spec);

  // The next request, or nullopt after spec.requests requests (or, for
  // absurd specs, once arrival times would pass 2^62 ns, about 146 years).
  std::optional<model::Request> next();

 private:
  RandomWorkloadSpec spec_;
  bool valid_;
  Rng rng_;
  std::int64_t issued_ = 0;
  double arrival_ns_ = 0.0;  // unrounded arrival time of the next request
};

}  // namespace memstore::sim
