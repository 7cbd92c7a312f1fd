// SPDX-License-Identifier: Apache-2.0
// The standard commands the host library sends, as CDB builders and decoders
// of their data-in: INQUIRY (SPC-4 §6.4), READ CAPACITY(10/16) (SBC-3 §5.15,
// §5.16), MODE SENSE(10) / MODE SELECT(10) (SPC-4 §6.10, §6.12), LOG SENSE
// (SPC-4 §6.6), READ(16) / WRITE(16) (SBC-3 §5.11, §5.38). The vendor batch
// commands come from modepages/batch_codec.h.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "host/transport.h"

namespace memstore::host {

Bytes inquiry_cdb(std::uint16_t allocation_length);
struct InquiryData {
  std::uint8_t peripheral_qualifier = 0;  // 0: a logical unit is present
  std::uint8_t device_type = 0;           // 00h: direct access block device
  std::string vendor;                     // T10 vendor id, trailing spaces removed
  std::string product;
  std::string revision;
};
// nullopt when shorter than the 36 bytes of standard INQUIRY data.
std::optional<InquiryData> decode_inquiry(std::span<const std::uint8_t> data);
// "direct access block device" for the types a host meets, else "type NNh".
std::string device_type_name(std::uint8_t type);

struct Capacity {
  std::uint64_t blocks = 0;  // RETURNED LOGICAL BLOCK ADDRESS + 1
  std::uint32_t block_size = 0;
};
Bytes read_capacity10_cdb();
Bytes read_capacity16_cdb();
std::optional<Capacity> decode_read_capacity10(std::span<const std::uint8_t> data);
std::optional<Capacity> decode_read_capacity16(std::span<const std::uint8_t> data);

enum class PageControl : std::uint8_t { kCurrent = 0, kChangeable = 1, kDefault = 2 };
// DBD = 1: no block descriptors, the pages follow the 8-byte header.
Bytes mode_sense10_cdb(std::uint8_t page, PageControl pc, std::uint16_t allocation_length);
// The page (header included) with code `page` in MODE SENSE(10) data, or
// nullopt when absent or truncated. Lifetime: points into `data`.
std::optional<std::span<const std::uint8_t>> find_mode_page(std::span<const std::uint8_t> data,
                                                            std::uint8_t page);
// PF = 1, SP = 0; the list is an 8-byte header without block descriptors
// and then `page` with PS cleared.
Bytes mode_select10_cdb(std::uint16_t list_length);
Bytes mode_select10_list(std::span<const std::uint8_t> page);

// PC = 01b (cumulative values), parameter pointer 0.
Bytes log_sense_cdb(std::uint8_t page, std::uint16_t allocation_length);

Bytes read16_cdb(std::uint64_t lba, std::uint32_t blocks);
Bytes write16_cdb(std::uint64_t lba, std::uint32_t blocks, bool fua);

}  // namespace memstore::host
