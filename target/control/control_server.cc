// SPDX-License-Identifier: Apache-2.0
#include "target/control/control_server.h"

#include <sys/stat.h>
#include <unistd.h>

#include <boost/asio/post.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>
#include <cerrno>
#include <cstring>
#include <set>
#include <string>

#include "target/control/redact.h"

namespace memstore::control {

using boost::asio::local::stream_protocol;

// One connected client: reads a line, answers it, reads the next.
class ControlServer::Client : public std::enable_shared_from_this<Client> {
 public:
  Client(stream_protocol::socket socket, ControlCommands& commands, const Log& log,
         const Log& debug_log)
      : socket_(std::move(socket)),
        commands_(commands),
        log_(log),
        debug_log_(debug_log),
        input_(kMaxLine + 1) {}

  void read() {
    boost::asio::async_read_until(
        socket_, input_, '\n',
        [self = shared_from_this()](const boost::system::error_code& ec, std::size_t n) {
          self->on_line(ec, n);
        });
  }
  void close() {
    boost::system::error_code ignored;
    socket_.close(ignored);
  }

 private:
  void on_line(const boost::system::error_code& ec, std::size_t n) {
    if (ec == boost::asio::error::not_found) {
      // The buffer's limit: a line longer than kMaxLine.
      return send(failure("request longer than " + std::to_string(kMaxLine) + " bytes"), false);
    }
    if (ec) return;  // closed
    std::string line(boost::asio::buffers_begin(input_.data()),
                     boost::asio::buffers_begin(input_.data()) + static_cast<std::ptrdiff_t>(n));
    input_.consume(n);
    commands_.handle(line, [self = shared_from_this(), line](json reply) {
      if (reply.contains(ControlCommands::kNotificationKey)) {  // logged, never answered
        self->report(line, reply[ControlCommands::kNotificationKey]);
        return self->read();
      }
      self->report(line, reply);
      self->send(std::move(reply), true);
    });
  }

  // A change that took effect, in the daemon's log, and (debug level) every
  // request: the request as sent, its secrets redacted (redact.h) and cut
  // to 300 bytes, and the reply.
  void report(const std::string& line, const json& reply) const {
    const auto shown = [&](std::string_view what) {
      return std::string(what) + redacted_line(line, 300) + " -> " +
             redact_secrets(nlohmann::ordered_json(reply))
                 .dump(-1, ' ', false, json::error_handler_t::replace);
    };
    if (debug_log_) debug_log_(shown("control socket request: "));
    // The command form's {"ok": true}, or a JSON-RPC result.
    if (!log_ || !(reply.value("ok", false) || reply.contains("result"))) return;
    const json request = json::parse(line, nullptr, false);
    std::string cmd;
    if (request.is_object()) {
      const json& name =
          request.contains("method") ? request["method"] : request.value("cmd", json());
      if (name.is_string()) cmd = name.get<std::string>();
    }
    // power-cut is not among them: the LUN logs its own cut, whatever caused
    // it, with every write it took (scsi::Lun::power_cycle).
    static const std::set<std::string> kChanges = {
        "fault-add",  "fault-remove", "fault-clear",   "timing",  "lun-add",
        "lun-remove", "target-add",   "target-remove", "acl-add", "acl-remove",
        "acl-clear",  "chap-set",     "chap-clear"};
    if (kChanges.contains(cmd)) log_(shown("control socket: "));
  }

  void send(const json& reply, bool then_read) {
    // Replace, not throw on, bytes that are not UTF-8 (a request may echo
    // an initiator's name or a bad command back).
    output_ = reply.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
    boost::asio::async_write(
        socket_, boost::asio::buffer(output_),
        [self = shared_from_this(), then_read](const boost::system::error_code& ec, std::size_t) {
          if (!ec && then_read) self->read();
        });
  }

  stream_protocol::socket socket_;
  ControlCommands& commands_;
  const Log& log_;
  const Log& debug_log_;
  boost::asio::streambuf input_;
  std::string output_;
};

namespace {

ControlCommands::Dispatch posting(boost::asio::io_context& home) {
  return [&home](driver::TimedLun& driver, std::function<json(driver::TimedLun&)> work,
                 ControlCommands::Reply reply) {
    boost::asio::post(driver.context(), [&home, &driver, work = std::move(work),
                                         reply = std::move(reply)]() mutable {
      json result = work(driver);
      boost::asio::post(home, [reply = std::move(reply), result = std::move(result)]() mutable {
        reply(std::move(result));
      });
    });
  };
}

}  // namespace

ControlServer::ControlServer(boost::asio::io_context& io, std::vector<ControlLun> luns)
    : io_(io), commands_(std::move(luns), posting(io)), acceptor_(io) {}

ControlServer::~ControlServer() {
  stop();
}

Status ControlServer::start(const std::string& path) {
  if (path.size() >= sizeof(sockaddr_un::sun_path)) {
    return Error("control_socket: '" + path + "' is longer than a Unix socket path may be (" +
                 std::to_string(sizeof(sockaddr_un::sun_path) - 1) + " bytes); use a shorter one");
  }
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) {
    if (!S_ISSOCK(st.st_mode)) {
      return Error("control_socket: '" + path +
                   "' exists and is not a socket; remove it or pick "
                   "another path");
    }
    // A socket file: in use if a daemon answers on it, else left behind.
    stream_protocol::socket probe(io_);
    boost::system::error_code ec;
    probe.connect(stream_protocol::endpoint(path), ec);
    if (!ec) {
      return Error("control_socket: '" + path +
                   "' is in use by another daemon; stop it or pick "
                   "another path");
    }
    ::unlink(path.c_str());
  }
  boost::system::error_code ec;
  acceptor_.open(stream_protocol(), ec);
  // 0600 from the start: the socket never exists with looser permissions.
  const mode_t old_mask = ::umask(0177);
  if (!ec) acceptor_.bind(stream_protocol::endpoint(path), ec);
  ::umask(old_mask);
  if (!ec) acceptor_.listen(static_cast<int>(kMaxClients), ec);
  if (ec) {
    acceptor_.close();
    return Error("control_socket: cannot listen on '" + path + "': " + ec.message() +
                 "; check that the directory exists and is writable");
  }
  path_ = path;
  accept();
  return {};
}

void ControlServer::accept() {
  acceptor_.async_accept(
      [this](const boost::system::error_code& ec, stream_protocol::socket socket) {
        if (ec) return;  // stopped
        std::erase_if(clients_, [](const std::weak_ptr<Client>& c) { return c.expired(); });
        if (clients_.size() >= kMaxClients) {
          boost::system::error_code ignored;
          socket.close(ignored);  // the limit: refused at accept
        } else {
          auto client = std::make_shared<Client>(std::move(socket), commands_, log_, debug_log_);
          clients_.push_back(client);
          client->read();
        }
        accept();
      });
}

void ControlServer::stop() {
  if (path_.empty()) return;
  boost::system::error_code ignored;
  acceptor_.close(ignored);
  for (const std::weak_ptr<Client>& c : clients_) {
    if (auto client = c.lock()) client->close();
  }
  clients_.clear();
  ::unlink(path_.c_str());
  path_.clear();
}

}  // namespace memstore::control
