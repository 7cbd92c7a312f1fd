// SPDX-License-Identifier: Apache-2.0
// Synthetic stand-ins for the write-buffer paper's traces; described in the header.
#include "sim/wbuffer_workloads.h"

#include <algorithm>
#include <cmath>

#include "sim/rng.h"

namespace memstore::sim {
namespace {

constexpr double kDaySeconds = 86400;
constexpr std::int64_t kMB = 1024 * 1024;

// Sizes in KB: an 8 KB file-system block most of the time (the paper: "most requests will
// fulfill one entry in hash table"), some smaller fragments, some larger clustered runs.
std::int32_t size_kb(Rng& rng) {
  const double u = rng.uniform();
  if (u < 0.6) return 8;
  if (u < 0.85) return 1 + static_cast<std::int32_t>(rng.uniform_below(7));  // 1-7 KB
  return 8 * (2 + static_cast<std::int32_t>(rng.uniform_below(7)));          // 16-64 KB
}

}  // namespace

std::optional<StandInSpec> stand_in(const std::string& name) {
  StandInSpec s;
  s.name = name;
  if (name == "snake-like") {
    s.day_requests = 77'372;
    s.read_fraction = 0.43;
    s.disk_bytes = 1300 * kMB;
    s.hot_bytes = 48 * kMB;  // "small data set"
    s.hot_write_share = 0.9;
    s.hot_read_share = 0.6;
    s.flush_period_s = 30;
    s.flush_write_share = 0.7;
    s.burst_gap_ms = 0.5;
    return s;
  }
  if (name == "cello-like") {
    s.day_requests = 1'621'165;
    s.read_fraction = 0.301;
    s.disk_bytes = 17'000 * kMB;
    s.hot_bytes = 1024 * kMB;  // larger than the largest cache (512 MB)
    s.hot_write_share = 0.8;
    s.hot_read_share = 0.5;
    return s;
  }
  return std::nullopt;
}

std::vector<model::Request> stand_in_requests(const StandInSpec& spec, std::int64_t requests,
                                              double scaling, std::int64_t capacity_blocks,
                                              std::uint64_t seed) {
  if (requests <= 0 || requests > spec.day_requests) requests = spec.day_requests;
  Rng rng(seed);
  // The day's duration, shortened to the requests asked for (same rate).
  const double seconds =
      kDaySeconds * static_cast<double>(requests) / static_cast<double>(spec.day_requests);
  const std::int64_t space = std::min<std::int64_t>(spec.disk_bytes / 512, capacity_blocks);
  const std::int64_t hot = std::min<std::int64_t>(spec.hot_bytes / 512, space);
  const auto reads =
      static_cast<std::int64_t>(std::llround(spec.read_fraction * static_cast<double>(requests)));
  const std::int64_t writes = requests - reads;
  const auto burst_writes = spec.flush_period_s > 0
                                ? static_cast<std::int64_t>(std::llround(
                                      spec.flush_write_share * static_cast<double>(writes)))
                                : 0;
  const std::int64_t steady = requests - burst_writes;  // reads and the other writes

  std::vector<model::Request> out;
  out.reserve(static_cast<std::size_t>(requests));
  auto place = [&](model::Request& r, bool in_hot) {
    const std::int32_t kb = size_kb(rng);
    r.blocks = 2 * kb;
    const std::int64_t region = in_hot ? hot : space;
    const std::int64_t fragments = std::max<std::int64_t>(1, (region - r.blocks) / 2);
    r.lbn = 2 * static_cast<std::int64_t>(rng.uniform_below(static_cast<std::uint64_t>(fragments)));
    if (kb % 8 == 0) r.lbn = r.lbn / 16 * 16;  // whole blocks are block-aligned
    r.blocks = static_cast<std::int32_t>(std::min<std::int64_t>(r.blocks, capacity_blocks - r.lbn));
  };
  // Steady requests: Poisson over the period; exactly `reads` of them reads, drawn by
  // selection sampling, so that with the bursts' writes they make the paper's read fraction.
  std::int64_t reads_left = reads;
  double t = 0;
  for (std::int64_t i = 0; i < steady; ++i) {
    t += rng.exponential(seconds / static_cast<double>(steady));
    model::Request r;
    r.arrival_ns = static_cast<model::Ns>(t * 1e9);
    const bool read =
        rng.uniform() * static_cast<double>(steady - i) < static_cast<double>(reads_left);
    reads_left -= read ? 1 : 0;
    r.op = read ? model::Op::kRead : model::Op::kWrite;
    place(r, rng.uniform() < (read ? spec.hot_read_share : spec.hot_write_share));
    out.push_back(r);
  }
  // Flush bursts every period, the burst's writes split evenly among the periods.
  if (burst_writes > 0) {
    const auto bursts =
        std::max<std::int64_t>(1, static_cast<std::int64_t>(seconds / spec.flush_period_s));
    for (std::int64_t b = 0; b < bursts; ++b) {
      const std::int64_t n = burst_writes * (b + 1) / bursts - burst_writes * b / bursts;
      double at = static_cast<double>(b + 1) * spec.flush_period_s;
      for (std::int64_t i = 0; i < n; ++i) {
        at += rng.exponential(spec.burst_gap_ms / 1e3);
        model::Request r;
        r.arrival_ns = static_cast<model::Ns>(at * 1e9);
        r.op = model::Op::kWrite;
        place(r, rng.uniform() < spec.hot_write_share);
        out.push_back(r);
      }
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const model::Request& a, const model::Request& b) {
    return a.arrival_ns < b.arrival_ns;
  });
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i].id = i;
    out[i].arrival_ns = static_cast<model::Ns>(static_cast<double>(out[i].arrival_ns) / scaling);
  }
  return out;
}

}  // namespace memstore::sim
