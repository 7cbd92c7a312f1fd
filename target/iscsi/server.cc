// The Asio side of the target: acceptors, and per connection a reader
// coroutine (PDU framing and digests) and a writer coroutine draining a queue
// (the Boost.Asio C++20 chat-server pattern). Everything protocol-level is in
// Session.
#include "target/iscsi/server.h"

#include <boost/asio.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <deque>
#include <limits>

#include "target/iscsi/digest.h"
#include "target/iscsi/lun_driver.h"

namespace memstore::iscsi {

namespace asio = boost::asio;
using asio::awaitable;
using asio::ip::tcp;

namespace {

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(tcp::socket socket,
             std::function<std::unique_ptr<Session>(Session::Sink)> make_session)
      : socket_(std::move(socket)), signal_(socket_.get_executor()) {
    signal_.expires_at(asio::steady_timer::time_point::max());
    session_ = make_session(Session::Sink{
        [this](std::vector<std::uint8_t> pdu) { enqueue(std::move(pdu)); }, [this] { close(); }});
  }

  void start() {
    auto self = shared_from_this();
    asio::co_spawn(
        socket_.get_executor(), [self]() { return self->reader(); }, asio::detached);
    asio::co_spawn(
        socket_.get_executor(), [self]() { return self->writer(); }, asio::detached);
  }

  void close() {
    closing_ = true;
    signal_.cancel_one();
  }

  bool open() const { return !done_; }

 private:
  // Adds digests when the session has negotiated them (RFC 7143 §12.1).
  void enqueue(std::vector<std::uint8_t> pdu) {
    if (session_ && session_->full_feature()) {
      const SessionParams& p = session_->params();
      if (p.header_digest || p.data_digest) {
        std::vector<std::uint8_t> out(pdu.begin(), pdu.begin() + kBhsSize);
        if (p.header_digest) append_digest(out, std::span(pdu).first(kBhsSize));
        const auto data = std::span(pdu).subspan(kBhsSize);
        out.insert(out.end(), data.begin(), data.end());
        if (p.data_digest && !data.empty()) append_digest(out, data);
        pdu = std::move(out);
      }
    }
    out_.push_back(std::move(pdu));
    signal_.cancel_one();
  }

  awaitable<void> reader() {
    boost::system::error_code ec;
    auto use = asio::redirect_error(asio::use_awaitable, ec);
    while (!closing_) {
      Bhs bhs;
      co_await asio::async_read(socket_, asio::buffer(bhs), use);
      if (ec) break;
      const std::size_t ahs_len = std::size_t{bhs[4]} * 4;
      const std::size_t data_len = (std::size_t{bhs[5]} << 16) | (bhs[6] << 8) | bhs[7];
      std::vector<std::uint8_t> ahs(ahs_len);
      if (ahs_len > 0) co_await asio::async_read(socket_, asio::buffer(ahs), use);
      if (ec) break;
      const bool ffp = session_->full_feature();
      const bool header_digest = ffp && session_->params().header_digest;
      const bool data_digest = ffp && session_->params().data_digest;
      if (header_digest) {
        std::array<std::uint8_t, kDigestSize> d;
        co_await asio::async_read(socket_, asio::buffer(d), use);
        if (ec) break;
        std::vector<std::uint8_t> covered(bhs.begin(), bhs.end());
        covered.insert(covered.end(), ahs.begin(), ahs.end());
        // A header digest error leaves the framing unknown: with
        // ErrorRecoveryLevel 0 the connection ends (RFC 7143 §7.8).
        if (!check_digest(covered, d)) break;
      }
      // The initiator must respect our MaxRecvDataSegmentLength (§13.12). A
      // longer segment is a protocol error; at ErrorRecoveryLevel 0 the
      // connection ends after the Reject (§7.1.4).
      if (data_len > std::max<std::uint32_t>(session_->max_recv_data_segment_length(), 8192)) {
        session_->reject(bhs, RejectReason::kProtocolError);
        break;
      }
      std::vector<std::uint8_t> data(padded_length(data_len));
      if (!data.empty()) co_await asio::async_read(socket_, asio::buffer(data), use);
      if (ec) break;
      if (data_digest && data_len > 0) {
        std::array<std::uint8_t, kDigestSize> d;
        co_await asio::async_read(socket_, asio::buffer(d), use);
        if (ec) break;
        if (!check_digest(data, d)) {
          // The PDU is discarded and rejected; the initiator retries (§7.8).
          session_->reject(bhs, RejectReason::kDataDigestError);
          continue;
        }
      }
      data.resize(data_len);
      session_->on_pdu(bhs, ahs, std::move(data));
    }
    close();
  }

