// SPDX-License-Identifier: Apache-2.0
#include "modepages/batch_codec.h"

#include <algorithm>
#include <bit>
#include <iterator>
#include <map>
#include <string>
#include <utility>

namespace memstore::modepages {
namespace {

using Kind = FieldError::Kind;

constexpr std::uint16_t kCdbListLengthField = 6;  // bytes 6..8 of both CDBs

FieldError error(Kind kind, std::size_t byte, int bit, std::string what) {
  return FieldError{kind, static_cast<std::uint16_t>(byte), static_cast<std::int8_t>(bit),
                    std::move(what)};
}

// Most significant bit set in `v` (REQUIRES v != 0), for reserved fields.
int top_bit(std::uint8_t v) {
  return std::bit_width(v) - 1;
}

// First non-zero byte of b[from, to) as an invalid-field error, if any.
FieldStatus check_reserved(std::span<const std::uint8_t> b, std::size_t from, std::size_t to,
                           Kind kind, const char* where) {
  for (std::size_t i = from; i < to; ++i) {
    if (b[i] != 0) return error(kind, i, top_bit(b[i]), std::string("reserved ") + where);
  }
  return {};
}

FieldError length_error(std::string what) {
  return error(Kind::kParamListLengthError, kCdbListLengthField, -1, std::move(what));
}

}  // namespace

Expected<BatchCdb, FieldError> parse_batch_cdb(std::span<const std::uint8_t> cdb) {
  if (cdb.size() < 10 || (cdb[0] != kWriteBuffer && cdb[0] != kReadBuffer)) {
    return error(Kind::kInvalidFieldInCdb, 0, -1, "not a 10-byte WRITE/READ BUFFER CDB");
  }
  const bool write = cdb[0] == kWriteBuffer;
  const std::uint8_t mode = cdb[1] & 0x1F;
  BatchCdb out;
  out.batch_id = cdb[2];
  out.buffer_offset = static_cast<std::uint32_t>(get_be(cdb, 3, 3));
  out.length = static_cast<std::uint32_t>(get_be(cdb, 6, 3));
  std::uint8_t reserved_bits = cdb[1] & 0xE0;  // READ BUFFER byte 1 bits 7..5
  if (write && mode == kBufferModeVendor) {
    out.kind = BatchCdb::Kind::kBatch;
    out.strict = (cdb[1] & 0x20) != 0;
    out.fua = (cdb[1] & 0x40) != 0;
    reserved_bits = cdb[1] & 0x80;
  } else if (!write && mode == kBufferModeVendor) {
    out.kind = BatchCdb::Kind::kResults;
  } else if (!write && mode == kBufferModeDescriptor) {
    out.kind = BatchCdb::Kind::kResultsDescriptor;
  } else {
    return error(Kind::kInvalidFieldInCdb, 1, 4, "buffer mode not supported");
  }
  if (reserved_bits != 0) {
    return error(Kind::kInvalidFieldInCdb, 1, top_bit(reserved_bits), "reserved bit in byte 1");
  }
  // MEMS BATCH takes the whole list at once; in descriptor mode the field is
  // reserved (SPC-4 READ BUFFER, descriptor mode).
  if (out.kind != BatchCdb::Kind::kResults && out.buffer_offset != 0) {
    return error(Kind::kInvalidFieldInCdb, 3, -1, "buffer offset must be 0");
  }
  return out;
}

Expected<BatchList, FieldError> parse_batch_list(std::span<const std::uint8_t> list,
                                                 std::uint64_t capacity_blocks,
                                                 std::uint32_t block_size,
                                                 std::uint16_t max_descriptors,
                                                 std::uint32_t max_blocks) {
  if (list.size() < kBatchHeaderBytes) return length_error("list shorter than its header");
  const std::uint16_t count = get_be16(list, 0);
  if (count == 0 || count > std::min(max_descriptors, kMaxBatchDescriptors)) {
    return error(Kind::kInvalidFieldInParamList, 0, -1,
                 "descriptor count " + std::to_string(count) + " outside 1.." +
                     std::to_string(std::min(max_descriptors, kMaxBatchDescriptors)));
  }
  if (const auto s =
          check_reserved(list, 2, kBatchHeaderBytes, Kind::kInvalidFieldInParamList, "header");
      !s.ok()) {
    return s.error();
  }
  const std::size_t data_start = kBatchHeaderBytes + kBatchDescriptorBytes * count;
  if (list.size() < data_start) return length_error("list shorter than its descriptors");

  BatchList out;
  out.descriptors.reserve(count);
  std::map<std::uint64_t, std::uint64_t> writes;  // first LBA -> end, disjoint
  std::uint64_t data_bytes = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t d = kBatchHeaderBytes + kBatchDescriptorBytes * i;
    const std::string who = "descriptor " + std::to_string(i) + ": ";
    BatchDescriptor desc;
    if (list[d] != static_cast<std::uint8_t>(BatchOp::kRead) &&
        list[d] != static_cast<std::uint8_t>(BatchOp::kWrite)) {
      return error(Kind::kInvalidFieldInParamList, d, -1, who + "operation not 01h/02h");
    }
    desc.op = static_cast<BatchOp>(list[d]);
    if (const auto s =
            check_reserved(list, d + 1, d + 4, Kind::kInvalidFieldInParamList, "descriptor");
        !s.ok()) {
      return s.error();
    }
    desc.lba = get_be64(list, d + 4);
    desc.blocks = get_be32(list, d + 12);
    const std::uint64_t total = out.read_blocks + out.write_blocks + desc.blocks;
    if (desc.blocks == 0 || total > max_blocks) {
      return error(Kind::kInvalidFieldInParamList, d + 12, -1,
                   who + (desc.blocks == 0 ? "zero blocks" : "batch exceeds maximum blocks"));
    }
    if (desc.lba >= capacity_blocks || desc.blocks > capacity_blocks - desc.lba) {
      return error(Kind::kLbaOutOfRange, d + 4, -1, who + "beyond capacity");
    }
    if (desc.op == BatchOp::kRead) {
      out.read_blocks += desc.blocks;
    } else {
      // Earlier writes are disjoint: only the neighbours can overlap.
      const std::uint64_t end = desc.lba + desc.blocks;
      auto next = writes.lower_bound(desc.lba);
      const bool hits_next = next != writes.end() && next->first < end;
      const bool hits_prev = next != writes.begin() && std::prev(next)->second > desc.lba;
      if (hits_next || hits_prev) {
        return error(Kind::kInvalidFieldInParamList, d + 4, -1, who + "overlaps an earlier write");
      }
      writes.emplace(desc.lba, end);
      desc.data_offset = data_start + data_bytes;
      data_bytes += std::uint64_t{desc.blocks} * block_size;
      out.write_blocks += desc.blocks;
    }
    out.descriptors.push_back(desc);
  }
  if (list.size() - data_start != data_bytes) {
    return length_error("write data is " + std::to_string(list.size() - data_start) +
                        " bytes, descriptors need " + std::to_string(data_bytes));
  }
  return out;
}

