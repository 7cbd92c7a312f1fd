// SPDX-License-Identifier: Apache-2.0
// Requests, service-time breakdowns and completions: the values that cross
// between the device, its schedulers and its callers. Time is virtual, in
// integer nanoseconds; the model never reads a clock.
#pragma once

#include <cstdint>
#include <vector>

#include "model/geometry.h"

namespace memstore::model {

using Ns = std::int64_t;
struct BatchExtent;

enum class Op : std::uint8_t { kRead, kWrite };

struct Request {
  std::uint64_t id = 0;
  Ns arrival_ns = 0;
  Lbn lbn = 0;
  std::int32_t blocks = 1;
  Op op = Op::kRead;
  // Bytes of the last block the request needs, from the block's start; 0 =
  // the whole block. Hosts that address bytes (file-system metadata, the
  // second paper's traces) ask for less than a block; with subsector
  // accesses only the tip sectors of those bytes are activated (§5.2.3).
  std::uint16_t tail_bytes = 0;
  // A batch (thesis §6.3.5): served as one media access; `lbn` is its first
  // block (it places the request for schedulers) and `blocks` is 1. Owned by
  // the submitter until the request completes; all extents on one sled.
  const std::vector<BatchExtent>* batch = nullptr;
  // A write that must be on the medium before it completes: FUA, or the
  // host turned the write cache off (WCE = 0; SBC-3 §4.14). A disk's
  // write-back cache does not take it.
  bool write_through = false;
};

// Where the time of one service went. seek = max(seek_x + settle, seek_y +
// turnarounds before the first access); the rest of the turnarounds and any
// cylinder-switch seeks happen during the transfer and are counted in
// `switch_ns`, not in `transfer_ns` (pure media time).
struct Breakdown {
  Ns startup_ns = 0;     // INACTIVE -> SEEK before this request
  Ns seek_x_ns = 0;      // X base seek (without settle)
  Ns settle_ns = 0;      // X settle (Eq. 3.5)
  Ns seek_y_ns = 0;      // Y base seek (without turnarounds)
  Ns turnaround_ns = 0;  // every turnaround: positioning and track switches
  Ns transfer_ns = 0;    // media time: rows of p blocks, 90 bits each
  Ns seek_ns = 0;        // positioning before the first row: max(X + settle, Y + turnarounds)
  Ns switch_ns = 0;      // track and cylinder switches inside the transfer
  std::int32_t turnarounds = 0;
  std::int32_t media_steps = 0;  // parallel row accesses
  Ns service_ns() const { return startup_ns + seek_ns + switch_ns + transfer_ns; }
};

struct Completion {
  Request request;
  Ns start_ns = 0;  // service began (left the queue)
  Ns done_ns = 0;   // media access finished
  Breakdown breakdown;
  Ns queue_ns() const { return start_ns - request.arrival_ns; }
  Ns response_ns() const { return done_ns - request.arrival_ns; }
};

}  // namespace memstore::model
