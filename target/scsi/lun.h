// SPDX-License-Identifier: Apache-2.0
// A logical unit: a transport-independent SBC-3 disk with MEMStore timing
// (docs/scsi-device.md), or with the timing of a zoned rotating disk
// (LunConfig::disk; docs/disk-models.md).
//
// A transport submits a command (CDB, data-out, arrival time, I_T nexus) and
// receives its result through a sink: status, sense, data-in and the modeled
// completion time. The transport decides when to deliver it.
//
// Data semantics: a command's effect on data happens when it is submitted,
// in submission order ("reads return data as of their arrival"). Timing: a
// command that touches the media joins the device model's queue; its
// completion time is decided when the model starts serving it, which may be
// after later commands arrived (the scheduler may reorder). Commands that do
// not touch the media complete at their arrival.
//
// Not thread-safe: one caller (a strand) drives a Lun.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "base/expected.h"
#include "model/batch.h"
#include "model/device.h"
#include "model/disk_presets.h"
#include "model/params.h"
#include "model/scheduler.h"
#include "modepages/mode_sense.h"
#include "modepages/vpd_pages.h"
#include "target/scsi/async_store.h"
#include "target/scsi/backing_store.h"
#include "target/scsi/command_table.h"
#include "target/scsi/control_access.h"
#include "target/scsi/fault_set.h"
#include "target/scsi/io_wait.h"
#include "target/scsi/log_sink.h"
#include "target/scsi/lun_stats.h"
#include "target/scsi/memory_budget.h"
#include "target/scsi/node_pool.h"
#include "target/scsi/rate_limiter.h"
#include "target/scsi/request_trace.h"
#include "target/scsi/reservations.h"
#include "target/scsi/sense.h"
#include "target/scsi/timing.h"
#include "target/scsi/unit_attention.h"

