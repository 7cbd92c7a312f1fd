// SPDX-License-Identifier: Apache-2.0
// The disk-array configurations; described in the header.
#include "sim/array.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <queue>
#include <unordered_map>

#include "model/disk_zoned.h"
#include "sim/array_cache.h"
#include "sim/array_layout.h"
#include "sim/hybrid_run.h"

namespace memstore::sim {

std::string array_kind_name(ArrayKind k) {
  switch (k) {
    case ArrayKind::kDiskOnly:
      return "disk";
    case ArrayKind::kMemsOnly:
      return "mems";
    case ArrayKind::kMirror:
      return "mirror";
    case ArrayKind::kMemsCache:
      return "cache";
    case ArrayKind::kMemsLog:
      return "log";
    case ArrayKind::kMixedStripe:
      return "stripe";
  }
  return "?";
}

std::vector<ArrayKind> all_array_kinds() {
  return {ArrayKind::kDiskOnly,  ArrayKind::kMemsOnly, ArrayKind::kMirror,
          ArrayKind::kMemsCache, ArrayKind::kMemsLog,  ArrayKind::kMixedStripe};
}

namespace {

using model::Completion;
using model::Device;
using model::Lbn;
using model::Ns;
using model::Op;
using model::Request;

std::vector<std::size_t> indices(std::size_t from, std::size_t n) {
  std::vector<std::size_t> v(n);
  std::iota(v.begin(), v.end(), from);
  return v;
}

std::int64_t total_blocks(const std::vector<Device*>& ds) {
  std::int64_t min_blocks = std::numeric_limits<std::int64_t>::max();
  for (const Device* d : ds) min_blocks = std::min(min_blocks, d->blocks());
  return ds.empty() ? 0 : min_blocks * static_cast<std::int64_t>(ds.size());
}

class ArrayRun {
 public:
  ArrayRun(ArrayKind kind, const ArrayParams& p, const std::vector<Device*>& mems,
           const std::vector<Device*>& disks)
      : kind_(kind),
        p_(p),
        mems_count_(mems.size()),
        disk_map_(p.stripe_blocks, indices(mems.size(), disks.size())),
        mems_map_(p.stripe_blocks, indices(0, mems.size())),
        mixed_map_(mixed(p, mems, disks)),
        cache_(cache_slots(p, mems)),
        log_(p.log) {
    devices_ = mems;
    devices_.insert(devices_.end(), disks.begin(), disks.end());
    free_at_.assign(devices_.size(), 0);
  }

  ArrayStats run(const RequestSource& next) {
    if (kind_ == ArrayKind::kMemsCache && p_.warmup) warm_cache();
    std::optional<Request> arrival = next();
    std::vector<Device::Sink> sinks;
    for (std::size_t i = 0; i < devices_.size(); ++i) {
      sinks.push_back([this, i](const Completion& c) {
        free_at_[i] = std::max(free_at_[i], c.done_ns);
        part_done(c);
      });
    }
    for (;;) {
      // Every step handles the earliest instant anything happens at, so each service starts
      // at the step's instant and every follow-up lies at or after it. Follow-ups found in
      // a device's sink lie in the future and must reach the devices in time order, so they
      // wait in events_ until the loop gets there.
      const Ns t = next_instant(arrival, events_, devices_);
      if (t == kNever) break;
      while (arrival && arrival->arrival_ns == t) {
        route(*arrival);
        arrival = next();
      }
      while (!events_.empty() && events_.top().at == t) {
        const Event e = events_.top();
        events_.pop();
        fire(e);
      }
      for (std::size_t i = 0; i < devices_.size(); ++i) devices_[i]->run_until(t, sinks[i]);
    }
    return stats_;
  }

