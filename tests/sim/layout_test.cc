// SPDX-License-Identifier: Apache-2.0
// The layouts of the thesis' §6.2 in model terms: where each puts its data on
// the media (cylinders, rows, tracks), the organ-pipe packing, the file size
// distribution's published points, and the positioning effects they exist for.
#include "sim/layout.h"

#include <gtest/gtest.h>

#include <cmath>

#include <set>

#include "model/device_factory.h"
#include "sim/file_sizes.h"
#include "sim/file_workload.h"
#include "sim/simulate.h"

namespace memstore::sim {
namespace {

model::Geometry geometry(const char* name) {
  return model::Geometry(*model::preset(name));
}

TEST(Subregions, TileEveryCylinderAndRowOnce) {
  for (const char* name : {"g1", "g2", "g3", "uysal03"}) {
    const model::Geometry g = geometry(name);
    std::int32_t x = 0;
    for (int cx = 0; cx < kSubregionsPerSide; ++cx) {
      std::int32_t y = 0;
      for (int cy = 0; cy < kSubregionsPerSide; ++cy) {
        const Subregion s = subregion(g, cx, cy);
        EXPECT_EQ(s.x_begin, x) << name;
        EXPECT_EQ(s.y_begin, y) << name;
        EXPECT_GT(s.y_end, s.y_begin) << name;
        y = s.y_end;
      }
      EXPECT_EQ(y, g.sy()) << name;
      x = subregion(g, cx, 0).x_end;
    }
    EXPECT_EQ(x, g.sx()) << name;
  }
  // G2: 500 cylinders (bits) by 5 or 6 rows of 90 bits, the thesis' 500 x 500 bits.
  const Subregion centre = subregion(geometry("g2"), 2, 2);
  EXPECT_EQ(centre.x_begin, 1000);
  EXPECT_EQ(centre.x_end, 1500);
  EXPECT_EQ(centre.y_begin, 10);
  EXPECT_EQ(centre.y_end, 16);
}

// Every block of every placed request is inside the subregion, in one track;
// both track directions and every row of the band are used.
TEST(Subregions, PlacementStaysInsideTheSubregion) {
  for (const char* name : {"g1", "g2", "g3", "uysal03"}) {
    const model::Geometry g = geometry(name);
    Rng rng(3);
    for (int cell = 0; cell < kSubregionsPerSide * kSubregionsPerSide; ++cell) {
      const Subregion s = subregion(g, cell % 5, cell / 5);
      std::set<std::int32_t> rows;
      std::set<bool> directions;
      for (int i = 0; i < 400; ++i) {
        const std::int32_t blocks = 1 + i % 16;
        const auto lbn = place_in_subregion(g, s, blocks, rng);
        ASSERT_TRUE(lbn.has_value());
        EXPECT_EQ(g.track_of(*lbn), g.track_of(*lbn + blocks - 1));
        directions.insert(model::Geometry::track_runs_up(g.track_of(*lbn)));
        for (std::int32_t b = 0; b < blocks; ++b) {
          const model::PhysicalAddress a = g.to_physical(*lbn + b);
          ASSERT_GE(a.x, s.x_begin);
          ASSERT_LT(a.x, s.x_end);
          ASSERT_GE(a.y, s.y_begin) << name << " cell " << cell;
          ASSERT_LT(a.y, s.y_end) << name << " cell " << cell;
          rows.insert(a.y);
        }
      }
      EXPECT_EQ(static_cast<std::int32_t>(rows.size()), s.y_end - s.y_begin) << name;
      EXPECT_EQ(directions.size(), 2u) << name;
    }
  }
  // More blocks than the band's rows hold in one track cannot be placed.
  const model::Geometry g2 = geometry("g2");
  Rng rng(1);
  EXPECT_FALSE(place_in_subregion(g2, subregion(g2, 0, 0), 51, rng).has_value());
  EXPECT_TRUE(place_in_subregion(g2, subregion(g2, 0, 0), 50, rng).has_value());
}

TEST(BipartiteAreas, CentreColumnAndOuterTwoFifths) {
  const model::Geometry g = geometry("g2");
  const BipartiteAreas a = bipartite_areas(g);
  // §6.2.3: "column 0 contains cylinders 0-99": the centre column 12 is 1200-1299.
  ASSERT_EQ(a.small_columnar.size(), 1u);
  EXPECT_EQ(g.to_physical(a.small_columnar[0].begin).x, 1200);
  EXPECT_EQ(g.to_physical(a.small_columnar[0].end - 1).x, 1299);
  ASSERT_EQ(a.large.size(), 2u);
  EXPECT_EQ(a.large[0].begin, 0);
  EXPECT_EQ(g.to_physical(a.large[0].end - 1).x, 999);
  EXPECT_EQ(g.to_physical(a.large[1].begin).x, 1500);
  EXPECT_EQ(a.large[1].end, g.blocks());
  Rng rng(5);
  for (int i = 0; i < 1000; ++i) {
    const std::int64_t blocks = 1 + i * 37;
    const model::Lbn lbn = *place_in_ranges(a.large, blocks, rng);
    const std::int32_t x0 = g.to_physical(lbn).x;
    const std::int32_t x1 = g.to_physical(lbn + blocks - 1).x;
    EXPECT_TRUE((x0 >= 0 && x1 < 1000) || (x0 >= 1500 && x1 < 2500)) << x0 << ".." << x1;
  }
}

TEST(FileSizes, MeetTheThreePublishedPoints) {
  // §6.2.3: 78% of files are 8 KB or smaller, 4% larger than 64 KB, 0.25% larger than 1 MB.
  EXPECT_LE(file_size_bytes(0.78 - 1e-12), 8 * 1024.0);
  EXPECT_GT(file_size_bytes(0.78 + 1e-12), 8 * 1024.0);
  EXPECT_LE(file_size_bytes(0.96 - 1e-12), 64 * 1024.0);
  EXPECT_GT(file_size_bytes(0.96 + 1e-12), 64 * 1024.0);
  EXPECT_LE(file_size_bytes(0.9975 - 1e-12), 1024 * 1024.0);
  EXPECT_GT(file_size_bytes(0.9975 + 1e-12), 1024 * 1024.0);
  EXPECT_GE(file_size_bytes(0.0), 512.0);
  EXPECT_LE(file_size_bytes(1.0 - 0x1.0p-53), static_cast<double>(kMaxFileBytes));
  double last = 0;
  for (int i = 0; i < 10000; ++i) {
    const double s = file_size_bytes(i / 10000.0);
    EXPECT_GE(s, last);
    last = s;
  }
}

// Between the published points the fraction of files above a size follows a
// power law (sim/file_sizes.h): in (64 KB, 1 MB], P(> x) = 0.04 (x / 64 KB)^-1,
// so 1% of files are above 256 KB; in (8, 64] KB alpha = ln 5.5 / ln 8, so
// P(> 16 KB) = 0.22 / 2^alpha = 0.1447. A log-uniform band would give 2.125%
// and 0.1533.
TEST(FileSizes, PowerLawsBetweenThePublishedPoints) {
  EXPECT_LE(file_size_bytes(0.99 - 1e-9), 256 * 1024.0);
  EXPECT_GT(file_size_bytes(0.99 + 1e-9), 256 * 1024.0);
  const double p16 = 0.22 / std::pow(2.0, std::log(5.5) / std::log(8.0));
  EXPECT_LE(file_size_bytes(1 - p16 - 1e-9), 16 * 1024.0);
  EXPECT_GT(file_size_bytes(1 - p16 + 1e-9), 16 * 1024.0);
  // The mean size the header states, 18.3 KB, by the midpoint rule.
  double sum = 0;
  constexpr int kN = 400000;
  for (int i = 0; i < kN; ++i) sum += file_size_bytes((i + 0.5) / kN);
  EXPECT_NEAR(sum / kN / 1024, 18.3, 0.1);
}

TEST(OrganPipe, FilesFillTheDeviceOutwardFromTheCentreByRank) {
  const model::Geometry g = geometry("g2");
  const std::vector<File> files = make_files(g, 512, 1);
  ASSERT_GT(files.size(), 1000u);
  const model::Lbn centre = g.blocks() / 2;
  EXPECT_LE(files[0].organ_pipe_lbn, centre);
  EXPECT_GT(files[0].organ_pipe_lbn + files[0].blocks, centre);
  std::int64_t total = 0;
  model::Lbn low = files[0].organ_pipe_lbn;
  model::Lbn high = files[0].organ_pipe_lbn + files[0].blocks;
  for (std::size_t r = 1; r < files.size(); ++r) {
    const File& f = files[r];
    // Each rank next to everything before it, on the side that held less
    // unless it did not fit there: no overlap, and each rank no nearer the
    // centre than the ranks before it on its side.
    const bool right = f.organ_pipe_lbn == high;
    EXPECT_TRUE(right || f.organ_pipe_lbn + f.blocks == low) << r;
    if (right && low - f.blocks >= 0) {
      EXPECT_LE(high - centre, centre - low) << r;
    }
    if (!right && high + f.blocks <= g.blocks()) {
      EXPECT_GT(high - centre, centre - low) << r;
    }
    if (right) {
      high += f.blocks;
    } else {
      low = f.organ_pipe_lbn;
    }
    total += f.blocks;
  }
  EXPECT_GE(low, 0);
  EXPECT_LE(high, g.blocks());
  // Packing stops at the first file that does not fit: at most 8 MB short of full.
  EXPECT_GT(total + files[0].blocks, g.blocks() - 2 * (kMaxFileBytes / 512));
}

TEST(FileWorkload, EveryLayoutSeesTheSameRequestsInItsOwnPlaces) {
  const model::Geometry g = geometry("g2");
  const BipartiteAreas areas = bipartite_areas(g);
  std::vector<std::vector<model::Request>> runs;
  for (Layout l : {Layout::kRandom, Layout::kOrganPipe, Layout::kSubregioned, Layout::kColumnar}) {
    FileWorkloadSpec spec;
    spec.requests = 3000;
    spec.layout = l;
    ASSERT_TRUE(validate(spec, g).empty());
    FileWorkload w(spec, g);
    std::vector<model::Request> rs;
    while (auto r = w.next()) {
      ASSERT_GE(r->lbn, 0);
      ASSERT_LE(r->lbn + r->blocks, g.blocks());
      EXPECT_EQ(r->op, model::Op::kRead);
      const bool small = r->blocks * 512 <= kSmallFileMaxBytes;
      const std::int32_t x0 = g.to_physical(r->lbn).x;
      const std::int32_t x1 = g.to_physical(r->lbn + r->blocks - 1).x;
      if (l == Layout::kSubregioned && small) {
        EXPECT_GE(x0, areas.small_subregion.x_begin);
        EXPECT_LT(x1, areas.small_subregion.x_end);
      } else if (l == Layout::kColumnar && small) {
        EXPECT_GE(x0, 1200);
        EXPECT_LT(x1, 1300);
      } else if (l == Layout::kSubregioned || l == Layout::kColumnar) {
        EXPECT_TRUE(x1 < 1000 || x0 >= 1500) << x0 << ".." << x1;
      }
      rs.push_back(*r);
    }
    ASSERT_EQ(rs.size(), 3000u);
    runs.push_back(rs);
  }
  for (std::size_t l = 1; l < runs.size(); ++l) {
    for (std::size_t i = 0; i < runs[0].size(); ++i) {
      EXPECT_EQ(runs[l][i].arrival_ns, runs[0][i].arrival_ns);
      EXPECT_EQ(runs[l][i].blocks, runs[0][i].blocks);
    }
  }
}

// Mean positioning of `requests` 8-block reads spread over one subregion.
double mean_seek_in(const model::DeviceParams& params, int cx, int cy, std::uint64_t seed) {
  const model::Geometry g(params);
  auto device = model::make_mems_device(params, "fcfs", {});
  const Subregion s = subregion(g, cx, cy);
  Rng rng(seed);
  std::int64_t i = 0;
  const RunStats stats = simulate(*device, [&]() -> std::optional<model::Request> {
    if (i == 2000) return std::nullopt;
    model::Request r;
    r.id = static_cast<std::uint64_t>(i);
    r.arrival_ns = i++ * 10'000'000;
    r.lbn = *place_in_subregion(g, s, 8, rng);
    r.blocks = 8;
    return r;
  });
  return stats[Metric::kSeek].mean();
}

// §6.2.1: the springs make short seeks slower away from the centre, so the
// same requests position faster in the centre subregion than in a corner.
TEST(Subregions, CentrePositionsFasterThanEveryOuterSubregion) {
  model::DeviceParams params = *model::preset("g2");
  params.power.idle_timeout_ns = -1;
  const double centre = mean_seek_in(params, 2, 2, 9);
  for (int c = 0; c < 5; ++c) {
    EXPECT_GT(mean_seek_in(params, c, 0, 9), centre);
    EXPECT_GT(mean_seek_in(params, c, 4, 9), centre);
    EXPECT_GT(mean_seek_in(params, 0, c, 9), centre);
    EXPECT_GT(mean_seek_in(params, 4, c, 9), centre);
  }
  // Without springs the subregions differ only by the edges' turnarounds and
  // the sampling: the centre's advantage in X disappears.
  params.spring_factor = 0;
  EXPECT_NEAR(mean_seek_in(params, 0, 2, 9), mean_seek_in(params, 2, 2, 9), 0.01 * centre);
}

}  // namespace
}  // namespace memstore::sim
