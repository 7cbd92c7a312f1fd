// SPDX-License-Identifier: Apache-2.0
// The run of one of the paper's arrays (sim/paper_array.h), shared by paper_array_run.cc (the
// event loop, the buses, the NVRAM front end) and paper_array_backends.cc (where each
// architecture reads, destages, cleans and flushes). Private to those two files.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <queue>
#include <vector>

#include "sim/array_layout.h"
#include "sim/hybrid_run.h"
#include "sim/paper_array.h"

namespace memstore::sim {

class PaperArrayRun {
 public:
  PaperArrayRun(const PaperArrayParams& p, const std::vector<model::Device*>& mems,
                const std::vector<model::Device*>& disks);
  PaperArrayStats run(const RequestSource& next);

 private:
  enum class Kind : std::uint8_t {
    kRead,        // a foreground read
    kWrite,       // a foreground write that waits for a device (MEMScache)
    kDestage,     // NVRAM -> back-end
    kPrefetch,    // DualStripe's prefetch from disk
    kFill,        // MEMScache: a missed read's lines appended to the cache
    kCleanRead,   // LogDisk: live units of the extent being cleaned, from MEMS
    kCleanWrite,  // LogDisk: those units appended to a disk
    kFlushRead,   // MEMScache: dirty lines read from the MEMS cache
    kFlushWrite,  // MEMScache: those lines written to the disks
  };
  struct Parent {
    Kind kind = Kind::kRead;
    model::Ns arrival_ns = 0;
    int parts_left = 0;
    model::Ns done_ns = 0;
    DestageRun run;                // kFlushRead, kFlushWrite
    std::vector<DestageRun> runs;  // kDestage
    model::Lbn lbn = 0;            // kRead (MEMScache miss), kPrefetch: the range to cache
    std::int32_t blocks = 0;
    std::int32_t disk = -1;           // kCleanRead/kCleanWrite: the disk the units go to
    std::vector<std::int64_t> units;  // kCleanRead: the units read
  };
  struct Event {
    model::Ns at = 0;
    std::uint64_t seq = 0;
    std::uint64_t part = 0;  // the request id whose transfer ended
    bool operator>(const Event& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };

  // paper_array_run.cc: plumbing.
  std::uint64_t open(Kind kind, model::Ns at);
  void submit(std::uint64_t parent, model::Ns at, const Piece& piece, model::Op op);
  void submit_all(std::uint64_t parent, model::Ns at, const std::vector<Piece>& pieces,
                  model::Op op);
  void finish_if_empty(std::uint64_t parent, model::Ns at);
  bool idle(std::size_t device, model::Ns t) const;
  bool all_idle(const std::vector<Piece>& pieces, model::Ns t) const;
  void sink(std::size_t device, const model::Completion& c);
  void part_done(const Event& e);
  void parent_done(const Parent& p, model::Ns at);
  void foreground_done(model::Ns arrival, model::Ns done, bool read);
  void route(const model::Request& r);
  void write_through_nvram(const model::Request& r, model::Ns at);
  void retry_waiting_writes(model::Ns at);
  void pump(model::Ns t);
  bool background_allowed() const;
  void warm_cache();

  // paper_array_backends.cc: the architectures.
  std::vector<Piece> raid10_read(const StripeMap& side_a, std::size_t half, model::Lbn lbn,
                                 std::int32_t blocks) const;
  std::vector<Piece> mirrored(const std::vector<Piece>& side_a, std::size_t half) const;
  void read_back_end(std::uint64_t parent, const model::Request& r);
  std::vector<Piece> destage_pieces(model::Lbn lbn, std::int32_t blocks) const;
  void issue_destage(const std::vector<DestageRun>& runs, model::Ns at, bool forced);
  void append_to_log(std::uint64_t parent, model::Ns at, const std::vector<std::int64_t>& units,
                     std::int32_t disk, bool cleaning);
  std::int32_t log_disk_for(std::int64_t unit) const;
  void pump_cleaning(model::Ns t);
  void cache_read(std::uint64_t parent, const model::Request& r);
  bool cache_write(const model::Request& r, model::Ns at);  // false: no room, nothing done
  void cache_append(std::uint64_t parent, std::int64_t line, bool dirty, model::Ns at);
  Piece cache_slot_piece(std::int64_t slot, bool parity) const;
  void pump_flushes(model::Ns t);

  PaperArrayParams p_;
  std::size_t mems_count_, disk_count_;
  std::vector<model::Device*> devices_;  // the MEMS chips, then the disks
  std::vector<model::Ns> free_at_, bus_free_;
  // Layouts (device indices into devices_). RAID 1/0: side A; the mirror of device i of
  // side A is i + half.
  StripeMap disk_side_a_, mems_side_a_, disk_stripe_, mems_stripe_, disk_large_, mems_small_;
  NvramCache nvram_;
  SequentialDetector detector_;
  std::optional<ExtentLog> log_;
  std::optional<MemsCacheLog> cache_;
  std::deque<model::Request> waiting_writes_;
  std::int32_t destages_in_flight_ = 0, flushes_in_flight_ = 0;
  bool cleaning_busy_ = false;
  bool read_is_sequential_ = false;  // DualStripe: the read being routed
  bool arrivals_left_ = true;
  std::int64_t foreground_open_ = 0;
  PaperArrayStats stats_;
  std::uint64_t next_id_ = 0, seq_ = 0;
  RequestParts<Parent> parts_;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
};

}  // namespace memstore::sim
