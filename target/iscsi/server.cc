// The Asio side of the target: acceptors (a coroutine each), and per
// connection a read loop (PDU framing and digests) and a gathered writer
// draining a queue, as plain completion handlers with their own memory
// (handler_memory.h) so the steady READ/WRITE path allocates nothing.
// Everything protocol-level is in Session.
#include "target/iscsi/server.h"

#include <boost/asio.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <atomic>
#include <limits>

#include "target/iscsi/digest.h"
#include "target/iscsi/handler_memory.h"
#include "target/iscsi/lun_driver.h"
#include "target/iscsi/lun_link.h"

namespace memstore::iscsi {

namespace asio = boost::asio;
using asio::awaitable;
using asio::ip::tcp;

namespace {

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  // `open` counts the connections not yet finished (read from any thread).
  Connection(tcp::socket socket,
             std::function<std::unique_ptr<Session>(Session::Sink)> make_session,
             std::chrono::seconds nop_in_interval, std::atomic<std::size_t>& open)
      : socket_(std::move(socket)), ping_timer_(socket_.get_executor()),
        nop_in_interval_(nop_in_interval), open_(open) {
    open_.fetch_add(1, std::memory_order_relaxed);
    session_ = make_session(
        Session::Sink{[this](std::vector<std::uint8_t> pdu) { enqueue(std::move(pdu)); },
                      [this] { close(); },
                      [this](Session::DataPdu pdu) { enqueue_data(std::move(pdu)); }});
  }

  void start() {
    read_header();
    if (nop_in_interval_.count() > 0) arm_ping();
  }

  // Ends the connection once the queued PDUs are written. Posted: the
  // session may be asking from inside one of its own calls, and finish()
  // destroys it.
  void close() {
    if (closing_) return;
    closing_ = true;
    asio::post(socket_.get_executor(), [self = shared_from_this()] {
      if (!self->writing_) self->finish();
    });
  }

  // Its event loop: every call but the constructor's is made there.
  asio::any_io_executor executor() { return socket_.get_executor(); }

 private:
  // ---- Reading: a BHS, then the rest of the PDU in one read ----

  void read_header() {
    reading_ = true;
    asio::async_read(socket_, asio::buffer(bhs_),
                     with_memory(read_memory_, [self = shared_from_this()](
                                                   const boost::system::error_code& ec,
                                                   std::size_t) { self->on_header(ec); }));
  }

  void on_header(const boost::system::error_code& ec) {
    reading_ = false;
    if (finished_) return drain(ec);
    if (ec || closing_ || !session_) return close();
    const bool ffp = session_->full_feature();
    header_digest_ = ffp && session_->params().header_digest;
    data_digest_ = ffp && session_->params().data_digest;
    ahs_len_ = std::size_t{bhs_[4]} * 4;
    data_len_ = (std::size_t{bhs_[5]} << 16) | (bhs_[6] << 8) | bhs_[7];
    // The initiator must respect our MaxRecvDataSegmentLength (§13.12). A
    // longer segment is a protocol error; at ErrorRecoveryLevel 0 the
    // connection ends after the Reject (§7.1.4).
    if (data_len_ > std::max<std::uint32_t>(session_->max_recv_data_segment_length(), 8192)) {
      session_->reject(bhs_, RejectReason::kProtocolError);
      return close();
    }
    // AHS, header digest, padded data, data digest: one read into a buffer
    // the connection keeps PDU after PDU.
    const std::size_t rest = ahs_len_ + (header_digest_ ? kDigestSize : 0) +
                             padded_length(data_len_) +
                             (data_digest_ && data_len_ > 0 ? kDigestSize : 0);
    rest_.resize(rest);
    if (rest == 0) return on_pdu();
    reading_ = true;
    asio::async_read(socket_, asio::buffer(rest_),
                     with_memory(read_memory_, [self = shared_from_this()](
                                                   const boost::system::error_code& e,
                                                   std::size_t) {
                       self->reading_ = false;
                       if (self->finished_) return self->drain(e);
                       if (e || self->closing_ || !self->session_) return self->close();
                       self->on_pdu();
                     }));
  }

