// SPDX-License-Identifier: Apache-2.0
#include "target/control/metrics_server.h"

#include <prometheus/collectable.h>
#include <prometheus/exposer.h>

#include <atomic>
#include <boost/asio/post.hpp>
#include <future>
#include <mutex>
#include <thread>

#include "target/control/metrics_families.h"

namespace memstore::control {

// What the Exposer's threads call for each GET /metrics.
class MetricsServer::Collector : public prometheus::Collectable {
 public:
  Collector(boost::asio::io_context& io, ControlCommands& commands,
            std::function<std::size_t()> connections)
      : io_(io), commands_(commands), connections_(std::move(connections)) {}

  std::vector<prometheus::MetricFamily> Collect() const override {
    // Shared with the loops: a gathering that outlives its wait is theirs to end.
    struct Gathering {
      std::mutex mutex;
      std::vector<LunSample> samples;
      std::size_t left = 0;
      std::promise<void> done;
    };
    auto g = std::make_shared<Gathering>();
    std::future<void> ready = g->done.get_future();
    if (!stopped_) {
      boost::asio::post(io_, [g, &commands = commands_] {
        // The LUNs as they are now, read where the control socket changes them.
        const std::vector<ControlLun> luns = commands.luns();
        g->samples.resize(luns.size());
        g->left = luns.size();
        if (luns.empty()) return g->done.set_value();
        for (std::size_t i = 0; i < luns.size(); ++i) {
          driver::TimedLun* d = luns[i].driver;
          boost::asio::post(d->context(), [g, d, i, target = luns[i].target, id = luns[i].id] {
            LunSample s{target, id, d->counters(), d->lateness(), d->lun().faults().fired_total()};
            const std::lock_guard lock(g->mutex);
            g->samples[i] = std::move(s);
            if (--g->left == 0) g->done.set_value();
          });
        }
      });
    }
    std::vector<LunSample> samples;
    if (!stopped_ && ready.wait_for(kGatherTimeout) == std::future_status::ready) {
      const std::lock_guard lock(g->mutex);
      samples = g->samples;
    }
    return metric_families(samples, connections_());
  }

  void stop() { stopped_ = true; }

 private:
  boost::asio::io_context& io_;
  ControlCommands& commands_;
  std::function<std::size_t()> connections_;
  std::atomic<bool> stopped_{false};
};

MetricsServer::MetricsServer(boost::asio::io_context& io, ControlCommands& commands,
                             std::function<std::size_t()> connections)
    : collector_(std::make_shared<Collector>(io, commands, std::move(connections))) {}

MetricsServer::~MetricsServer() {
  stop();
  if (stopping_.joinable()) stopping_.join();
}

Status MetricsServer::start(const std::string& host, std::uint16_t port) {
  // civetweb's form: "127.0.0.1:9464", "[::1]:9464".
  const std::string at =
      (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + std::to_string(port);
  // civetweb's options (its UserManual): the address, the worker threads,
  // how long a request may take to arrive, and how large its head may be.
  std::vector<std::string> options = {"listening_ports",    at,
                                      "num_threads",        std::to_string(kThreads),
                                      "request_timeout_ms", std::to_string(kTimeout.count() * 1000),
                                      "max_request_size",   std::to_string(kMaxRequest)};
  try {
    exposer_ = std::make_unique<prometheus::Exposer>(std::move(options));
  } catch (const std::exception& e) {
    return Error("--metrics: cannot listen on " + at + ": " + e.what() +
                 "; pick a free port, and a numeric address of this machine");
  }
  exposer_->RegisterCollectable(collector_);
  return {};
}

std::uint16_t MetricsServer::port() const {
  if (!exposer_) return 0;
  const std::vector<int> ports = exposer_->GetListeningPorts();
  return ports.empty() ? 0 : static_cast<std::uint16_t>(ports.front());
}

void MetricsServer::stop() {
  collector_->stop();
  // civetweb takes up to its poll quantum (about 1.3 s measured) to stop its
  // threads: not on the daemon's loop, whose shutdown is bounded
  // (memstored_main.cc). The destructor waits for it.
  if (exposer_ && !stopping_.joinable()) {
    stopping_ = std::thread([exposer = std::move(exposer_)]() mutable { exposer.reset(); });
  }
}

}  // namespace memstore::control
