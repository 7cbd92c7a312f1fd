// SPDX-License-Identifier: Apache-2.0
// Splitting `memsim sweep` into independent shards and joining their outputs
// again, so that a large sweep runs as separate processes (GNU parallel on one
// machine, a Slurm job array on many) with no job runner of memsim's own.
//
// The sweep's points are numbered in the unsharded output's order (scheduler
// by scheduler, each with its rates in order): point k = s * rates + r.
// Shard I of N (0 <= I < N) computes the points with k mod N == I; every
// point is computed alone, from the same seed, so a point's row does not
// depend on which process computed it.
//
// A shard file is the unsharded CSV with one comment line before it and the
// point number in front of every row:
//
//   # memsim-sweep-shard index=I count=N points=P args=<the sweep's arguments>
//   point,scheduler,rate_per_s,requests,mean_response_ms,scv_response,p99_response_ms
//   k,<the row the unsharded sweep prints for point k>
//
// merge_shards() checks that the files belong to one sweep (same count,
// points and args), that every shard 0..N-1 is there exactly once and every
// point exactly once, and prints the unsharded output byte for byte.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/expected.h"

namespace memstore::sim {

struct Shard {
  std::int64_t index = 0;  // I, 0-based
  std::int64_t count = 1;  // N
};

// Parses "I/N" (0 <= I < N, N >= 1), or says what is wrong, naming --shard.
Expected<Shard> parse_shard(const std::string& text);

inline bool in_shard(std::int64_t point, const Shard& s) {
  return point % s.count == s.index;
}

// The comment line that opens a shard file (without the newline). `args`
// must not contain a newline.
std::string shard_comment(const Shard& s, std::int64_t points, const std::string& args);

struct ShardInput {
  std::string name;     // file name, for messages
  std::string content;  // the whole file
};

// The unsharded CSV (header line `csv_header` and the rows in point order),
// or an error naming the file and line at fault.
Expected<std::string> merge_shards(const std::vector<ShardInput>& inputs,
                                   const std::string& csv_header);

}  // namespace memstore::sim
