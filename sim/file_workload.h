// SPDX-License-Identifier: Apache-2.0
// The thesis' layout workload (§6.2.3): "10,000 whole-file read requests
// whose sizes are drawn from the file size distribution reported in [Ganger
// and Kaashoek 1997]", placed by one of the layouts of sim/layout.h.
//
// The files: sizes from sim/file_sizes.h, drawn until the organ-pipe packing
// of them around the centre of the LBN space has no room left on either
// side for the next one, so the files fill the device. Every layout sees the same files and the
// same request stream; only where a request is served from differs.
//
// Each request reads one whole file, chosen by popularity: "an exponential
// distribution to determine file popularity" (§6.2.3). The file of
// popularity rank r is drawn with the rank an exponential variate of mean
// `popularity_mean_fraction` x files, truncated to the files (redrawn when
// beyond). The thesis gives no mean; memsim's default, 1/25 of the files,
// gives the hottest files about the share of the device (one of 25 parts)
// that the bipartite layouts give small files.
//
// Where the request is served from:
// - organ-pipe: the file's own place, ranks alternating around the centre.
// - random, subregioned, columnar: "I assigned a random location to each
//   request within either the large or the small subregions" (§6.2.3), to
//   avoid second-order locality: drawn anew for every request, inside the
//   layout's area for the file's class (small: 8 KB or less).
//
// Arrivals: exponential inter-arrival times of mean `interarrival_ms`, every
// request a read. Three independent generators (file sizes; ranks and
// arrivals; locations), seeded from `seed`, keep the request stream the same
// whatever the layout draws.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/geometry.h"
#include "model/request.h"
#include "sim/layout.h"
#include "sim/rng.h"

namespace memstore::sim {

struct FileWorkloadSpec {
  std::int64_t requests = 10000;
  double interarrival_ms = 50.0;
  double popularity_mean_fraction = 1.0 / 25;
  std::uint64_t seed = 1;
  Layout layout = Layout::kRandom;
  std::int32_t block_bytes = 512;  // the device's
};

// Everything wrong with `spec` on `g`, each message naming the memsim option.
std::vector<std::string> validate(const FileWorkloadSpec& spec, const model::Geometry& g);

struct File {
  std::int32_t blocks = 0;
  model::Lbn organ_pipe_lbn = 0;  // its place under the organ-pipe layout
};

// The files of the workload on `g`, by popularity rank (see above).
std::vector<File> make_files(const model::Geometry& g, std::int32_t block_bytes,
                             std::uint64_t seed);

// A file of at most 8 KB (§6.2.3), which the bipartite layouts put in the centre.
bool is_small(const File& f, std::int32_t block_bytes);

class FileWorkload {
 public:
  // REQUIRES: validate(spec, g).empty().
  FileWorkload(const FileWorkloadSpec& spec, const model::Geometry& g);

  std::optional<model::Request> next();
  const std::vector<File>& files() const { return files_; }

 private:
  model::Lbn place(const File& f);

  FileWorkloadSpec spec_;
  const model::Geometry& geometry_;
  std::vector<File> files_;
  BipartiteAreas areas_;
  Rng requests_rng_;
  Rng place_rng_;
  std::int64_t issued_ = 0;
  double arrival_ns_ = 0.0;
};

}  // namespace memstore::sim
