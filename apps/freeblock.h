// SPDX-License-Identifier: Apache-2.0
// Reading the whole device for free beside a foreground workload (thesis
// §6.3.6). Every foreground request is a random 4 KB read; it is sent as a
// batch together with background reads of blocks that have not been read
// yet, chosen from the equivalence class of the foreground's position
// (get_equivalent, with the device's micropositioning M) so that the batch
// is still one media access: at most p blocks, one per square (tip), none
// sharing a conflict group. The run ends when every block has been read,
// by the foreground or the background.
//
// What a foreground "request" is: §6.3.6 counts a 4 KB request as taking 8
// of the p blocks one media access can transfer, i.e. one row of p squares.
// So a request's start is drawn uniformly from the starts whose blocks lie
// within one row (l mod p <= p - request blocks), which makes every request
// exactly one media step and leaves p - 8 tips for free blocks (2 for p =
// 10, 12 for p = 20). A request straddling two rows would be two accesses.
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

// The foreground: `request_blocks` consecutive blocks inside one row of p,
// the start uniform over all such starts. Deterministic for a seed on every
// platform (mt19937_64 bits and our own reduction, no std distributions).
class Foreground {
 public:
  // REQUIRES: 1 <= request_blocks <= p.
  Foreground(const host::HostGeometry& g, std::uint32_t request_blocks, std::uint64_t seed);
  Lbn next();
  std::uint32_t request_blocks() const { return request_blocks_; }

 private:
  std::mt19937_64 rng_;
  std::uint64_t p_, rows_, starts_per_row_;
  std::uint32_t request_blocks_;
};

// The free blocks for a foreground read of [first, first + count): up to
// p - count blocks of E(first) (micropositioning M of the device) not yet
// read, not part of the request, each in a square the batch does not use
// yet and (G > 0) a conflict group it does not use yet. Lowest LBN first.
// Appends to `out` (cleared first). REQUIRES: the request lies in one row.
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
  std::uint64_t media_steps = 0;            // summed over batches (= requests: one step each)
  std::int64_t service_ns = 0;              // sum of modeled service times
  std::int64_t reported_us = 0;             // sum of whole µs per batch (see reported_us())
  double wall_s = 0;
  std::vector<ScanSample> samples;  // at 0, every sample_percent, and the end
  double mean_free_per_request() const {
    return requests == 0 ? 0.0 : static_cast<double>(free_blocks) / static_cast<double>(requests);
  }
  // Modeled time at which `percent` of the device had been read, or -1.
  double time_to(double percent) const;
};

// Runs the scan against `device` closed-loop (one batch at a time), each
// batch sent STRICT so the device confirms it is one media access (unless
// the device has conflict groups: then the foreground's own 8 blocks may
// conflict, and the device reports the steps it needed).
// `progress` (may be empty) sees every new sample.
host::Result<ScanResult> run_scan(BlockDevice& device, const ScanOptions& options,
                                  const std::function<void(const ScanSample&)>& progress = {});

}  // namespace memstore::apps
