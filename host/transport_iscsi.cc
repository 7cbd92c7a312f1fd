// SPDX-License-Identifier: Apache-2.0
// The libiscsi transport (iscsi:// URLs). libiscsi's own *_sync calls keep
// their completion state on the stack and, if the connection fails mid-way,
// leave the queued PDU pointing at it; they also never time out while the
// target is silent. So this file drives libiscsi's async API with its own
// poll loop: every completion record lives until the context is destroyed,
// and every wait has a deadline. After a failure the transport refuses
// further commands (auto-reconnect is off): the caller opens a new one.
#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "host/transport.h"

namespace memstore::host {
namespace {

using Clock = std::chrono::steady_clock;

// One outstanding libiscsi request; libiscsi calls back into it.
struct Pending {
  bool done = false;
  int status = 0;
  scsi_task* task = nullptr;  // owned by the transport
  Bytes data_out;             // libiscsi references the data-out; keep it here
};

void on_complete(iscsi_context* /*ctx*/, int status, void* /*command_data*/, void* private_data) {
  auto* p = static_cast<Pending*>(private_data);
  p->done = true;
  p->status = status;
}

// libiscsi's pseudo statuses (iscsi.h): the command never got a SCSI status.
bool is_transport_status(int status) {
  return status == SCSI_STATUS_CANCELLED || status == SCSI_STATUS_ERROR ||
         status == SCSI_STATUS_TIMEOUT || status < 0 || status > 0xFF;
}

class IscsiTransport final : public Transport {
 public:
  IscsiTransport(iscsi_context* ctx, int lun, std::string name, int timeout_s)
      : ctx_(ctx), lun_(lun), name_(std::move(name)), timeout_s_(timeout_s) {}

  ~IscsiTransport() override {
    Pending logout;  // alive until the context is gone: libiscsi may cancel into it
    if (logged_in_ && broken_.empty()) {
      if (iscsi_logout_async(ctx_, on_complete, &logout) == 0) {
        timeout_s_ = std::min(timeout_s_, 2);
        (void)wait(logout, "LOGOUT");
      }
    }
    // Cancels whatever is still queued; the callbacks land in orphans_.
    iscsi_destroy_context(ctx_);
    for (auto& p : orphans_) {
      if (p->task != nullptr) scsi_free_scsi_task(p->task);
    }
  }

  Status connect(const std::string& portal) {
    connect_ = std::make_unique<Pending>();
    if (iscsi_full_connect_async(ctx_, portal.c_str(), lun_, on_complete, connect_.get()) != 0) {
      return transport_error("cannot connect to " + name_ + ": " + iscsi_get_error(ctx_));
    }
    if (Status s = wait(*connect_, "login"); !s.ok()) {
      return transport_error("cannot connect to " + name_ + ": " + broken_);
    }
    if (connect_->status != SCSI_STATUS_GOOD) {
      return transport_error("cannot log in to " + name_ + ": " + iscsi_get_error(ctx_));
    }
    // The full-connect callback fires again when the connection drops; reset
    // it so that a later drop is not mistaken for this login.
    connect_->done = false;
    logged_in_ = true;
    return {};
  }

  Result<ScsiResponse> execute(const ScsiCommand& c) override {
    if (!broken_.empty()) return transport_error(name_ + ": " + broken_);
    if (c.cdb.empty() || c.cdb.size() > SCSI_CDB_MAX_SIZE) {
      return invalid_argument("CDB of " + std::to_string(c.cdb.size()) + " bytes");
    }
    const int dir = c.direction == DataDirection::kIn    ? SCSI_XFER_READ
                    : c.direction == DataDirection::kOut ? SCSI_XFER_WRITE
                                                         : SCSI_XFER_NONE;
    const std::size_t xfer = c.direction == DataDirection::kIn    ? c.data_in_length
                             : c.direction == DataDirection::kOut ? c.data_out.size()
                                                                  : 0;
    Bytes cdb(c.cdb.begin(), c.cdb.end());
    auto p = std::make_unique<Pending>();
    p->task =
        scsi_create_task(static_cast<int>(cdb.size()), cdb.data(), dir, static_cast<int>(xfer));
    if (p->task == nullptr) return transport_error("libiscsi: out of memory");
    iscsi_data out{};
    if (c.direction == DataDirection::kOut) {
      p->data_out.assign(c.data_out.begin(), c.data_out.end());
      out.size = p->data_out.size();
      out.data = p->data_out.data();
    }
    if (iscsi_scsi_command_async(ctx_, lun_, p->task, on_complete,
                                 c.direction == DataDirection::kOut ? &out : nullptr,
                                 p.get()) != 0) {
      scsi_free_scsi_task(p->task);
      return transport_error(name_ + ": cannot queue the command: " + iscsi_get_error(ctx_));
    }
    if (Status s = wait(*p, "the command"); !s.ok()) {
      orphans_.push_back(std::move(p));  // libiscsi may still call back into it
      return s.error();
    }
    if (is_transport_status(p->status)) {
      broken_ = std::string("the command failed at the iSCSI level: ") + iscsi_get_error(ctx_);
      Error e = transport_error(name_ + ": " + broken_);
      scsi_free_scsi_task(p->task);
      return e;
    }
    ScsiResponse r;
    r.status = static_cast<std::uint8_t>(p->status);
    const scsi_data& in = p->task->datain;
    if (in.data != nullptr && in.size > 0) {
      const std::span<const std::uint8_t> bytes(in.data, static_cast<std::size_t>(in.size));
      if (r.status == kStatusCheckCondition) {
        // The SCSI Response's data segment: SenseLength (2 bytes), then the
        // sense data (RFC 7143 §11.4.7.2).
        if (bytes.size() >= 2) {
          const std::size_t len =
              std::min<std::size_t>((bytes[0] << 8) | bytes[1], bytes.size() - 2);
          r.sense.assign(bytes.begin() + 2, bytes.begin() + 2 + static_cast<std::ptrdiff_t>(len));
        }
      } else {
        r.data_in.assign(bytes.begin(), bytes.end());
      }
    }
    scsi_free_scsi_task(p->task);
    return r;
  }

