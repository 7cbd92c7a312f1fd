// SPDX-License-Identifier: Apache-2.0
// MODE SENSE and MODE SELECT (SPC-4 §6.11-6.14): the standard pages and the
// MEMStore vendor pages, with the control page's changes applied to the LUN.
// Only the initiators LunConfig::control_access names may change the control
// pages 22h and 1Ah (control_access.h); a refusal is logged, rate-limited.
#include <cerrno>
#include <chrono>

#include "modepages/bytes.h"
#include "target/scsi/lun.h"

namespace memstore::scsi {
namespace {

// Who sent a command, for the log: the initiator port, or the bare nexus.
std::string who(const InitiatorPort& port, std::uint64_t nexus) {
  return port.described() ? loggable(port.name) : "unnamed nexus " + std::to_string(nexus);
}

// 0x1A -> "1A".
std::string hex2(std::uint8_t b) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  return {kHex[b >> 4], kHex[b & 0x0F]};
}

// 2500 -> "2.5", 1000000 -> "1000".
// Page 22h's power strategies for the log, named only when on.
std::string strategies_text(const modepages::ControlPage& page) {
  std::string s;
  if (page.merge_requests) s += ", request merging";
  if (page.subsector) s += ", subsector accesses";
  return s;
}

std::string scale_text(std::uint32_t milli) {
  std::string s = std::to_string(milli / 1000);
  if (const std::uint32_t frac = milli % 1000; frac != 0) {
    std::string f = std::to_string(1000 + frac).substr(1);
    while (f.back() == '0') f.pop_back();
    s += "." + f;
  }
  return s;
}

std::int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

Outcome Lun::mode_sense(const CommandContext& c) {
  modepages::ModeSenseRequest req;
  req.ten = c.cdb[0] == 0x5A;
  req.dbd = (c.cdb[1] & 0x08) != 0;
  req.llbaa = req.ten && (c.cdb[1] & 0x10) != 0;
  req.pc = static_cast<modepages::PageControl>(c.cdb[2] >> 6);
  req.page = c.cdb[2] & 0x3F;
  req.subpage = c.cdb[3];
  req.blocks = blocks();
  req.block_size = block_size();
  auto r = modepages::mode_sense(mode_, req);
  if (!r.ok()) return Outcome::fail(sense_from(r.error()));
  Outcome o;
  o.data_in = std::move(r).value();
  return o;
}

Outcome Lun::mode_select(const CommandContext& c) {
  const bool ten = c.cdb[0] == 0x55;
  const bool pf = (c.cdb[1] & 0x10) != 0;
  const bool sp = (c.cdb[1] & 0x01) != 0;
  const std::uint64_t len = cdb_field(c.cdb, c.spec.length);
  if (c.data_out.size() < len) return Outcome::fail({Reason::kParamListLengthError, {}, {}});
  if (len == 0) return {};  // SPC-4 §6.13: no data, no change
  const InitiatorPort& port = port_of(c.nexus);
  const bool may_control = config_.control_access.allows(port);
  const modepages::ControlPage before = mode_.control();
  const std::int64_t idle_before = mode_.idle_timeout_ns();
  if (const modepages::FieldStatus s =
          modepages::mode_select(mode_, ten, pf, sp, c.data_out.first(len), may_control);
      !s.ok()) {
    const modepages::FieldError& e = s.error();
    if (e.kind == modepages::FieldError::Kind::kAccessDenied && log_) {
      const RateLimiter::Verdict v = refusal_log_limit_.admit(steady_ns());
      if (v.suppressed > 0) {
        log_(LogLevel::kWarning, log_name_ + ": suppressed " + std::to_string(v.suppressed) +
                                     " messages (refused control page changes)");
      }
      if (v.log) {
        // The error points at the refused page's code byte.
        const std::uint8_t code = c.data_out[e.byte] & 0x3F;
        log_(LogLevel::kWarning, log_name_ + ": MODE SELECT of control page " + hex2(code) +
                                     "h refused to " + who(port, c.nexus) +
                                     ": not in control_initiators (docs/memstored.md, "
                                     "\"Limits and security\")");
      }
    }
    return Outcome::fail(sense_from(e));
  }
  apply_control_page();
  if (!log_) return {};
  if (const modepages::ControlPage now = mode_.control(); !(now == before)) {
    log_(LogLevel::kInfo, log_name_ + ": control page 22h set by " + who(port, c.nexus) +
                              ": scheduler " + config_.scheduler + ", timing " +
                              timing_mode_name(now.timing) + ", scale " +
                              scale_text(now.scale_milli) + strategies_text(now));
  }
  if (const std::int64_t idle = mode_.idle_timeout_ns(); idle != idle_before) {
    log_(LogLevel::kInfo,
         log_name_ + ": control page 1Ah set by " + who(port, c.nexus) + ": idle timeout " +
             (idle < 0 ? std::string("never") : std::to_string(idle / 1'000'000) + " ms"));
  }
  return {};
}

memstore::Status Lun::set_control(const modepages::ControlPage& page) {
  // Through MODE SELECT(6) of page 22h, so that the page, its checks and
  // what the LUN acts on stay one (SPC-4 §7.5: a 4-byte header, no block
  // descriptor, then the page).
  Bytes list(4, 0);
  const Bytes encoded = modepages::encode(page);
  list.insert(list.end(), encoded.begin(), encoded.end());
  if (const auto s = modepages::mode_select(mode_, false, true, false, list, true); !s.ok()) {
    return Error{EINVAL, s.error().what};
  }
  apply_control_page();
  if (log_) {
    log_(LogLevel::kInfo, log_name_ + ": control page 22h set by the control socket: scheduler " +
                              config_.scheduler + ", timing " + timing_mode_name(page.timing) +
                              ", scale " + scale_text(page.scale_milli) + strategies_text(page));
  }
  return {};
}

void Lun::apply_control_page() {
  // Power Condition (1Ah): its standby timer is the sled's idle timeout. A
  // disk has no page 1Ah and no power model.
  if (!is_disk() && mode_.idle_timeout_ns() != config_.device.power.idle_timeout_ns) {
    config_.device.power.idle_timeout_ns = mode_.idle_timeout_ns();
    device_->set_idle_timeout_ns(config_.device.power.idle_timeout_ns);
  }
  const modepages::ControlPage page = mode_.control();
  config_.timing.mode = page.timing;
  config_.timing.scale = page.scale_milli / 1000.0;
  // Page 22h byte 6: the power strategies (second paper §5.2.2, §5.2.3).
  if (page.merge_requests != config_.device.power.merge_requests) {
    config_.device.power.merge_requests = page.merge_requests;
    device_->set_merge_requests(page.merge_requests);
  }
  if (page.subsector != config_.device.power.subsector) {
    config_.device.power.subsector = page.subsector;
    device_->set_subsector(page.subsector);
  }
  const std::optional<std::string> name = modepages::scheduler_name(page.scheduler);
  if (name && *name != config_.scheduler) {
    config_.scheduler = *name;
    device_->replace_schedulers(config_.scheduler, config_.scheduler_options);
  }
}

}  // namespace memstore::scsi