 private:
  // The mixed stripe: every device while the MEMStores have room, then the disks alone.
  static StripeMap mixed(const ArrayParams& p, const std::vector<Device*>& mems,
                         const std::vector<Device*>& disks) {
    std::int64_t rows = 0;
    if (!mems.empty()) {
      std::int64_t smallest = std::numeric_limits<std::int64_t>::max();
      for (const Device* d : mems) smallest = std::min(smallest, d->blocks());
      rows = smallest / p.stripe_blocks;
    }
    const std::size_t all = mems.size() + disks.size();
    if (disks.empty()) return StripeMap(p.stripe_blocks, indices(0, all));
    return StripeMap(p.stripe_blocks, indices(0, all), rows, indices(mems.size(), disks.size()));
  }
  static std::int64_t cache_slots(const ArrayParams& p, const std::vector<Device*>& mems) {
    return std::max<std::int64_t>(1, total_blocks(mems) / p.line_blocks);
  }

  enum class Kind : std::uint8_t { kForeground, kFill, kDestage, kCleanRead, kCleanWrite };
  struct Parent {
    Kind kind = Kind::kForeground;
    Ns arrival_ns = 0;
    bool read = false;
    int parts_left = 0;
    bool any_disk = false;
    Ns done_ns = 0;
    std::int64_t segment = -1;
    Lbn lbn = 0;  // a missed read, to fill its lines afterwards
    std::int32_t blocks = 0;
  };
  enum class Action : std::uint8_t { kFillLines, kReadSegment, kWriteLive };
  struct Event {
    Ns at = 0;
    std::uint64_t seq = 0;
    Action action = Action::kReadSegment;
    std::int64_t segment = -1;
    Lbn lbn = 0;
    std::int32_t blocks = 0;
    bool operator>(const Event& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };
  void schedule(Event e) {
    e.seq = seq_++;
    events_.push(e);
  }

  bool is_mems(std::size_t device) const { return device < mems_count_; }

  std::uint64_t new_parent(Kind kind, Ns at, bool read) {
    Parent p;
    p.kind = kind;
    p.arrival_ns = at;
    p.read = read;
    return parts_.open(p);
  }

  void submit(std::uint64_t parent, Ns at, const Piece& piece, Op op) {
    const Request r = piece_request(next_id_++, at, piece, op);
    Parent& p = parts_.add_part(parent, r.id);
    const bool mems = is_mems(piece.device);
    p.any_disk = p.any_disk || !mems;
    if (p.kind == Kind::kForeground) {
      const bool read = op == Op::kRead;
      ++(mems ? (read ? stats_.mems_read_parts : stats_.mems_write_parts)
              : (read ? stats_.disk_read_parts : stats_.disk_write_parts));
    }
    devices_[piece.device]->submit(r);
  }
  void submit_all(std::uint64_t parent, Ns at, const std::vector<Piece>& pieces, Op op) {
    for (const Piece& piece : pieces) submit(parent, at, piece, op);
  }

  // MEMS extents of cache slots: slot s of the cache lies on MEMStore s mod M, row s / M.
  Piece slot_piece(std::int64_t slot, std::int32_t offset, std::int32_t blocks) const {
    const auto m = static_cast<std::int64_t>(mems_count_);
    return {static_cast<std::size_t>(slot % m), (slot / m) * p_.line_blocks + offset, blocks};
  }

  void route(const Request& r) {
    const bool read = r.op == Op::kRead;
    const std::uint64_t parent = new_parent(Kind::kForeground, r.arrival_ns, read);
    switch (kind_) {
      case ArrayKind::kDiskOnly:
        submit_all(parent, r.arrival_ns, disk_map_.pieces(r.lbn, r.blocks), r.op);
        return;
      case ArrayKind::kMemsOnly:
        submit_all(parent, r.arrival_ns, mems_map_.pieces(r.lbn, r.blocks), r.op);
        return;
      case ArrayKind::kMixedStripe:
        submit_all(parent, r.arrival_ns, mixed_map_.pieces(r.lbn, r.blocks), r.op);
        return;
      case ArrayKind::kMirror:
        // The MEMS/disk mirror as issue 19 summarises the paper: reads from the MEMS side.
        submit_all(parent, r.arrival_ns, mems_map_.pieces(r.lbn, r.blocks), r.op);
        if (!read) submit_all(parent, r.arrival_ns, disk_map_.pieces(r.lbn, r.blocks), r.op);
        return;
      case ArrayKind::kMemsCache:
        route_cached(parent, r);
        return;
      case ArrayKind::kMemsLog:
        route_logged(parent, r);
        return;
    }
  }

