// SPDX-License-Identifier: Apache-2.0
// The paper's arrays: the event loop, the back-end buses and the NVRAM front end.
#include "sim/paper_array_run.h"

#include <algorithm>
#include <numeric>

#include "sim/rng.h"

namespace memstore::sim {

using model::Lbn;
using model::Ns;
using model::Op;
using model::Request;

namespace {

std::vector<std::size_t> indices(std::size_t from, std::size_t n) {
  std::vector<std::size_t> v(std::max<std::size_t>(n, 1));
  std::iota(v.begin(), v.end(), from);
  return v;
}

NvramParams nvram_or_dummy(const PaperArrayParams& p) {
  // MEMScache has no NVRAM (§3.5); a one-line cache keeps the member valid and unused.
  if (p.arch != PaperArch::kMemsCache) return p.nvram;
  NvramParams n = p.nvram;
  n.capacity_blocks = n.line_blocks;
  return n;
}

}  // namespace

PaperArrayRun::PaperArrayRun(const PaperArrayParams& p, const std::vector<model::Device*>& mems,
                             const std::vector<model::Device*>& disks)
    : p_(p),
      mems_count_(mems.size()),
      disk_count_(disks.size()),
      disk_side_a_(p.stripe_blocks, indices(mems.size(), disks.size() / 2)),
      mems_side_a_(p.stripe_blocks, indices(0, mems.size() / 2)),
      disk_stripe_(p.stripe_blocks, indices(mems.size(), disks.size())),
      mems_stripe_(p.stripe_blocks, indices(0, mems.size())),
      disk_large_(p.large_stripe_blocks, indices(mems.size(), disks.size())),
      mems_small_(p.small_stripe_blocks, indices(0, mems.size())),
      nvram_(nvram_or_dummy(p)),
      detector_(p.sequentiality) {
  devices_ = mems;
  devices_.insert(devices_.end(), disks.begin(), disks.end());
  free_at_.assign(devices_.size(), 0);
  bus_free_.assign(static_cast<std::size_t>(std::max(p.buses, 1)), 0);
  if (p.arch == PaperArch::kLogDisk) {
    ExtentLogParams lp;
    lp.disks = static_cast<std::int32_t>(disks.size());
    lp.extent_units = p.extent_units;
    lp.unit_blocks = p.nvram.line_blocks;
    std::int64_t smallest = disks.front()->blocks();
    for (const model::Device* d : disks) smallest = std::min(smallest, d->blocks());
    lp.extents_per_disk = smallest / (std::int64_t{p.extent_units} * lp.unit_blocks);
    lp.volume_units = (p.volume_blocks + lp.unit_blocks - 1) / lp.unit_blocks;
    log_.emplace(lp);
  }
  if (p.arch == PaperArch::kMemsCache) cache_.emplace(p.mems_cache);
}

std::uint64_t PaperArrayRun::open(Kind kind, Ns at) {
  Parent p;
  p.kind = kind;
  p.arrival_ns = at;
  return parts_.open(p);
}

void PaperArrayRun::submit(std::uint64_t parent, Ns at, const Piece& piece, Op op) {
  const Request r = piece_request(next_id_++, at, piece, op);
  const Parent& p = parts_.add_part(parent, r.id);
  if (p.kind == Kind::kRead) ++(piece.device < mems_count_ ? stats_.mems_reads : stats_.disk_reads);
  devices_[piece.device]->submit(r);
}

void PaperArrayRun::submit_all(std::uint64_t parent, Ns at, const std::vector<Piece>& pieces,
                               Op op) {
  for (const Piece& piece : pieces) submit(parent, at, piece, op);
}

// A parent that got no part (nothing to do) completes at once.
void PaperArrayRun::finish_if_empty(std::uint64_t parent, Ns at) {
  if (parts_[parent].parts_left > 0) return;
  const std::uint64_t part = next_id_++;
  parts_.add_part(parent, part);
  if (std::optional<Parent> done = parts_.part_done(part, at)) parent_done(*done, at);
}

bool PaperArrayRun::idle(std::size_t device, Ns t) const {
  return devices_[device]->pending() == 0 && free_at_[device] <= t;
}

bool PaperArrayRun::all_idle(const std::vector<Piece>& pieces, Ns t) const {
  return std::all_of(pieces.begin(), pieces.end(),
                     [&](const Piece& piece) { return idle(piece.device, t); });
}

// §4.1's back-end buses: a part's data crosses its device's bus once the device is done.
void PaperArrayRun::sink(std::size_t device, const model::Completion& c) {
  free_at_[device] = std::max(free_at_[device], c.done_ns);
  Ns done = c.done_ns;
  if (p_.buses > 0) {
    Ns& bus = bus_free_[device % bus_free_.size()];
    const double bytes = static_cast<double>(c.request.blocks) * 512;
    done = std::max(done, bus) + static_cast<Ns>(bytes / p_.bus_bytes_per_s * 1e9);
    bus = done;
  }
  Event e;
  e.at = done;
  e.seq = seq_++;
  e.part = c.request.id;
  events_.push(e);
}

void PaperArrayRun::part_done(const Event& e) {
  if (std::optional<Parent> done = parts_.part_done(e.part, e.at)) parent_done(*done, e.at);
}

void PaperArrayRun::foreground_done(Ns arrival, Ns done, bool read) {
  const double ms = static_cast<double>(done - arrival) / 1e6;
  ++stats_.requests;
  stats_.response_ms_sum += ms;
  if (read) {
    ++stats_.reads;
    stats_.read_ms_sum += ms;
  }
  stats_.last_done_ns = std::max(stats_.last_done_ns, done);
  --foreground_open_;
}

void PaperArrayRun::route(const Request& r) {
  if (stats_.first_arrival_ns < 0) stats_.first_arrival_ns = r.arrival_ns;
  ++foreground_open_;
  const Ns at = r.arrival_ns;
  if (p_.arch == PaperArch::kMemsCache) {
    if (r.op == Op::kRead) {
      cache_read(open(Kind::kRead, at), r);
    } else if (!waiting_writes_.empty() || !cache_write(r, at)) {
      ++stats_.writes_waited;
      waiting_writes_.push_back(r);
    }
    return;
  }
  if (r.op == Op::kRead) {
    // §3.4: DualStripe records every read request, cached or not.
    read_is_sequential_ = p_.arch == PaperArch::kDualStripe && detector_.read(r.lbn, r.blocks);
    if (read_is_sequential_) ++stats_.sequential_reads;
    // §3: reads of cached data are served by the NVRAM, in no time at all (memsim's choice:
    // the controller and the host's side of the array cost nothing).
    if (nvram_.read_hit(r.lbn, r.blocks)) {
      ++stats_.read_hits;
      foreground_done(at, at, true);
      return;
    }
    const std::uint64_t parent = open(Kind::kRead, at);
    Parent& p = parts_[parent];
    p.lbn = r.lbn;
    p.blocks = r.blocks;
    read_back_end(parent, r);
    return;
  }
  if (!waiting_writes_.empty() || !nvram_.can_write(r.lbn, r.blocks)) {
    ++stats_.writes_waited;  // no room: it waits for a destage, in arrival order
    waiting_writes_.push_back(r);
    return;
  }
  write_through_nvram(r, at);
}

// §3: write-behind, the write completes once its data is in the (mirrored) NVRAM.
void PaperArrayRun::write_through_nvram(const Request& r, Ns at) {
  nvram_.write(r.lbn, r.blocks);
  foreground_done(r.arrival_ns, at, false);
}

void PaperArrayRun::retry_waiting_writes(Ns at) {
  while (!waiting_writes_.empty()) {
    const Request r = waiting_writes_.front();
    if (p_.arch == PaperArch::kMemsCache) {
      if (!cache_write(r, at)) return;
    } else {
      if (!nvram_.can_write(r.lbn, r.blocks)) return;
      write_through_nvram(r, at);
    }
    waiting_writes_.pop_front();
  }
}

bool PaperArrayRun::background_allowed() const {
  return arrivals_left_ || foreground_open_ > 0;
}

void PaperArrayRun::pump(Ns t) {
  if (p_.arch == PaperArch::kMemsCache) {
    pump_flushes(t);
    return;
  }
  // §3, §3.4: destage "when the devices are idle, or when forced because the cache's
  // high-water mark is reached". Runs in ascending order; stop at the first that may not go.
  while (std::optional<DestageRun> run = nvram_.peek_destage()) {
    const bool forced = nvram_.over_high_water() && destages_in_flight_ < p_.forced_destages;
    const Lbn lbn = run->first_line * p_.nvram.line_blocks;
    const auto blocks = static_cast<std::int32_t>(
        std::min<Lbn>(std::int64_t{run->lines} * p_.nvram.line_blocks, p_.volume_blocks - lbn));
    const bool idle_now = background_allowed() && all_idle(destage_pieces(lbn, blocks), t);
    if (!forced && !idle_now) break;
    std::vector<DestageRun> runs{*nvram_.next_destage()};
    if (p_.arch == PaperArch::kLogDisk) {
      while (static_cast<std::int32_t>(runs.size()) < p_.log_destage_runs && nvram_.peek_destage())
        runs.push_back(*nvram_.next_destage());
    }
    issue_destage(runs, t, forced && !idle_now);
  }
  if (p_.arch == PaperArch::kLogDisk && background_allowed()) pump_cleaning(t);
}

void PaperArrayRun::warm_cache() {
  Rng rng(p_.warm_seed);
  const bool mems_cache = p_.arch == PaperArch::kMemsCache;
  const std::int32_t lb = mems_cache ? p_.mems_cache.line_blocks : p_.nvram.line_blocks;
  const auto lines = static_cast<std::uint64_t>(p_.volume_blocks / lb);
  const double capacity = mems_cache ? static_cast<double>(p_.mems_cache.slots)
                                     : static_cast<double>(nvram_.capacity_lines());
  const auto target = static_cast<std::int64_t>(p_.warm_dirty_fraction * capacity);
  for (std::int64_t tries = 0; tries < 4 * target + 16; ++tries) {
    const std::int64_t dirty = mems_cache ? cache_->dirty_lines() : nvram_.dirty_lines();
    if (dirty >= target || lines == 0) break;
    const auto line = static_cast<std::int64_t>(rng.uniform_below(lines));
    if (mems_cache) {
      cache_->append(line, true);
    } else {
      nvram_.write(line * lb, lb);
    }
  }
}

PaperArrayStats PaperArrayRun::run(const RequestSource& next) {
  if (p_.warm_dirty_fraction > 0) warm_cache();
  std::optional<Request> arrival = next();
  arrivals_left_ = arrival.has_value();
  std::vector<model::Device::Sink> sinks;
  for (std::size_t i = 0; i < devices_.size(); ++i) {
    sinks.push_back([this, i](const model::Completion& c) { sink(i, c); });
  }
  for (;;) {
    const Ns t = next_instant(arrival, events_, devices_);
    if (t == kNever) break;
    while (arrival && arrival->arrival_ns == t) {
      route(*arrival);
      arrival = next();
    }
    arrivals_left_ = arrival.has_value();
    while (!events_.empty() && events_.top().at == t) {
      const Event e = events_.top();
      events_.pop();
      part_done(e);
    }
    pump(t);
    for (std::size_t i = 0; i < devices_.size(); ++i) devices_[i]->run_until(t, sinks[i]);
  }
  if (log_) stats_.extents_cleaned = log_->extents_cleaned();
  return stats_;
}

double PaperArrayStats::throughput_iops() const {
  if (requests == 0 || last_done_ns <= first_arrival_ns) return 0;
  return static_cast<double>(requests) /
         (static_cast<double>(last_done_ns - first_arrival_ns) / 1e9);
}

}  // namespace memstore::sim
