// SPDX-License-Identifier: Apache-2.0
#include "target/scsi/lun.h"

#include <algorithm>
#include <cctype>
#include <limits>

#include "model/device_factory.h"
#include "model/disk_layout.h"
#include "modepages/mode_disk.h"
#include "target/scsi/lun_identity.h"

namespace memstore::scsi {

std::optional<TimingMode> parse_timing_mode(std::string_view s) {
  if (s == "realtime") return TimingMode::kRealtime;
  if (s == "scaled") return TimingMode::kScaled;
  if (s == "off") return TimingMode::kOff;
  return {};
}

const char* timing_mode_name(TimingMode m) {
  switch (m) {
    case TimingMode::kRealtime:
      return "realtime";
    case TimingMode::kScaled:
      return "scaled";
    case TimingMode::kOff:
      return "off";
  }
  return "?";
}

namespace {

// "atlas10k" -> "ATLAS10K": INQUIRY's product names the preset.
std::string upper(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return s;
}

// A disk LUN's configuration beyond its parameters: what it has no use for.
memstore::Status check_disk_config(const LunConfig& config) {
  if (config.rotation_rate != 0) {
    return Error("rotation_rate: a disk reports its own rotation rate (" +
                 std::to_string(modepages::nominal_rotation_rpm(*config.disk)) +
                 " rpm) in VPD B1h; leave rotation_rate unset");
  }
  for (const FaultRule& r : config.faults) {
    if (needs_mems_geometry(r.action)) {
      return Error(
          "fault: " + std::string(fault_action_name(r.action)) +
          " needs a MEMStore's geometry; a disk has no probe tips, media rectangles or sled");
    }
  }
  return {};
}

}  // namespace

Expected<std::unique_ptr<Lun>> Lun::create(LunConfig config, std::unique_ptr<BackingStore> store) {
  std::string name;
  std::int64_t block_bytes = 0;
  std::int64_t blocks = 0;
  if (config.disk) {
    for (const model::ParamError& e : model::validate(*config.disk)) {
      return Error("device." + e.key + ": " + e.message);
    }
    if (auto e = check_disk_config(config); !e.ok()) return e.error();
    name = config.disk->name;
    block_bytes = config.disk->block_bytes;
    blocks = model::ZonedLayout(*config.disk).blocks();
  } else {
    for (const model::ParamError& e : model::validate(config.device)) {
      return Error("device." + e.key + ": " + e.message);
    }
    name = config.device.name;
    block_bytes = config.device.block_bytes;
    blocks = model::Geometry(config.device).blocks();
  }
  if (!model::make_scheduler(config.scheduler, config.scheduler_options)) {
    return Error("scheduler: unknown scheduler '" + config.scheduler + "'");
  }
  if (!scale_in_range(config.timing.scale)) {
    return Error("timing.scale: must be a number from 0.001 to 1000");
  }
  // INQUIRY names the device preset; a LUN without a stored identity (an
  // in-memory one) gets a stable one from its device name.
  if (config.identity.product == modepages::LunIdentity{}.product) {
    // The field holds 16 characters: a name too long for the prefix ("MEMStore
    // ASPLOS99-G1") goes alone, so that the three generations stay apart.
    const std::string prefixed = (config.disk ? "Disk " : "MEMStore ") + upper(name);
    config.identity.product = prefixed.size() <= 16 ? prefixed : upper(name);
  }
  if (config.identity.serial.empty()) {
    const LunIdentityRecord id = identity_for_name(name);
    config.identity.serial = id.serial;
    config.identity.naa_id = id.naa_id;
  }
  if (store->block_size() != static_cast<std::uint32_t>(block_bytes)) {
    return Error("backing: block size " + std::to_string(store->block_size()) +
                 " differs from the device's block_bytes " + std::to_string(block_bytes));
  }
  if (store->blocks() != static_cast<std::uint64_t>(blocks)) {
    return Error("backing: the store holds " + std::to_string(store->blocks()) +
                 " blocks but the device has " + std::to_string(blocks));
  }
  return std::unique_ptr<Lun>(new Lun(std::move(config), std::move(store)));
}

Lun::Lun(LunConfig config, std::unique_ptr<BackingStore> store)
    : config_(std::move(config)),
      geometry_(config_.device),
      store_(std::move(store)),
      device_(config_.disk ? model::make_zoned_disk_device(*config_.disk, config_.scheduler,
                                                           config_.scheduler_options)
                           : model::make_mems_device(config_.device, config_.scheduler,
                                                     config_.scheduler_options)),
      mode_(mode_state(config_, *store_)),
      faults_(config_.fault_seed) {
  for (const FaultRule& r : config_.faults) faults_.add(r);
  mode_.set_failed_tips(faults_.failed_tips());
  apply_slow_regions();
  count_r2t_rules();
  if (!config_.buffer_budget) {
    config_.buffer_budget = std::make_shared<MemoryBudget>(LunConfig::kDefaultBufferBudget);
  }
  if (!config_.batch_budget) {
    config_.batch_budget = std::make_shared<MemoryBudget>(LunConfig::kDefaultBatchBudget);
  }
}

modepages::ModeState Lun::mode_state(const LunConfig& config, const BackingStore& store) {
  if (config.disk) return {*config.disk, store.blocks(), mode_options(config, store)};
  return {config.device, mode_options(config, store)};
}

modepages::ModeOptions Lun::mode_options(const LunConfig& config, const BackingStore& store) {
  modepages::ModeOptions o;
  // WCE reflects the store's durability mode and cannot be switched on for a
  // store without a volatile cache (an in-memory store has nothing to flush).
  o.write_cache = store.volatile_cache();
  o.write_cache_changeable = store.volatile_cache();
  if (config.disk) {
    // A disk's WCE is its drive's write-back cache, which the host may
    // switch (SBC-3, Caching mode page): with WCE = 0 every write is
    // timed to the medium and made durable before GOOD, whatever the store.
    o.write_cache = config.disk->cache.write_back;
    o.write_cache_changeable = true;
  }
  o.control.scheduler = modepages::scheduler_index(config.scheduler).value_or(0);
  o.control.timing = config.timing.mode;
  o.control.scale_milli = static_cast<std::uint32_t>(config.timing.scale * 1000 + 0.5);
  o.control.merge_requests = config.device.power.merge_requests;
  o.control.subsector = config.device.power.subsector;
  return o;
}

std::optional<Bytes> Lun::buffer(std::size_t size) {
  MemoryBudget& budget = *config_.buffer_budget;
  Bytes b;
  if (!spare_buffers_.empty()) {
    b = std::move(spare_buffers_.back());
    spare_buffers_.pop_back();
    spare_hold_.give(b.capacity());
    // Too small: growing it would count its old capacity twice.
    if (b.capacity() < size) b = Bytes();
  }
  const std::size_t needed = std::max(size, b.capacity());
  if (!budget.try_take(needed)) {
    // Commands, or kept buffers, hold the budget: this LUN's kept ones go
    // first, since they are only kept for speed.
    drop_spares();
    if (!budget.try_take(needed)) return {};
  }
  dispatch_hold_.add(config_.buffer_budget, needed);
  // No clear() on recycling and a shrink here: a READ's buffer is filled by
  // the store whole, and zeroing 128 KB per command first costs 5% of a
  // large read's CPU (docs/benchmarks/log/2026-11-21.md, "Large reads").
  // Only growth is zeroed.
  if (b.capacity() < size) b.reserve(size);
  b.resize(size);
  return b;
}

bool Lun::take_data_out(const CommandContext& c, Bytes& ours) {
  Bytes* theirs = c.data_out_owner;
  if (theirs == nullptr || c.data_out.empty() || c.data_out.data() != theirs->data()) return false;
  // The budget counts what this command holds: theirs from now on. Ours,
  // already counted, goes to the transport; if theirs is larger, the
  // difference must fit too, or the data is copied after all.
  if (theirs->capacity() > ours.capacity()) {
    const std::size_t more = theirs->capacity() - ours.capacity();
    if (!config_.buffer_budget->try_take(more)) return false;
    dispatch_hold_.add(config_.buffer_budget, more);
  }
  std::swap(ours, *theirs);
  return true;
}

void Lun::recycle(Bytes buffer) {
  // Enough for the commands in flight on a busy LUN; beyond that, let go.
  // Kept buffers fill at most half of the budget: the other half stays for
  // commands, since one LUN cannot take back another LUN's kept buffers.
  const std::size_t cap = buffer.capacity();
  MemoryBudget& budget = *config_.buffer_budget;
  if (spare_buffers_.size() < 256 && cap > 0 && budget.try_take(cap, budget.limit() / 2)) {
    spare_hold_.add(config_.buffer_budget, cap);
    spare_buffers_.push_back(std::move(buffer));
  }
}

void Lun::drop_spares() {
  spare_buffers_.clear();
  spare_hold_.release();
}

bool Lun::enable_async_io() {
  async_ = store_->async();
  return async_ != nullptr;
}

const std::shared_ptr<IoWait>& Lun::io_for(std::uint64_t lba, bool writing) {
  if (!current_io_) current_io_ = std::make_shared<IoWait>(lba, writing);
  return current_io_;
}

Outcome Lun::store_failed(const Error& e, bool writing, std::uint64_t lba) const {
  if (log_) {
    log_(LogLevel::kError, log_name_ + ": " + (writing ? "write" : "read") + " at LBA " +
                               std::to_string(lba) + " failed: " + e.message);
  }
  return Outcome::fail(store_sense(e.errno_value, writing, lba));
}

void Lun::complete_io(ScsiResult& r) {
  if (!r.io) return;
  IoWait& w = *r.io;
  if (!w.error().ok() && r.status == Status::kGood) {
    r.status = Status::kCheckCondition;
    r.sense = build_sense(*store_failed(w.error().error(), w.writing(), w.lba()).sense,
                          descriptor_sense());
    if (!r.data_in.empty()) recycle(std::move(r.data_in));
    r.data_in.clear();
  } else if (!w.writing() && r.status == Status::kGood) {
    r.data_in = w.take_data();  // a READ's data, read into the IoWait's buffer
  }
  for (Bytes& b : w.buffers()) {
    if (b.capacity() > 0) recycle(std::move(b));
  }
  r.io.reset();
}

Outcome Lun::dispatch(const CommandContext& c) {
  return (this->*c.spec.handler)(c);
}

void Lun::finish(ScsiResult& r, Outcome& o, const CommandContext& c) const {
  if (o.out_of_buffers) {
    // SAM-5 "Status": the logical unit lacks a resource for one more
    // command. TASK SET FULL rather than BUSY even when this LUN has nothing
    // in flight: the budget is spent by commands somewhere in the daemon,
    // and TASK SET FULL makes an initiator lower its queue depth (Linux's
    // midlayer does) as well as retry.
    r.status = Status::kTaskSetFull;
    return;
  }
  if (o.conflict) {
    r.status = Status::kReservationConflict;
    return;
  }
  if (o.sense) {
    r.status = Status::kCheckCondition;
    r.sense = build_sense(*o.sense, descriptor_sense());
    return;
  }
  r.status = Status::kGood;
  r.data_in = std::move(o.data_in);
  // Commands that do not say otherwise consumed all the data-out they got.
  r.transfer_bytes = o.transfer_bytes != 0 || c.spec.direction != DataDirection::kOut
                         ? o.transfer_bytes
                         : c.data_out.size();
  // The allocation length is applied here for every command a Lun runs
  // (SPC-4 §4.2.5.6); handlers return their whole data.
  cut_to_allocation_length(c.spec, c.cdb, r.data_in);
}

void Lun::submit(const ScsiCommand& cmd, const Sink& sink) {
  const Ns arrival = std::max(cmd.arrival_ns, last_arrival_ns_);
  last_arrival_ns_ = arrival;
  nexuses_.insert(cmd.nexus);
  ScsiResult result;
  result.nexus = cmd.nexus;
  result.tag = cmd.tag;
  result.complete_ns = arrival;
  if (powered_off(arrival)) {
    // No power (power_cycle's off time): the command is never answered.
    result.withheld = true;
    sink(std::move(result));
    return;
  }

  bool bad_sa = false;
  const CommandSpec* spec = find_command(cmd.cdb, bad_sa);
  auto reject = [&](Sense s) {
    result.status = Status::kCheckCondition;
    result.sense = build_sense(s, descriptor_sense());
    sink(std::move(result));
  };
  const Requester who = requester(cmd.nexus);
  // SAM-5 "Unit attention conditions": a pending unit attention ends any
  // command but INQUIRY, REPORT LUNS and REQUEST SENSE, supported or not, and
  // is cleared by being reported.
  if (!cmd.cdb.empty() && !passes_unit_attention(cmd.cdb[0])) {
    if (const std::optional<Reason> ua = attentions_.take(who.port)) {
      return reject({*ua, std::nullopt, std::nullopt});
    }
  }
  if (spec == nullptr) {
    // SPC-4 §4.5.2.4.2: point at the OPERATION CODE or SERVICE ACTION field.
    return reject(bad_sa ? Sense::cdb(Reason::kInvalidFieldInCdb, 1, 4)
                         : Sense::cdb(Reason::kInvalidOpcode, 0, 7));
  }
  if (cmd.cdb.size() < spec->cdb_length) return reject(Sense::cdb(Reason::kInvalidOpcode, 0, 7));
  result.media = spec->media;
  // A reservation decides by the command, before its fields are looked at
  // (the order SPC-4's reservation tables assume).
  if (reservations_.conflicts(who, spec->access, cmd.cdb)) {
    result.status = Status::kReservationConflict;
    sink(std::move(result));
    return;
  }
  if (const auto bad = reserved_bit_set(*spec, cmd.cdb)) {
    return reject(Sense::cdb(Reason::kInvalidFieldInCdb, bad->byte, bad->bit));
  }
  const CommandContext ctx{*spec,
                           cmd.cdb.first(spec->cdb_length),
                           cmd.data_out,
                           cmd.nexus,
                           arrival,
                           std::max<std::uint64_t>(cmd.data_out_buffer, cmd.data_out.size()),
                           cmd.data_out_owner};
  Ns fault_delay = 0;
  std::optional<FiredFault> fired;
  if (!faults_.empty()) {
    fired = check_fault(ctx);
    if (fired) {
      if (inject_fault(*fired, ctx, result, sink)) return;
      fault_delay = static_cast<Ns>(fired->rule->delay_ns);
    }
  }
  Outcome outcome = dispatch(ctx);
  if (fired) add_spare_access(*fired, outcome);
  finish(result, outcome, ctx);
  result.io = std::move(current_io_);
  result.buffers = std::move(dispatch_hold_);
  if (!outcome.media || outcome.sense || outcome.conflict || outcome.out_of_buffers) {
    result.complete_ns += fault_delay;
    sink(std::move(result));
    return;
  }
  queue_media(std::move(result), outcome, ctx, fault_delay, sink);
}

void Lun::queue_media(ScsiResult result, Outcome& outcome, const CommandContext& ctx,
                      Ns extra_delay, const Sink& sink) {
  const Ns arrival = ctx.arrival_ns;
  // Timed by the model: the result waits until the model decides when the
  // service ends.
  model::Request req = *outcome.media;
  req.id = next_request_id_++;
  req.arrival_ns = arrival;
  PendingMedia p;
  p.result = std::move(result);
  p.extra_delay_ns = extra_delay;
  p.batch = std::move(outcome.batch);
  if (p.batch) {
    req.batch = p.batch.get();
    p.is_batch = true;
    p.batch_id = ctx.cdb[2];
    p.batch_descriptors = outcome.batch_descriptors;
    p.batch_read_data = std::move(outcome.batch_read_data);
  }
  std::optional<model::Request> then = outcome.media_then;
  if (then) {
    p.batch_then = std::move(outcome.batch_then);
    if (p.batch_then) then->batch = p.batch_then.get();
    then->id = next_request_id_++;
    then->arrival_ns = arrival;
    second_parts_.emplace(then->id, req.id);
    p.parts_left = 2;
  }
  pending_pool_.insert(pending_, req.id).first->second = std::move(p);
  stats_.on_arrival(device_->pending());
  if (trace_) trace_->record(req);
  device_->submit(req);
  if (then) {
    // Queued right behind the first access: FCFS serves it next; other
    // schedulers may put other requests between the two.
    stats_.on_arrival(device_->pending());
    if (trace_) trace_->record(*then);
    device_->submit(*then);
  }
  advance(arrival, sink);
}

void Lun::advance(Ns now, const Sink& sink) {
  device_->run_until(now, [&](const model::Completion& c) { on_model_completion(c, sink); });
}

namespace {

// Where the time of a two-access command went: both services.
void add(model::Breakdown& to, const model::Breakdown& b) {
  to.startup_ns += b.startup_ns;
  to.seek_x_ns += b.seek_x_ns;
  to.settle_ns += b.settle_ns;
  to.seek_y_ns += b.seek_y_ns;
  to.turnaround_ns += b.turnaround_ns;
  to.transfer_ns += b.transfer_ns;
  to.seek_ns += b.seek_ns;
  to.switch_ns += b.switch_ns;
  to.turnarounds += b.turnarounds;
  to.media_steps += b.media_steps;
}

}  // namespace

void Lun::on_model_completion(const model::Completion& c, const Sink& sink) {
  std::uint64_t id = c.request.id;
  if (const auto second = second_parts_.find(id); second != second_parts_.end()) {
    id = second->second;
    second_parts_.erase(second);
  }
  auto it = pending_.find(id);
  if (it == pending_.end()) return;
  stats_.on_completion(c.breakdown);
  PendingMedia& pending = it->second;
  pending.result.complete_ns = std::max(pending.result.complete_ns, c.done_ns);
  add(pending.result.breakdown, c.breakdown);
  if (--pending.parts_left > 0) return;
  PendingMedia p = std::move(pending);
  pending_pool_.erase(pending_, it);
  p.result.complete_ns += p.extra_delay_ns;
  if (p.is_batch) store_batch_result(p);
  sink(std::move(p.result));
}

ScsiResult Lun::execute(const ScsiCommand& cmd) {
  std::optional<ScsiResult> mine;
  const Sink sink = [&](ScsiResult r) {
    if (r.nexus == cmd.nexus && r.tag == cmd.tag) mine = std::move(r);
  };
  submit(cmd, sink);
  if (!mine) {
    device_->drain([&](const model::Completion& c) { on_model_completion(c, sink); });
  }
  return std::move(*mine);
}

const InitiatorPort& Lun::port_of(std::uint64_t nexus) const {
  auto it = ports_.find(nexus);
  if (it == ports_.end()) it = ports_.emplace(nexus, InitiatorPort::anonymous(nexus)).first;
  return it->second;
}

Outcome Lun::check_range(std::uint64_t lba, std::uint64_t blocks, std::uint16_t lba_byte) const {
  const std::uint64_t cap = store_->blocks();
  if (lba > cap || blocks > cap - lba) {
    Sense s = Sense::cdb(Reason::kLbaOutOfRange, lba_byte);
    s.field.reset();  // SBC-3 §4.5: no field pointer for an out-of-range LBA
    s.information = lba;
    return Outcome::fail(s);
  }
  return {};
}

Outcome Lun::media_outcome(model::Op op, std::uint64_t lba, std::uint64_t blocks) const {
  Outcome o;
  if (blocks == 0) return o;
  model::Request r;
  r.lbn = static_cast<model::Lbn>(lba);
  r.blocks = static_cast<std::int32_t>(blocks);
  r.op = op;
  o.media = r;
  return o;
}

}  // namespace memstore::scsi
