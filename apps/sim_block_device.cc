// SPDX-License-Identifier: Apache-2.0
#include "apps/sim_block_device.h"

#include <algorithm>

#include "model/batch.h"
#include "model/device_factory.h"
#include "model/geometry.h"
#include "modepages/mode_vendor.h"

namespace memstore::apps {
namespace {

std::string num(std::uint64_t v) {
  return std::to_string(v);
}

std::string describe(const model::DeviceParams& p, const host::HostGeometry& g) {
  const auto& page = g.page();
  return "model " + p.name + " (p=" + num(page.p) + ", N=" + num(page.n) + ", M=" + num(page.m) +
         ", " + num(g.blocks()) + " blocks)";
}

}  // namespace

SimBlockDevice::SimBlockDevice(const model::DeviceParams& params, host::HostGeometry geometry,
                               std::unique_ptr<model::Device> device, bool keep_data)
    : params_(params),
      geometry_(geometry),
      device_(std::move(device)),
      name_(describe(params, geometry_)),
      block_size_(static_cast<std::uint32_t>(params.block_bytes)),
      keep_data_(keep_data) {}

host::Result<std::unique_ptr<SimBlockDevice>> SimBlockDevice::create(
    const model::DeviceParams& params, bool keep_data) {
  const auto problems = model::validate(params);
  if (!problems.empty()) {
    return host::invalid_argument("device parameters: " + problems.front().key + ": " +
                                  problems.front().message);
  }
  // The page memstored would publish, read the way a host reads it.
  auto geometry = host::HostGeometry::from_page(modepages::geometry_page_from(params));
  if (!geometry.ok()) return geometry.error();
  auto device = model::make_mems_device(params, "fcfs");
  if (!device) return host::invalid_argument("the model cannot build this device");
  return std::unique_ptr<SimBlockDevice>(
      new SimBlockDevice(params, *geometry, std::move(device), keep_data));
}

host::Result<BatchDone> SimBlockDevice::submit(std::span<const Extent> extents,
                                               std::span<const std::uint8_t> write_data,
                                               const SubmitOptions& options) {
  // The checks memstored makes before the model sees the batch.
  if (extents.empty()) return host::invalid_argument("a batch needs at least one descriptor");
  if (extents.size() > max_batch_descriptors()) {
    return host::invalid_argument("the batch has " + num(extents.size()) +
                                  " descriptors, above the device's maximum of " +
                                  num(max_batch_descriptors()));
  }
  const std::uint64_t per_sled = geometry_.page().blocks_per_sled;
  std::uint64_t total = 0, write_bytes = 0;
  std::vector<model::BatchExtent> batch;
  batch.reserve(extents.size());
  for (std::size_t i = 0; i < extents.size(); ++i) {
    const Extent& e = extents[i];
    if (e.blocks == 0 || e.lbn >= blocks() || e.blocks > blocks() - e.lbn) {
      return host::invalid_argument("descriptor " + num(i) + " (LBA " + num(e.lbn) + ", " +
                                    num(e.blocks) + " blocks) is empty or beyond the device");
    }
    if (e.lbn / per_sled != extents[0].lbn / per_sled ||
        (e.lbn + e.blocks - 1) / per_sled != extents[0].lbn / per_sled) {
      return host::invalid_argument("descriptor " + num(i) + " leaves the sled of descriptor 0");
    }
    total += e.blocks;
    if (e.op == Op::kWrite) write_bytes += std::uint64_t{e.blocks} * block_size_;
    batch.push_back({e.op == Op::kRead ? model::Op::kRead : model::Op::kWrite,
                     static_cast<model::Lbn>(e.lbn), static_cast<std::int32_t>(e.blocks)});
  }
  if (total > max_batch_blocks()) {
    return host::invalid_argument("the batch holds " + num(total) +
                                  " blocks, above the device's maximum of " +
                                  num(max_batch_blocks()));
  }
  if (write_data.size() != write_bytes) {
    return host::invalid_argument("write data is " + num(write_data.size()) +
                                  " bytes; the write extents need " + num(write_bytes));
  }
  if (options.strict && model::plan_batch(model::Geometry(params_), batch).size() > 1) {
    return host::invalid_argument("the STRICT batch needs more than one media step");
  }

  // Data as of arrival, in descriptor order (as memstored's LUN does).
  BatchDone done;
  std::size_t used = 0;
  for (const Extent& e : extents) {
    if (e.op == Op::kWrite) {
      if (keep_data_) {
        for (std::uint32_t b = 0; b < e.blocks; ++b) {
          const auto from = write_data.begin() + static_cast<std::ptrdiff_t>(used);
          store_[e.lbn + b].assign(from, from + block_size_);
          used += block_size_;
        }
      } else {
        used += std::size_t{e.blocks} * block_size_;
      }
      if (keep_data_) done.data.emplace_back();
      continue;
    }
    if (!keep_data_) continue;
    Bytes data(std::size_t{e.blocks} * block_size_, 0);
    for (std::uint32_t b = 0; b < e.blocks; ++b) {
      const auto it = store_.find(e.lbn + b);
      if (it != store_.end()) {
        std::copy(it->second.begin(), it->second.end(),
                  data.begin() + static_cast<std::ptrdiff_t>(std::size_t{b} * block_size_));
      }
    }
    done.data.push_back(std::move(data));
  }

  // One request carrying the batch, arriving when the previous one ended.
  model::Request r;
  r.id = next_id_++;
  r.arrival_ns = now_ns_;
  r.lbn = batch.front().lbn;
  r.blocks = 1;
  r.op = std::any_of(batch.begin(), batch.end(),
                     [](const model::BatchExtent& e) { return e.op == model::Op::kWrite; })
             ? model::Op::kWrite
             : model::Op::kRead;
  r.batch = &batch;
  device_->submit(r);
  bool completed = false;
  device_->drain([&](const model::Completion& c) {
    done.service_ns = c.breakdown.service_ns();
    done.media_steps = static_cast<std::uint32_t>(c.breakdown.media_steps);
    now_ns_ = c.done_ns;
    completed = true;
  });
  if (!completed) return host::invalid_argument("the model did not complete the batch");
  return done;
}

}  // namespace memstore::apps