  void warm_cache() {
    while (std::optional<Request> r = p_.warmup()) {
      for_lines(r->lbn, r->blocks, [&](std::int64_t line, std::int32_t, std::int32_t) {
        cache_.insert(line, r->op == Op::kWrite);
      });
    }
  }

  // Each line the request touches, with the blocks of the request in it.
  template <typename F>
  void for_lines(Lbn lbn, std::int32_t blocks, F f) const {
    const Lbn end = lbn + blocks;
    for (Lbn at = lbn; at < end;) {
      const std::int64_t line = at / p_.line_blocks;
      const auto offset = static_cast<std::int32_t>(at % p_.line_blocks);
      const auto take = static_cast<std::int32_t>(
          std::min<Lbn>(end - at, static_cast<Lbn>(p_.line_blocks - offset)));
      f(line, offset, take);
      at += take;
    }
  }

  void route_cached(std::uint64_t parent, const Request& r) {
    const Ns at = r.arrival_ns;
    if (r.op == Op::kRead) {
      bool all = true;
      for_lines(r.lbn, r.blocks, [&](std::int64_t line, std::int32_t, std::int32_t) {
        all = all && cache_.contains(line);
      });
      if (all) {
        ++stats_.cache_hits;
        for_lines(r.lbn, r.blocks, [&](std::int64_t line, std::int32_t off, std::int32_t n) {
          submit(parent, at, slot_piece(*cache_.touch(line), off, n), Op::kRead);
        });
        return;
      }
      // A miss reads whole lines, so that they can be cached afterwards.
      ++stats_.cache_misses;
      const Lbn first = r.lbn / p_.line_blocks * p_.line_blocks;
      const Lbn end =
          std::min<Lbn>((r.lbn + r.blocks + p_.line_blocks - 1) / p_.line_blocks * p_.line_blocks,
                        p_.volume_blocks);
      Parent& p = parts_[parent];
      p.lbn = first;
      p.blocks = static_cast<std::int32_t>(end - first);
      submit_all(parent, at, disk_map_.pieces(first, p.blocks), Op::kRead);
      return;
    }
    // Write-back, write-allocate: the write completes on the MEMStore. memsim keeps no data,
    // so a write of part of a line simply takes the line.
    for_lines(r.lbn, r.blocks, [&](std::int64_t line, std::int32_t off, std::int32_t n) {
      const LineCache::Inserted in = cache_.insert(line, true);
      if (in.evicted_dirty) destage(*in.evicted_dirty, at);
      submit(parent, at, slot_piece(in.slot, off, n), Op::kWrite);
    });
  }

  void destage(std::int64_t line, Ns at) {
    ++stats_.cache_destages;
    const std::uint64_t parent = new_parent(Kind::kDestage, at, false);
    const Lbn lbn = line * p_.line_blocks;
    const auto blocks =
        static_cast<std::int32_t>(std::min<Lbn>(p_.line_blocks, p_.volume_blocks - lbn));
    submit_all(parent, at, disk_map_.pieces(lbn, blocks), Op::kWrite);
  }

  bool mems_backlog() const {
    for (std::size_t i = 0; i < mems_count_; ++i) {
      if (devices_[i]->pending() > 0) return true;
    }
    return false;
  }

  void fill_lines(Lbn lbn, std::int32_t blocks, Ns at) {
    for_lines(lbn, blocks, [&](std::int64_t line, std::int32_t, std::int32_t) {
      if (cache_.contains(line)) return;  // written meanwhile: the cached copy is newer
      if (mems_backlog()) {
        // Admission control: nothing new while the cache's MEMStores are behind.
        ++stats_.cache_fills_skipped;
        return;
      }
      const LineCache::Inserted in = cache_.insert(line, false);
      if (in.evicted_dirty) destage(*in.evicted_dirty, at);
      ++stats_.cache_fills;
      const std::uint64_t parent = new_parent(Kind::kFill, at, false);
      submit(parent, at, slot_piece(in.slot, 0, p_.line_blocks), Op::kWrite);
    });
  }