namespace memstore::scsi {

using model::Ns;

struct LunConfig {
  model::DeviceParams device = *model::preset("g2");
  // Set: the LUN is this zoned disk (model/disk_presets.h), not the MEMStore
  // `device` describes. Its model times the media commands behind the same
  // model::Device interface; a host sees a rotating disk (VPD B1h, mode
  // pages 03h and 04h) and none of the MEMStore's vendor interface (mode
  // pages 1Ah, 20h, 21h, MEMS BATCH, its results, the failed-tip and media
  // rectangle fault rules). rotation_rate must then be 0: B1h reports the
  // disk's own rate.
  std::optional<model::ZonedDiskParams> disk;
  std::string scheduler = "fcfs";
  model::SchedulerOptions scheduler_options;
  modepages::LunIdentity identity;  // vendor, product, revision, serial, NAA id
  std::uint16_t rotation_rate = 0;  // VPD B1h: 0 = not reported
  Timing timing;
  // MEMS BATCH results kept per I_T nexus before the oldest are released.
  std::size_t batch_results_cap_bytes = 16 << 20;
  // Daemon-wide bounds, shared by the LUNs given the same budget; unset, the
  // LUN makes its own of the default size. Data buffers: those of commands
  // not yet delivered and those kept for reuse; beyond it, a command that
  // needs one ends in TASK SET FULL (SAM-5 "Status"). Batch results: the oldest of the LUN's are
  // released first.
  std::shared_ptr<MemoryBudget> buffer_budget;
  std::shared_ptr<MemoryBudget> batch_budget;
  static constexpr std::size_t kDefaultBufferBudget = std::size_t{256} << 20;
  static constexpr std::size_t kDefaultBatchBudget = std::size_t{64} << 20;
  // Who may change the control mode pages 22h and 1Ah (default: nobody).
  ControlAccess control_access;
  // Fault rules from the start (fault_rule.h), and the seed of their
  // random draws.
  std::vector<FaultRule> faults;
  std::uint64_t fault_seed = 1;
};

struct ScsiCommand {
  std::uint64_t nexus = 0;  // I_T nexus, chosen by the transport
  std::uint64_t tag = 0;    // echoed in the result
  std::span<const std::uint8_t> cdb;
  std::span<const std::uint8_t> data_out;
  Ns arrival_ns = 0;
  // The size of the application client's Data-Out Buffer (SAM-5 §4.6.2;
  // iSCSI's Expected Data Transfer Length), when the transport moved only
  // part of it: it moves no more than the CDB asks for. 0: data_out.size().
  std::uint64_t data_out_buffer = 0;
  // Optional: the transport's buffer that `data_out` starts at. A WRITE to
  // an asynchronous store keeps that buffer for its write, instead of
  // copying the data, and leaves one of the LUN's own in its place, before
  // submit() returns; the transport keeps using whatever buffer it holds.
  Bytes* data_out_owner = nullptr;
};

struct ScsiResult {
  std::uint64_t nexus = 0;
  std::uint64_t tag = 0;
  Status status = Status::kGood;
  Bytes sense;    // empty unless CHECK CONDITION
  Bytes data_in;  // already cut to the allocation length
  // For commands with data-out: the bytes the CDB describes (the transport
  // compares them with what the initiator expected to send).
  std::uint64_t transfer_bytes = 0;
  Ns complete_ns = 0;
  // The medium access the command stands for (command_table.h), whatever
  // its outcome: what a LUN's read and write counts count.
  Media media = Media::kNone;
  model::Breakdown breakdown;  // for media commands
  // Storage operations still in flight (asynchronous stores only): the
  // result is not final until io->ready() and Lun::complete_io() ran.
  std::shared_ptr<IoWait> io;
  // The command's data buffers, counted in LunConfig::buffer_budget until
  // the result is delivered and gone.
  BudgetHold buffers;
  // An injected timeout (FaultAction::kTimeout): the transport never
  // delivers the result, so the initiator times out and aborts the task.
  bool withheld = false;
  // With `withheld`: the transport refuses ABORT TASK for the command
  // (FaultRule::reject_abort), so only a reset ends it.
  bool reject_abort = false;
  // An injected transport fault (FaultAction::kDropConnection): the
  // transport closes the connection the command came on instead of
  // answering it.
  bool drop_connection = false;
  // An injected transport fault (FaultAction::kCorruptDigest): the
  // transport sends the response's first PDU with a wrong digest, the data
  // digest when one is negotiated, else the header digest.
  bool corrupt_digest = false;
};

// What a handler produces; the Lun turns it into a ScsiResult.
struct Outcome {
  std::optional<Sense> sense;   // set: CHECK CONDITION
  bool conflict = false;        // set: RESERVATION CONFLICT
  bool out_of_buffers = false;  // set: the buffer budget is spent (TASK SET FULL)
  Bytes data_in;
  std::optional<model::Request> media;  // timed by the model when set
  // A second media access of the same command, queued right behind `media`
  // (ORWRITE: the write after the read). The command completes when both
  // have been served.
  std::optional<model::Request> media_then;
  std::unique_ptr<std::vector<model::BatchExtent>> batch;
  // media_then's extents when it is a batch too (a spared failed tip's
  // blocks in a MEMS BATCH).
  std::unique_ptr<std::vector<model::BatchExtent>> batch_then;
  std::uint16_t batch_descriptors = 0;
  Bytes batch_read_data;
  // Bytes the CDB asks to move out, for the transport's residual; data-in
  // commands are measured by their data.
  std::uint64_t transfer_bytes = 0;
  static Outcome fail(Sense s) {
    Outcome o;
    o.sense = s;
    return o;
  }
  static Outcome no_buffer() {
    Outcome o;
    o.out_of_buffers = true;
    return o;
  }
  static Outcome reservation_conflict() {
    Outcome o;
    o.conflict = true;
    return o;
  }
};

struct CommandContext {
  const CommandSpec& spec;
  std::span<const std::uint8_t> cdb;
  std::span<const std::uint8_t> data_out;
  std::uint64_t nexus;
  Ns arrival_ns;
  std::uint64_t data_out_buffer;  // ScsiCommand::data_out_buffer, resolved (never 0 with data)
  Bytes* data_out_owner;          // ScsiCommand::data_out_owner
};

class Lun {
 public:
  using Sink = std::function<void(ScsiResult)>;

  // Errors name the configuration key at fault.
  static Expected<std::unique_ptr<Lun>> create(LunConfig config,
                                               std::unique_ptr<BackingStore> store);

  // REQUIRES: arrival times non-decreasing across calls.
  void submit(const ScsiCommand& cmd, const Sink& sink);
  // Decides every completion whose service starts by `now`.
  void advance(Ns now, const Sink& sink);
  // When advance() has something to decide next, or -1.
  Ns next_decision_ns() const { return device_->next_start_ns(); }
  // submit() then advance until this command's result is known. For tests
  // and synchronous callers; other commands' results are dropped.
  ScsiResult execute(const ScsiCommand& cmd);

