// SPDX-License-Identifier: Apache-2.0
// The MEMS write buffer driver; described in the header.
#include "sim/wbuffer_driver.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <queue>
#include <unordered_map>
#include <vector>

#include "sim/hybrid_run.h"

namespace memstore::sim {
namespace {

using model::Completion;
using model::Device;
using model::Lbn;
using model::Ns;
using model::Op;
using model::Request;

constexpr std::size_t kMems = 0, kDisk = 1;

class WbufferRun {
 public:
  WbufferRun(Device& mems, Device& disk, const WriteBufferParams& p)
      : devices_{&mems, &disk}, log_(p) {}

  WbufferStats run(const RequestSource& next) {
    std::optional<Request> arrival = next();
    std::vector<Device::Sink> sinks;
    for (std::size_t i = 0; i < 2; ++i) {
      sinks.push_back([this](const Completion& c) { part_done(c); });
    }
    for (;;) {
      // Each step handles the earliest instant anything happens at; follow-ups of a
      // completion wait in events_ until then, so requests reach the devices in time order.
      const Ns t = next_instant(arrival, events_, devices_);
      if (t == kNever) break;
      while (arrival && arrival->arrival_ns == t) {
        admit(new_parent(Kind::kHost, t, arrival->op == Op::kRead), *arrival, t);
        arrival = next();
      }
      while (!events_.empty() && events_.top().at == t) {
        const Event e = events_.top();
        events_.pop();
        if (e.write_back) {
          write_back(e.at);
        } else {
          end_pass(e.at);
        }
      }
      for (std::size_t i = 0; i < 2; ++i) devices_[i]->run_until(t, sinks[i]);
    }
    return stats_;
  }

 private:
  enum class Kind : std::uint8_t { kHost, kCleanRead, kCleanWrite };
  struct Parent {
    Kind kind = Kind::kHost;
    Ns arrival_ns = 0;
    bool read = false;
    bool waited = false;
    int parts_left = 0;
    Ns done_ns = 0;
  };
  struct Waiting {
    std::uint64_t parent = 0;
    Request r;
  };
  struct Event {
    Ns at = 0;
    std::uint64_t seq = 0;
    bool write_back = false;  // else: the pass's disk writes are done
    bool operator>(const Event& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };

  std::uint64_t new_parent(Kind kind, Ns at, bool read) {
    return parts_.open(Parent{kind, at, read, false, 0, 0});
  }

  void submit(std::uint64_t parent, Ns at, std::size_t device, Lbn lbn, std::int32_t blocks,
              Op op) {
    Request r;
    r.id = next_id_++;
    r.arrival_ns = at;
    r.lbn = lbn;
    // A write widened to 1 KB may reach past a device's odd last sector.
    r.blocks = static_cast<std::int32_t>(std::min<Lbn>(blocks, devices_[device]->blocks() - lbn));
    r.op = op;
    parts_.add_part(parent, r.id);
    ++(device == kMems ? stats_.mems_requests : stats_.disk_requests);
    devices_[device]->submit(r);
  }

  bool overlaps_waiting_write(const Request& r) const {
    return std::any_of(suspended_.begin(), suspended_.end(), [&](const Waiting& w) {
      return w.r.op == Op::kWrite && w.r.lbn < r.lbn + r.blocks + kFragmentBlocks &&
             r.lbn < w.r.lbn + w.r.blocks + kFragmentBlocks;
    });
  }

  void wait(std::uint64_t parent, const Request& r) {
    parts_[parent].waited = true;
    suspended_.push_back({parent, r});
  }

