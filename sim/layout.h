// SPDX-License-Identifier: Apache-2.0
// Data placement on a MEMStore (thesis §6.2): the 5 x 5 subregions of a
// tip's media region (§6.2.1, Fig. 6.7) and the areas each layout of §6.2.3
// gives to small and to large files.
//
// - random: a file anywhere on the device (the thesis' baseline).
// - organ-pipe: files by popularity, the most popular at the centre of the
//   LBN space (the centre cylinders), the next ones alternately right and
//   left of it (Vongsathorn and Carson 1990; Ruemmler and Wilkes 1991).
// - subregioned ("bipartite" in the issue; the thesis calls both of the
//   following bipartite): small files (8 KB or less) in the centre
//   subregion of the 5 x 5 grid, large files in the ten leftmost and ten
//   rightmost subregions. Only this layout uses the media's Y dimension.
// - columnar: the LBN space cut into 25 columns of Sx/25 cylinders each
//   ("column 0 contains cylinders 0-99", §6.2.3); small files in the centre
//   column, large ones in the ten leftmost and ten rightmost columns.
//
// A large file runs through whole tracks, so it cannot stay inside one
// subregion's rows: "the ten leftmost and ten rightmost subregions" are the
// two outer columns of subregions on each side, all rows, i.e. the same
// cylinders as the columnar layout's ten outer columns.
//
// Subregions are counted in cylinders (X) and tip-sector rows (Y) of one
// square: column cx holds cylinders [cx Sx / 5, (cx + 1) Sx / 5), row band cy
// the rows [cy Sy / 5, (cy + 1) Sy / 5). For G2 that is 500 cylinders by 5 or
// 6 rows of 90 bits: the thesis' 500 x 500 bits, to the row.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/geometry.h"
#include "sim/rng.h"

namespace memstore::sim {

enum class Layout { kRandom, kOrganPipe, kSubregioned, kColumnar };

// "random", "organ-pipe", "subregioned" (also "bipartite"), "columnar".
std::optional<Layout> parse_layout(const std::string& name);
const char* layout_name(Layout l);
std::string layout_names();  // for messages and --help

inline constexpr int kSubregionsPerSide = 5;  // Fig. 6.7
inline constexpr int kColumns = 25;           // §6.2.3

struct Subregion {
  std::int32_t x_begin = 0;  // cylinders [x_begin, x_end)
  std::int32_t x_end = 0;
  std::int32_t y_begin = 0;  // tip-sector rows [y_begin, y_end)
  std::int32_t y_end = 0;
};

// REQUIRES: 0 <= cx, cy < kSubregionsPerSide.
Subregion subregion(const model::Geometry& g, int cx, int cy);

struct LbnRange {
  model::Lbn begin = 0;  // [begin, end)
  model::Lbn end = 0;
};

// The LBNs of cylinders [x_begin, x_end) of sled 0: cylinders are
// consecutive in LBN space (§2.4).
LbnRange cylinder_range(const model::Geometry& g, std::int32_t x_begin, std::int32_t x_end);

// The areas a bipartite layout gives its files (see above).
struct BipartiteAreas {
  Subregion small_subregion;             // subregioned: the centre subregion
  std::vector<LbnRange> small_columnar;  // columnar: the centre column
  std::vector<LbnRange> large;           // both: the outer two fifths on each side
};
BipartiteAreas bipartite_areas(const model::Geometry& g);

// A start LBN for `blocks` blocks drawn uniformly among the starts whose
// every block lies in subregion `s` (its cylinders and rows) and in one
// track, or nullopt when the request cannot fit (more blocks than the
// subregion's rows hold in a track).
std::optional<model::Lbn> place_in_subregion(const model::Geometry& g, const Subregion& s,
                                             std::int32_t blocks, Rng& rng);

// A start LBN drawn uniformly among the starts whose `blocks` blocks all lie
// inside one of `ranges`, or nullopt when none is long enough.
std::optional<model::Lbn> place_in_ranges(const std::vector<LbnRange>& ranges, std::int64_t blocks,
                                          Rng& rng);

}  // namespace memstore::sim