  std::string name() const override { return name_; }

 private:
  // Runs libiscsi's event loop until `p` completes or the deadline passes;
  // a failure breaks the transport.
  Status wait(Pending& p, const char* what) {
    const auto deadline = Clock::now() + std::chrono::seconds(timeout_s_);
    while (!p.done) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      if (left.count() <= 0) {
        broken_ =
            std::string("no answer to ") + what + " within " + std::to_string(timeout_s_) + " s";
        return transport_error(name_ + ": " + broken_);
      }
      pollfd pfd{iscsi_get_fd(ctx_), static_cast<short>(iscsi_which_events(ctx_)), 0};
      if (pfd.events == 0) {  // libiscsi asks to wait (iscsi.h)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        continue;
      }
      const int n = poll(&pfd, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        broken_ = std::string("poll: ") + std::strerror(errno);
        return transport_error(name_ + ": " + broken_);
      }
      // The socket's own error says more than libiscsi's message about a
      // refused or reset connection.
      int socket_error = 0;
      if (n > 0 && (pfd.revents & (POLLERR | POLLHUP)) != 0) {
        socklen_t len = sizeof socket_error;
        if (getsockopt(pfd.fd, SOL_SOCKET, SO_ERROR, &socket_error, &len) != 0) socket_error = 0;
      }
      // revents 0 lets libiscsi run its own timeout scan (iscsi.h).
      if (iscsi_service(ctx_, n == 0 ? 0 : pfd.revents) < 0) {
        broken_ = std::string("connection failed: ") +
                  (socket_error != 0 ? std::strerror(socket_error) : iscsi_get_error(ctx_));
        return transport_error(name_ + ": " + broken_);
      }
    }
    return {};
  }

  iscsi_context* ctx_;
  int lun_;
  std::string name_;
  int timeout_s_;
  bool logged_in_ = false;
  std::string broken_;  // why the transport is unusable; empty while it works
  std::unique_ptr<Pending> connect_;
  std::vector<std::unique_ptr<Pending>> orphans_;
};

// `text` with the passwords of `url` (iscsi://user%password@..., and
// ?target_password=...) shown as "***": an error names the URL it could not
// use, and a secret must not reach a log or a terminal's scrollback.
std::string without_passwords(std::string text, const std::string& url) {
  std::string shown = url;
  const std::size_t scheme = shown.find("://");
  const std::size_t at = shown.find('@', scheme == std::string::npos ? 0 : scheme + 3);
  if (scheme != std::string::npos && at != std::string::npos) {
    const std::size_t percent = shown.find('%', scheme + 3);
    if (percent != std::string::npos && percent < at) {
      shown.replace(percent + 1, at - percent - 1, "***");
    }
  }
  const std::string key = "target_password=";
  if (const std::size_t p = shown.find(key); p != std::string::npos) {
    const std::size_t from = p + key.size();
    const std::size_t end = shown.find('&', from);
    shown.replace(from, end == std::string::npos ? std::string::npos : end - from, "***");
  }
  if (shown == url) return text;
  for (std::size_t p = text.find(url); p != std::string::npos; p = text.find(url, p)) {
    text.replace(p, url.size(), shown);
    p += shown.size();
  }
  return text;
}

}  // namespace

Result<std::unique_ptr<Transport>> open_iscsi(const std::string& url,
                                              const TransportOptions& options) {
  iscsi_context* ctx = iscsi_create_context(options.initiator_name.c_str());
  if (ctx == nullptr) {
    return transport_error("libiscsi: cannot create a context for initiator '" +
                           options.initiator_name + "'");
  }
  iscsi_url* u = iscsi_parse_full_url(ctx, url.c_str());
  if (u == nullptr) {
    Error e = invalid_argument(
        without_passwords("'" + url + "' is not an iSCSI URL (" + iscsi_get_error(ctx) +
                              "); expected iscsi://[user[%password]@]host[:port]/target-iqn/lun",
                          url));
    iscsi_destroy_context(ctx);
    return e;
  }
  const std::string name =
      std::string("iscsi://") + u->portal + "/" + u->target + "/" + std::to_string(u->lun);
  const std::string portal = u->portal;
  const int lun = u->lun;
  iscsi_set_session_type(ctx, ISCSI_SESSION_NORMAL);
  iscsi_set_header_digest(ctx, ISCSI_HEADER_DIGEST_NONE_CRC32C);
  iscsi_set_targetname(ctx, u->target);
  if (u->user[0] != '\0') iscsi_set_initiator_username_pwd(ctx, u->user, u->passwd);
  if (u->target_user[0] != '\0') {
    iscsi_set_target_username_pwd(ctx, u->target_user, u->target_passwd);
  }
  iscsi_destroy_url(u);
  iscsi_set_noautoreconnect(ctx, 1);
  iscsi_set_timeout(ctx, options.timeout_s);

  auto t = std::make_unique<IscsiTransport>(ctx, lun, name, std::max(options.timeout_s, 1));
  if (Status s = t->connect(portal); !s.ok()) return s.error();
  return std::unique_ptr<Transport>(std::move(t));
}

}  // namespace memstore::host
