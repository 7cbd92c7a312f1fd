// SPDX-License-Identifier: Apache-2.0
// Sense data in words (SPC-4 §4.5): decoding fixed (70h/71h) and descriptor
// (72h/73h) format, and names for the sense keys and for the ASC/ASCQ pairs a
// MEMStore produces (target/scsi/sense.cc), including the vendor-specific
// 26h/80h "batch not parallel-accessible" of MEMS BATCH (docs/vendor-interface.md, "Errors").
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace memstore::host {

// Sense-key specific field pointer (SPC-4 §4.5.2.4.2), ILLEGAL REQUEST only.
struct SenseFieldPointer {
  bool in_cdb = true;  // C/D: the field is in the CDB, else in the parameter list
  std::uint16_t byte = 0;
  std::int8_t bit = -1;  // -1: no bit pointer (BPV = 0)
  friend bool operator==(const SenseFieldPointer&, const SenseFieldPointer&) = default;
};

struct SenseData {
  bool descriptor_format = false;
  bool deferred = false;  // response code 71h/73h
  std::uint8_t key = 0;
  std::uint8_t asc = 0;
  std::uint8_t ascq = 0;
  std::optional<std::uint64_t> information;  // e.g. the failing LBA
  std::optional<SenseFieldPointer> field;
};

// nullopt when `sense` is not fixed or descriptor format sense data, or too
// short to hold a sense key.
std::optional<SenseData> decode_sense(std::span<const std::uint8_t> sense);

// "ILLEGAL REQUEST"; "RESERVED" for the one reserved key (Ch).
const char* sense_key_name(std::uint8_t key);
// "INVALID FIELD IN CDB"; for a pair not in the table, "ASC 4Bh ASCQ 02h".
std::string asc_name(std::uint8_t asc, std::uint8_t ascq);

// One line in words, e.g. "ILLEGAL REQUEST: INVALID FIELD IN PARAMETER LIST
// (26h/00h) at parameter list byte 24" or "ILLEGAL REQUEST: LOGICAL BLOCK
// ADDRESS OUT OF RANGE (21h/00h), information 6750000".
std::string describe(const SenseData& sense);

}  // namespace memstore::host