std::optional<std::uint64_t> out_of_range_lba(std::span<const std::uint8_t> list,
                                              const FieldError& error) {
  if (error.kind != Kind::kLbaOutOfRange || std::size_t{error.byte} + 8 > list.size()) {
    return std::nullopt;
  }
  return get_be64(list, error.byte);
}

std::vector<model::BatchExtent> to_extents(const BatchList& list) {
  std::vector<model::BatchExtent> out;
  out.reserve(list.descriptors.size());
  for (const BatchDescriptor& d : list.descriptors) {
    // Parsed descriptors lie inside the device and below the batch block
    // limit, so the narrowing conversions cannot lose anything.
    out.push_back({d.op == BatchOp::kRead ? model::Op::kRead : model::Op::kWrite,
                   static_cast<model::Lbn>(d.lba), static_cast<std::int32_t>(d.blocks)});
  }
  return out;
}

std::uint64_t batch_results_size(const BatchList& list, std::uint32_t block_size) {
  return kBatchResultsHeaderBytes + list.read_blocks * block_size;
}

Bytes encode_batch_results_header(std::uint8_t id, std::uint16_t descriptors,
                                  std::uint16_t media_steps, std::uint32_t service_us) {
  Bytes b;
  append_be(b, 4, id);
  append_be(b, 2, descriptors);
  append_be(b, 2, media_steps);
  append_be(b, 4, service_us);
  append_be(b, 4, 0);  // reserved
  return b;
}

std::optional<BatchResultsHeader> decode_batch_results_header(std::span<const std::uint8_t> data) {
  if (data.size() < kBatchResultsHeaderBytes) return std::nullopt;
  return BatchResultsHeader{get_be32(data, 0), get_be16(data, 4), get_be16(data, 6),
                            get_be32(data, 8)};
}

Bytes encode_read_buffer_descriptor(std::uint64_t capacity) {
  Bytes b = {0x00};  // OFFSET BOUNDARY: 2^0, any byte offset
  append_be(b, 3, std::min<std::uint64_t>(capacity, kMaxBufferField));
  return b;
}

std::optional<ReadBufferDescriptor> decode_read_buffer_descriptor(
    std::span<const std::uint8_t> data) {
  if (data.size() < 4) return std::nullopt;
  return ReadBufferDescriptor{data[0], static_cast<std::uint32_t>(get_be(data, 1, 3))};
}

Bytes encode_batch_list(std::span<const BatchDescriptor> descriptors,
                        std::span<const std::uint8_t> write_data) {
  Bytes b;
  b.reserve(kBatchHeaderBytes + kBatchDescriptorBytes * descriptors.size() + write_data.size());
  append_be(b, 2, descriptors.size());
  append_be(b, 6, 0);  // reserved
  for (const BatchDescriptor& d : descriptors) {
    b.push_back(static_cast<std::uint8_t>(d.op));
    append_be(b, 3, 0);  // reserved
    append_be(b, 8, d.lba);
    append_be(b, 4, d.blocks);
  }
  b.insert(b.end(), write_data.begin(), write_data.end());
  return b;
}

namespace {
Bytes buffer_cdb(std::uint8_t opcode, std::uint8_t byte1, std::uint8_t id, std::uint32_t offset,
                 std::uint32_t length) {
  Bytes b = {opcode, byte1, id};
  append_be(b, 3, offset);
  append_be(b, 3, length);
  b.push_back(0x00);  // CONTROL
  return b;
}
}  // namespace

Bytes make_batch_cdb(std::uint8_t id, std::uint32_t list_length, bool strict, bool fua) {
  const auto byte1 =
      static_cast<std::uint8_t>(kBufferModeVendor | (strict ? 0x20 : 0) | (fua ? 0x40 : 0));
  return buffer_cdb(kWriteBuffer, byte1, id, 0, list_length);
}

Bytes make_results_cdb(std::uint8_t id, std::uint32_t offset, std::uint32_t allocation_length) {
  return buffer_cdb(kReadBuffer, kBufferModeVendor, id, offset, allocation_length);
}

Bytes make_results_descriptor_cdb(std::uint8_t id) {
  return buffer_cdb(kReadBuffer, kBufferModeDescriptor, id, 0, 4);
}

}  // namespace memstore::modepages
