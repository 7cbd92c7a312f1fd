// SPDX-License-Identifier: Apache-2.0
// How late a transport delivered its timed completions (realtime and scaled
// timing): count, mean, maximum and a histogram for percentiles, in ns. A
// delivery is never early (the engine compares each instant with the
// clock), so every figure is >= 0 unless the clock itself is broken.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>

namespace memstore::delivery {

struct Lateness {
  std::uint64_t count = 0;
  std::int64_t max_ns = 0;
  long double sum_ns = 0;  // exact enough for years of nanoseconds
  // Log-linear buckets: 0-15 ns one each, then 8 per power of two, so a
  // percentile is known to within 12.5% (the control socket's statistics).
  static constexpr int kExact = 16;
  static constexpr int kSub = 8;
  std::array<std::uint64_t, kExact + (64 - 4) * kSub> buckets{};

  static int bucket_of(std::uint64_t v) {
    if (v < kExact) return static_cast<int>(v);
    const int e = 63 - std::countl_zero(v);  // >= 4
    return kExact + (e - 4) * kSub + static_cast<int>((v >> (e - 3)) & (kSub - 1));
  }
  // The largest value bucket `i` holds.
  static std::uint64_t bucket_top(int i) {
    if (i < kExact) return static_cast<std::uint64_t>(i);
    const int e = (i - kExact) / kSub + 4;
    const auto sub = static_cast<std::uint64_t>((i - kExact) % kSub);
    return ((std::uint64_t{kSub} + sub + 1) << (e - 3)) - 1;
  }

  void add(std::int64_t late_ns) {
    ++count;
    sum_ns += static_cast<long double>(late_ns);
    max_ns = std::max(max_ns, late_ns);
    ++buckets[static_cast<std::size_t>(
        bucket_of(static_cast<std::uint64_t>(std::max<std::int64_t>(0, late_ns))))];
  }
  double mean_ns() const { return count == 0 ? 0.0 : static_cast<double>(sum_ns / count); }
  // At most this late for the fraction q (0..1) of deliveries: the top of
  // the bucket holding the q-th one, never above the maximum. 0 when empty.
  std::int64_t percentile_ns(double q) const {
    if (count == 0) return 0;
    const auto rank = std::max<std::uint64_t>(
        1, static_cast<std::uint64_t>(q * static_cast<double>(count) + 0.999999));
    std::uint64_t seen = 0;
    for (std::size_t i = 0; i < buckets.size(); ++i) {
      seen += buckets[i];
      if (seen >= rank) {
        return std::min(max_ns, static_cast<std::int64_t>(bucket_top(static_cast<int>(i))));
      }
    }
    return max_ns;
  }
};

// What a LUN's deliveries carried, for the control socket's statistics.
struct DeliveryCounters {
  std::uint64_t commands = 0;
  std::uint64_t check_conditions = 0;
  // Commands that read or write the medium (scsi::Media), answered whatever
  // their status: what tgtadm and targetcli show as a LUN's reads and writes.
  std::uint64_t reads = 0;
  std::uint64_t writes = 0;
  std::uint64_t bytes_in = 0;   // data-in sent to initiators
  std::uint64_t bytes_out = 0;  // data-out the commands consumed
};

}  // namespace memstore::delivery