  void route_logged(std::uint64_t parent, const Request& r) {
    const Ns at = r.arrival_ns;
    if (r.op == Op::kRead) {
      // Each sector from where its latest copy is: the log or the disks.
      const std::vector<ReadSource> sources = log_.resolve(r.lbn, r.blocks);
      bool all_logged = true;
      for (const ReadSource& s : sources) {
        all_logged = all_logged && s.in_buffer;
        if (s.in_buffer) {
          submit(parent, at, {0, s.lbn, s.blocks}, Op::kRead);
        } else {
          submit_all(parent, at, disk_map_.pieces(s.lbn, s.blocks), Op::kRead);
        }
      }
      if (all_logged) ++stats_.log_read_hits;
      return;
    }
    if (auto slots = log_.append(r.lbn, r.blocks)) {
      for (const Extent& e : *slots) submit(parent, at, {0, e.lbn, e.blocks}, Op::kWrite);
      if (!cleaning_ && log_.wants_cleaning(false)) {
        cleaning_ = true;
        clean_next(at);
      }
    } else {
      ++stats_.log_bypassed_writes;
      log_.discard(r.lbn, r.blocks);  // the disks' copy is the latest now
      submit_all(parent, at, disk_map_.pieces(r.lbn, r.blocks), Op::kWrite);
    }
  }

  // The log's background cleaner (docs/disk-models.md, "Disk arrays"), with the disks
  // striped: reads the oldest segment from the MEMStore, writes its live runs to the
  // disks one run at a time, each only when its disks are idle (a first version that wrote a
  // whole segment at once made reads queue behind it), frees the segment, and goes on to the
  // low water mark.
  void clean_next(Ns at) {
    std::optional<std::int64_t> s;
    if (log_.wants_cleaning(true)) s = log_.take_oldest();
    if (!s) {
      cleaning_ = false;
      return;
    }
    Event e;
    e.at = at;
    e.action = Action::kReadSegment;
    e.segment = *s;
    schedule(e);
  }

  void fire(const Event& e) {
    switch (e.action) {
      case Action::kFillLines:
        fill_lines(e.lbn, e.blocks, e.at);
        break;
      case Action::kReadSegment: {
        const std::uint64_t parent = new_parent(Kind::kCleanRead, e.at, true);
        parts_[parent].segment = e.segment;
        const Extent seg = log_.segment_extent(e.segment);
        submit(parent, e.at, {0, seg.lbn, seg.blocks}, Op::kRead);
        break;
      }
      case Action::kWriteLive:
        write_live(e);
        break;
    }
  }

  void write_live(const Event& e) {
    if (!runs_taken_) {
      runs_ = log_.live_runs(e.segment);
      next_run_ = 0;
      runs_taken_ = true;
    }
    if (next_run_ == runs_.size()) {
      runs_taken_ = false;
      log_.free_segment(e.segment);
      ++stats_.log_segments_cleaned;
      clean_next(e.at);
      return;
    }
    const Extent run = runs_[next_run_];
    const std::vector<Piece> pieces = disk_map_.pieces(run.lbn, run.blocks);
    Ns idle = e.at;
    for (const Piece& piece : pieces) idle = std::max(idle, idle_at(piece.device, e.at));
    if (idle > e.at) {
      Event again = e;
      again.at = idle;
      schedule(again);
      return;
    }
    ++next_run_;
    const std::uint64_t parent = new_parent(Kind::kCleanWrite, e.at, false);
    parts_[parent].segment = e.segment;
    submit_all(parent, e.at, pieces, Op::kWrite);
  }

  // When a device is next idle, as far as is known at `t`: no request waiting, none in
  // service, and no write-back still going to its media. While requests wait, the answer is
  // unknown until the next of them has started: ask again then.
  Ns idle_at(std::size_t device, Ns t) const {
    const Device* d = devices_[device];
    if (d->pending() > 0) return std::max(t + 1, d->next_start_ns());
    Ns idle = std::max(t, free_at_[device]);
    if (const auto* zoned = dynamic_cast<const model::ZonedDisk*>(&d->mechanism(0))) {
      idle = std::max(idle, zoned->media_busy_until_ns());
    }
    return idle;
  }

