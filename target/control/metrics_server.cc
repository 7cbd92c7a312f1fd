// SPDX-License-Identifier: Apache-2.0
#include "target/control/metrics_server.h"

#include <boost/asio/read_until.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>
#include <sstream>

namespace memstore::control {

using boost::asio::ip::tcp;

namespace {

// Prometheus label values escape \, " and newlines.
std::string label(const std::string& v) {
  std::string out;
  for (const char c : v) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

struct Metric {
  const char* name;
  const char* type;
  const char* help;
};

}  // namespace

std::string metrics_text(const std::vector<ControlLun>& luns, const std::vector<json>& stats,
                         std::size_t connections) {
  std::ostringstream out;
  auto head = [&](const Metric& m) {
    out << "# HELP " << m.name << " " << m.help << "\n# TYPE " << m.name << " " << m.type << "\n";
  };
  auto labels = [&](std::size_t i) {
    return "target=\"" + label(luns[i].target) + "\",lun=\"" + std::to_string(luns[i].id) + "\"";
  };
  // One line per LUN with a reply; a LUN whose reply failed is left out.
  auto each = [&](const Metric& m, const std::function<void(std::size_t, const json&)>& line) {
    head(m);
    for (std::size_t i = 0; i < luns.size() && i < stats.size(); ++i) {
      if (stats[i].value("ok", false)) line(i, stats[i]);
    }
  };
  const std::pair<Metric, const char*> counters[] = {
      {{"memstore_commands_total", "counter", "SCSI commands delivered."}, "commands"},
      {{"memstore_reads_total", "counter", "Commands delivered that read the medium."}, "reads"},
      {{"memstore_writes_total", "counter", "Commands delivered that write the medium."},
       "writes"},
      {{"memstore_check_conditions_total", "counter", "Commands that ended in CHECK CONDITION."},
       "check_conditions"},
      {{"memstore_faults_fired_total", "counter", "Commands an injected fault rule fired on."},
       "faults_fired"},
  };
  // (No structured bindings here: a lambda may not capture one before C++20's
  // P1091, which clang 14 lacks.)
  for (const auto& counter : counters) {
    const Metric& m = counter.first;
    const char* key = counter.second;
    each(m, [&](std::size_t i, const json& s) {
      out << m.name << "{" << labels(i) << "} " << s.value(key, 0ULL) << "\n";
    });
  }
  const Metric bytes{"memstore_bytes_total", "counter",
                     "Data moved: in = data-in sent, out = data-out consumed."};
  each(bytes, [&](std::size_t i, const json& s) {
    out << bytes.name << "{" << labels(i) << ",direction=\"in\"} " << s.value("bytes_in", 0ULL)
        << "\n";
    out << bytes.name << "{" << labels(i) << ",direction=\"out\"} " << s.value("bytes_out", 0ULL)
        << "\n";
  });
  // Lateness as a summary: quantiles within 12.5% (delivery::Lateness).
  const Metric late{"memstore_delivery_lateness_seconds", "summary",
                    "How late timed completions were delivered after their modeled time."};
  each(late, [&](std::size_t i, const json& s) {
    const json& l = s["lateness"];
    const std::pair<const char*, const char*> q[] = {
        {"0.5", "p50_us"}, {"0.99", "p99_us"}, {"0.999", "p999_us"}};
    for (const auto& [quantile, key] : q) {
      out << late.name << "{" << labels(i) << ",quantile=\"" << quantile << "\"} "
          << l.value(key, 0.0) / 1e6 << "\n";
    }
    const double count = l.value("count", 0.0);
    out << late.name << "_sum{" << labels(i) << "} " << l.value("mean_us", 0.0) * count / 1e6
        << "\n";
    out << late.name << "_count{" << labels(i) << "} " << l.value("count", 0ULL) << "\n";
  });
  head({"memstore_connections", "gauge", "Open iSCSI connections."});
  out << "memstore_connections " << connections << "\n";
  return out.str();
}

// One HTTP exchange: the request head, the metrics gathered from every
// LUN, the response, close.
class MetricsServer::Client : public std::enable_shared_from_this<Client> {
 public:
  Client(tcp::socket socket, MetricsServer& server)
      : socket_(std::move(socket)),
        server_(server),
        input_(kMaxRequest),
        timer_(socket_.get_executor()) {}

