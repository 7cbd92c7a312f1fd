// SPDX-License-Identifier: Apache-2.0
// A zoned disk with real mechanics; the model is described in the header.
#include "model/disk_zoned.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace memstore::model {

namespace {
// Rounding to whole ns can leave a sector that is exactly under the head a
// nanosecond "behind" it; that is an arrival, not a miss by a revolution.
constexpr double kArrivalSlackNs = 2;
}  // namespace

ZonedDisk::ZonedDisk(const ZonedDiskParams& params)
    : params_(params),
      layout_(params),
      revolution_ns_(60e9 / params.rotation_rpm),
      cache_(params.cache.segments, params.cache.segment_blocks) {}

Ns ZonedDisk::seek_ns(std::int32_t distance) const {
  return curve_seek_ns(params_.seek_curve, distance);
}

Ns ZonedDisk::sector_start_ns(std::int32_t cylinder, std::int32_t surface,
                              std::int32_t sector) const {
  const std::int32_t spt = layout_.sectors_per_track(cylinder);
  return std::llround(revolution_ns_ * layout_.sector_slot(cylinder, surface, sector) / spt);
}

Ns ZonedDisk::wait_for_ns(Ns t, Ns slot_start_ns) const {
  const double angle = std::fmod(static_cast<double>(t), revolution_ns_);
  double wait = static_cast<double>(slot_start_ns) - angle;
  if (wait < 0) wait += revolution_ns_;
  if (wait > revolution_ns_ - kArrivalSlackNs || wait < 0) wait = 0;
  return std::llround(wait);
}

ZonedDisk::TrackStep ZonedDisk::track_step(Lbn lbn, Lbn end, HeadState head) const {
  TrackStep step;
  step.last = std::min(layout_.track_last_lbn(lbn), end - 1);
  step.from = layout_.locate(lbn);
  step.to = layout_.locate(step.last);
  // Seek and head switch overlap: the longer decides.
  const Ns arm = seek_ns(std::abs(step.from.cylinder - head.cylinder));
  step.move_ns = std::max(arm, step.from.surface != head.surface ? params_.head_switch_ns : Ns{0});
  return step;
}

MediaPass ZonedDisk::media_pass(Lbn lbn, std::int32_t blocks, Op op, Ns start,
                                HeadState head) const {
  MediaPass p;
  Ns t = start;
  bool first = true;
  const Lbn end = lbn + blocks;
  for (Lbn l = lbn; l < end;) {
    const TrackStep step = track_step(l, end, head);
    const Lbn last = step.last;
    const DiskAddress& a = step.from;
    const DiskAddress& b = step.to;
    const Ns move = step.move_ns;
    const Ns settle = move > 0 && op == Op::kWrite ? params_.write_settle_ns : 0;
    t += move + settle;
    const double sector_ns = revolution_ns_ / layout_.sectors_per_track(a.cylinder);
    const std::int32_t span = b.sector - a.sector + 1;  // slipped sectors pass too
    Ns latency = wait_for_ns(t, sector_start_ns(a.cylinder, a.surface, a.sector));
    const Ns transfer = std::llround(span * sector_ns);
    double first_done = static_cast<double>(latency) + sector_ns;
    if (params_.zero_latency && span > 1 && latency > 0) {
      // The head is `past` into the first sector's revolution. Strictly after the first
      // sector's start and before the last one's, it is inside the access: it reads from
      // the next sector boundary on and comes round for the rest (DiskSim's
      // "addtolatency"): boundary wait + one revolution in all. The first block is among
      // the last it reads.
      const double past = revolution_ns_ - static_cast<double>(latency);
      if (past < (span - 1) * sector_ns) {
        const double skipped = std::ceil(past / sector_ns);
        const double boundary = skipped * sector_ns - past;
        latency = std::llround(boundary + revolution_ns_) - transfer;
        first_done = boundary + revolution_ns_ - (skipped - 1) * sector_ns;
      }
    }
    if (first) {
      p.seek_ns = move;
      p.settle_ns = settle;
      p.latency_ns = latency;
      p.first_block_done_ns = t + std::llround(first_done);
    } else {
      p.switch_ns += move + settle + latency;
    }
    p.transfer_ns += transfer;
    t += latency + transfer;
    head = {b.cylinder, b.surface};
    l = last + 1;
    first = false;
  }
  p.end_ns = t;
  p.head = head;
  return p;
}