  std::uint64_t blocks() const { return store_->blocks(); }
  std::uint32_t block_size() const { return store_->block_size(); }
  // The MEMStore's geometry; meaningless for a disk LUN (is_disk()).
  const model::Geometry& geometry() const { return geometry_; }
  bool is_disk() const { return config_.disk.has_value(); }
  const LunConfig& config() const { return config_; }
  const Timing& timing() const { return config_.timing; }
  model::EnergyReport energy(Ns until) const { return device_->energy(until); }
  // Every request the model is given from now on goes to `trace`
  // (request_trace.h); nullptr ends the capture. Returns the capture it
  // replaces, still open.
  std::unique_ptr<RequestTrace> set_trace(std::unique_ptr<RequestTrace> trace) {
    std::swap(trace, trace_);
    return trace;
  }
  const RequestTrace* trace() const { return trace_.get(); }
  // Whether the model merges queued requests now (page 22h, power.merge_requests).
  bool merging_requests() const { return device_->merge_requests(); }
  // The transport delivered a completion `late_ns` after its modeled time
  // (log page 31h, delivery lateness).
  void record_delivery(std::uint64_t late_ns) { stats_.on_delivery(late_ns); }
  // A data buffer of `size` bytes for the command being dispatched, reusing
  // one the transport handed back: the READ path allocates nothing per
  // command once warm. Its contents are unspecified (an earlier command's
  // data): the caller overwrites them all. None when the buffer budget is
  // spent (the caller answers Outcome::no_buffer()).
  std::optional<Bytes> buffer(std::size_t size);
  // The transport is done with a result's data-in buffer.
  void recycle(Bytes buffer);
  // The buffers kept for reuse go (their budget with them).
  void drop_spares();
  // Where storage failures are logged, with their cause (none: not logged).
  // `name` says which LUN in each line.
  void set_log(LogSink sink, std::string name) {
    log_ = std::move(sink);
    log_name_ = std::move(name);
  }
  // The logical units of this LUN's target, for REPORT LUNS (default: this
  // one, as LUN 0). Set before the first command.
  void set_target_luns(std::vector<std::uint16_t> ids) { target_luns_ = std::move(ids); }
  // The target's LUNs changed while it runs (a LUN added or removed): every
  // I_T nexus gets REPORTED LUNS DATA HAS CHANGED (3Fh/0Eh: SPC-4 §6.33,
  // "the logical unit inventory changes") unless the list is the same.
  void change_target_luns(std::vector<std::uint16_t> ids);
  // D_SENSE of page 0Ah: the format of the sense data the LUN returns.
  bool descriptor_sense() const { return mode_.d_sense(); }
  // Makes every acknowledged write durable (shutdown).
  StoreStatus flush() { return store_->flush(); }
  // Page 22h's current values (scheduler, timing, scale).
  modepages::ControlPage control() const { return mode_.control(); }
  // Sets page 22h as a MODE SELECT from an initiator allowed to would (the
  // control socket); an error says which field is refused.
  memstore::Status set_control(const modepages::ControlPage& page);
  // The LUN's fault rules (fault_set.h): added, listed and removed on the
  // LUN's strand like every other call. A change in the tips failed-tip
  // rules name rewrites page 20h's list of failed tips and raises MODE
  // PARAMETERS CHANGED for every initiator port the LUN knows, as a change
  // of mode parameters by other means must (SPC-4, MODE SELECT(6)).
  const FaultSet& faults() const { return faults_; }
  // The iSCSI transport's question before the first R2T of a write that
  // needs one (RFC 7143 §11.8), before the LUN has the command: the id of
  // the withhold-r2t rule that fires for it, if any (docs/faults.md).
  // `now`: the model's time.
  std::optional<std::uint32_t> screen_r2t(std::uint64_t nexus, std::span<const std::uint8_t> cdb,
                                          Ns now);
  // Whether any withhold-r2t rule exists: the one thing about this LUN that
  // another thread may read (an atomic), so that sessions on other event
  // loops ask screen_r2t only when it can answer yes.
  bool may_withhold_r2t() const { return r2t_rules_.load(std::memory_order_relaxed) > 0; }
  std::uint32_t add_fault(FaultRule rule);
  bool remove_fault(std::uint32_t id);
  void clear_faults();
  // Every rule replaced, drawing from a new seed (a configuration reloaded).
  void reset_faults(std::uint64_t seed, std::span<const FaultRule> rules);

