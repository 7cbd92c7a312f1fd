#include "target/scsi/report_luns.h"

#include "modepages/bytes.h"

namespace memstore::scsi {

namespace {
constexpr std::uint8_t kInquiry = 0x12;
}  // namespace

std::variant<Bytes, Sense> report_luns(std::span<const std::uint16_t> ids,
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
    if (cdb.size() >= 5) {
      const std::size_t alloc = std::size_t{cdb[3]} << 8 | cdb[4];  // SPC-4 §6.6
      if (a.data_in.size() > alloc) a.data_in.resize(alloc);
    }
    return a;
  }
  a.status = Status::kCheckCondition;
  a.sense = build_sense({Reason::kLunNotSupported, std::nullopt, std::nullopt}, false);
  return a;
}

}  // namespace memstore::scsi
