// SPDX-License-Identifier: Apache-2.0
#include "apps/freeblock.h"

#include <algorithm>
#include <chrono>

#include "apps/random.h"

namespace memstore::apps {

Foreground::Foreground(const host::HostGeometry& g, std::uint32_t request_blocks,
                       std::uint64_t seed)
    : rng_(seed),
      p_(g.parallelism()),
      rows_(g.blocks() / g.parallelism()),
      starts_per_row_(g.parallelism() - request_blocks + 1),
      request_blocks_(request_blocks) {}

Lbn Foreground::next() {
  // Rows of p blocks are aligned (ST = Sy·p), so row k is [k·p, k·p + p).
  const std::uint64_t u = uniform_below(rng_, rows_ * starts_per_row_);
  return (u / starts_per_row_) * p_ + u % starts_per_row_;
}

void pick_free_blocks(const host::HostGeometry& g, Lbn first, std::uint32_t count,
                      const ReadMap& read, std::vector<Lbn>& out) {
  out.clear();
  const std::uint32_t p = g.parallelism();
  if (count >= p) return;
  const std::uint32_t group = g.conflict_group();
  // Squares (tips) and conflict groups the foreground already uses.
  std::vector<std::uint32_t> squares, groups;
  for (Lbn l = first; l < first + count; ++l) {
    const std::uint32_t sq = g.locate(l).square;
    squares.push_back(sq);
    if (group > 0) groups.push_back(sq / group);
  }
  // E(first) with the device's M: the sled positioned for the foreground
  // reaches every member; one column per tip, so one block per square.
  for (const Lbn l : g.equivalent(first)) {
    if (out.size() == p - count) break;
    if (read.test(l) || (l >= first && l < first + count)) continue;
    const std::uint32_t sq = g.locate(l).square;
    if (std::find(squares.begin(), squares.end(), sq) != squares.end()) continue;
    if (group > 0 && std::find(groups.begin(), groups.end(), sq / group) != groups.end()) continue;
    out.push_back(l);
    squares.push_back(sq);
    if (group > 0) groups.push_back(sq / group);
  }
}

double ScanResult::time_to(double percent) const {
  for (const ScanSample& s : samples) {
    if (s.percent >= percent) return s.time_s;
  }
  return -1;
}

host::Result<ScanResult> run_scan(BlockDevice& device, const ScanOptions& o,
                                  const std::function<void(const ScanSample&)>& progress) {
  const host::HostGeometry& g = device.geometry();
  if (o.request_blocks == 0 || o.request_blocks > g.parallelism()) {
    return host::invalid_argument("a foreground request of " + std::to_string(o.request_blocks) +
                                  " blocks does not fit one parallel access of p = " +
                                  std::to_string(g.parallelism()) + " blocks");
  }
  const auto wall_start = std::chrono::steady_clock::now();
  ScanResult r;
  r.device_blocks = device.blocks();
  ReadMap read(device.blocks());
  Foreground fg(g, o.request_blocks, o.seed);
  auto sample = [&] {
    ScanSample s;
    s.percent = 100.0 * static_cast<double>(read.count()) / static_cast<double>(read.blocks());
    s.time_s = static_cast<double>(r.service_ns) * 1e-9;
    s.requests = r.requests;
    s.free_blocks = r.free_blocks;
    r.samples.push_back(s);
    if (progress) progress(s);
  };
  sample();
  double next_sample = o.sample_percent;

  std::vector<Lbn> free;
  std::vector<Extent> extents;
  while (!read.complete()) {
    if (o.max_requests > 0 && r.requests >= o.max_requests) break;
    if (o.max_time_s > 0 && static_cast<double>(r.service_ns) * 1e-9 >= o.max_time_s) break;
    const Lbn first = fg.next();
    free.clear();
    if (o.background) pick_free_blocks(g, first, o.request_blocks, read, free);
    extents.clear();
    extents.push_back({Op::kRead, first, o.request_blocks});
    for (const Lbn l : free) extents.push_back({Op::kRead, l, 1});
    // Without shared components the batch is one media access by
    // construction, and STRICT has the device confirm it. With conflict
    // groups (G > 0) the foreground's own blocks may need several steps.
    auto done = device.read(extents, {.strict = g.conflict_group() == 0});
    if (!done.ok()) return done.error();
    ++r.requests;
    r.service_ns += done->service_ns;
    r.reported_us += reported_us(done->service_ns);
    r.media_steps += done->media_steps;
    for (Lbn l = first; l < first + o.request_blocks; ++l) {
      if (read.mark(l)) ++r.foreground_new_blocks;
    }
    for (const Lbn l : free) read.mark(l);
    r.free_blocks += free.size();
    const double percent =
        100.0 * static_cast<double>(read.count()) / static_cast<double>(read.blocks());
    if (percent >= next_sample && !read.complete()) {
      sample();
      while (next_sample <= percent) next_sample += o.sample_percent;
    }
  }
  sample();
  r.blocks_read = read.count();
  r.complete = read.complete();
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return r;
}

}  // namespace memstore::apps