  void on_pdu() {
    const auto rest = std::span<const std::uint8_t>(rest_);
    const auto ahs = rest.first(ahs_len_);
    std::size_t at = ahs_len_;
    if (header_digest_) {
      // A header digest error leaves the framing unknown: with
      // ErrorRecoveryLevel 0 the connection ends (RFC 7143 §7.8).
      const auto d = rest.subspan(at, kDigestSize);
      if (digest_value(d.first<kDigestSize>()) != crc32c(ahs, crc32c(bhs_))) return close();
      at += kDigestSize;
    }
    const auto padded = rest.subspan(at, padded_length(data_len_));
    at += padded.size();
    if (data_digest_ && data_len_ > 0) {
      const auto d = rest.subspan(at, kDigestSize);
      if (digest_value(d.first<kDigestSize>()) != crc32c(padded)) {
        // The PDU is discarded and rejected; the initiator retries (§7.8).
        session_->reject(bhs_, RejectReason::kDataDigestError);
        return read_header();
      }
    }
    session_->on_pdu(bhs_, ahs, padded.first(data_len_));
    if (!closing_) read_header();
  }

  // ---- Target-initiated pings (RFC 7143 §11.19) ----

  void arm_ping() {
    ping_timer_.expires_after(nop_in_interval_);
    ping_timer_.async_wait(with_memory(
        ping_memory_, [self = shared_from_this()](const boost::system::error_code& ec) {
          if (ec || self->finished_ || !self->session_) return;
          // The previous ping went unanswered for a whole interval: the
          // initiator is gone (ErrorRecoveryLevel 0: end the connection).
          if (!self->session_->ping()) return self->close();
          self->arm_ping();
        }));
  }

  // ---- Writing: everything queued in one gathered write ----

  struct Out;  // a queued PDU, below

  void enqueue(std::vector<std::uint8_t> pdu) {
    if (finished_) return;
    Out& o = out_.emplace_back();
    o.bytes = std::move(pdu);
    add_digests(o);
    if (!writing_) write_queued();
  }

  // A Data-In PDU whose segment is written from the READ's buffer in place.
  void enqueue_data(Session::DataPdu pdu) {
    if (finished_) return;
    Out& o = out_.emplace_back();
    o.bytes = std::move(pdu.head);
    o.data = pdu.data;
    o.owner = std::move(pdu.owner);
    o.owner_port = pdu.owner_port;
    add_digests(o);
    if (!writing_) write_queued();
  }

  // Adds digests when the session has negotiated them (RFC 7143 §12.1): the
  // header digest right after the BHS, in place (the buffer is a recycled
  // one and usually has the room), and the data digest after the segment,
  // whether the segment follows the BHS in `bytes` or is viewed in place.
  void add_digests(Out& o) {
    if (!session_ || !session_->full_feature()) return;
    const SessionParams& p = session_->params();
    const std::span<const std::uint8_t> segment =
        o.data.empty() ? std::span<const std::uint8_t>(o.bytes).subspan(kBhsSize) : o.data;
    if (p.data_digest && !segment.empty()) {
      o.data_digest = digest_bytes(crc32c(segment));
      o.has_data_digest = true;
    }
    if (p.header_digest) {
      const DigestBytes d = digest_bytes(crc32c(std::span(o.bytes).first(kBhsSize)));
      o.bytes.insert(o.bytes.begin() + kBhsSize, d.begin(), d.end());
    }
  }

  void write_queued() {
    std::swap(out_, in_flight_);
    gather_.clear();
    for (const Out& o : in_flight_) {
      gather_.push_back(asio::buffer(o.bytes));
      if (!o.data.empty()) gather_.push_back(asio::buffer(o.data.data(), o.data.size()));
      if (o.has_data_digest) gather_.push_back(asio::buffer(o.data_digest));
    }
    writing_ = true;
    asio::async_write(
        socket_, std::span<const asio::const_buffer>(gather_),
        with_memory(write_memory_,
                    [self = shared_from_this()](const boost::system::error_code& ec,
                                                std::size_t) { self->on_written(ec); }));
  }

  void on_written(const boost::system::error_code& ec) {
    writing_ = false;
    // The buffers go back to the session for its next PDUs.
    for (Out& o : in_flight_) {
      if (session_) session_->recycle(std::move(o.bytes));
      if (o.owner_port != nullptr) o.owner_port->recycle(std::move(o.owner));
    }
    in_flight_.clear();
    if (ec) {
      closing_ = true;
      return finish();  // the peer is gone: what is queued cannot go out
    }
    if (!out_.empty()) return write_queued();
    if (closing_) finish();
  }

