// Two devices working as one store; described in the header.
#include "sim/hybrid.h"

#include <algorithm>
#include <limits>
#include <queue>
#include <unordered_map>
#include <vector>

#include "model/disk_zoned.h"

namespace memstore::sim {
namespace {

using model::Completion;
using model::Device;
using model::Lbn;
using model::Ns;
using model::Op;
using model::Request;

constexpr Ns kNever = std::numeric_limits<Ns>::max();

class HybridRun {
 public:
  HybridRun(HybridMode mode, Device* mems, Device* disk, const WriteBufferParams& p)
      : mode_(mode), mems_(mems), disk_(disk), buffer_(p) {}

  HybridStats run(const RequestSource& next) {
    std::optional<Request> arrival = next();
    auto on_mems = [this](const Completion& c) { part_done(c); };
    auto on_disk = [this](const Completion& c) {
      disk_free_at_ = std::max(disk_free_at_, c.done_ns);
      part_done(c);
    };
    for (;;) {
      // Every step handles the earliest instant anything happens at, so each service
      // starts at the step's instant and every follow-up lies at or after it.
      Ns t = arrival ? arrival->arrival_ns : kNever;
      if (!events_.empty()) t = std::min(t, events_.top().at);
      for (Device* d : {mems_, disk_}) {
        if (d && d->next_start_ns() >= 0) t = std::min(t, d->next_start_ns());
      }
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
      if (mems_) mems_->run_until(t, on_mems);
      if (disk_) disk_->run_until(t, on_disk);
    }
    return stats_;
  }

 private:
  enum class Kind : std::uint8_t { kForeground, kCleanRead, kCleanWrite };
  struct Parent {
    Kind kind = Kind::kForeground;
    Ns arrival_ns = 0;
    bool read = false;
    int parts_left = 0;
    Ns done_ns = 0;
    std::int64_t segment = -1;
  };
  // Cleaning work due at an instant. Follow-ups found in a device's sink lie in the future
  // and must reach the devices in time order, so they wait here until the loop gets there.
  enum class Action : std::uint8_t { kReadSegment, kWriteLive, kFreeSegment };
  struct Event {
    Ns at = 0;
    std::uint64_t seq = 0;
    Action action = Action::kReadSegment;
    std::int64_t segment = -1;
    bool operator>(const Event& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };
  void schedule(Ns at, Action action, std::int64_t segment) {
    events_.push({at, seq_++, action, segment});
  }

  // Submits one part of `parent` to `device`.
  void submit(Device* device, std::uint64_t parent, Ns at, Lbn lbn, std::int32_t blocks, Op op) {
    Request r;
    r.id = next_id_++;
    r.arrival_ns = at;
    r.lbn = lbn;
    r.blocks = blocks;
    r.op = op;
    part_of_[r.id] = parent;
    ++parents_[parent].parts_left;
    device->submit(r);
  }

  std::uint64_t new_parent(const Parent& p) {
    const std::uint64_t id = next_parent_++;
    parents_[id] = p;
    return id;
  }

  void route(const Request& r) {
    const bool read = r.op == Op::kRead;
    const std::uint64_t parent = new_parent({Kind::kForeground, r.arrival_ns, read, 0, 0, -1});
    if (mode_ == HybridMode::kDiskAlone) {
      submit(disk_, parent, r.arrival_ns, r.lbn, r.blocks, r.op);
      return;
    }
    if (mode_ == HybridMode::kMemsAlone) {
      // Folded into the MEMStore's capacity, as memsim replay folds traces.
      const std::int64_t cap = mems_->blocks();
      const std::int32_t blocks = static_cast<std::int32_t>(std::min<std::int64_t>(r.blocks, cap));
      const Lbn lbn = std::min<Lbn>(r.lbn % cap, cap - blocks);
      submit(mems_, parent, r.arrival_ns, lbn, blocks, r.op);
      return;
    }
    if (read) {
      if (auto in_log = buffer_.lookup(r.lbn, r.blocks)) {
        ++stats_.buffer_read_hits;
        for (const Extent& e : *in_log) submit(mems_, parent, r.arrival_ns, e.lbn, e.blocks, r.op);
      } else {
        submit(disk_, parent, r.arrival_ns, r.lbn, r.blocks, r.op);
      }
      return;
    }
    if (auto slots = buffer_.append(r.lbn, r.blocks)) {
      for (const Extent& e : *slots) submit(mems_, parent, r.arrival_ns, e.lbn, e.blocks, r.op);
      maybe_clean(r.arrival_ns);
    } else {
      ++stats_.bypassed_writes;
      submit(disk_, parent, r.arrival_ns, r.lbn, r.blocks, r.op);
    }
  }

