// SPDX-License-Identifier: Apache-2.0
#include "apps/host_block_device.h"

namespace memstore::apps {

host::Result<std::unique_ptr<HostBlockDevice>> HostBlockDevice::open(
    const std::string& target, const host::TransportOptions& options) {
  auto device = host::Device::open(target, options);
  if (!device.ok()) return device.error();
  return over(std::move(*device));
}

host::Result<std::unique_ptr<HostBlockDevice>> HostBlockDevice::over(
    std::unique_ptr<host::Device> device) {
  if (!device->is_memstore()) {
    return host::Error{host::Error::Code::kNotMemstore,
                       device->name() + " is not a MEMStore: " + device->not_memstore_reason(), 0,
                       std::nullopt};
  }
  return std::unique_ptr<HostBlockDevice>(new HostBlockDevice(std::move(device)));
}

host::Result<BatchDone> HostBlockDevice::submit(std::span<const Extent> extents,
                                                std::span<const std::uint8_t> write_data,
                                                const SubmitOptions& options) {
  auto batch = device_->new_batch();
  if (!batch.ok()) return batch.error();
  const std::size_t bs = device_->block_size();
  std::size_t used = 0;
  for (const Extent& e : extents) {
    host::Status s;
    if (e.op == Op::kRead) {
      s = batch->add_read(e.lbn, e.blocks);
    } else {
      const std::size_t bytes = std::size_t{e.blocks} * bs;
      if (write_data.size() - used < bytes) {
        return host::invalid_argument("write data: " + std::to_string(write_data.size()) +
                                      " bytes are fewer than the write extents need");
      }
      s = batch->add_write(e.lbn, write_data.subspan(used, bytes));
      used += bytes;
    }
    if (!s.ok()) return s.error();
  }
  auto r = device_->submit(*batch, {.strict = options.strict, .fua = false});
  if (!r.ok()) return r.error();
  BatchDone done;
  done.service_ns = std::int64_t{r->service_us} * 1000;
  done.media_steps = r->media_steps;
  done.data = std::move(r->data);
  return done;
}

}  // namespace memstore::apps
