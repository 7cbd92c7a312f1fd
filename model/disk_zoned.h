// SPDX-License-Identifier: Apache-2.0
// A zoned disk with real mechanics behind the Mechanism interface (issue 19):
// the Quantum Atlas 10K as DiskSim 4.0 models it, and presets derived from it
// (disk_presets.h). Layout in disk_layout.h, cache bookkeeping in disk_cache.h.
//
// Mechanics, after DiskSim's "dm_mech_g1" with "trackSwitchPlusRotation":
// - the arm moves along the measured seek curve; moving to another surface
//   costs the head switch, and a move that does both costs the longer of the
//   two. A write adds the write settle to any move.
// - the platter turns at the preset's rpm from angle 0 at time 0, whatever the
//   disk does: the angle at time t is t mod T_rev. A sector can be read when its
//   start (disk_layout.h, skew included) comes under the head.
// - a transfer runs track by track; each later track pays its switch and
//   whatever rotation the skew did not hide.
// - with zero-latency access, a head landing inside a track's requested
//   sectors reads on from the next sector and finishes a revolution later.
//
// Controller and cache, after DiskSim's Atlas 10K disk specification:
// - every command pays its overhead first (read hit, read miss, write; each
//   after a read or after a write);
// - a read miss reads the media and sends its blocks over the host interface
//   (bus_ns_per_block each) from the end of the first sector on. The media then reads ahead in the
//   background, into the same segment: to the end of the track after the
//   request's last block or, once the segment holds an earlier track (a
//   sequential stream), to the end of the track after that ("Buffer continuous
//   read = 4"). Any command that needs the media stops the read-ahead where it
//   is; a read of blocks the read-ahead has fetched, or will fetch before it
//   stops, is a hit and costs no mechanical time.
// - with write-back, a write completes once its blocks are across the
//   interface; its media write starts at once (the arm moves while the data
//   comes in). Any later command waits until that data is on the media ("Fast
//   write level = 2" with "Maximum number of write segments = 1").
//
// Breakdown, so reports stay comparable with a MEMStore: seek_ns is all the
// time before the first sector moves (overhead, waiting for a media write,
// arm movement, settle and latency), seek_x_ns the arm movement, settle_ns the
// write settle, seek_y_ns the rotational latency; switch_ns is track and
// cylinder switches inside the transfer with their latencies; transfer_ns is
// the rest: media sectors and the host interface. A cache hit has seek_x_ns =
// seek_y_ns = 0.
#pragma once

#include <cstdint>

#include "model/disk_cache.h"
#include "model/disk_layout.h"
#include "model/disk_presets.h"
#include "model/mechanism.h"

namespace memstore::model {

struct HeadState {
  std::int32_t cylinder = 0;
  std::int32_t surface = 0;
};

// One media access of consecutive LBNs.
struct MediaPass {
  Ns seek_ns = 0;              // first arm movement (seek or head switch)
  Ns settle_ns = 0;            // its write settle
  Ns latency_ns = 0;           // first rotational latency
  Ns switch_ns = 0;            // later tracks: switches and latencies
  Ns transfer_ns = 0;          // sectors under the head
  Ns first_block_done_ns = 0;  // when the first block is in (zero-latency may read it last)
  Ns end_ns = 0;
  HeadState head;
};

class ZonedDisk final : public Mechanism {
 public:
  // REQUIRES: validate(params) is empty.
  explicit ZonedDisk(const ZonedDiskParams& params);

  std::int64_t blocks() const override { return layout_.blocks(); }
  Ns positioning_ns(const Request& r, Ns now) const override;
  Breakdown service(const Request& r, Ns now) override;
  MediaPoint point_of(Lbn lbn) const override;
  MediaPoint current_point() const override;

  // Pure pieces, for tests and reports.
  const ZonedDiskParams& params() const { return params_; }
  const ZonedLayout& layout() const { return layout_; }
  double revolution_ns() const { return revolution_ns_; }
  Ns seek_ns(std::int32_t distance_cylinders) const;
  // Media access of [lbn, lbn + blocks) starting at `start` with the head at
  // `head`, with nothing else going on. REQUIRES: the range is on the disk.
  MediaPass media_pass(Lbn lbn, std::int32_t blocks, Op op, Ns start, HeadState head) const;
  // How far a sequential read that starts at `from` at time `start` (head at
  // `head`) gets by `until`, stopping at `limit`: the first block not yet
  // read, and where the head is then.
  Lbn read_progress(Lbn from, Lbn limit, Ns start, HeadState head, Ns until, HeadState& at) const;

  // State, for tests.
  const DiskCache& cache() const { return cache_; }
  HeadState head() const { return head_; }
  // When the media finishes the last write-back (0 if none is pending).
  Ns media_busy_until_ns() const { return media_free_ns_; }

 private:
  struct Prefetch {
    bool active = false;
    int segment = -1;
    Lbn from = 0;  // first block it reads
    Ns start_ns = 0;
    HeadState head;
    Lbn limit = 0;  // first block it will not read
  };
  // The part of [lbn, end) on lbn's track, and the arm movement to it from `head`.
  struct TrackStep {
    Lbn last = 0;
    DiskAddress from;
    DiskAddress to;
    Ns move_ns = 0;
  };
  TrackStep track_step(Lbn lbn, Lbn end, HeadState head) const;
  // Where a read-ahead after `last_block` stops (see the header).
  Lbn read_ahead_limit(Lbn last_block, Lbn segment_first) const;
  // Brings the read-ahead's segment up to `t`; with stop, ends it there and
  // leaves the head where it got to.
  void advance_prefetch(Ns t, bool stop);
  Ns sector_start_ns(std::int32_t cylinder, std::int32_t surface, std::int32_t sector) const;
  Ns wait_for_ns(Ns t, Ns slot_start_ns) const;
  Breakdown read(const Request& r, Ns now);
  Breakdown write(const Request& r, Ns now);

  ZonedDiskParams params_;
  ZonedLayout layout_;
  double revolution_ns_;
  DiskCache cache_;
  // Mutable state.
  HeadState head_;
  Prefetch prefetch_;
  Ns media_free_ns_ = 0;  // end of the pending media write (write-back)
  Lbn dirty_end_ = -1;    // block after the last one written back
  Op last_op_ = Op::kRead;
};

}  // namespace memstore::model