  void maybe_clean(Ns at) {
    if (cleaning_ || !buffer_.wants_cleaning(false)) return;
    cleaning_ = true;
    clean_next(at);
  }

  // Reads the oldest segment from the MEMStore, or stops cleaning at the low water mark.
  void clean_next(Ns at) {
    std::optional<std::int64_t> s;
    if (buffer_.wants_cleaning(true)) s = buffer_.take_oldest();
    if (!s) {
      cleaning_ = false;
      return;
    }
    schedule(at, Action::kReadSegment, *s);
  }

  void free_and_go_on(std::int64_t segment, Ns at) {
    buffer_.free_segment(segment);
    ++stats_.segments_cleaned;
    clean_next(at);
  }

  void fire(const Event& e) {
    switch (e.action) {
      case Action::kReadSegment: {
        const std::uint64_t parent = new_parent({Kind::kCleanRead, e.at, true, 0, 0, e.segment});
        const Extent seg = buffer_.segment_extent(e.segment);
        submit(mems_, parent, e.at, seg.lbn, seg.blocks, Op::kRead);
        break;
      }
      case Action::kWriteLive: {
        // The segment is in memory: its live blocks go to the disk one run at a time, each
        // only when the disk is idle, so that foreground reads never queue behind more than
        // one cleaning write.
        if (!runs_taken_) {
          runs_ = buffer_.live_runs(e.segment);
          next_run_ = 0;
          runs_taken_ = true;
        }
        if (next_run_ == runs_.size()) {
          runs_taken_ = false;
          free_and_go_on(e.segment, e.at);
          break;
        }
        if (const Ns idle = disk_idle_at(e.at); idle > e.at) {
          schedule(idle, Action::kWriteLive, e.segment);
          break;
        }
        const Extent r = runs_[next_run_++];
        const std::uint64_t parent = new_parent({Kind::kCleanWrite, e.at, false, 0, 0, e.segment});
        submit(disk_, parent, e.at, r.lbn, r.blocks, Op::kWrite);
        break;
      }
      case Action::kFreeSegment:
        free_and_go_on(e.segment, e.at);
        break;
    }
  }

  // When the disk is next idle, as far as is known at `t`: no request waiting, none in
  // service, and no write-back still going to its media. While requests wait, the answer
  // is unknown until the next of them has started: ask again then.
  Ns disk_idle_at(Ns t) const {
    if (disk_->pending() > 0) return std::max(t + 1, disk_->next_start_ns());
    Ns idle = std::max(t, disk_free_at_);
    if (const auto* zoned = dynamic_cast<const model::ZonedDisk*>(&disk_->mechanism(0))) {
      idle = std::max(idle, zoned->media_busy_until_ns());
    }
    return idle;
  }

  void part_done(const Completion& c) {
    auto part = part_of_.find(c.request.id);
    const std::uint64_t id = part->second;
    part_of_.erase(part);
    Parent& p = parents_[id];
    p.done_ns = std::max(p.done_ns, c.done_ns);
    if (--p.parts_left > 0) return;
    const Parent done = p;
    parents_.erase(id);
    stats_.last_done_ns = std::max(stats_.last_done_ns, done.done_ns);
    switch (done.kind) {
      case Kind::kForeground: {
        const double ms = static_cast<double>(done.done_ns - done.arrival_ns) / 1e6;
        ++stats_.requests;
        stats_.response_ms_sum += ms;
        if (done.read) {
          ++stats_.reads;
          stats_.read_ms_sum += ms;
        }
        break;
      }
      case Kind::kCleanRead:
        schedule(done.done_ns, Action::kWriteLive, done.segment);
        break;
      case Kind::kCleanWrite:
        schedule(done.done_ns, Action::kWriteLive, done.segment);
        break;
    }
  }

  HybridMode mode_;
  Device* mems_;
  Device* disk_;
  WriteBuffer buffer_;
  HybridStats stats_;
  bool cleaning_ = false;
  // The segment being written to the disk: its live runs, and the next one to write.
  std::vector<Extent> runs_;
  std::size_t next_run_ = 0;
  bool runs_taken_ = false;
  Ns disk_free_at_ = 0;
  std::uint64_t next_id_ = 0;
  std::uint64_t next_parent_ = 0;
  std::uint64_t seq_ = 0;
  std::unordered_map<std::uint64_t, std::uint64_t> part_of_;
  std::unordered_map<std::uint64_t, Parent> parents_;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
};

}  // namespace

HybridStats run_hybrid(HybridMode mode, model::Device* mems, model::Device* disk,
                       const WriteBufferParams& params, const RequestSource& next) {
  return HybridRun(mode, mems, disk, params).run(next);
}

}  // namespace memstore::sim