  // Asynchronous storage (async_store.h): from now on reads, writes,
  // unmaps and flushes of READ, WRITE, WRITE SAME, UNMAP and SYNCHRONIZE
  // CACHE are started and finish later; their results carry the IoWait to
  // wait for, and the caller must reap completions (store_async()) and call
  // complete_io() on each such result before delivering it. Other commands
  // keep using the store synchronously (it waits for the asynchronous ones
  // first). An operation the store would rather do at once
  // (AsyncStore::at_once: a small one on the memory store) is done
  // synchronously all the same. False when the store has no asynchronous
  // interface.
  bool enable_async_io();
  AsyncStore* store_async() const { return async_; }
  // Makes a result whose storage operations have finished final: a failure
  // becomes CHECK CONDITION with the sense for its cause (store_sense), a
  // READ gets its data, and the command's buffers are recycled.
  // REQUIRES: !r.io || r.io->ready().
  void complete_io(ScsiResult& r);

  // What the transport tells the Lun about I_T nexuses and task management.
  //
  // The initiator port behind a nexus, for persistent reservations: iSCSI
  // "<initiator name>,i,0x<ISID in hex>" (SPC-4 §7.6.4.6). Call it when the
  // nexus is formed (iSCSI: at login), before its first command; a new nexus
  // with the same name is the same initiator port, and finds its
  // registrations and pending unit attentions. Without it a nexus is known
  // only by its number and READ FULL STATUS shows an empty name. Names past
  // 255 bytes are cut there.
  void describe_nexus(std::uint64_t nexus, std::string iscsi_initiator_port);
  // The nexus is gone (iSCSI: logout, connection closed, session ended). Its
  // SPC-2 reservation is released and its per-nexus state (echo buffer, MEMS
  // BATCH results) dropped; persistent reservation registrations stay (SPC-4:
  // they survive I_T nexus loss).
  void nexus_lost(std::uint64_t nexus);
  // LOGICAL UNIT RESET (SAM-5), and per logical unit a target warm or cold
  // reset: releases any SPC-2 reservation and gives every known nexus a BUS
  // DEVICE RESET FUNCTION OCCURRED unit attention. Persistent reservations
  // stay. Aborting the tasks is the transport's business.
  void lun_reset();
  // The power is cut at model time `now` and comes back `off_ns` later
  // (docs/crash-consistency.md). First the transport hears of it
  // (set_power_lost: memstored ends the target's sessions), so that no
  // result of a command the cut interrupted reaches an initiator. The
  // store's volatile write cache loses what `policy` says, and the report,
  // which lists every write it held, goes to the log with `cause`. SPC-2
  // and persistent reservations are gone (PTPL_C = 0), and every known
  // nexus gets POWER ON, RESET, OR BUS DEVICE RESET OCCURRED (29h/00h), the
  // unit attention the LUN starts with. Mode pages keep their current
  // values. Until now + off_ns the LUN answers no command (a command that
  // arrives meanwhile is never answered: the initiator times out). An
  // error: the store could not write what the policy kept.
  Expected<PowerCutReport> power_cycle(CutPolicy policy, std::uint64_t seed, Ns now, Ns off_ns,
                                       std::string_view cause);
  // The power goes for good (memstored stopping, the LUN removed, the TCMU
  // device closed): a volatile write cache loses all it holds, as at a
  // drop-all cut, and the loss is logged with `cause`; then the medium is
  // flushed, so that everything durable is on the host's disk. A drive
  // switched off does the same: what the host did not flush is gone.
  StoreStatus switch_off(std::string_view cause);
  // Whether the LUN is off (after a cut, before off_ns has passed) at model
  // time `now`.
  bool powered_off(Ns now) const { return now < off_until_ns_; }
  // How many times power_cycle() ran. A command that arrived before the
  // latest cut was cut off by it: its result, decided before or after the
  // cut, must never reach the initiator (delivery::Engine::deliver drops
  // it), since the write it acknowledges may be one the cut took.
  std::uint64_t power_cycles() const { return power_cycles_; }
  // What the transport does when this LUN's power is cut (power_cycle):
  // given how long the LUN stays off, in wall time. Called on the LUN's
  // thread, before the store's cache is cut.
  using PowerLost = std::function<void(std::chrono::nanoseconds off)>;
  void set_power_lost(PowerLost hook) { power_lost_ = std::move(hook); }

