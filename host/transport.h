// SPDX-License-Identifier: Apache-2.0
// The one thing the host library needs from a SCSI transport: execute a CDB
// with optional data-out or data-in, and give back the status, the sense data
// and the data-in. Two implementations: libiscsi for iscsi:// URLs
// (transport_iscsi.cc) and Linux SG_IO for /dev/sg* and /dev/sd*
// (transport_sg.cc). Tests add fakes.
//
// Errors as values: a transport failure (cannot connect, login refused,
// connection lost, no answer in time, ioctl failed) is an Error with code
// kTransport; every SCSI status, CHECK CONDITION included, is a response.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "host/result.h"

namespace memstore::host {

using Bytes = std::vector<std::uint8_t>;

enum class DataDirection : std::uint8_t { kNone, kIn, kOut };

struct ScsiCommand {
  std::span<const std::uint8_t> cdb;  // 6..16 bytes
  DataDirection direction = DataDirection::kNone;
  std::span<const std::uint8_t> data_out;  // kOut: the whole data-out buffer
  std::uint32_t data_in_length = 0;        // kIn: the most data-in accepted
};

// SAM-5 status codes the library names.
inline constexpr std::uint8_t kStatusGood = 0x00;
inline constexpr std::uint8_t kStatusCheckCondition = 0x02;
// "GOOD", "CHECK CONDITION", "BUSY", ...; "status 0xNN" for others.
std::string status_name(std::uint8_t status);

struct ScsiResponse {
  std::uint8_t status = kStatusGood;
  Bytes sense;    // raw sense data, when the status is CHECK CONDITION
  Bytes data_in;  // the bytes the device sent (at most data_in_length)
};

class Transport {
 public:
  virtual ~Transport() = default;
  Transport() = default;
  Transport(const Transport&) = delete;
  Transport& operator=(const Transport&) = delete;

  virtual Result<ScsiResponse> execute(const ScsiCommand& command) = 0;
  // What was opened, for messages: "iscsi://127.0.0.1:3260/iqn.../0"
  // (never a password) or "/dev/sg2".
  virtual std::string name() const = 0;
};

struct TransportOptions {
  // iSCSI initiator name presented at login.
  std::string initiator_name = "iqn.2026-11.org.memstore:host";
  // Longest wait for a login or a command before the transport gives up (and
  // is unusable afterwards). Realtime batches complete in milliseconds.
  int timeout_s = 60;
};

// "iscsi://[user[%password]@]host[:port]/target-iqn/lun" (libiscsi's URL
// syntax, CHAP in the URL or in LIBISCSI_CHAP_USERNAME/PASSWORD, mutual CHAP
// with ?target_user=..&target_password=..) or a device path ("/dev/sg2").
Result<std::unique_ptr<Transport>> open_transport(const std::string& target,
                                                  const TransportOptions& options = {});
Result<std::unique_ptr<Transport>> open_iscsi(const std::string& url,
                                              const TransportOptions& options);
Result<std::unique_ptr<Transport>> open_sg(const std::string& path,
                                           const TransportOptions& options);

inline Error transport_error(std::string message) {
  return {Error::Code::kTransport, std::move(message), 0, std::nullopt};
}

}  // namespace memstore::host