  awaitable<void> writer() {
    boost::system::error_code ec;
    auto use = asio::redirect_error(asio::use_awaitable, ec);
    for (;;) {
      while (!out_.empty()) {
        std::vector<std::uint8_t> pdu = std::move(out_.front());
        out_.pop_front();
        co_await asio::async_write(socket_, asio::buffer(pdu), use);
        if (ec) {
          closing_ = true;
          break;
        }
      }
      if (closing_) break;
      co_await signal_.async_wait(use);
      ec.clear();
    }
    boost::system::error_code ignored;
    socket_.shutdown(tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
    session_.reset();  // forgets pending results before the LUNs call back
    done_ = true;
  }

  tcp::socket socket_;
  asio::steady_timer signal_;
  std::deque<std::vector<std::uint8_t>> out_;
  std::unique_ptr<Session> session_;
  bool closing_ = false;
  bool done_ = false;
};

}  // namespace

struct Server::Impl {
  asio::io_context& io;
  std::vector<TargetSetup> setups;
  std::vector<TargetContext> contexts;
  LoginConfig discovery;
  std::vector<std::unique_ptr<tcp::acceptor>> acceptors;
  std::vector<std::weak_ptr<Connection>> connections;
  std::uint64_t next_nexus = 1;
  std::uint16_t next_tsih = 1;

  const TargetContext* find(std::string_view name) const {
    for (const TargetContext& c : contexts) {
      if (c.name == name) return &c;
    }
    return nullptr;
  }

  awaitable<void> accept_loop(tcp::acceptor& acceptor) {
    boost::system::error_code ec;
    for (;;) {
      tcp::socket socket =
          co_await acceptor.async_accept(asio::redirect_error(asio::use_awaitable, ec));
      if (ec) {
        if (ec == asio::error::operation_aborted || !acceptor.is_open()) co_return;
        continue;
      }
      socket.set_option(tcp::no_delay(true), ec);
      const std::uint64_t nexus = next_nexus++;
      const std::uint16_t tsih = next_tsih++;
      if (next_tsih == 0) next_tsih = 1;  // TSIH 0 is reserved (RFC 7143 §11.12.3)
      auto conn =
          std::make_shared<Connection>(std::move(socket), [this, nexus, tsih](Session::Sink sink) {
            return std::make_unique<Session>([this](std::string_view n) { return find(n); },
                                             discovery, nexus, tsih, std::move(sink));
          });
      connections.push_back(conn);
      conn->start();
    }
  }
};

Server::Server(asio::io_context& io)
    : impl_(std::make_unique<Impl>(Impl{io, {}, {}, {}, {}, {}})) {}
Server::~Server() = default;

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
  s.contexts.clear();
  s.contexts.reserve(s.setups.size());
  s.discovery.limits.target_name = "";
  s.discovery.send_targets.clear();
  std::uint16_t tpgt = 1;  // one portal group per target
  for (TargetSetup& t : s.setups) {
    DiscoveryEntry e;
    e.target_name = t.name;
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
    for (auto& [id, lun] : t.luns) c.luns[id] = lun.get();
    s.discovery.send_targets.push_back(std::move(e));
    s.contexts.push_back(std::move(c));
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
    if (auto c = w.lock()) c->close();
  }
}

std::vector<std::uint16_t> Server::bound_ports() const {
  std::vector<std::uint16_t> ports;
  for (const auto& a : impl_->acceptors) ports.push_back(a->local_endpoint().port());
  return ports;
}

std::size_t Server::connections() const {
  std::size_t n = 0;
  for (const auto& w : impl_->connections) {
    if (auto c = w.lock(); c && c->open()) ++n;
  }
  return n;
}

}  // namespace memstore::iscsi
