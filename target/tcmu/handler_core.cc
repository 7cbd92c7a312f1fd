// SPDX-License-Identifier: Apache-2.0
// The C++ side of handler_core.h: config string -> LunSpec -> Lun (the same
// lunspec::open_lun memstored uses) -> ThreadedLunDriver, and the copying
// between tcmu's iovecs and the Lun's buffers.
#include "target/tcmu/handler_core.h"

#include <pthread.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "target/lunspec/lun_device.h"
#include "target/lunspec/lun_factory.h"
#include "target/scsi/command_table.h"
#include "target/tcmu/cdb_length.h"
#include "target/tcmu/config_string.h"
#include "target/tcmu/log_lines.h"
#include "target/tcmu/threaded_driver.h"

struct memstore_tcmu_lun {
  std::unique_ptr<memstore::tcmu::ThreadedLunDriver> driver;
  std::string description;  // "g2, realtime" for the close report
};

namespace {

using memstore::tcmu::ThreadedLunDriver;
namespace scsi = memstore::scsi;

char* dup_message(const std::string& s) noexcept {
  return ::strdup(s.c_str());
}

// tcmu-runner removes a device by cancelling its worker threads
// (pthread_cancel). A cancellation inside the core would unwind through C++
// frames that must not be unwound that way (noexcept functions; the wait for
// a result, a cancellation point, whose call record the LUN thread still
// writes to), so it is held off until the worker is back in tcmu-runner's
// loop.
class NoCancel {
 public:
  NoCancel() noexcept { ::pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old_); }
  ~NoCancel() { ::pthread_setcancelstate(old_, nullptr); }
  NoCancel(const NoCancel&) = delete;
  NoCancel& operator=(const NoCancel&) = delete;

 private:
  int old_ = PTHREAD_CANCEL_ENABLE;
};

std::size_t iov_bytes(const struct iovec* iov, std::size_t n) {
  std::size_t total = 0;
  for (std::size_t i = 0; i < n; ++i) total += iov[i].iov_len;
  return total;
}

void gather(const struct iovec* iov, std::size_t n, std::vector<std::uint8_t>& out) {
  out.resize(iov_bytes(iov, n));
  std::size_t at = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (iov[i].iov_len == 0) continue;
    std::memcpy(out.data() + at, iov[i].iov_base, iov[i].iov_len);
    at += iov[i].iov_len;
  }
}

// Copies as much of `data` as the iovecs hold and zeroes the rest. TCMU
// (libtcmu 1.5.x) cannot report a residual, so the initiator receives the
// whole buffer it asked for; the kernel hands that buffer over with whatever
// an earlier command left in the data area, which must not leak.
void scatter(std::span<const std::uint8_t> data, const struct iovec* iov, std::size_t n) {
  std::size_t at = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t k = at < data.size() ? std::min(iov[i].iov_len, data.size() - at) : 0;
    if (k > 0) std::memcpy(iov[i].iov_base, data.data() + at, k);
    if (k < iov[i].iov_len) {
      std::memset(static_cast<std::uint8_t*>(iov[i].iov_base) + k, 0, iov[i].iov_len - k);
    }
    at += k;
  }
}

}  // namespace