  // The end of the connection, as a lingering close: our side is shut for
  // sending, and whatever the initiator still sends is read and dropped
  // until it closes too (or 2 s pass). Closing with unread data would make
  // the kernel answer with a reset, and an initiator still writing (the rest
  // of a rejected command's data) would die of SIGPIPE instead of reading
  // our Reject and the end of the stream.
  void finish() {
    if (finished_) return;
    finished_ = true;
    open_.fetch_sub(1, std::memory_order_relaxed);
    session_.reset();  // forgets pending results before the LUNs call back
    boost::system::error_code ignored;
    ping_timer_.cancel();
    socket_.shutdown(tcp::socket::shutdown_send, ignored);
    ping_timer_.expires_after(std::chrono::seconds(2));
    ping_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
      if (!ec) self->close_socket();
    });
    if (!reading_) drain({});
  }

  void drain(const boost::system::error_code& ec) {
    if (ec || !socket_.is_open()) return close_socket();
    reading_ = true;
    rest_.resize(std::max<std::size_t>(rest_.capacity(), 4096));
    socket_.async_read_some(
        asio::buffer(rest_),
        with_memory(read_memory_, [self = shared_from_this()](
                                      const boost::system::error_code& e, std::size_t) {
          self->reading_ = false;
          self->drain(e);
        }));
  }

  void close_socket() {
    boost::system::error_code ignored;
    ping_timer_.cancel();
    socket_.close(ignored);
  }

  tcp::socket socket_;
  asio::steady_timer ping_timer_;
  std::chrono::seconds nop_in_interval_;
  std::atomic<std::size_t>& open_;
  std::unique_ptr<Session> session_;
  HandlerMemory read_memory_, write_memory_, ping_memory_;
  Bhs bhs_{};
  std::size_t ahs_len_ = 0, data_len_ = 0;
  bool header_digest_ = false, data_digest_ = false;
  std::vector<std::uint8_t> rest_;                    // the PDU being read, after its BHS
  // A PDU to write: its bytes (BHS, header digest, and the padded segment
  // unless it is viewed in place), the view, and the data digest.
  struct Out {
    std::vector<std::uint8_t> bytes;
    std::span<const std::uint8_t> data;
    DigestBytes data_digest{};
    bool has_data_digest = false;
    scsi::Bytes owner;  // the buffer `data` points into, on a command's last PDU
    LunPort* owner_port = nullptr;
  };
  std::vector<Out> out_;        // queued PDUs
  std::vector<Out> in_flight_;  // PDUs being written
  std::vector<asio::const_buffer> gather_;
  bool writing_ = false;
  bool reading_ = false;
  bool closing_ = false;
  bool finished_ = false;
};

}  // namespace

struct Server::Impl {
  explicit Impl(asio::io_context& server_io) : io(server_io), loops{&server_io} {}

  asio::io_context& io;  // acceptors, and everything of the server itself
  // The event loops connections are spread over, round robin; loops[0] is `io`.
  std::vector<asio::io_context*> loops;
  std::vector<TargetSetup> setups;
  // Per loop: each target as its sessions see it, with LunLinks of that loop.
  std::vector<std::vector<TargetContext>> contexts;
  std::vector<std::unique_ptr<LunLink>> links;
  LoginConfig discovery;
  std::vector<std::unique_ptr<tcp::acceptor>> acceptors;
  // Every connection accepted; expired entries are pruned as new ones come.
  std::vector<std::weak_ptr<Connection>> connections;
  std::atomic<std::size_t> open_connections{0};
  std::uint64_t next_nexus = 1;
  std::size_t next_loop = 0;
  std::chrono::seconds nop_in_interval{0};
  std::uint16_t next_tsih = 1;
  SecurityLog security_log;  // refused logins (set_security_log)

  const TargetContext* find(std::size_t loop, std::string_view name) const {
    for (const TargetContext& c : contexts.at(loop)) {
      if (c.name == name) return &c;
    }
    return nullptr;
  }

  awaitable<void> accept_loop(tcp::acceptor& acceptor) {
    boost::system::error_code ec;
    for (;;) {
      const std::size_t loop = next_loop++ % loops.size();
      // Accepted straight onto the connection's own loop.
      tcp::socket socket = co_await acceptor.async_accept(
          *loops[loop], asio::redirect_error(asio::use_awaitable, ec));
      if (ec) {
        if (ec == asio::error::operation_aborted || !acceptor.is_open()) co_return;
        continue;
      }
      socket.set_option(tcp::no_delay(true), ec);
      std::string peer = "unknown peer";  // for the security log: "address:port"
      if (const tcp::endpoint remote = socket.remote_endpoint(ec); !ec) {
        const std::string a = remote.address().to_string();
        peer = (remote.address().is_v6() ? "[" + a + "]" : a) + ":" + std::to_string(remote.port());
      }
      const std::uint64_t nexus = next_nexus++;
      const std::uint16_t tsih = next_tsih++;
      if (next_tsih == 0) next_tsih = 1;  // TSIH 0 is reserved (RFC 7143 §11.12.3)
      auto conn = std::make_shared<Connection>(
          std::move(socket),
          [this, nexus, tsih, loop, peer](Session::Sink sink) {
            auto session = std::make_unique<Session>(
                [this, loop](std::string_view n) { return find(loop, n); }, discovery, nexus,
                tsih, std::move(sink));
            session->set_audit(peer, security_log);
            return session;
          },
          nop_in_interval, open_connections);
      if (connections.size() >= 64 && (connections.size() & (connections.size() - 1)) == 0) {
        std::erase_if(connections, [](const auto& w) { return w.expired(); });
      }
      connections.push_back(conn);
      asio::post(conn->executor(), [conn] { conn->start(); });
    }
  }
};

