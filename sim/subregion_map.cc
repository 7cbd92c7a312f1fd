// SPDX-License-Identifier: Apache-2.0
#include "sim/subregion_map.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "model/device_factory.h"
#include "sim/simulate.h"

namespace memstore::sim {
namespace {

// Requests 10 ms apart: far more than any service time here, so none waits.
constexpr model::Ns kGapNs = 10'000'000;

// Blocks a subregion's rows hold within one track: the largest request
// that starts and ends inside it.
std::int64_t largest_request(const model::Geometry& g, const Subregion& s) {
  return std::int64_t{s.y_end - s.y_begin} * g.p();
}

}  // namespace

Expected<std::vector<SubregionCell>> measure_subregions(const model::DeviceParams& params,
                                                        const SubregionMapSpec& spec) {
  if (spec.requests <= 0 || !(spec.mean_size_kb > 0) || !std::isfinite(spec.mean_size_kb)) {
    return Error("--requests and --mean-size-kb must be positive");
  }
  if (!(spec.read_fraction >= 0 && spec.read_fraction <= 1)) {
    return Error("--read-fraction must be in [0, 1]");
  }
  const model::Geometry g(params);
  if (g.sleds() != 1) return Error("the subregion map needs a device of one sled");
  // The largest request every subregion holds (50 blocks on G2, whose
  // subregions have 5 or 6 rows): one limit for all, so that every cell
  // draws the same sizes.
  std::int64_t smallest = largest_request(g, subregion(g, 0, 0));
  for (int c = 0; c < kSubregionsPerSide; ++c) {
    smallest = std::min(smallest, largest_request(g, subregion(g, c, c)));
  }
  if (smallest < 1) return Error("the subregions of this device hold no whole block in a track");
  const double mean_blocks = spec.mean_size_kb * 1024 / params.block_bytes;
  if (mean_blocks > static_cast<double>(smallest) / 4) {
    // Redrawing would then cut the distribution, not just its far tail.
    return Error("--mean-size-kb: a subregion's rows hold " + std::to_string(smallest) +
                 " blocks in a track; the mean size must be at most a quarter of that");
  }

  std::vector<SubregionCell> cells;
  for (int cy = 0; cy < kSubregionsPerSide; ++cy) {
    for (int cx = 0; cx < kSubregionsPerSide; ++cx) {
      auto device = model::make_mems_device(params, "fcfs", {});
      const Subregion s = subregion(g, cx, cy);
      // Sizes and reads/writes from one stream, places from another, both
      // from the same seed in every subregion: every cell sees the same
      // sizes and mix, so cells differ only by where the requests lie.
      Rng rng(spec.seed);
      Rng place(spec.seed + 1);
      std::int64_t issued = 0;
      RunStats counted;
      const auto count = [&counted](const model::Completion& c) {
        if (c.request.id != 0) counted.add(c);
      };
      simulate(
          *device,
          [&]() -> std::optional<model::Request> {
            if (issued > spec.requests) return std::nullopt;
            std::int64_t blocks = 0;
            do {  // §6.1.1's size, rounded up to whole blocks, at least one
              const double kb = rng.exponential(spec.mean_size_kb);
              blocks = std::max<std::int64_t>(
                  1, static_cast<std::int64_t>(std::ceil(kb * 1024 / params.block_bytes)));
            } while (blocks > smallest);
            model::Request r;
            r.id = static_cast<std::uint64_t>(issued);
            r.arrival_ns = issued * kGapNs;
            r.blocks = static_cast<std::int32_t>(blocks);
            r.lbn = *place_in_subregion(g, s, r.blocks, place);
            r.op = rng.uniform() < spec.read_fraction ? model::Op::kRead : model::Op::kWrite;
            ++issued;
            return r;
          },
          count);
      SubregionCell c;
      c.cx = cx;
      c.cy = cy;
      c.area = s;
      c.requests = counted.requests;
      c.mean_blocks = counted.requests == 0 ? 0.0
                                            : static_cast<double>(counted.blocks) /
                                                  static_cast<double>(counted.requests);
      c.service_ms = counted[Metric::kService].mean() / 1e6;
      c.seek_ms = counted[Metric::kSeek].mean() / 1e6;
      c.seek_x_ms = counted[Metric::kSeekX].mean() / 1e6;
      c.seek_y_ms = counted[Metric::kSeekY].mean() / 1e6;
      c.transfer_ms = counted[Metric::kTransfer].mean() / 1e6;
      cells.push_back(c);
    }
  }
  return cells;
}

}  // namespace memstore::sim