  // A host request, on arrival or when cleaning lets it go on.
  void admit(std::uint64_t parent, const Request& r, Ns now) {
    const bool read = r.op == Op::kRead;
    if (cleaning_) {
      if (!read || log_.holds_any(r.lbn, r.blocks) || overlaps_waiting_write(r)) {
        wait(parent, r);
      } else {
        submit(parent, now, kDisk, r.lbn, r.blocks, Op::kRead);
      }
      return;
    }
    if (read) {
      // §3, Data Lookup Table: each piece from where its latest copy is.
      bool any_log = false, any_disk = false;
      for (const ReadSource& s : log_.resolve(r.lbn, r.blocks)) {
        (s.in_buffer ? any_log : any_disk) = true;
        submit(parent, now, s.in_buffer ? kMems : kDisk, s.lbn, s.blocks, Op::kRead);
      }
      if (any_log) ++(any_disk ? stats_.partial_read_hits : stats_.read_hits);
      return;
    }
    // §3, Cache Management: beyond the high water mark the write is suspended and the
    // cache cleaned down to the low one.
    const bool cleanable = log_.take_oldest().has_value();  // a sealed segment to clean
    if (cleanable && (log_.above_high() || (!log_.fits(r.lbn, r.blocks) && log_.above_low()))) {
      wait(parent, r);
      cleaning_ = true;
      start_pass(now);
      return;
    }
    if (auto extents = log_.append(r.lbn, r.blocks)) {
      for (const Extent& e : *extents) submit(parent, now, kMems, e.lbn, e.blocks, Op::kWrite);
      return;
    }
    ++stats_.bypassed_writes;
    log_.discard(r.lbn, r.blocks);
    submit(parent, now, kDisk, r.lbn, r.blocks, Op::kWrite);
  }

  // §3, Main Memory Buffer and Cache Cleaning: the oldest segments into the clean buffer
  // in one sequential read.
  void start_pass(Ns now) {
    cleaning_set_.clear();
    if (log_.above_low()) cleaning_set_ = log_.next_to_clean();
    if (cleaning_set_.empty()) {
      finish_cleaning(now);
      return;
    }
    ++stats_.clean_passes;
    const std::uint64_t parent = new_parent(Kind::kCleanRead, now, true);
    for (const Extent& e : log_.read_extents(cleaning_set_)) {
      submit(parent, now, kMems, e.lbn, e.blocks, Op::kRead);
    }
  }

  // The valid blocks of the clean buffer, combined, to the disk.
  void write_back(Ns now) {
    const std::vector<Extent> runs = log_.live_runs(cleaning_set_);
    if (runs.empty()) {
      end_pass(now);
      return;
    }
    const std::uint64_t parent = new_parent(Kind::kCleanWrite, now, false);
    for (const Extent& e : runs) submit(parent, now, kDisk, e.lbn, e.blocks, Op::kWrite);
    stats_.cleaner_disk_writes += static_cast<std::int64_t>(runs.size());
  }

  // The disk has the data: update the data structures, then go on or stop.
  void end_pass(Ns now) {
    log_.free_segments(cleaning_set_);
    stats_.segments_cleaned += static_cast<std::int64_t>(cleaning_set_.size());
    start_pass(now);
  }

  void finish_cleaning(Ns now) {
    cleaning_ = false;
    std::deque<Waiting> waiting;
    waiting.swap(suspended_);
    // In arrival order; a write that fills the cache again starts cleaning again, and the
    // rest wait once more behind it.
    for (const Waiting& w : waiting) admit(w.parent, w.r, now);
  }

  void schedule(Ns at, bool write_back) { events_.push(Event{at, seq_++, write_back}); }

  void part_done(const Completion& c) {
    const std::optional<Parent> finished = parts_.part_done(c.request.id, c.done_ns);
    if (!finished) return;
    const Parent& done = *finished;
    stats_.last_done_ns = std::max(stats_.last_done_ns, done.done_ns);
    switch (done.kind) {
      case Kind::kHost: {
        const double ms = static_cast<double>(done.done_ns - done.arrival_ns) / 1e6;
        ++stats_.requests;
        stats_.response_ms_sum += ms;
        if (done.waited) ++stats_.waited;
        if (done.read) {
          ++stats_.reads;
          stats_.read_ms_sum += ms;
        }
        break;
      }
      case Kind::kCleanRead:
        schedule(done.done_ns, true);
        break;
      case Kind::kCleanWrite:
        schedule(done.done_ns, false);
        break;
    }
  }

  std::vector<Device*> devices_;
  WriteBuffer log_;
  bool cleaning_ = false;
  std::vector<std::int64_t> cleaning_set_;
  std::deque<Waiting> suspended_;
  WbufferStats stats_;
  std::uint64_t next_id_ = 0, seq_ = 0;
  RequestParts<Parent> parts_;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
};

}  // namespace

WbufferStats run_write_buffer(Device& mems, Device& disk, const WriteBufferParams& params,
                              const RequestSource& next) {
  return WbufferRun(mems, disk, params).run(next);
}

}  // namespace memstore::sim
