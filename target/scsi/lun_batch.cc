// SPDX-License-Identifier: Apache-2.0
// WRITE BUFFER / READ BUFFER: the vendor batch commands MEMS BATCH (mode
// 01h) and MEMS BATCH RESULTS (mode 01h, descriptor mode 03h), and the echo
// buffer (modes 0Ah, 0Bh). docs/vendor-interface.md is normative.
#include <algorithm>

#include "model/batch.h"
#include "modepages/batch_codec.h"
#include "modepages/bytes.h"
#include "target/scsi/lun.h"

namespace memstore::scsi {
namespace {

constexpr std::uint8_t kModeVendor = 0x01;
constexpr std::uint8_t kModeDescriptor = 0x03;
constexpr std::uint8_t kModeEcho = 0x0A;
constexpr std::uint8_t kModeEchoDescriptor = 0x0B;
constexpr std::size_t kEchoBufferBytes = 4096;

Outcome invalid_mode() {
  return Outcome::fail(Sense::cdb(Reason::kInvalidFieldInCdb, 1, 4));
}

}  // namespace

Outcome Lun::write_buffer(const CommandContext& c) {
  const std::uint8_t mode = c.cdb[1] & 0x1F;
  // A disk offers the echo buffer only: MEMS BATCH is the MEMStore's
  // vendor-specific mode 01h, so on a disk it is an unsupported MODE (SPC-4
  // §6.50: INVALID FIELD IN CDB), before any of its own fields are looked at.
  if (mode == kModeVendor && is_disk()) return invalid_mode();
  // STRICT and FUA (byte 1 bits 5, 6) belong to MEMS BATCH only.
  if (mode != kModeVendor && (c.cdb[1] & 0x60) != 0) {
    return Outcome::fail(Sense::cdb(Reason::kInvalidFieldInCdb, 1, 6));
  }
  if (mode == kModeEcho) {
    // SPC-4 §6.50.8: BUFFER ID and BUFFER OFFSET are ignored; the length must
    // fit the echo buffer.
    const std::uint64_t len = cdb_field(c.cdb, c.spec.length);
    if (len > kEchoBufferBytes) {
      return Outcome::fail(Sense::cdb(Reason::kInvalidFieldInCdb, c.spec.length.offset));
    }
    if (c.data_out.size() < len) return Outcome::fail({Reason::kParamListLengthError, {}, {}});
    echo_[c.nexus].assign(c.data_out.begin(),
                          c.data_out.begin() + static_cast<std::ptrdiff_t>(len));
    return {};
  }
  if (mode != kModeVendor) return invalid_mode();  // microcode and data modes are not offered

  const auto parsed_cdb = modepages::parse_batch_cdb(c.cdb);
  if (!parsed_cdb.ok()) return Outcome::fail(sense_from(parsed_cdb.error()));
  const modepages::BatchCdb& cdb = *parsed_cdb;
  if (c.data_out.size() < cdb.length) return Outcome::fail({Reason::kParamListLengthError, {}, {}});
  const auto list_bytes = c.data_out.first(cdb.length);
  const auto parsed =
      modepages::parse_batch_list(list_bytes, blocks(), block_size(),
                                  static_cast<std::uint16_t>(config_.device.max_batch_descriptors),
                                  static_cast<std::uint32_t>(config_.device.max_batch_blocks));
  if (!parsed.ok()) {
    Sense s = sense_from(parsed.error());
    s.information = modepages::out_of_range_lba(list_bytes, parsed.error());
    return Outcome::fail(s);
  }
  const modepages::BatchList& list = *parsed;
  auto extents = std::make_unique<std::vector<model::BatchExtent>>(modepages::to_extents(list));

  // Parallel access happens within one sled: a batch must not span sleds.
  const std::int64_t sled_blocks = geometry_.blocks_per_sled();
  const std::int64_t sled = extents->front().lbn / sled_blocks;
  for (std::size_t i = 0; i < extents->size(); ++i) {
    const model::BatchExtent& e = (*extents)[i];
    if (e.lbn / sled_blocks != sled || (e.lbn + e.blocks - 1) / sled_blocks != sled) {
      return Outcome::fail(Sense::param(Reason::kInvalidFieldInParamList,
                                        static_cast<std::uint16_t>(8 + 16 * i + 4)));
    }
  }
  // Rules that fail blocks look at every descriptor (docs/faults.md); the
  // blocks of a spared failed tip leave the parallel steps for the spare's.
  auto spared = std::make_unique<std::vector<model::BatchExtent>>();
  if (!faults_.empty()) {
    if (const std::optional<Sense> bad = batch_faults(c, *extents, *spared)) {
      return Outcome::fail(*bad);
    }
  }
  if (cdb.strict) {
    std::size_t steps = model::plan_batch(geometry_, *extents).size();
    steps += model::plan_batch(geometry_, *spared).size();
    if (steps > 1) {
      return Outcome::fail({Reason::kNotParallelAccessible, std::nullopt, std::nullopt});
    }
  }

  // Data as of arrival: writes applied now, reads captured now, in
  // descriptor order. Reusing an id releases its old result
  // (docs/vendor-interface.md, "How the LUN serves a batch").
  batch_results_[c.nexus].erase(cdb.batch_id);
  Outcome o;
  const std::size_t bs = block_size();
  bool any_write = false;
  for (const modepages::BatchDescriptor& d : list.descriptors) {
    const std::size_t bytes = static_cast<std::size_t>(d.blocks) * bs;
    if (d.op == modepages::BatchOp::kWrite) {
      any_write = true;
      if (auto e = store_->write(d.lba, d.blocks, list_bytes.subspan(d.data_offset, bytes));
          !e.ok()) {
        return store_failed(e.error(), true, d.lba);
      }
    } else {
      const std::size_t at = o.batch_read_data.size();
      o.batch_read_data.resize(at + bytes);
      if (auto e = store_->read(d.lba, d.blocks,
                                std::span<std::uint8_t>(o.batch_read_data).subspan(at, bytes));
          !e.ok()) {
        return store_failed(e.error(), false, d.lba);
      }
    }
  }
  if (any_write && (cdb.fua || !mode_.wce())) {
    if (auto e = store_->flush(); !e.ok()) {
      return store_failed(e.error(), true, list.descriptors.front().lba);
    }
  }
  model::Request r;
  r.blocks = 1;
  r.op = any_write ? model::Op::kWrite : model::Op::kRead;
  if (extents->empty()) std::swap(extents, spared);  // every block was spared
  r.lbn = extents->front().lbn;
  o.media = r;
  o.batch = std::move(extents);
  if (!spared->empty()) {
    r.lbn = spared->front().lbn;
    o.media_then = r;
    o.batch_then = std::move(spared);
  }
  o.batch_descriptors = static_cast<std::uint16_t>(list.descriptors.size());
  return o;
}

void Lun::store_batch_result(PendingMedia& p) {
  // Both accesses when a spare served some blocks (PendingMedia sums them).
  const model::Breakdown& both = p.result.breakdown;
  const std::uint64_t us = static_cast<std::uint64_t>(both.service_ns() / 1000);
  BatchResult r;
  r.data = modepages::encode_batch_results_header(
      p.batch_id, p.batch_descriptors,
      static_cast<std::uint16_t>(std::min(both.media_steps, 0xFFFF)),
      static_cast<std::uint32_t>(std::min<std::uint64_t>(us, 0xFFFFFFFFu)));
  r.data.insert(r.data.end(), p.batch_read_data.begin(), p.batch_read_data.end());
  r.sequence = ++batch_sequence_;
  const std::size_t bytes = r.data.size();
  auto& store = batch_results_[p.result.nexus];
  store[p.batch_id] = std::move(r);
  // The per-nexus cap: release the oldest results first, never the newest.
  std::size_t total = 0;
  for (const auto& [id, res] : store) total += res.data.size();
  while (total > config_.batch_results_cap_bytes && store.size() > 1) {
    auto oldest = std::min_element(store.begin(), store.end(), [](const auto& a, const auto& b) {
      return a.second.sequence < b.second.sequence;
    });
    total -= oldest->second.data.size();
    store.erase(oldest);
  }
  // The daemon-wide budget: this LUN's oldest results go, whichever nexus
  // holds them. The newest stays even when they are all gone, so the budget
  // is exceeded by at most one result (max_batch_blocks) per LUN.
  MemoryBudget& budget = *config_.batch_budget;
  while (!budget.try_take(bytes)) {
    if (!release_oldest_batch_result()) {
      budget.take(bytes);
      break;
    }
  }
  store[p.batch_id].hold.add(config_.batch_budget, bytes);
}

bool Lun::release_oldest_batch_result() {
  std::map<std::uint8_t, BatchResult>* in = nullptr;
  std::map<std::uint8_t, BatchResult>::iterator oldest;
  for (auto& [nexus, results] : batch_results_) {
    for (auto it = results.begin(); it != results.end(); ++it) {
      if (it->second.sequence == batch_sequence_) continue;  // the newest
      if (in == nullptr || it->second.sequence < oldest->second.sequence) {
        in = &results;
        oldest = it;
      }
    }
  }
  if (in == nullptr) return false;
  in->erase(oldest);
  return true;
}

Outcome Lun::read_buffer(const CommandContext& c) {
  const std::uint8_t mode = c.cdb[1] & 0x1F;
  Outcome o;
  if (mode == kModeEcho) {
    const auto it = echo_.find(c.nexus);
    if (it != echo_.end()) o.data_in = it->second;
    return o;
  }
  if (mode == kModeEchoDescriptor) {
    // SPC-4 §6.17.7: EBOS = 0, BUFFER CAPACITY.
    o.data_in = {0, 0, 0, 0};
    modepages::put_be(o.data_in, 2, 2, kEchoBufferBytes);
    return o;
  }
  // MEMS BATCH RESULTS (mode 01h) and its descriptor (03h) exist on a
  // MEMStore only: a disk has no buffer but the echo buffer.
  if ((mode != kModeVendor && mode != kModeDescriptor) || is_disk()) return invalid_mode();
  const auto parsed_cdb = modepages::parse_batch_cdb(c.cdb);
  if (!parsed_cdb.ok()) return Outcome::fail(sense_from(parsed_cdb.error()));
  const modepages::BatchCdb& cdb = *parsed_cdb;
  auto nexus = batch_results_.find(c.nexus);
  if (nexus == batch_results_.end() || !nexus->second.contains(cdb.batch_id)) {
    return Outcome::fail(Sense::cdb(Reason::kInvalidFieldInCdb, 2));  // unknown batch id
  }
  const Bytes& data = nexus->second.at(cdb.batch_id).data;
  if (mode == kModeDescriptor) {
    o.data_in = modepages::encode_read_buffer_descriptor(data.size());
    return o;
  }
  if (cdb.buffer_offset > data.size())
    return Outcome::fail(Sense::cdb(Reason::kInvalidFieldInCdb, 3));
  o.data_in.assign(data.begin() + cdb.buffer_offset, data.end());
  // Read to the end: the result is released (docs/vendor-interface.md,
  // "How the LUN serves a batch").
  if (static_cast<std::uint64_t>(cdb.buffer_offset) + cdb.length >= data.size()) {
    nexus->second.erase(cdb.batch_id);
  }
  return o;
}

}  // namespace memstore::scsi
