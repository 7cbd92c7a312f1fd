// SPDX-License-Identifier: Apache-2.0
#include "sim/file_workload.h"

#include <cmath>

#include "sim/file_sizes.h"

namespace memstore::sim {
namespace {

constexpr double kNsPerMs = 1e6;
// Distinct streams from one seed (odd constants of the golden ratio's and
// sqrt(2)'s expansions; any distinct values would do).
constexpr std::uint64_t kRequestStream = 0x9E3779B97F4A7C15ULL;
constexpr std::uint64_t kPlaceStream = 0x6A09E667F3BCC909ULL;

std::int32_t blocks_for(double bytes, std::int32_t block_bytes) {
  return static_cast<std::int32_t>(std::ceil(bytes / block_bytes));
}

}  // namespace

bool is_small(const File& f, std::int32_t block_bytes) {
  return std::int64_t{f.blocks} * block_bytes <= kSmallFileMaxBytes;
}

std::vector<std::string> validate(const FileWorkloadSpec& spec, const model::Geometry& g) {
  std::vector<std::string> errors;
  if (spec.requests <= 0) errors.emplace_back("--requests must be positive");
  if (!(spec.interarrival_ms > 0.0) || !std::isfinite(spec.interarrival_ms))
    errors.emplace_back("--interarrival-ms must be positive");
  // Ranks beyond the files are redrawn: a mean far above the file count
  // would redraw almost every time.
  if (!(spec.popularity_mean_fraction > 0.0 && spec.popularity_mean_fraction <= 1.0))
    errors.emplace_back("--popularity-mean must be in (0, 1]");
  if (g.sleds() != 1) errors.emplace_back("--layout: layouts are defined for one sled");
  if (spec.block_bytes <= 0) {
    errors.emplace_back("block_bytes must be positive");
    return errors;
  }
  // Every file the size distribution can draw must fit its area, so that
  // placement never fails.
  const BipartiteAreas a = bipartite_areas(g);
  const std::int32_t small_max = blocks_for(kSmallFileMaxBytes, spec.block_bytes);
  const std::int64_t large_max = blocks_for(kMaxFileBytes, spec.block_bytes);
  Rng probe(0);
  if (!place_in_subregion(g, a.small_subregion, small_max, probe) ||
      !place_in_ranges(a.small_columnar, small_max, probe) ||
      !place_in_ranges(a.large, large_max, probe))
    errors.emplace_back(
        "--layout: the device is too small for 8 KB files in its centre subregion and column "
        "and 8 MB files in its outer columns");
  return errors;
}

std::vector<File> make_files(const model::Geometry& g, std::int32_t block_bytes,
                             std::uint64_t seed) {
  Rng rng(seed);
  const model::Lbn capacity = g.blocks();
  std::vector<File> files;
  model::Lbn left = capacity / 2;  // files so far occupy [left, right)
  model::Lbn right = capacity / 2;
  for (;;) {
    const double bytes = file_size_bytes(rng.uniform());
    const std::int32_t blocks = blocks_for(bytes, block_bytes);
    File f{blocks, 0};
    // Rank 0 straddles the centre; each later rank goes on the side that
    // holds less so far (the right on a tie), or on the other side when it
    // does not fit there, so that both sides grow alike to either end.
    const bool right_first = files.empty() || right - capacity / 2 <= capacity / 2 - left;
    const bool fits_right = right + blocks <= capacity;
    const bool fits_left = left - blocks >= 0;
    if (files.empty()) {
      f.organ_pipe_lbn = capacity / 2 - blocks / 2;
      if (f.organ_pipe_lbn < 0 || f.organ_pipe_lbn + blocks > capacity) break;
      left = f.organ_pipe_lbn;
      right = f.organ_pipe_lbn + blocks;
    } else if (fits_right && (right_first || !fits_left)) {
      f.organ_pipe_lbn = right;
      right += blocks;
    } else if (fits_left) {
      left -= blocks;
      f.organ_pipe_lbn = left;
    } else {
      break;
    }
    files.push_back(f);
  }
  return files;
}

FileWorkload::FileWorkload(const FileWorkloadSpec& spec, const model::Geometry& g)
    : spec_(spec),
      geometry_(g),
      files_(make_files(g, spec.block_bytes, spec.seed)),
      areas_(bipartite_areas(g)),
      requests_rng_(spec.seed ^ kRequestStream),
      place_rng_(spec.seed ^ kPlaceStream) {}

model::Lbn FileWorkload::place(const File& f) {
  const model::Geometry& g = geometry_;
  std::optional<model::Lbn> lbn;
  switch (spec_.layout) {
    case Layout::kOrganPipe:
      return f.organ_pipe_lbn;
    case Layout::kRandom:
      lbn = place_in_ranges({{0, g.blocks()}}, f.blocks, place_rng_);
      break;
    case Layout::kSubregioned:
      if (is_small(f, spec_.block_bytes)) {
        lbn = place_in_subregion(g, areas_.small_subregion, f.blocks, place_rng_);
      } else {
        lbn = place_in_ranges(areas_.large, f.blocks, place_rng_);
      }
      break;
    case Layout::kColumnar:
      lbn = place_in_ranges(is_small(f, spec_.block_bytes) ? areas_.small_columnar : areas_.large,
                            f.blocks, place_rng_);
      break;
  }
  // validate() checked that the largest file of each class fits its area.
  return *lbn;
}

std::optional<model::Request> FileWorkload::next() {
  if (issued_ >= spec_.requests || files_.empty()) return std::nullopt;
  const double mean_rank = spec_.popularity_mean_fraction * static_cast<double>(files_.size());
  double rank = 0;
  do {
    rank = std::floor(requests_rng_.exponential(mean_rank));
  } while (rank >= static_cast<double>(files_.size()));
  const File& f = files_[static_cast<std::size_t>(rank)];
  model::Request r;
  r.id = static_cast<std::uint64_t>(issued_);
  r.arrival_ns = static_cast<model::Ns>(std::llround(arrival_ns_));
  r.lbn = place(f);
  r.blocks = f.blocks;
  r.op = model::Op::kRead;
  arrival_ns_ += requests_rng_.exponential(spec_.interarrival_ms * kNsPerMs);
  ++issued_;
  return r;
}

}  // namespace memstore::sim
