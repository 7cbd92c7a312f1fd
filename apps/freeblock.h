// SPDX-License-Identifier: Apache-2.0
// Reading the whole device for free beside a foreground workload (thesis
// §6.3.6). Every foreground request is a random 4 KB read; it is sent as a
// batch together with background reads of blocks that have not been read
// yet, chosen from the equivalence classes of the positions the foreground
// makes the sled visit (get_equivalent, with the device's micropositioning
// M), so that the batch costs the media accesses of the foreground alone.
// The run ends when every block has been read, by the foreground or the
// background.
//
// The thesis' method and how it is counted here:
// - "a foreground workload of random 4 KB requests" (§6.3.6), the Random
//   workload's starting locations "uniformly distributed across the
//   device's capacity" (§6.1.1): a request starts at any block, not at a
//   row of p. A row of p blocks (one per square of a track's Nx = p
//   squares, §6.3.2) is what one media access transfers, so a request whose
//   8 blocks cross a row boundary is two accesses: the sled passes two row
//   positions (x, y) and (x, y +- 1).
// - "Every time the media sled is positioned, a full equivalence class of
//   LBNs is available out of which up to p sectors may be accessed. Some of
//   those p sectors will be used by the foreground workload, but the rest
//   can be used" (§6.3.6): each access of the foreground leaves p minus its
//   foreground blocks to the background, from its own position's class. A
//   request inside one row leaves p - 8 (2 for p = 10); one across a row
//   boundary, 5 + 3 blocks, leaves (10 - 5) + (10 - 3) = 12.
// - A request that crosses a track boundary within a cylinder stays at the
//   same (x, y) (the next track runs the other way, §2.4): one access. One
//   that crosses a cylinder boundary moves one cylinder: two accesses, or
//   one when the tips can microposition (M >= 1).
// Choices the thesis leaves open: the foreground reads (it does not say
// read or write); a start is uniform over every block (not 4 KB-aligned);
// requests are closed-loop, one batch outstanding, each issued when the
// previous completes; the free blocks of an access are the lowest LBNs of
// its class not read yet.
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "apps/block_device.h"
#include "host/geometry.h"
#include "host/result.h"

namespace memstore::apps {

// Which blocks have been read: one bit per block.
class ReadMap {
 public:
  explicit ReadMap(std::uint64_t blocks) : bits_((blocks + 63) / 64, 0), blocks_(blocks) {}
  bool test(Lbn l) const { return (bits_[l / 64] >> (l % 64)) & 1U; }
  // True when `l` had not been read before.
  bool mark(Lbn l) {
    const std::uint64_t bit = std::uint64_t{1} << (l % 64);
    if (bits_[l / 64] & bit) return false;
    bits_[l / 64] |= bit;
    ++count_;
    return true;
  }
  std::uint64_t count() const { return count_; }
  std::uint64_t blocks() const { return blocks_; }
  bool complete() const { return count_ == blocks_; }

 private:
  std::vector<std::uint64_t> bits_;
  std::uint64_t blocks_;
  std::uint64_t count_ = 0;
};

// The foreground: `request_blocks` consecutive blocks starting anywhere,
// the start uniform over [0, blocks - request_blocks] (§6.1.1). Deterministic
// for a seed on every platform (mt19937_64 bits and our own reduction, no
// std distributions). REQUIRES: 1 <= request_blocks <= the device's blocks.
class Foreground {
 public:
  Foreground(const host::HostGeometry& g, std::uint32_t request_blocks, std::uint64_t seed);
  Lbn next();
  std::uint32_t request_blocks() const { return request_blocks_; }

 private:
  std::mt19937_64 rng_;
  std::uint64_t starts_;
  std::uint32_t request_blocks_;
};

// The media accesses a read of [first, first + count) makes: consecutive
// runs of its blocks, each run as long as one sled position reaches all its
// blocks (same row, cylinders within M, one block per square, at most p).
// A run within one row is one access; a run across a row boundary is two.
// Ascending.
std::vector<std::vector<Lbn>> foreground_accesses(const host::HostGeometry& g, Lbn first,
                                                  std::uint32_t count);

// The free blocks for a foreground read of [first, first + count): for each
// of its accesses, up to p minus that access's blocks from the equivalence
// class of the access's first block (with the device's M), not yet read,
// not part of the request, each in a square (and, G > 0, a conflict group)
// the access does not use yet. Lowest LBN first within an access. Appends
// to `out` (cleared first).
void pick_free_blocks(const host::HostGeometry& g, Lbn first, std::uint32_t count,
                      const ReadMap& read, std::vector<Lbn>& out);

struct ScanOptions {
  std::uint32_t request_blocks = 8;  // 4 KB of 512-byte blocks
  std::uint64_t seed = 1;
  bool background = true;          // false: the foreground alone (baseline)
  std::uint64_t max_requests = 0;  // 0: until the device is read
  double max_time_s = 0;           // 0: no limit on modeled time
  double sample_percent = 1.0;     // a sample each time this much more is read
};

// The run's state at one instant.
struct ScanSample {
  double percent = 0;  // of the device read
  double time_s = 0;   // modeled time since the start
  std::uint64_t requests = 0;
  std::uint64_t free_blocks = 0;  // background blocks read so far
};

struct ScanResult {
  std::uint64_t device_blocks = 0;
  std::uint64_t blocks_read = 0;  // distinct blocks
  bool complete = false;          // every block read
  std::uint64_t requests = 0;
  std::uint64_t foreground_new_blocks = 0;  // foreground blocks read for the first time
  std::uint64_t free_blocks = 0;            // background blocks (each read for the first time)
  std::uint64_t foreground_accesses = 0;    // summed over requests (foreground_accesses())
  std::uint64_t media_steps = 0;            // the device's, summed: = foreground_accesses
  std::int64_t service_ns = 0;              // sum of modeled service times
  std::int64_t reported_us = 0;             // sum of whole µs per batch (see reported_us())
  double wall_s = 0;
  std::vector<ScanSample> samples;  // at 0, every sample_percent, and the end
  double mean_free_per_request() const {
    return requests == 0 ? 0.0 : static_cast<double>(free_blocks) / static_cast<double>(requests);
  }
  double mean_accesses_per_request() const {
    return requests == 0 ? 0.0
                         : static_cast<double>(foreground_accesses) / static_cast<double>(requests);
  }
  // Modeled time at which `percent` of the device had been read, or -1.
  double time_to(double percent) const;
};

// Runs the scan against `device` closed-loop (one batch at a time). The
// batch of a request and its free blocks is planned by the device; without
// conflict groups it needs exactly the foreground's accesses, and a batch
// that needs more is a kBadResponse (the free blocks would not be free).
// `progress` (may be empty) sees every new sample.
host::Result<ScanResult> run_scan(BlockDevice& device, const ScanOptions& options,
                                  const std::function<void(const ScanSample&)>& progress = {});

}  // namespace memstore::apps