  // Handlers (one per command family; see command_table.cc).
  Outcome test_unit_ready(const CommandContext& c);
  Outcome request_sense(const CommandContext& c);
  Outcome inquiry(const CommandContext& c);
  Outcome read_capacity10(const CommandContext& c);
  Outcome read_capacity16(const CommandContext& c);
  Outcome read(const CommandContext& c);
  Outcome write(const CommandContext& c);
  Outcome write_and_verify(const CommandContext& c);
  Outcome verify(const CommandContext& c);
  Outcome synchronize_cache(const CommandContext& c);
  Outcome pre_fetch(const CommandContext& c);
  Outcome write_same(const CommandContext& c);
  Outcome unmap(const CommandContext& c);
  Outcome compare_and_write(const CommandContext& c);
  Outcome mode_sense(const CommandContext& c);
  Outcome mode_select(const CommandContext& c);
  Outcome log_sense(const CommandContext& c);
  Outcome report_luns(const CommandContext& c);
  Outcome report_supported_opcodes(const CommandContext& c);
  Outcome start_stop_unit(const CommandContext& c);
  Outcome prevent_allow_removal(const CommandContext& c);
  Outcome write_buffer(const CommandContext& c);
  Outcome read_buffer(const CommandContext& c);
  Outcome orwrite(const CommandContext& c);
  Outcome get_lba_status(const CommandContext& c);
  Outcome persistent_reserve_in(const CommandContext& c);
  Outcome persistent_reserve_out(const CommandContext& c);
  Outcome reserve(const CommandContext& c);  // RESERVE(6/10)
  Outcome release(const CommandContext& c);  // RELEASE(6/10)
  Outcome read_defect_data(const CommandContext& c);

 private:
  Lun(LunConfig config, std::unique_ptr<BackingStore> store);
  Outcome dispatch(const CommandContext& c);
  modepages::VpdInputs vpd_inputs() const;
  static modepages::ModeOptions mode_options(const LunConfig& config, const BackingStore& store);
  // The mode page table of a MEMStore, or of a disk (ModeState's constructors).
  static modepages::ModeState mode_state(const LunConfig& config, const BackingStore& store);
  void apply_control_page();
  Outcome check_range(std::uint64_t lba, std::uint64_t blocks, std::uint16_t lba_byte) const;
  Outcome check_transfer(std::uint64_t lba, std::uint64_t blocks, std::uint16_t lba_byte,
                         std::uint16_t len_byte) const;
  Outcome media_outcome(model::Op op, std::uint64_t lba, std::uint64_t blocks) const;
  // For a WRITE to an asynchronous store: swaps `ours`, a buffer from
  // buffer(), with the transport's buffer the data-out starts at, when it
  // offered it (ScsiCommand::data_out_owner) and the buffer budget allows.
  // True when `ours` now holds the data.
  bool take_data_out(const CommandContext& c, Bytes& ours);
  // Whether an operation of `bytes` goes through async_ (enable_async_io()).
  bool deferred(std::uint64_t bytes) const { return async_ != nullptr && !async_->at_once(bytes); }
  // The command's IoWait, made on first use (asynchronous storage).
  const std::shared_ptr<IoWait>& io_for(std::uint64_t lba, bool writing);
  // The store failed: logged with its cause, and the sense for that cause.
  Outcome store_failed(const Error& e, bool writing, std::uint64_t lba) const;
  Outcome write_blocks(const CommandContext& c, bool durable);
  Outcome unmap_blocks(std::uint64_t lba, std::uint64_t n, bool durable);
  const InitiatorPort& port_of(std::uint64_t nexus) const;
  Requester requester(std::uint64_t nexus) const { return {nexus, port_of(nexus)}; }
  void finish(ScsiResult& r, Outcome& o, const CommandContext& c) const;

