// SPDX-License-Identifier: Apache-2.0
// BlockDevice over the host library: a MEMStore found through mode page 20h
// (a running memstored over iscsi://, or a /dev/sg* LUN), batches sent as
// MEMS BATCH / MEMS BATCH RESULTS. Times are the device's modeled service
// times as MEMS BATCH RESULTS reports them (whole microseconds), whatever
// the target's timing mode: in realtime mode the wall clock agrees, in
// timing "off" it does not, and the modeled time is what the thesis plots.
#pragma once

#include <memory>
#include <string>

#include "apps/block_device.h"
#include "host/device.h"

namespace memstore::apps {

class HostBlockDevice final : public BlockDevice {
 public:
  // Opens `target` (iscsi:// URL or device path). A device without a usable
  // page 20h is kNotMemstore: the applications need the geometry.
  static host::Result<std::unique_ptr<HostBlockDevice>> open(
      const std::string& target, const host::TransportOptions& options = {});
  // Over an already opened device (tests attach an in-process LUN).
  static host::Result<std::unique_ptr<HostBlockDevice>> over(std::unique_ptr<host::Device> device);

  std::string name() const override { return device_->name(); }
  const host::HostGeometry& geometry() const override { return *device_->geometry(); }
  std::uint32_t block_size() const override { return device_->block_size(); }
  std::int64_t service_resolution_ns() const override { return 1000; }
  bool returns_data() const override { return true; }
  host::Result<BatchDone> submit(std::span<const Extent> extents,
                                 std::span<const std::uint8_t> write_data,
                                 const SubmitOptions& options) override;

  host::Device& device() { return *device_; }

 private:
  explicit HostBlockDevice(std::unique_ptr<host::Device> d) : device_(std::move(d)) {}
  std::unique_ptr<host::Device> device_;
};

}  // namespace memstore::apps
