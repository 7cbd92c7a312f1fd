// SPDX-License-Identifier: Apache-2.0
// memsim seek-profile: the positioning time from one sled position to the
// start of every row of a grid of cylinders (thesis §3.3, Figs. 3.2 and 3.3:
// seek time as a function of X and Y displacement, from the corner and from
// the centre of the media), each seek computed as `memsim seek` computes it;
// and memsim large-reads (thesis §6.2.2, Fig. 6.8; sim/large_reads.h).
#include <cstdio>
#include <iostream>

#include "model/geometry.h"
#include "model/mems_mechanism.h"
#include "sim/commands.h"
#include "sim/large_reads.h"

namespace memstore::sim {

int cmd_seek_profile(const SeekProfileArgs& a) {
  if (a.from != "corner" && a.from != "centre") {
    std::cerr << "memsim: --from: expected corner or centre, got '" << a.from << "'\n";
    return 2;
  }
  if (a.direction != "best" && a.direction != "up" && a.direction != "down") {
    std::cerr << "memsim: --direction: expected best, up or down, got '" << a.direction << "'\n";
    return 2;
  }
  if (a.x_step <= 0) {
    std::cerr << "memsim: --x-step must be positive\n";
    return 2;
  }
  auto p = resolve_params(a.device);
  if (!p.ok()) {
    std::cerr << "memsim: seek-profile: " << p.error().message << "\n";
    return 2;
  }
  if (a.direction != "best" && !p->bidirectional) {
    std::cerr << "memsim: --direction " << a.direction << ": " << p->name
              << " reads in one direction only; use --direction best\n";
    return 2;
  }
  p->sleds = 1;
  const model::MemsMechanism m(*p);
  const model::Geometry& g = m.geometry();
  // The sled has just read the first row of square 0 at the corner (x = 0,
  // y = 0) or at the centre cylinder and row.
  const bool corner = a.from == "corner";
  const model::PhysicalAddress from{0, corner ? 0 : g.sx() / 2, corner ? 0 : g.sy() / 2, 0};
  const model::SledState start = m.state_after_reading(g.to_lbn(from));
  std::cout << "from,x_cylinders,y_rows,seek_ms,x_settle_ms,y_turnaround_ms\n";
  char line[160];
  for (std::int32_t x = 0; x < g.sx(); x += a.x_step) {
    for (std::int32_t y = 0; y < g.sy(); ++y) {
      const model::Lbn to_lbn = g.to_lbn({0, x, y, 0});
      const int dir = model::Geometry::track_runs_up(g.track_of(to_lbn)) ? 1 : -1;
      const model::Positioning pos =
          a.direction == "best" ? m.position_for(start, x, y, dir)
                                : m.position_in(start, x, y, a.direction == "up" ? +1 : -1);
      std::snprintf(line, sizeof line, "%s,%d,%d,%.6f,%.6f,%.6f\n", a.from.c_str(), x - from.x,
                    y - from.y, pos.total_s * 1e3, (pos.x_base_s + pos.settle_s) * 1e3,
                    (pos.y.base_s + pos.y.turnaround_s) * 1e3);
      std::cout << line;
    }
  }
  return 0;
}

int cmd_large_reads(const LargeReadsArgs& a) {
  LargeReadSpec spec;
  spec.requests = a.requests;
  spec.size_kb = a.size_kb;
  spec.seed = a.seed;
  // A zoned disk (Fig. 6.8's disk half, §6.2.2) or a MEMStore.
  Expected<std::vector<LargeReadSample>> samples = Error("");
  if (const auto disk = model::disk_preset(a.device.device)) {
    if (!a.device.set.empty() || !a.device.config.empty()) {
      std::cerr << "memsim: large-reads: --set and --config apply to MEMStores only\n";
      return 2;
    }
    samples = measure_disk_large_reads(*disk, spec);
  } else {
    const auto p = resolve_params(a.device);
    if (!p.ok()) {
      std::cerr << "memsim: large-reads: " << p.error().message << "\n";
      return 2;
    }
    samples = measure_large_reads(*p, spec);
  }
  if (!samples.ok()) {
    std::cerr << "memsim: large-reads: " << samples.error().message << "\n";
    return 2;
  }
  std::cout << "x_distance_cylinders,service_ms,seek_ms,media_ms\n";
  char line[128];
  for (const LargeReadSample& s : *samples) {
    std::snprintf(line, sizeof line, "%d,%.6f,%.6f,%.6f\n", s.x_distance, s.service_ms, s.seek_ms,
                  s.media_ms);
    std::cout << line;
  }
  return 0;
}

}  // namespace memstore::sim