  void part_done(const Completion& c) {
    const std::optional<Parent> finished = parts_.part_done(c.request.id, c.done_ns);
    if (!finished) return;
    const Parent& done = *finished;
    stats_.last_done_ns = std::max(stats_.last_done_ns, done.done_ns);
    switch (done.kind) {
      case Kind::kForeground: {
        const double ms = static_cast<double>(done.done_ns - done.arrival_ns) / 1e6;
        ++stats_.requests;
        stats_.response_ms_sum += ms;
        if (done.read) {
          ++stats_.reads;
          stats_.read_ms_sum += ms;
          if (!done.any_disk) ++stats_.reads_served_by_mems;
          if (kind_ == ArrayKind::kMemsCache && done.blocks > 0) {
            Event e;
            e.at = done.done_ns;
            e.action = Action::kFillLines;
            e.lbn = done.lbn;
            e.blocks = done.blocks;
            schedule(e);
          }
        }
        break;
      }
      case Kind::kCleanRead:
      case Kind::kCleanWrite: {
        Event e;
        e.at = done.done_ns;
        e.action = Action::kWriteLive;
        e.segment = done.segment;
        schedule(e);
        break;
      }
      case Kind::kFill:
      case Kind::kDestage:
        break;
    }
  }

  ArrayKind kind_;
  ArrayParams p_;
  std::size_t mems_count_;
  std::vector<Device*> devices_;  // the MEMStores, then the disks
  std::vector<Ns> free_at_;
  StripeMap disk_map_, mems_map_, mixed_map_;
  LineCache cache_;
  WriteBuffer log_;
  bool cleaning_ = false;
  std::vector<Extent> runs_;
  std::size_t next_run_ = 0;
  bool runs_taken_ = false;
  ArrayStats stats_;
  std::uint64_t next_id_ = 0, seq_ = 0;
  RequestParts<Parent> parts_;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
};

// What the configuration needs of the devices, if they will not do.
Status check(ArrayKind kind, const ArrayParams& p, const std::vector<Device*>& mems,
             const std::vector<Device*>& disks) {
  const bool needs_mems = kind != ArrayKind::kDiskOnly;
  const bool needs_disks = kind != ArrayKind::kMemsOnly;
  if (p.volume_blocks <= 0 || p.stripe_blocks <= 0 || p.line_blocks <= 0)
    return Error("the volume, stripe unit and cache line must be positive");
  if (needs_mems && mems.empty())
    return Error(array_kind_name(kind) + " needs at least one MEMStore");
  if (needs_disks && disks.empty())
    return Error(array_kind_name(kind) + " needs at least one disk");
  // Striped capacity counts whole stripe rows on the smallest device.
  auto striped = [&](const std::vector<Device*>& ds) {
    return total_blocks(ds) / static_cast<std::int64_t>(ds.size()) / p.stripe_blocks *
           p.stripe_blocks * static_cast<std::int64_t>(ds.size());
  };
  if (needs_disks && striped(disks) < p.volume_blocks)
    return Error("the disks hold less than the volume");
  if ((kind == ArrayKind::kMemsOnly || kind == ArrayKind::kMirror) &&
      striped(mems) < p.volume_blocks)
    return Error("the MEMStores hold less than the volume");
  if (kind == ArrayKind::kMemsLog && p.log.segments * kSegmentBlocks > mems[0]->blocks())
    return Error("the log does not fit on the first MEMStore");
  return {};
}

}  // namespace

Expected<ArrayStats> run_array(ArrayKind kind, const ArrayParams& params,
                               const std::vector<model::Device*>& mems,
                               const std::vector<model::Device*>& disks,
                               const RequestSource& next) {
  if (const Status s = check(kind, params, mems, disks); !s.ok()) return s.error();
  const std::vector<model::Device*> none;
  const bool uses_mems = kind != ArrayKind::kDiskOnly;
  const bool uses_disks = kind != ArrayKind::kMemsOnly;
  return ArrayRun(kind, params, uses_mems ? mems : none, uses_disks ? disks : none).run(next);
}

}  // namespace memstore::sim
