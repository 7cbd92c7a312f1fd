// SPDX-License-Identifier: Apache-2.0
#include "target/scsi/report_luns.h"

#include "modepages/bytes.h"
#include "target/scsi/command_table.h"

namespace memstore::scsi {

namespace {
constexpr std::uint8_t kInquiry = 0x12;
constexpr std::uint8_t kReportLuns = 0xA0;

// The table's entry for the CDB's opcode when the CDB is whole, else nullptr.
const CommandSpec* whole(std::span<const std::uint8_t> cdb) {
  const CommandSpec* spec = cdb.empty() ? nullptr : find_layout(cdb[0]);
  return spec != nullptr && cdb.size() >= spec->cdb_length ? spec : nullptr;
}
}  // namespace

Expected<Bytes, Sense> report_luns(std::span<const std::uint16_t> ids,
                                   std::span<const std::uint8_t> cdb) {
  // SELECT REPORT (byte 2): the administrative and subsidiary selections
  // (10h-12h) are for targets with administrative logical units.
  const std::uint8_t select = cdb.size() > 2 ? cdb[2] : 0;
  if (select > 0x02) return Sense::cdb(Reason::kInvalidFieldInCdb, 2, 7);
  Bytes data;
  const std::size_t listed = select == 0x01 ? 0 : ids.size();
  modepages::append_be(data, 4, listed * 8);  // LUN LIST LENGTH
  modepages::append_be(data, 4, 0);
  for (std::size_t i = 0; i < listed; ++i) {
    const auto a = lun_address(ids[i]);
    data.insert(data.end(), a.begin(), a.end());
  }
  return data;
}

AbsentLunAnswer absent_lun(std::span<const std::uint8_t> cdb) {
  AbsentLunAnswer a;
  if (!cdb.empty() && cdb[0] == kInquiry && cdb.size() > 1 && (cdb[1] & 0x01) == 0) {
    // Standard INQUIRY data, 36 bytes: qualifier 011b (no logical unit
    // here), type 1Fh; VERSION SPC-4, RESPONSE DATA FORMAT 2.
    a.data_in.assign(36, 0);
    a.data_in[0] = 0x7F;
    a.data_in[2] = 0x06;
    a.data_in[3] = 0x02;
    a.data_in[4] = 31;
    if (const CommandSpec* spec = whole(cdb)) cut_to_allocation_length(*spec, cdb, a.data_in);
    return a;
  }
  a.status = Status::kCheckCondition;
  a.sense = build_sense({Reason::kLunNotSupported, std::nullopt, std::nullopt}, false);
  return a;
}

AbsentLunAnswer absent_lun(std::span<const std::uint16_t> ids, std::span<const std::uint8_t> cdb) {
  const CommandSpec* spec = whole(cdb);
  if (spec == nullptr || cdb[0] != kReportLuns) return absent_lun(cdb);
  AbsentLunAnswer a;
  auto list = report_luns(ids, cdb);
  if (!list.ok()) {
    a.status = Status::kCheckCondition;
    a.sense = build_sense(list.error(), false);
    return a;
  }
  a.data_in = std::move(list).value();
  cut_to_allocation_length(*spec, cdb, a.data_in);
  return a;
}

}  // namespace memstore::scsi