Server::Server(asio::io_context& io) : impl_(std::make_unique<Impl>(io)) {}
Server::~Server() = default;

void Server::set_loops(std::vector<asio::io_context*> loops) {
  if (loops.empty() || loops.front() != &impl_->io) loops.insert(loops.begin(), &impl_->io);
  impl_->loops = std::move(loops);
}

void Server::set_nop_in_interval(std::chrono::seconds interval) {
  impl_->nop_in_interval = interval;
}

void Server::set_security_log(SecurityLog log) {
  impl_->security_log = std::move(log);
}

void Server::add_target(TargetSetup target) {
  impl_->setups.push_back(std::move(target));
}

std::string Server::start() {
  Impl& s = *impl_;
  // Bind every portal first: port 0 resolves here, and discovery answers
  // carry the real ports. The accept loops only run once the io_context
  // runs, after the targets below are in place.
  for (TargetSetup& t : s.setups) {
    for (auto& [host, port] : t.portals) {
      boost::system::error_code ec;
      const auto address = asio::ip::make_address(host, ec);
      if (ec) return "portal " + host + ":" + std::to_string(port) + ": not a numeric IP address";
      auto acceptor = std::make_unique<tcp::acceptor>(s.io);
      const tcp::endpoint endpoint(address, port);
      acceptor->open(endpoint.protocol(), ec);
      if (!ec) acceptor->set_option(tcp::acceptor::reuse_address(true), ec);
      if (!ec) acceptor->bind(endpoint, ec);
      if (!ec) acceptor->listen(asio::socket_base::max_listen_connections, ec);
      if (ec) return "portal " + host + ":" + std::to_string(port) + ": " + ec.message();
      port = acceptor->local_endpoint().port();
      tcp::acceptor& ref = *acceptor;
      s.acceptors.push_back(std::move(acceptor));
      asio::co_spawn(s.io, s.accept_loop(ref), asio::detached);
    }
  }
  s.contexts.assign(s.loops.size(), {});
  s.links.clear();
  s.discovery.limits.target_name = "";
  s.discovery.send_targets.clear();
  std::uint16_t tpgt = 1;  // one portal group per target
  for (TargetSetup& t : s.setups) {
    DiscoveryEntry e;
    e.target_name = t.name;
    e.acl = t.security.acl;  // discovery lists a target only to whom may log in
    e.requires_chap = t.security.chap.has_value();
    for (const auto& [host, port] : t.portals) {
      const bool v6 = host.find(':') != std::string::npos;
      e.addresses.push_back((v6 ? "[" + host + "]" : host) + ":" + std::to_string(port) + "," +
                            std::to_string(tpgt));
    }
    TargetContext c;
    c.name = t.name;
    c.login.limits.target_name = t.name;
    if (!t.alias.empty()) c.login.limits.target_alias = t.alias;
    c.login.limits.target_portal_group_tag = tpgt;
    c.login.security = t.security;
    // A normal session's SendTargets answers for its own target (RFC 7143 §13.3).
    c.login.send_targets = {e};
    s.discovery.send_targets.push_back(std::move(e));
    for (std::size_t loop = 0; loop < s.loops.size(); ++loop) {
      TargetContext on_loop = c;
      for (auto& [id, lun] : t.luns) {
        s.links.push_back(std::make_unique<LunLink>(*s.loops[loop], *lun));
        on_loop.luns[id] = s.links.back().get();
      }
      s.contexts[loop].push_back(std::move(on_loop));
    }
    ++tpgt;
  }
  return "";
}

void Server::stop() {
  for (auto& a : impl_->acceptors) {
    boost::system::error_code ignored;
    a->close(ignored);
  }
  for (auto& w : impl_->connections) {
    if (auto c = w.lock()) asio::post(c->executor(), [c] { c->close(); });
  }
}

std::vector<std::uint16_t> Server::bound_ports() const {
  std::vector<std::uint16_t> ports;
  for (const auto& a : impl_->acceptors) ports.push_back(a->local_endpoint().port());
  return ports;
}

std::size_t Server::connections() const {
  return impl_->open_connections.load(std::memory_order_relaxed);
}

}  // namespace memstore::iscsi