Lbn ZonedDisk::read_progress(Lbn from, Lbn limit, Ns start, HeadState head, Ns until,
                             HeadState& at) const {
  Ns t = start;
  for (Lbn l = from; l < limit;) {
    const TrackStep s = track_step(l, limit, head);
    const Ns on_track = t + s.move_ns;
    const Ns begin =
        on_track +
        wait_for_ns(on_track, sector_start_ns(s.from.cylinder, s.from.surface, s.from.sector));
    const double sector_ns = revolution_ns_ / layout_.sectors_per_track(s.from.cylinder);
    const Ns finish = begin + std::llround((s.to.sector - s.from.sector + 1) * sector_ns);
    if (finish > until) {
      // Stopped on this track (or on its way to it): the blocks whose sectors are done.
      at = on_track <= until ? HeadState{s.from.cylinder, s.from.surface} : head;
      if (until <= begin) return l;
      const auto done =
          static_cast<Lbn>(std::floor(static_cast<double>(until - begin) / sector_ns));
      return std::min(l + done, s.last + 1);
    }
    t = finish;
    head = {s.to.cylinder, s.to.surface};
    l = s.last + 1;
  }
  at = head;
  return limit;
}

Lbn ZonedDisk::read_ahead_limit(Lbn last_block, Lbn segment_first) const {
  const Lbn next = last_block + 1;
  if (next >= blocks()) return blocks();
  const Lbn track_end = layout_.track_last_lbn(next) + 1;
  Lbn limit = track_end;
  // A segment that began on an earlier track is a sequential stream: stay a track ahead.
  if (layout_.track_last_lbn(segment_first) < track_end - 1 && track_end < blocks()) {
    limit = layout_.track_last_lbn(track_end) + 1;
  }
  // Never more than a segment holds.
  return std::min(limit, segment_first + cache_.segment_blocks());
}

void ZonedDisk::advance_prefetch(Ns t, bool stop) {
  if (!prefetch_.active) return;
  HeadState at;
  const Lbn got = read_progress(prefetch_.from, prefetch_.limit, prefetch_.start_ns, prefetch_.head,
                                std::max(t, prefetch_.start_ns), at);
  const CacheSegment& s = cache_.segment(static_cast<std::size_t>(prefetch_.segment));
  cache_.fill(prefetch_.segment, s.first, std::max(s.end, got), s.last_use_ns);
  if (stop || got >= prefetch_.limit) {
    head_ = at;
    prefetch_.active = false;
  }
}

Ns ZonedDisk::positioning_ns(const Request& r, Ns now) const {
  const MediaPass p = media_pass(r.lbn, 1, r.op, std::max(now, media_free_ns_), head_);
  return p.seek_ns + p.settle_ns + p.latency_ns;
}

Breakdown ZonedDisk::service(const Request& r, Ns now) {
  Breakdown b = r.op == Op::kRead ? read(r, now) : write(r, now);
  b.media_steps = 1;
  last_op_ = r.op;
  return b;
}

Breakdown ZonedDisk::read(const Request& r, Ns now) {
  const DiskOverheads& o = params_.overheads;
  const bool after_read = last_op_ == Op::kRead;
  // Dirty data goes to the media before a read is served (fast write level 2).
  const Ns t0 = std::max(now, media_free_ns_);
  const Ns bus = params_.bus_ns_per_block * r.blocks;
  const Lbn last = r.lbn + r.blocks - 1;
  Breakdown b;
  if (cache_.enabled()) {
    advance_prefetch(t0, false);
    // A hit: on blocks already in a segment, or on the running read-ahead's way.
    int seg = cache_.holding(r.lbn, r.blocks);
    Ns ready = t0;
    if (seg < 0 && prefetch_.active) {
      const CacheSegment& s = cache_.segment(static_cast<std::size_t>(prefetch_.segment));
      if (s.first <= r.lbn && r.lbn <= s.end) {
        prefetch_.limit = std::max(prefetch_.limit, read_ahead_limit(last, s.first));
        if (last < prefetch_.limit) {
          seg = prefetch_.segment;
          ready = media_pass(prefetch_.from, static_cast<std::int32_t>(last + 1 - prefetch_.from),
                             Op::kRead, prefetch_.start_ns, prefetch_.head)
                      .end_ns;
        }
      }
    }
    if (seg >= 0) {
      if (prefetch_.active && seg == prefetch_.segment) {
        const CacheSegment& s = cache_.segment(static_cast<std::size_t>(seg));
        prefetch_.limit = std::max(prefetch_.limit, read_ahead_limit(last, s.first));
      }
      const CacheSegment& s = cache_.segment(static_cast<std::size_t>(seg));
      cache_.fill(seg, s.first, s.end, t0);
      const Ns overhead = after_read ? o.read_hit_after_read_ns : o.read_hit_after_write_ns;
      // The blocks go out as the read-ahead brings them, after the command's overhead.
      const Ns done = std::max(t0 + overhead + bus, ready + params_.bus_ns_per_block);
      b.seek_ns = t0 - now + overhead;
      b.transfer_ns = done - t0 - overhead;
      return b;
    }
    advance_prefetch(t0, true);
  }
  const Ns overhead = after_read ? o.read_miss_after_read_ns : o.read_miss_after_write_ns;
  const MediaPass p = media_pass(r.lbn, r.blocks, Op::kRead, t0 + overhead, head_);
  head_ = p.head;
  // The blocks cross the host interface as the media delivers them: from the end of the
  // first sector on, at the interface's pace, and never before the media has the last.
  const Ns done = std::max(p.end_ns + params_.bus_ns_per_block, p.first_block_done_ns + bus);
  b.seek_x_ns = p.seek_ns;
  b.seek_y_ns = p.latency_ns;
  b.seek_ns = t0 - now + overhead + p.seek_ns + p.latency_ns;
  b.switch_ns = p.switch_ns;
  b.transfer_ns = done - now - b.seek_ns - b.switch_ns;
  if (cache_.enabled()) {
    const int seg = cache_.claim(t0);
    cache_.fill(seg, r.lbn, last + 1, t0);
    cache_.invalidate(r.lbn, last + 1, seg);
    const Lbn limit = read_ahead_limit(last, r.lbn);
    if (limit > last + 1) prefetch_ = {true, seg, last + 1, p.end_ns, p.head, limit};
  }
  return b;
}