  struct PendingMedia {
    ScsiResult result;
    std::unique_ptr<std::vector<model::BatchExtent>> batch;
    std::unique_ptr<std::vector<model::BatchExtent>> batch_then;
    std::uint8_t batch_id = 0;  // MEMS BATCH: where the results go
    bool is_batch = false;
    std::uint16_t batch_descriptors = 0;
    Bytes batch_read_data;  // read as of arrival, kept for MEMS BATCH RESULTS
    int parts_left = 1;     // media accesses still to be served (Outcome::media_then)
    Ns extra_delay_ns = 0;  // an injected delay, added to the model's completion
  };
  // Puts a command the model times into its queue.
  void queue_media(ScsiResult result, Outcome& outcome, const CommandContext& ctx, Ns extra_delay,
                   const Sink& sink);
  // Fault injection (lun_fault.cc): the rule that fires for the command,
  // and its effect. inject_fault() returns true when it answered (or
  // queued) the command itself, false when the command goes on as usual
  // (delay and timeout change only how it is delivered).
  FaultQuery fault_query(const CommandContext& c) const;  // all but the range
  std::optional<FiredFault> check_fault(const CommandContext& c);
  void faults_changed();
  // The slow-seek rules (FaultAction::kSlowSeek), handed to the model.
  void apply_slow_regions();
  void count_r2t_rules();  // r2t_rules_
  // A spared failed tip (FaultRule::spare): the command also pays the
  // spare's access to its blocks, queued behind its own.
  static void add_spare_access(const FiredFault& f, Outcome& outcome);
  // A MEMS BATCH's descriptors against the rules that fail blocks: a
  // medium error for the first failing block, or (nullopt) the batch goes
  // on, with the blocks of spared failed tips moved from `extents` into
  // `spared` (one extent per block: the spare serves them one step each).
  std::optional<Sense> batch_faults(const CommandContext& c,
                                    std::vector<model::BatchExtent>& extents,
                                    std::vector<model::BatchExtent>& spared);
  bool inject_fault(const FiredFault& f, const CommandContext& c, ScsiResult& result,
                    const Sink& sink);
  void on_model_completion(const model::Completion& c, const Sink& sink);
  void store_batch_result(PendingMedia& p);

  struct BatchResult {
    Bytes data;  // header + read data
    std::uint64_t sequence = 0;
    BudgetHold hold;  // its bytes in LunConfig::batch_budget
  };
  // Releases the LUN's oldest batch result but the newest; false if none.
  bool release_oldest_batch_result();

  LunConfig config_;
  model::Geometry geometry_;
  std::unique_ptr<BackingStore> store_;
  AsyncStore* async_ = nullptr;         // set: asynchronous storage is on
  std::shared_ptr<IoWait> current_io_;  // the command being dispatched
  std::unique_ptr<model::Device> device_;
  modepages::ModeState mode_;
  std::uint64_t next_request_id_ = 1;
  std::unordered_map<std::uint64_t, PendingMedia> pending_;
  NodePool<std::unordered_map<std::uint64_t, PendingMedia>> pending_pool_;
  std::vector<Bytes> spare_buffers_;  // data-in buffers handed back by the transport
  BudgetHold spare_hold_;             // their capacity, in the buffer budget
  BudgetHold dispatch_hold_;          // buffers of the command being dispatched
  // Request id of a command's second media access -> the id it is pending under.
  std::unordered_map<std::uint64_t, std::uint64_t> second_parts_;
  // Per I_T nexus: batch id -> result (docs/vendor-interface.md: released when read to the
  // end, when the id is reused, and under a per-nexus cap).
  std::map<std::uint64_t, std::map<std::uint8_t, BatchResult>> batch_results_;
  std::uint64_t batch_sequence_ = 0;
  LunStats stats_;
  FaultSet faults_;
  std::atomic<std::uint32_t> r2t_rules_{0};  // withhold-r2t rules in faults_
  std::map<std::uint64_t, Bytes> echo_;      // per I_T nexus (SPC-4 echo buffer)
  Ns last_arrival_ns_ = 0;
  Reservations reservations_;
  UnitAttentions attentions_;
  // Each nexus's initiator port: described (describe_nexus) or anonymous,
  // made on first use and kept until the nexus is lost, so a command's
  // reservation check copies nothing.
  mutable std::map<std::uint64_t, InitiatorPort> ports_;
  std::set<std::uint64_t> nexuses_;  // seen and not lost (lun_reset's UA)
  std::vector<std::uint16_t> target_luns_{0};
  LogSink log_;
  std::string log_name_;
  PowerLost power_lost_;
  std::uint64_t power_cycles_ = 0;
  Ns off_until_ns_ = 0;  // model time the power comes back
  // Refused control-page changes are logged at most this often (an
  // initiator can provoke them at will).
  RateLimiter refusal_log_limit_{5};
  std::unique_ptr<RequestTrace> trace_;  // set_trace()
};

}  // namespace memstore::scsi
