// SPDX-License-Identifier: Apache-2.0
// Building a MEMS BATCH (docs/vendor-interface.md; thesis §6.3.3:
// the host groups parallel-accessible requests explicitly) and what comes
// back from MEMS BATCH RESULTS. The builder checks what the host can know
// before sending: page 20h's maximum descriptors and blocks, the capacity,
// whole blocks of write data, the 24-bit parameter list length. The device
// checks the rest (overlapping writes, STRICT) and answers with sense data.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "host/result.h"
#include "host/transport.h"
#include "modepages/batch_codec.h"

namespace memstore::host {

struct BatchLimits {
  std::uint16_t max_descriptors = 0;  // page 20h bytes 54-55 (at most 4095 are used)
  std::uint32_t max_blocks = 0;       // page 20h bytes 56-59
  std::uint64_t capacity_blocks = 0;  // READ CAPACITY
  std::uint32_t block_size = 0;       // READ CAPACITY
};

class Batch {
 public:
  explicit Batch(const BatchLimits& limits) : limits_(limits) {}

  // Each check failure is a kInvalidArgument naming the descriptor and the
  // limit; the batch is unchanged then.
  Status add_read(std::uint64_t lba, std::uint32_t blocks = 1);
  // `data` is whole blocks; its length gives the number of blocks.
  Status add_write(std::uint64_t lba, std::span<const std::uint8_t> data);

  const BatchLimits& limits() const { return limits_; }
  std::span<const modepages::BatchDescriptor> descriptors() const { return descriptors_; }
  std::size_t size() const { return descriptors_.size(); }
  bool empty() const { return descriptors_.empty(); }
  std::uint64_t blocks() const { return read_blocks_ + write_blocks_; }
  std::uint64_t read_blocks() const { return read_blocks_; }
  void clear();

  // The MEMS BATCH parameter list: header, descriptors, write data.
  Bytes parameter_list() const;
  // Bytes of the MEMS BATCH RESULTS data: 16-byte header + the read data.
  std::uint64_t results_size() const;

  // Words for a byte offset into parameter_list(), for sense field pointers:
  // "header byte 0 (descriptor count)", "descriptor 2 (write LBA 100, 4
  // blocks), LBA", "write data of descriptor 3".
  std::string describe_list_byte(std::uint32_t byte) const;

 private:
  Status check_add(modepages::BatchOp op, std::uint64_t lba, std::uint64_t blocks,
                   std::uint64_t data_bytes) const;

  BatchLimits limits_;
  std::vector<modepages::BatchDescriptor> descriptors_;
  Bytes write_data_;
  std::uint64_t read_blocks_ = 0;
  std::uint64_t write_blocks_ = 0;
};

struct SubmitOptions {
  bool strict = false;  // refuse (26h/80h) a batch needing more than one media step
  bool fua = false;     // writes durable before GOOD
};

struct BatchResult {
  std::uint8_t batch_id = 0;
  std::uint16_t media_steps = 0;  // sequential media accesses the device needed
  std::uint32_t service_us = 0;   // the device's modeled service time
  // Per descriptor, in batch order: the read data (blocks × block size), or
  // empty for a write.
  std::vector<Bytes> data;
};

// Splits MEMS BATCH RESULTS data (header + read data) for `batch`; checks the
// header's batch id and descriptor count and the data length.
Result<BatchResult> split_results(const Batch& batch, std::uint8_t batch_id,
                                  std::span<const std::uint8_t> results);

}  // namespace memstore::host
