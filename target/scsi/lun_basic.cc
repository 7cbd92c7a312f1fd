// SPDX-License-Identifier: Apache-2.0
// Commands that do not move data: TEST UNIT READY, REQUEST SENSE, READ
// CAPACITY, GET LBA STATUS, REPORT LUNS, REPORT SUPPORTED OPERATION CODES,
// START STOP UNIT, PREVENT ALLOW MEDIUM REMOVAL.
#include <algorithm>

#include "modepages/bytes.h"
#include "target/scsi/lun.h"
#include "target/scsi/report_luns.h"

namespace memstore::scsi {

using modepages::append_be;

Outcome Lun::test_unit_ready(const CommandContext&) {
  return {};
}

Outcome Lun::request_sense(const CommandContext& c) {
  // A pending unit attention is the sense data, and reporting it clears it
  // (SAM-5); otherwise NO SENSE. In the format the DESC bit asks for
  // (SPC-4 §6.29).
  Sense s;
  if (const std::optional<Reason> ua = attentions_.take(port_of(c.nexus))) s.reason = *ua;
  Outcome o;
  o.data_in = build_sense(s, (c.cdb[1] & 0x01) != 0);
  return o;
}

Outcome Lun::read_capacity10(const CommandContext& c) {
  // SBC-3 §5.15: with PMI = 0 the LOGICAL BLOCK ADDRESS must be 0.
  if ((c.cdb[8] & 0x01) == 0 && cdb_field(c.cdb, c.spec.lba) != 0) {
    return Outcome::fail(Sense::cdb(Reason::kInvalidFieldInCdb, c.spec.lba.offset));
  }
  Outcome o;
  const std::uint64_t last = blocks() - 1;
  append_be(o.data_in, 4, last > 0xFFFFFFFFu ? 0xFFFFFFFFu : last);
  append_be(o.data_in, 4, block_size());
  return o;
}

Outcome Lun::read_capacity16(const CommandContext& c) {
  if ((c.cdb[14] & 0x01) == 0 && cdb_field(c.cdb, c.spec.lba) != 0) {
    return Outcome::fail(Sense::cdb(Reason::kInvalidFieldInCdb, c.spec.lba.offset));
  }
  Outcome o;
  append_be(o.data_in, 8, blocks() - 1);
  append_be(o.data_in, 4, block_size());
  o.data_in.resize(32, 0);
  // Byte 14: LBPME (thin provisioning: UNMAP works) and LBPRZ (unmapped
  // blocks read as zeros), SBC-3 §5.16.
  o.data_in[14] = 0xC0;
  return o;
}

Outcome Lun::get_lba_status(const CommandContext& c) {
  // SBC-3 §5.20: LBA status descriptors from the STARTING LOGICAL BLOCK
  // ADDRESS on, as many as the allocation length holds (at least one, at
  // most kMaxDescriptors, so one command does bounded work in the store).
  // PROVISIONING STATUS 0h is "mapped or unknown", 1h deallocated; anchored
  // (2h) is never reported (VPD B2h: ANC_SUP = 0). READ CAPACITY(16) LBPME =
  // 1 and VPD B2h (thin provisioned, LBPRZ) describe the same store.
  constexpr std::uint64_t kMaxDescriptors = 64;
  constexpr std::uint64_t kMaxDescriptorBlocks = 0xFFFFFFFF;  // NUMBER OF LOGICAL BLOCKS is 4 bytes
  constexpr std::uint8_t kMapped = 0x0;
  constexpr std::uint8_t kDeallocated = 0x1;
  const std::uint64_t lba = cdb_field(c.cdb, c.spec.lba);
  if (Outcome o = check_range(lba, 1, c.spec.lba.offset); o.sense) return o;
  const std::uint64_t alloc = cdb_field(c.cdb, c.spec.length);
  const std::uint64_t wanted =
      std::clamp<std::uint64_t>(alloc < 8 ? 0 : (alloc - 8) / 16, 1, kMaxDescriptors);
  Bytes list;
  for (std::uint64_t at = lba, n = 0; at < blocks() && n < wanted; ++n) {
    const BackingStore::Extent e = store_->provisioning(at, kMaxDescriptorBlocks);
    append_be(list, 8, at);
    append_be(list, 4, e.blocks);
    list.push_back(e.mapped ? kMapped : kDeallocated);
    list.insert(list.end(), 3, 0);
    at += e.blocks;
  }
  Outcome o;
  append_be(o.data_in, 4, 4 + list.size());  // PARAMETER DATA LENGTH: the bytes after it
  append_be(o.data_in, 4, 0);
  o.data_in.insert(o.data_in.end(), list.begin(), list.end());
  return o;
}

Outcome Lun::report_luns(const CommandContext& c) {
  // The target's logical units, as the transport told them (set_target_luns).
  auto r = scsi::report_luns(target_luns_, c.cdb);
  if (!r.ok()) return Outcome::fail(r.error());
  Outcome o;
  o.data_in = std::move(r).value();
  return o;
}

namespace {

// One command descriptor of REPORT SUPPORTED OPERATION CODES (SPC-4 §6.35.2).
void append_descriptor(Bytes& out, const CommandSpec& s, bool timeouts) {
  out.push_back(s.opcode);
  out.push_back(0);
  append_be(out, 2, s.service_action.value_or(0));
  out.push_back(0);
  out.push_back(static_cast<std::uint8_t>((timeouts ? 0x02 : 0) | (s.service_action ? 0x01 : 0)));
  append_be(out, 2, s.cdb_length);
  if (timeouts) {
    append_be(out, 2, 0x0A);  // command timeouts descriptor length
    out.push_back(0);
    out.push_back(0);      // command specific
    append_be(out, 4, 0);  // nominal timeout: not reported
    append_be(out, 4, 0);  // recommended timeout: not reported
  }
}

}  // namespace

Outcome Lun::report_supported_opcodes(const CommandContext& c) {
  const bool timeouts = (c.cdb[2] & 0x80) != 0;
  const std::uint8_t options = c.cdb[2] & 0x07;
  const std::uint8_t opcode = c.cdb[3];
  const std::uint16_t sa = modepages::get_be16(c.cdb, 4);
  Outcome o;
  if (options == 0) {
    // Every command, from the same table that dispatches them.
    Bytes list;
    for (const CommandSpec& s : command_table()) append_descriptor(list, s, timeouts);
    append_be(o.data_in, 4, list.size());
    o.data_in.insert(o.data_in.end(), list.begin(), list.end());
    return o;
  }
  if (options > 3) return Outcome::fail(Sense::cdb(Reason::kInvalidFieldInCdb, 2, 2));
  const CommandSpec* found = nullptr;
  bool opcode_has_sa = false;
  for (const CommandSpec& s : command_table()) {
    if (s.opcode != opcode) continue;
    opcode_has_sa = s.service_action.has_value();
    const bool match = !s.service_action || (options != 1 && *s.service_action == sa);
    if (match) found = &s;
  }
  // Option 1 names an opcode without service actions; option 2 one with.
  // SPC-4 §6.35.1: option 1 names an opcode without service actions, option
  // 2 one with them; a supported opcode of the other kind is an error.
  const bool opcode_known = found != nullptr || opcode_has_sa;
  if ((options == 1 && opcode_has_sa) || (options == 2 && opcode_known && !opcode_has_sa)) {
    return Outcome::fail(Sense::cdb(Reason::kInvalidFieldInCdb, 2, 2));
  }
  o.data_in = {0, static_cast<std::uint8_t>((timeouts ? 0x80 : 0) | (found ? 0x03 : 0x01))};
  if (found != nullptr) {
    append_be(o.data_in, 2, found->cdb_length);
    o.data_in.insert(o.data_in.end(), found->usage.begin(),
                     found->usage.begin() + found->cdb_length);
    // CDB USAGE DATA starts with the opcode itself and carries the service
    // action in its field (SPC-4 §6.35.3).
    o.data_in[4] = found->opcode;
    if (found->service_action) o.data_in[5] = static_cast<std::uint8_t>(*found->service_action);
  } else {
    append_be(o.data_in, 2, 0);
  }
  if (timeouts) {
    append_be(o.data_in, 2, 0x0A);
    o.data_in.resize(o.data_in.size() + 10, 0);
  }
  return o;
}

Outcome Lun::start_stop_unit(const CommandContext& c) {
  // The sled spins down and up by itself (idle timeout, startup on demand);
  // START/STOP are accepted. LOEJ: the medium is not removable (SBC-3 §5.25).
  if ((c.cdb[4] & 0x02) != 0) return Outcome::fail(Sense::cdb(Reason::kInvalidFieldInCdb, 4, 1));
  return {};
}

Outcome Lun::prevent_allow_removal(const CommandContext&) {
  return {};
}

}  // namespace memstore::scsi
