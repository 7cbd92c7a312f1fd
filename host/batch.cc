// SPDX-License-Identifier: Apache-2.0
#include "host/batch.h"

#include <algorithm>

namespace memstore::host {
namespace {

std::string num(std::uint64_t v) {
  return std::to_string(v);
}

const char* op_name(modepages::BatchOp op) {
  return op == modepages::BatchOp::kRead ? "read" : "write";
}

}  // namespace

Status Batch::check_add(modepages::BatchOp op, std::uint64_t lba, std::uint64_t blocks,
                        std::uint64_t data_bytes) const {
  const std::string which = "descriptor " + num(descriptors_.size()) + " (" + op_name(op) +
                            " LBA " + num(lba) + ", " + num(blocks) + " blocks)";
  const std::uint64_t max_descriptors =
      std::min<std::uint64_t>(limits_.max_descriptors, modepages::kMaxBatchDescriptors);
  if (descriptors_.size() >= max_descriptors) {
    return invalid_argument(which + ": the batch already has the device's maximum of " +
                            num(max_descriptors) + " descriptors (mode page 20h)");
  }
  if (blocks == 0) return invalid_argument(which + ": the number of blocks must be at least 1");
  if (blocks > 0xFFFFFFFFu) {
    return invalid_argument(which + ": more blocks than one descriptor can carry (2^32 - 1)");
  }
  if (lba >= limits_.capacity_blocks || blocks > limits_.capacity_blocks - lba) {
    return invalid_argument(which + ": beyond the device's last block " +
                            num(limits_.capacity_blocks - 1));
  }
  if (read_blocks_ + write_blocks_ + blocks > limits_.max_blocks) {
    return invalid_argument(
        which + ": the batch would hold " + num(read_blocks_ + write_blocks_ + blocks) +
        " blocks, above the device's maximum of " + num(limits_.max_blocks) + " (mode page 20h)");
  }
  const std::uint64_t results =
      modepages::kBatchResultsHeaderBytes +
      (read_blocks_ + (op == modepages::BatchOp::kRead ? blocks : 0)) * limits_.block_size;
  if (results > modepages::kMaxBufferField) {
    return invalid_argument(which + ": the results would be " + num(results) +
                            " bytes, above READ BUFFER's 24-bit limit of " +
                            num(modepages::kMaxBufferField));
  }
  const std::uint64_t list = modepages::kBatchHeaderBytes +
                             modepages::kBatchDescriptorBytes * (descriptors_.size() + 1) +
                             write_data_.size() + data_bytes;
  if (list > modepages::kMaxBufferField) {
    return invalid_argument(which + ": the parameter list would be " + num(list) +
                            " bytes, above WRITE BUFFER's 24-bit limit of " +
                            num(modepages::kMaxBufferField));
  }
  return {};
}

Status Batch::add_read(std::uint64_t lba, std::uint32_t blocks) {
  if (Status s = check_add(modepages::BatchOp::kRead, lba, blocks, 0); !s.ok()) return s;
  descriptors_.push_back({modepages::BatchOp::kRead, lba, blocks, 0});
  read_blocks_ += blocks;
  return {};
}

Status Batch::add_write(std::uint64_t lba, std::span<const std::uint8_t> data) {
  if (limits_.block_size == 0 || data.size() % limits_.block_size != 0) {
    return invalid_argument("descriptor " + num(descriptors_.size()) + " (write LBA " + num(lba) +
                            "): " + num(data.size()) + " bytes of data is not a whole number of " +
                            num(limits_.block_size) + "-byte blocks");
  }
  const std::uint64_t blocks = data.size() / limits_.block_size;
  if (Status s = check_add(modepages::BatchOp::kWrite, lba, blocks, data.size()); !s.ok()) return s;
  descriptors_.push_back(
      {modepages::BatchOp::kWrite, lba, static_cast<std::uint32_t>(blocks), write_data_.size()});
  write_data_.insert(write_data_.end(), data.begin(), data.end());
  write_blocks_ += blocks;
  return {};
}

void Batch::clear() {
  descriptors_.clear();
  write_data_.clear();
  read_blocks_ = write_blocks_ = 0;
}

Bytes Batch::parameter_list() const {
  return modepages::encode_batch_list(descriptors_, write_data_);
}

std::uint64_t Batch::results_size() const {
  return modepages::kBatchResultsHeaderBytes + read_blocks_ * limits_.block_size;
}

std::string Batch::describe_list_byte(std::uint32_t byte) const {
  constexpr std::uint32_t kHeader = modepages::kBatchHeaderBytes;
  constexpr std::uint32_t kDescriptor = modepages::kBatchDescriptorBytes;
  if (byte < kHeader) {
    return "header byte " + num(byte) + (byte < 2 ? " (descriptor count)" : " (reserved)");
  }
  const std::uint64_t k = (byte - kHeader) / kDescriptor;
  if (k < descriptors_.size()) {
    const modepages::BatchDescriptor& d = descriptors_[k];
    const std::uint32_t off = (byte - kHeader) % kDescriptor;
    const char* field = off == 0   ? "operation"
                        : off < 4  ? "reserved"
                        : off < 12 ? "LBA"
                                   : "number of blocks";
    return "descriptor " + num(k) + " (" + op_name(d.op) + " LBA " + num(d.lba) + ", " +
           num(d.blocks) + " blocks), " + field;
  }
  std::uint64_t at = kHeader + kDescriptor * descriptors_.size();
  for (std::size_t i = 0; i < descriptors_.size(); ++i) {
    if (descriptors_[i].op != modepages::BatchOp::kWrite) continue;
    const std::uint64_t len = std::uint64_t{descriptors_[i].blocks} * limits_.block_size;
    if (byte < at + len) return "write data of descriptor " + num(i);
    at += len;
  }
  return "byte " + num(byte) + ", past the end of the list";
}

Result<BatchResult> split_results(const Batch& batch, std::uint8_t batch_id,
                                  std::span<const std::uint8_t> results) {
  const auto header = modepages::decode_batch_results_header(results);
  if (!header) {
    return bad_response("MEMS BATCH RESULTS returned " + num(results.size()) +
                        " bytes, fewer than its 16-byte header");
  }
  if (header->batch_id != batch_id) {
    return bad_response("MEMS BATCH RESULTS is for batch " + num(header->batch_id) +
                        ", not batch " + num(batch_id));
  }
  if (header->descriptors != batch.size()) {
    return bad_response("MEMS BATCH RESULTS counts " + num(header->descriptors) +
                        " descriptors; the batch has " + num(batch.size()));
  }
  if (results.size() != batch.results_size()) {
    return bad_response("MEMS BATCH RESULTS returned " + num(results.size()) + " bytes; " +
                        num(batch.results_size()) + " expected (16 + read blocks × block size)");
  }
  BatchResult r;
  r.batch_id = batch_id;
  r.media_steps = header->media_steps;
  r.service_us = header->service_us;
  std::size_t at = modepages::kBatchResultsHeaderBytes;
  for (const modepages::BatchDescriptor& d : batch.descriptors()) {
    if (d.op == modepages::BatchOp::kWrite) {
      r.data.emplace_back();
      continue;
    }
    const std::size_t len = std::size_t{d.blocks} * batch.limits().block_size;
    r.data.emplace_back(results.begin() + static_cast<std::ptrdiff_t>(at),
                        results.begin() + static_cast<std::ptrdiff_t>(at + len));
    at += len;
  }
  return r;
}

}  // namespace memstore::host
