// SPDX-License-Identifier: Apache-2.0
// MEMS BATCH and MEMS BATCH RESULTS (docs/vendor-interface.md):
// the vendor-specific mode 01h of WRITE BUFFER (3Bh) and READ BUFFER (3Ch),
// SPC-4 §6 (WRITE BUFFER, READ BUFFER), plus READ BUFFER descriptor mode 03h.
// Target-side parsers and host-side encoders live together so the two ends
// cannot disagree. The result store and the model run are the target's.
//
// Parameter list: header 8 bytes [count u16][reserved 6], then count
// descriptors of 16 bytes [op u8][reserved 3][LBA u64][blocks u32], then the
// write data of the write descriptors in descriptor order.
// Results: header 16 bytes [id u32][count u16][media steps u16][service µs
// u32][reserved 4], then the read data in descriptor order.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "model/batch.h"
#include "modepages/bytes.h"
#include "modepages/field_error.h"

namespace memstore::modepages {

inline constexpr std::uint8_t kWriteBuffer = 0x3B;
inline constexpr std::uint8_t kReadBuffer = 0x3C;
inline constexpr std::uint8_t kBufferModeVendor = 0x01;
inline constexpr std::uint8_t kBufferModeDescriptor = 0x03;
inline constexpr std::uint32_t kMaxBufferField = 0xFFFFFF;  // 24-bit CDB fields
inline constexpr std::size_t kBatchHeaderBytes = 8;
inline constexpr std::size_t kBatchDescriptorBytes = 16;
inline constexpr std::size_t kBatchResultsHeaderBytes = 16;
// The sense field pointer is 16 bits, so only the first 4095 descriptors can
// be pointed at; the parser never accepts more, whatever the device allows.
inline constexpr std::uint16_t kMaxBatchDescriptors = 4095;

struct BatchCdb {
  enum class Kind : std::uint8_t {
    kBatch,              // WRITE BUFFER mode 01h: MEMS BATCH
    kResults,            // READ BUFFER mode 01h: MEMS BATCH RESULTS
    kResultsDescriptor,  // READ BUFFER mode 03h: size of a result
  };
  Kind kind = Kind::kBatch;
  std::uint8_t batch_id = 0;        // BUFFER ID
  bool strict = false;              // kBatch only
  bool fua = false;                 // kBatch only
  std::uint32_t buffer_offset = 0;  // kResults: byte offset into the result
  std::uint32_t length = 0;         // parameter list length / allocation length
};

// Decodes a 10-byte WRITE BUFFER or READ BUFFER CDB in one of the modes
// above. Other opcodes: invalid field at byte 0; other modes: invalid field
// at byte 1 bit 4 (the MODE field), so a target without the echo-buffer modes
// can return that as is. Reserved bits set: invalid field at that bit. The
// CONTROL byte is the target's.
Expected<BatchCdb, FieldError> parse_batch_cdb(std::span<const std::uint8_t> cdb);

enum class BatchOp : std::uint8_t { kRead = 0x01, kWrite = 0x02 };

struct BatchDescriptor {
  BatchOp op = BatchOp::kRead;
  std::uint64_t lba = 0;
  std::uint32_t blocks = 1;
  std::size_t data_offset = 0;  // parsed writes: where the data starts in the list
  friend bool operator==(const BatchDescriptor&, const BatchDescriptor&) = default;
};

struct BatchList {
  std::vector<BatchDescriptor> descriptors;
  std::uint64_t read_blocks = 0;
  std::uint64_t write_blocks = 0;
};

// Checks a MEMS BATCH parameter list against the device. Errors, first found
// wins, in list order (docs/vendor-interface.md has the table):
//   list < 8 bytes                          -> kParamListLengthError
//   count 0 or > max (or > 4095)            -> invalid field, byte 0
//   header bytes 2..7 not 0                 -> invalid field, that byte/bit
//   list < 8 + 16 * count                   -> kParamListLengthError
//   per descriptor at offset d:
//     op not 01h/02h                        -> invalid field, byte d
//     bytes d+1..d+3 not 0                  -> invalid field, that byte/bit
//     blocks 0, or running total > max     -> invalid field, byte d+12
//     LBA + blocks > capacity               -> kLbaOutOfRange, byte d+4
//     write overlapping an earlier write    -> invalid field, byte d+4
//   list != 8 + 16 * count + write data     -> kParamListLengthError
// For kParamListLengthError `byte` is 6, the CDB's PARAMETER LIST LENGTH.
// REQUIRES: block_size > 0.
Expected<BatchList, FieldError> parse_batch_list(std::span<const std::uint8_t> list,
                                                 std::uint64_t capacity_blocks,
                                                 std::uint32_t block_size,
                                                 std::uint16_t max_descriptors,
                                                 std::uint32_t max_blocks);

// The LBA of a kLbaOutOfRange error from parse_batch_list, for the sense
// INFORMATION field; nullopt for any other error.
std::optional<std::uint64_t> out_of_range_lba(std::span<const std::uint8_t> list,
                                              const FieldError& error);

// The descriptors as the model's extents, in list order.
std::vector<model::BatchExtent> to_extents(const BatchList& list);

// Bytes of the MEMS BATCH RESULTS data: header + the read blocks.
std::uint64_t batch_results_size(const BatchList& list, std::uint32_t block_size);

struct BatchResultsHeader {
  std::uint32_t batch_id = 0;
  std::uint16_t descriptors = 0;
  std::uint16_t media_steps = 0;
  std::uint32_t service_us = 0;
  friend bool operator==(const BatchResultsHeader&, const BatchResultsHeader&) = default;
};
Bytes encode_batch_results_header(std::uint8_t id, std::uint16_t descriptors,
                                  std::uint16_t media_steps, std::uint32_t service_us);
// nullopt when shorter than 16 bytes. Reserved bytes are not checked.
std::optional<BatchResultsHeader> decode_batch_results_header(std::span<const std::uint8_t> data);

// READ BUFFER descriptor (SPC-4 READ BUFFER, descriptor mode), 4 bytes: OFFSET BOUNDARY 00h (any
// byte offset), BUFFER CAPACITY = `capacity` (saturated at FFFFFFh).
Bytes encode_read_buffer_descriptor(std::uint64_t capacity);
struct ReadBufferDescriptor {
  std::uint8_t offset_boundary = 0;
  std::uint32_t capacity = 0;
};
std::optional<ReadBufferDescriptor> decode_read_buffer_descriptor(
    std::span<const std::uint8_t> data);

// Host side. REQUIRES: descriptors.size() <= 65535; write_data holds the
// write descriptors' data in descriptor order (not checked: the target is).
Bytes encode_batch_list(std::span<const BatchDescriptor> descriptors,
                        std::span<const std::uint8_t> write_data);
// 10-byte CDBs. REQUIRES: lengths and offsets <= kMaxBufferField.
Bytes make_batch_cdb(std::uint8_t id, std::uint32_t list_length, bool strict = false,
                     bool fua = false);
Bytes make_results_cdb(std::uint8_t id, std::uint32_t offset, std::uint32_t allocation_length);
Bytes make_results_descriptor_cdb(std::uint8_t id);

}  // namespace memstore::modepages