  void start() {
    timer_.expires_after(kTimeout);
    timer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
      if (!ec) self->close();
    });
    boost::asio::async_read_until(
        socket_, input_, "\r\n\r\n",
        [self = shared_from_this()](const boost::system::error_code& ec, std::size_t) {
          self->on_request(ec);
        });
  }
  void close() {
    boost::system::error_code ignored;
    timer_.cancel();
    socket_.close(ignored);
  }

 private:
  void on_request(const boost::system::error_code& ec) {
    if (ec == boost::asio::error::not_found)
      return respond("431 Request Header Fields Too Large", "");
    if (ec) return close();
    std::istream head(&input_);
    std::string method, path;
    head >> method >> path;
    if (method != "GET") return respond("405 Method Not Allowed", "GET /metrics only\n");
    if (path != "/metrics") return respond("404 Not Found", "GET /metrics\n");
    gather();
  }

  // Every LUN's `stats`, each answered on its own loop, then the response.
  // The LUNs as they are now: one removed meanwhile answers an error, and
  // its lines are left out.
  void gather() {
    luns_ = server_.commands_.luns();
    stats_.assign(luns_.size(), json());
    left_ = luns_.size();
    if (left_ == 0) return respond("200 OK", metrics_text(luns_, stats_, server_.connections_()));
    for (std::size_t i = 0; i < luns_.size(); ++i) {
      const json request = {{"cmd", "stats"}, {"target", luns_[i].target}, {"lun", luns_[i].id}};
      server_.commands_.handle(request.dump(), [self = shared_from_this(), i](json reply) {
        self->stats_[i] = std::move(reply);
        if (--self->left_ == 0) {
          self->respond("200 OK",
                        metrics_text(self->luns_, self->stats_, self->server_.connections_()));
        }
      });
    }
  }

  void respond(const std::string& status, const std::string& body) {
    output_ = "HTTP/1.1 " + status +
              "\r\nContent-Type: text/plain; version=0.0.4\r\nContent-Length: " +
              std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
    boost::asio::async_write(socket_, boost::asio::buffer(output_),
                             [self = shared_from_this()](const boost::system::error_code&,
                                                         std::size_t) { self->close(); });
  }

  tcp::socket socket_;
  MetricsServer& server_;
  boost::asio::streambuf input_;
  boost::asio::steady_timer timer_;
  std::vector<ControlLun> luns_;
  std::vector<json> stats_;
  std::size_t left_ = 0;
  std::string output_;
};

MetricsServer::MetricsServer(boost::asio::io_context& io, ControlCommands& commands,
                             std::function<std::size_t()> connections)
    : commands_(commands), connections_(std::move(connections)), acceptor_(io) {}

MetricsServer::~MetricsServer() {
  stop();
}

Status MetricsServer::start(const std::string& host, std::uint16_t port) {
  boost::system::error_code ec;
  const auto address = boost::asio::ip::make_address(host, ec);
  if (ec) return Error("--metrics: '" + host + "' is not a numeric IP address");
  const tcp::endpoint at(address, port);
  acceptor_.open(at.protocol(), ec);
  if (!ec) acceptor_.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor_.bind(at, ec);
  if (!ec) acceptor_.listen(static_cast<int>(kMaxClients), ec);
  if (ec) {
    acceptor_.close();
    return Error("--metrics: cannot listen on " + host + ":" + std::to_string(port) + ": " +
                 ec.message() + "; pick a free port");
  }
  accept();
  return {};
}

std::uint16_t MetricsServer::port() const {
  boost::system::error_code ec;
  const tcp::endpoint e = acceptor_.local_endpoint(ec);
  return ec ? 0 : e.port();
}

void MetricsServer::accept() {
  acceptor_.async_accept([this](const boost::system::error_code& ec, tcp::socket socket) {
    if (ec) return;  // stopped
    std::erase_if(clients_, [](const std::weak_ptr<Client>& c) { return c.expired(); });
    if (clients_.size() >= kMaxClients) {
      boost::system::error_code ignored;
      socket.close(ignored);
    } else {
      auto client = std::make_shared<Client>(std::move(socket), *this);
      clients_.push_back(client);
      client->start();
    }
    accept();
  });
}

void MetricsServer::stop() {
  boost::system::error_code ignored;
  acceptor_.close(ignored);
  for (const std::weak_ptr<Client>& c : clients_) {
    if (auto client = c.lock()) client->close();
  }
  clients_.clear();
}

}  // namespace memstore::control
