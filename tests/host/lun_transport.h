// SPDX-License-Identifier: Apache-2.0
// Test transports for the host library: a scsi::Lun in-process behind the
// host's Transport interface (the same LUN memstored serves), and a wrapper
// that rewrites chosen answers (a plain disk without page 20h, unit
// attentions, a dead connection).
#pragma once

#include <functional>
#include <memory>
#include <optional>

#include "host/transport.h"
#include "model/geometry.h"
#include "target/scsi/lun.h"
#include "target/scsi/memory_store.h"

namespace memstore::host::testing {

// `control`: the test host, an unnamed nexus, may change page 22h.
inline std::unique_ptr<scsi::Lun> make_lun(const model::DeviceParams& device, bool control = true) {
  scsi::LunConfig config;
  config.device = device;
  config.control_access.unnamed = control;
  const model::Geometry g(device);
  auto store = scsi::MemoryStore::create(static_cast<std::uint64_t>(g.blocks()),
                                         static_cast<std::uint32_t>(device.block_bytes));
  auto created = scsi::Lun::create(std::move(config), std::move(store.value()));
  return std::move(created).value();
}

class LunTransport : public Transport {
 public:
  explicit LunTransport(scsi::Lun& lun) : lun_(lun) {}

  Result<ScsiResponse> execute(const ScsiCommand& c) override {
    Bytes cdb(c.cdb.begin(), c.cdb.end());
    cdb.resize(16, 0);  // transports hand the LUN 16-byte CDB buffers
    scsi::ScsiCommand sc;
    sc.nexus = 1;
    sc.tag = ++tag_;
    sc.cdb = cdb;
    sc.data_out = c.data_out;
    now_ += 1'000'000;
    sc.arrival_ns = now_;
    const scsi::ScsiResult r = lun_.execute(sc);
    ScsiResponse out;
    out.status = static_cast<std::uint8_t>(r.status);
    out.sense = r.sense;
    out.data_in = r.data_in;
    if (c.direction == DataDirection::kIn && out.data_in.size() > c.data_in_length) {
      out.data_in.resize(c.data_in_length);
    }
    ++commands;
    return out;
  }
  std::string name() const override { return "lun://test"; }

  int commands = 0;

 private:
  scsi::Lun& lun_;
  std::uint64_t tag_ = 0;
  model::Ns now_ = 0;
};

// Answers a command itself when `hook` returns a response (or an error).
class HookTransport : public Transport {
 public:
  using Hook = std::function<std::optional<Result<ScsiResponse>>(const ScsiCommand&)>;
  HookTransport(std::unique_ptr<Transport> inner, Hook hook)
      : inner_(std::move(inner)), hook_(std::move(hook)) {}
  Result<ScsiResponse> execute(const ScsiCommand& c) override {
    if (auto r = hook_(c)) return *r;
    return inner_->execute(c);
  }
  std::string name() const override { return inner_->name(); }

 private:
  std::unique_ptr<Transport> inner_;
  Hook hook_;
};

// A CHECK CONDITION response with fixed-format sense.
inline ScsiResponse check_condition(std::uint8_t key, std::uint8_t asc, std::uint8_t ascq) {
  ScsiResponse r;
  r.status = kStatusCheckCondition;
  r.sense.assign(18, 0);
  r.sense[0] = 0x70;
  r.sense[2] = key;
  r.sense[7] = 10;
  r.sense[12] = asc;
  r.sense[13] = ascq;
  return r;
}

}  // namespace memstore::host::testing
