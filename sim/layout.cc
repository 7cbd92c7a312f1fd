// SPDX-License-Identifier: Apache-2.0
#include "sim/layout.h"

#include <algorithm>

namespace memstore::sim {
namespace {

struct NamedLayout {
  const char* name;
  Layout layout;
};
constexpr NamedLayout kLayouts[] = {
    {"random", Layout::kRandom},
    {"organ-pipe", Layout::kOrganPipe},
    {"subregioned", Layout::kSubregioned},
    {"columnar", Layout::kColumnar},
};

}  // namespace

std::optional<Layout> parse_layout(const std::string& name) {
  if (name == "bipartite") return Layout::kSubregioned;  // the name for it
  for (const NamedLayout& l : kLayouts)
    if (name == l.name) return l.layout;
  return std::nullopt;
}

const char* layout_name(Layout layout) {
  for (const NamedLayout& l : kLayouts)
    if (l.layout == layout) return l.name;
  return "?";
}

std::string layout_names() {
  std::string s;
  for (const NamedLayout& l : kLayouts) s += (s.empty() ? "" : ", ") + std::string(l.name);
  return s;
}

Subregion subregion(const model::Geometry& g, int cx, int cy) {
  const auto cut = [](std::int32_t size, int i) {
    return static_cast<std::int32_t>(std::int64_t{size} * i / kSubregionsPerSide);
  };
  return {cut(g.sx(), cx), cut(g.sx(), cx + 1), cut(g.sy(), cy), cut(g.sy(), cy + 1)};
}

LbnRange cylinder_range(const model::Geometry& g, std::int32_t x_begin, std::int32_t x_end) {
  return {x_begin * g.sc(), x_end * g.sc()};
}

BipartiteAreas bipartite_areas(const model::Geometry& g) {
  const int mid = kSubregionsPerSide / 2;
  BipartiteAreas a;
  a.small_subregion = subregion(g, mid, mid);
  const auto column = [&g](int c) {
    return static_cast<std::int32_t>(std::int64_t{g.sx()} * c / kColumns);
  };
  a.small_columnar = {cylinder_range(g, column(kColumns / 2), column(kColumns / 2 + 1))};
  // Ten of the 25 subregions (or columns) on each side: two fifths of X.
  a.large = {cylinder_range(g, 0, subregion(g, 2, 0).x_begin),
             cylinder_range(g, subregion(g, 3, 0).x_begin, g.sx())};
  return a;
}

std::optional<model::Lbn> place_in_subregion(const model::Geometry& g, const Subregion& s,
                                             std::int32_t blocks, Rng& rng) {
  const std::int32_t p = g.p();
  // The rows of a track in LBN order run up on even tracks and down on odd
  // ones (track reversals, §2.4), so the band's rows sit at different
  // offsets of the track depending on its parity; the count is the same.
  const std::int64_t starts = std::int64_t{s.y_end - s.y_begin} * p - blocks + 1;
  if (starts <= 0 || s.x_end <= s.x_begin) return std::nullopt;
  const auto x =
      s.x_begin +
      static_cast<std::int32_t>(rng.uniform_below(static_cast<std::uint64_t>(s.x_end - s.x_begin)));
  const auto t = static_cast<std::int64_t>(rng.uniform_below(static_cast<std::uint64_t>(g.ny())));
  const std::int64_t track = std::int64_t{x} * g.ny() + t;
  const std::int32_t first_row =
      model::Geometry::track_runs_up(track) ? s.y_begin : g.sy() - s.y_end;
  const auto offset =
      std::int64_t{first_row} * p +
      static_cast<std::int64_t>(rng.uniform_below(static_cast<std::uint64_t>(starts)));
  return track * g.st() + offset;
}

std::optional<model::Lbn> place_in_ranges(const std::vector<LbnRange>& ranges, std::int64_t blocks,
                                          Rng& rng) {
  std::int64_t total = 0;
  for (const LbnRange& r : ranges) total += std::max<std::int64_t>(0, r.end - r.begin - blocks + 1);
  if (total <= 0) return std::nullopt;
  auto k = static_cast<std::int64_t>(rng.uniform_below(static_cast<std::uint64_t>(total)));
  for (const LbnRange& r : ranges) {
    const std::int64_t n = std::max<std::int64_t>(0, r.end - r.begin - blocks + 1);
    if (k < n) return r.begin + k;
    k -= n;
  }
  return std::nullopt;  // not reached
}

}  // namespace memstore::sim
