// SPDX-License-Identifier: Apache-2.0
// The SG_IO transport: a local SCSI device through the Linux SCSI generic
// ioctl (sg driver, /dev/sg*; the block layer accepts the same ioctl on
// /dev/sd*). This is how a host reaches a MEMStore that LIO/TCMU or an
// open-iscsi login presents as a local disk.
#include <fcntl.h>
#include <scsi/sg.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "host/transport.h"

namespace memstore::host {
namespace {

constexpr std::size_t kMaxSense = 252;  // SPC-4 §4.5.1: the most sense data there is
constexpr int kSgVersionWithSgIo = 30000;
// Linux's driver_status bit meaning "sense data was returned" (scsi/sg.h's
// SG_ERR_DRIVER_SENSE, not exported by glibc's header).
constexpr unsigned kDriverSense = 0x08;

std::string errno_text() {
  return std::strerror(errno);
}

class SgTransport final : public Transport {
 public:
  SgTransport(int fd, std::string path, int timeout_s)
      : fd_(fd), path_(std::move(path)), timeout_s_(timeout_s) {}
  ~SgTransport() override { ::close(fd_); }

  Result<ScsiResponse> execute(const ScsiCommand& c) override {
    if (c.cdb.empty() || c.cdb.size() > 16) {
      return invalid_argument("CDB of " + std::to_string(c.cdb.size()) + " bytes");
    }
    Bytes cdb(c.cdb.begin(), c.cdb.end());
    Bytes out(c.data_out.begin(), c.data_out.end());  // the ioctl wants a mutable pointer
    ScsiResponse r;
    r.sense.assign(kMaxSense, 0);
    sg_io_hdr_t h{};
    h.interface_id = 'S';
    h.cmd_len = static_cast<unsigned char>(cdb.size());
    h.cmdp = cdb.data();
    h.sbp = r.sense.data();
    h.mx_sb_len = static_cast<unsigned char>(kMaxSense);
    h.timeout = static_cast<unsigned>(timeout_s_) * 1000u;  // ms
    switch (c.direction) {
      case DataDirection::kNone:
        h.dxfer_direction = SG_DXFER_NONE;
        break;
      case DataDirection::kIn:
        r.data_in.assign(c.data_in_length, 0);
        h.dxfer_direction = SG_DXFER_FROM_DEV;
        h.dxferp = r.data_in.data();
        h.dxfer_len = c.data_in_length;
        break;
      case DataDirection::kOut:
        h.dxfer_direction = SG_DXFER_TO_DEV;
        h.dxferp = out.data();
        h.dxfer_len = static_cast<unsigned>(out.size());
        break;
    }
    if (::ioctl(fd_, SG_IO, &h) < 0) {
      return transport_error(path_ + ": SG_IO failed: " + errno_text());
    }
    // host_status: the HBA/transport failed the command (SAM: no status).
    if (h.host_status != 0) {
      return transport_error(path_ + ": the host adapter failed the command (host status " +
                             std::to_string(h.host_status) + ")");
    }
    if ((h.driver_status & ~kDriverSense) != 0) {
      return transport_error(path_ + ": the driver failed the command (driver status " +
                             std::to_string(h.driver_status) + ")");
    }
    r.status = h.status;
    r.sense.resize(r.status == kStatusCheckCondition ? h.sb_len_wr : 0);
    if (c.direction == DataDirection::kIn) {
      const int got = static_cast<int>(c.data_in_length) - h.resid;
      r.data_in.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
    }
    return r;
  }

  std::string name() const override { return path_; }

 private:
  int fd_;
  std::string path_;
  int timeout_s_;
};

}  // namespace

Result<std::unique_ptr<Transport>> open_sg(const std::string& path,
                                           const TransportOptions& options) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) return transport_error("cannot open " + path + ": " + errno_text());
  int version = 0;
  if (::ioctl(fd, SG_GET_VERSION_NUM, &version) < 0 || version < kSgVersionWithSgIo) {
    ::close(fd);
    return invalid_argument(path +
                            " is not a SCSI device that takes SG_IO (try /dev/sgN or /dev/sdX)");
  }
  return std::unique_ptr<Transport>(
      std::make_unique<SgTransport>(fd, path, options.timeout_s > 0 ? options.timeout_s : 60));
}

}  // namespace memstore::host