Breakdown ZonedDisk::write(const Request& r, Ns now) {
  const DiskOverheads& o = params_.overheads;
  const Ns overhead = last_op_ == Op::kRead ? o.write_after_read_ns : o.write_after_write_ns;
  const Ns bus = params_.bus_ns_per_block * r.blocks;
  const Lbn end = r.lbn + r.blocks;
  Breakdown b;
  advance_prefetch(now, true);
  if (!params_.cache.write_back || !cache_.enabled() || r.write_through) {
    // Write-through: the data crosses the interface while the arm moves; the
    // command ends when the media has it.
    const Ns start = std::max(now, media_free_ns_) + overhead;
    const MediaPass p = media_pass(r.lbn, r.blocks, Op::kWrite, start, head_);
    head_ = p.head;
    const Ns done = std::max(p.end_ns, start + bus);
    b.seek_x_ns = p.seek_ns;
    b.settle_ns = p.settle_ns;
    b.seek_y_ns = p.latency_ns;
    b.seek_ns = start - now + p.seek_ns + p.settle_ns + p.latency_ns;
    b.switch_ns = p.switch_ns;
    b.transfer_ns = done - now - b.seek_ns - b.switch_ns;
    if (cache_.enabled()) cache_.invalidate(r.lbn, end, -1);
    return b;
  }
  // Write-back, one write segment. A write that continues the dirty data still going to
  // the media, arriving while the drive is free to take it, is taken at once and written
  // after it ("Combine seq writes = 1": DiskSim's "append hit"). Any other write waits
  // until that data is on the media; so does a sequential write that had to queue behind
  // a command still in progress, as in DiskSim, which settles whether a write appends when
  // the write reaches the drive (docs/disk-models.md: without this, sequential writes came
  // out 21% faster than DiskSim's). The arm starts moving after the overhead while the
  // data comes in over the interface; a sector is written once its data is there, so the
  // write ends no sooner than a sector after the last block is in.
  const bool appending = media_free_ns_ > now && r.lbn == dirty_end_ && now == r.arrival_ns;
  const Ns accepted = appending ? now : std::max(now, media_free_ns_);
  const Ns moving = std::max(accepted + overhead, media_free_ns_);
  const Ns in_buffer = accepted + overhead + bus;
  MediaPass p = media_pass(r.lbn, r.blocks, Op::kWrite, moving, head_);
  if (moving + p.seek_ns + p.settle_ns + p.latency_ns <
      in_buffer - bus + params_.bus_ns_per_block) {
    // The first block's data is not in when its sector comes by: next time round.
    const DiskAddress there = layout_.locate(r.lbn);
    p = media_pass(r.lbn, r.blocks, Op::kWrite, in_buffer - bus + params_.bus_ns_per_block,
                   {there.cylinder, there.surface});
  }
  head_ = p.head;
  media_free_ns_ = std::max<Ns>(
      p.end_ns,
      in_buffer + std::llround(revolution_ns_ / layout_.sectors_per_track(p.head.cylinder)));
  dirty_end_ = end;
  // The written blocks stay readable in a segment of their own.
  const int seg = cache_.claim(now);
  cache_.fill(seg, r.lbn, end, now);
  cache_.invalidate(r.lbn, end, seg);
  b.seek_ns = accepted - now + overhead;
  b.transfer_ns = bus;
  return b;
}

MediaPoint ZonedDisk::point_of(Lbn lbn) const {
  const DiskAddress a = layout_.locate(lbn);
  return {static_cast<double>(a.cylinder) / params_.cylinders,
          static_cast<double>(sector_start_ns(a.cylinder, a.surface, a.sector)) / revolution_ns_,
          true};
}

MediaPoint ZonedDisk::current_point() const {
  return {static_cast<double>(head_.cylinder) / params_.cylinders, 0, true};
}

}  // namespace memstore::model
