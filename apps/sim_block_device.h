// SPDX-License-Identifier: Apache-2.0
// BlockDevice on the device model itself, with no target: the applications
// "inside memsim". The geometry is mode page 20h's fields as the target
// would publish them (modepages::geometry_page_from), read back through
// HostGeometry like on a real device; each batch is one model::Request
// with its extents (thesis §6.3.5), served by the same model::Device (FCFS,
// one mechanism per sled) a memstored LUN runs. Batches arrive back to
// back: each at the modeled completion of the previous one, which is how a
// closed-loop host meets the device. Service times are the model's exact
// nanoseconds.
//
// Data: with `keep_data`, written blocks are kept (sparse) and reads return
// them, zeros where nothing was written, like memstored's memory backing.
// Without it reads return no data, which keeps full-size runs small.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

#include "apps/block_device.h"
#include "model/device.h"
#include "model/params.h"

namespace memstore::apps {

class SimBlockDevice final : public BlockDevice {
 public:
  // kInvalidArgument naming the problem when `params` do not describe a device.
  static host::Result<std::unique_ptr<SimBlockDevice>> create(const model::DeviceParams& params,
                                                              bool keep_data);

  std::string name() const override { return name_; }
  const host::HostGeometry& geometry() const override { return geometry_; }
  std::uint32_t block_size() const override { return block_size_; }
  std::int64_t service_resolution_ns() const override { return 1; }
  bool returns_data() const override { return keep_data_; }
  // Checks what memstored checks (limits, capacity, one sled, STRICT) and
  // answers kInvalidArgument where memstored answers CHECK CONDITION.
  host::Result<BatchDone> submit(std::span<const Extent> extents,
                                 std::span<const std::uint8_t> write_data,
                                 const SubmitOptions& options) override;

  // The model clock: when the last batch completed.
  model::Ns now_ns() const { return now_ns_; }

 private:
  SimBlockDevice(const model::DeviceParams& params, host::HostGeometry geometry,
                 std::unique_ptr<model::Device> device, bool keep_data);

  model::DeviceParams params_;
  host::HostGeometry geometry_;
  std::unique_ptr<model::Device> device_;
  std::string name_;
  std::uint32_t block_size_;
  bool keep_data_;
  model::Ns now_ns_ = 0;
  std::uint64_t next_id_ = 1;
  std::unordered_map<Lbn, Bytes> store_;
};

}  // namespace memstore::apps
