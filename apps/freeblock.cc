// SPDX-License-Identifier: Apache-2.0
#include "apps/freeblock.h"

#include <algorithm>
#include <chrono>

#include "apps/random.h"

namespace memstore::apps {

Foreground::Foreground(const host::HostGeometry& g, std::uint32_t request_blocks,
                       std::uint64_t seed)
    : rng_(seed), starts_(g.blocks() - request_blocks + 1), request_blocks_(request_blocks) {}

Lbn Foreground::next() {
  // §6.1.1: "request starting locations are uniformly distributed across
  // the device's capacity"; every start whose request fits the device.
  return uniform_below(rng_, starts_);
}

namespace {

// Whether one sled position reaches both blocks, each with its own tip: the
// same sled and row, cylinders at most M apart (micropositioning), other
// squares (§6.3.1, §6.3.2). Conflict groups do not split a position: they
// limit which free blocks join it (pick_free_blocks), and the device may
// need more steps for the foreground's own blocks.
bool one_position(const host::HostGeometry& g, Lbn a, Lbn b) {
  if (g.on_failed_tip(a) || g.on_failed_tip(b)) return false;  // an access of its own
  const host::Location la = g.locate(a), lb = g.locate(b);
  const std::uint32_t dx = la.x > lb.x ? la.x - lb.x : lb.x - la.x;
  return la.sled == lb.sled && la.y == lb.y && la.square != lb.square &&
         dx <= g.micropositioning();
}

}  // namespace

std::vector<std::vector<Lbn>> foreground_accesses(const host::HostGeometry& g, Lbn first,
                                                  std::uint32_t count) {
  std::vector<std::vector<Lbn>> accesses;
  for (Lbn l = first; l < first + count; ++l) {
    bool joins = !accesses.empty() && accesses.back().size() < g.parallelism();
    if (joins) {
      for (const Lbn a : accesses.back()) {
        if (!one_position(g, a, l)) {
          joins = false;
          break;
        }
      }
    }
    if (joins) {
      accesses.back().push_back(l);
    } else {
      accesses.push_back({l});
    }
  }
  return accesses;
}

void pick_free_blocks(const host::HostGeometry& g, Lbn first, std::uint32_t count,
                      const ReadMap& read, std::vector<Lbn>& out) {
  out.clear();
  const std::uint32_t p = g.parallelism();
  const std::uint32_t group = g.conflict_group();
  for (const std::vector<Lbn>& access : foreground_accesses(g, first, count)) {
    if (access.size() >= p) continue;
    const std::size_t wanted = out.size() + (p - access.size());
    // Squares (tips) and conflict groups this access already uses.
    std::vector<std::uint32_t> squares, groups;
    for (const Lbn l : access) {
      const std::uint32_t sq = g.locate(l).square;
      squares.push_back(sq);
      if (group > 0) groups.push_back(sq / group);
    }
    // The class of the access's position (§6.3.6: "every time the media
    // sled is positioned, a full equivalence class of LBNs is available"),
    // with the device's M; one column per tip, so one block per square.
    for (const Lbn l : g.equivalent(access.front())) {
      if (out.size() == wanted) break;
      if (read.test(l) || (l >= first && l < first + count)) continue;
      const std::uint32_t sq = g.locate(l).square;
      if (std::find(squares.begin(), squares.end(), sq) != squares.end()) continue;
      if (group > 0 && std::find(groups.begin(), groups.end(), sq / group) != groups.end())
        continue;
      // With M >= 1 the classes of two accesses of one request can overlap.
      if (std::find(out.begin(), out.end(), l) != out.end()) continue;
      out.push_back(l);
      squares.push_back(sq);
      if (group > 0) groups.push_back(sq / group);
    }
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
  if (o.request_blocks == 0 || o.request_blocks > g.blocks()) {
    return host::invalid_argument("a foreground request of " + std::to_string(o.request_blocks) +
                                  " blocks does not fit the device's " +
                                  std::to_string(g.blocks()) + " blocks");
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
    auto done = device.read(extents);
    if (!done.ok()) return done.error();
    const std::size_t accesses = foreground_accesses(g, first, o.request_blocks).size();
    // Free blocks cost no media access of their own: the batch needs the
    // foreground's accesses, no more. (With shared components, G > 0, the
    // device may need more for the foreground's own blocks.)
    if (g.conflict_group() == 0 && done->media_steps != accesses) {
      return host::bad_response("a foreground read of " + std::to_string(o.request_blocks) +
                                " blocks at LBN " + std::to_string(first) + " is " +
                                std::to_string(accesses) + " media accesses, but with its " +
                                std::to_string(free.size()) + " free blocks the device needed " +
                                std::to_string(done->media_steps));
    }
    ++r.requests;
    r.service_ns += done->service_ns;
    r.reported_us += reported_us(done->service_ns);
    r.media_steps += done->media_steps;
    r.foreground_accesses += accesses;
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