extern "C" {

const char* memstore_tcmu_config_help(void) {
  return memstore::tcmu::kConfigHelp;
}

char* memstore_tcmu_check_config(const char* cfgstring) {
  try {
    const auto spec = memstore::tcmu::parse_config_string(cfgstring == nullptr ? "" : cfgstring);
    if (!spec.ok()) return dup_message(spec.error().message);
    return nullptr;
  } catch (...) {
    return dup_message("out of memory while checking the config string");
  }
}

struct memstore_tcmu_lun* memstore_tcmu_open(const char* cfgstring, uint64_t size_bytes,
                                             uint32_t block_size, char** error) {
  try {
    auto parsed = memstore::tcmu::parse_config_string(cfgstring == nullptr ? "" : cfgstring);
    if (!parsed.ok()) {
      *error = dup_message(parsed.error().message);
      return nullptr;
    }
    const memstore::lunspec::LunSpec& spec = *parsed;
    const std::uint32_t device_block = memstore::lunspec::device_block_bytes(spec);
    const std::uint64_t want_bytes = memstore::lunspec::device_blocks(spec) * device_block;
    if (block_size != device_block) {
      *error = dup_message("block size: the backstore has " + std::to_string(block_size) +
                           "-byte blocks but the device (device=" + spec.device + ") has " +
                           std::to_string(device_block) +
                           "; set the backstore's hw_block_size to match");
      return nullptr;
    }
    if (size_bytes != want_bytes) {
      *error = dup_message("size: the backstore has " + std::to_string(size_bytes) +
                           " bytes but the device (device=" + spec.device + ") holds " +
                           std::to_string(want_bytes) +
                           "; create it with size=" + std::to_string(want_bytes));
      return nullptr;
    }
    auto opened = memstore::lunspec::open_lun(spec, "memstore-tcmu", "");
    if (!opened.ok()) {
      *error = dup_message(opened.error().message);
      return nullptr;
    }
    auto lun = std::make_unique<memstore_tcmu_lun>();
    lun->description = spec.device + ", " + scsi::timing_mode_name(spec.config.timing.mode);
    lun->driver = std::make_unique<ThreadedLunDriver>(std::move(opened).value());
    return lun.release();
  } catch (const std::exception& e) {
    *error = dup_message(std::string("cannot open the LUN: ") + e.what());
    return nullptr;
  } catch (...) {
    *error = dup_message("cannot open the LUN");
    return nullptr;
  }
}

void memstore_tcmu_set_log(struct memstore_tcmu_lun* lun, memstore_tcmu_log_fn log, void* context,
                           const char* name) {
  try {
    const std::string prefix = name == nullptr ? "memstore" : name;
    lun->driver->set_log(
        [log, context, prefix](memstore::scsi::LogLevel level, std::string_view message) {
          for (const std::string& piece : memstore::tcmu::log_pieces(message, prefix)) {
            log(context, static_cast<memstore_tcmu_log_level>(level), piece.c_str());
          }
        },
        prefix);
  } catch (...) {
    // Out of memory: the LUN goes on without a log.
  }
}

uint64_t memstore_tcmu_size_bytes(const struct memstore_tcmu_lun* lun) {
  return lun->driver->blocks() * lun->driver->block_size();
}

char* memstore_tcmu_close(struct memstore_tcmu_lun* lun) {
  const std::unique_ptr<memstore_tcmu_lun> owned(lun);  // freed on every path
  try {
    const scsi::StoreStatus flushed = owned->driver->switch_off();
    const memstore::tcmu::Lateness late = owned->driver->lateness();
    const memstore::tcmu::Lateness woke = owned->driver->handback();
    char line[320];
    std::snprintf(line, sizeof line,
                  "%s: %llu timed completions, late by %.1f us on average, %.1f us at most; "
                  "workers woke %.1f us after their result on average, %.1f us at most",
                  owned->description.c_str(), static_cast<unsigned long long>(late.count),
                  late.mean_ns() / 1000.0, static_cast<double>(late.max_ns) / 1000.0,
                  woke.mean_ns() / 1000.0, static_cast<double>(woke.max_ns) / 1000.0);
    std::string report = line;
    if (!flushed.ok()) report += "; flush failed: " + flushed.error().message;
    return dup_message(report);
  } catch (...) {
    return nullptr;
  }
}

enum memstore_tcmu_status memstore_tcmu_execute(struct memstore_tcmu_lun* lun, const uint8_t* cdb,
                                                const struct iovec* iov, size_t iov_cnt,
                                                uint8_t* sense, size_t sense_size) {
  NoCancel no_cancel;
  try {
    const std::span<const std::uint8_t> cdb_span(cdb, memstore::tcmu::cdb_length(cdb));
    // Only commands that take data-out get the buffer's contents; for the
    // others it is the data-in buffer.
    bool bad_sa = false;
    const scsi::CommandSpec* spec = scsi::find_command(cdb_span, bad_sa);
    std::vector<std::uint8_t> data_out;
    if (spec != nullptr && spec->direction == scsi::DataDirection::kOut) {
      gather(iov, iov_cnt, data_out);
    }

    scsi::ScsiCommand command;
    command.cdb = cdb_span;
    command.data_out = data_out;
    const scsi::ScsiResult r = lun->driver->execute(command);
    switch (r.status) {
      case scsi::Status::kGood:
        if (spec == nullptr || spec->direction != scsi::DataDirection::kOut) {
          scatter(r.data_in, iov, iov_cnt);
        }
        return MEMSTORE_TCMU_GOOD;
      case scsi::Status::kCheckCondition: {
        const std::size_t n = std::min(r.sense.size(), sense_size);
        std::memset(sense, 0, sense_size);
        std::memcpy(sense, r.sense.data(), n);
        return MEMSTORE_TCMU_CHECK_CONDITION;
      }
      case scsi::Status::kBusy:
        return MEMSTORE_TCMU_BUSY;
      case scsi::Status::kTaskSetFull:
        return MEMSTORE_TCMU_TASK_SET_FULL;
      default:
        // RESERVATION CONFLICT and TASK ABORTED have no TCMU status; the Lun
        // returns neither today (no reservations, no aborts on this path).
        return MEMSTORE_TCMU_INTERNAL_ERROR;
    }
  } catch (...) {
    return MEMSTORE_TCMU_INTERNAL_ERROR;
  }
}

}  // extern "C"
