// SPDX-License-Identifier: Apache-2.0
// memstored: serves MEMStore LUNs over iSCSI (RFC 7143), every command
// completing at the time the device model says (docs/design.md "Delivery").
#include <sched.h>
#include <spdlog/spdlog.h>
#include <sys/prctl.h>
#include <systemd/sd-daemon.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "target/control/control_server.h"
#include "target/control/metrics_server.h"
#include "target/daemon/awake_cpus.h"
#include "target/daemon/config.h"
#include "target/daemon/journal_log.h"
#include "target/daemon/memstored_access.h"
#include "target/daemon/memstored_flags.h"
#include "target/daemon/memstored_luns.h"
#include "target/daemon/memstored_reload.h"
#include "target/daemon/memstored_running.h"
#include "target/daemon/memstored_sessions.h"
#include "target/daemon/portal_check.h"
#include "target/daemon/security_log.h"
#include "target/driver/timed_lun.h"
#include "target/iscsi/address_text.h"
#include "target/iscsi/server.h"
#include "version/version.h"

namespace {

using namespace memstore;

// SCHED_FIFO for the calling thread, so that no other process delays a
// delivery. With SCHED_RESET_ON_FORK, threads created from it start at
// normal priority: the kernel's io_uring workers (file_store_uring.cc) copy
// data and wait for writeback, and must not compete with deliveries at the
// loops' priority. The loops therefore each set it themselves.
bool run_realtime(std::uint32_t priority) {
  sched_param sp{};
  sp.sched_priority = static_cast<int>(priority);
  return ::sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"memstored: an iSCSI target serving MEMS-based storage devices (MEMStores)"};
  app.set_version_flag("--version", memstore::version_line("memstored"));
  memstored::Flags flags;
  memstored::add_flags(app, flags);
  const daemon::CommandLine& cli = flags.cli;
  const bool busy_poll = flags.busy_poll;
  const std::string& completion_log = flags.completion_log;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  auto resolved = daemon::resolve(cli);
  if (!resolved.ok()) {
    std::cerr << "memstored: " << resolved.error().message << "\n";
    return 2;
  }
  const daemon::Config& config = *resolved;
  daemon::Config running = config;  // what runs: what SIGHUP compares with
  spdlog::set_level(spdlog::level::from_str(config.log_level));  // checked by resolve()
  memstored::use_journal_format_if_under_systemd();

  // Precise completion timers: the default 50 us timer slack would delay
  // every modeled completion (docs/memstored.md "Timing").
  ::prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  if (config.rt_priority > 0) {
    if (!run_realtime(config.rt_priority)) {
      std::cerr << "memstored: rt_priority " << config.rt_priority << ": " << std::strerror(errno)
                << "; SCHED_FIFO needs root or CAP_SYS_NICE (setcap cap_sys_nice+ep on the "
                   "binary), or leave rt_priority at 0\n";
      return 2;
    }
  }

  std::ofstream completions;
  if (!completion_log.empty()) {
    completions.open(completion_log, std::ios::trunc);
    if (!completions) {
      std::cerr << "memstored: --completion-log " << completion_log
                << ": cannot open for writing; give a writable path\n";
      return 2;
    }
    // Model clock: arrival and modeled completion. Wall clock since the LUN
    // driver's epoch: when the completion was due and when it was delivered.
    completions << "target,lun,nexus,tag,arrival_ns,complete_ns,service_ns,due_ns,delivered_ns,"
                   "late_ns\n";
  }
  std::mutex completions_mutex;  // LUNs on different threads share the log

  // One event loop per thread (docs/design.md, "Threads"). Loop 0 runs on
  // this thread and holds the acceptors and the signal handling; LUNs and
  // connections are spread over all of them.
  const unsigned threads =
      config.threads > 0 ? config.threads : std::max(1U, std::thread::hardware_concurrency());
  std::vector<std::unique_ptr<boost::asio::io_context>> loops;
  std::vector<boost::asio::io_context*> loop_ptrs;
  for (unsigned i = 0; i < threads; ++i) {
    loops.push_back(std::make_unique<boost::asio::io_context>(1));
    loop_ptrs.push_back(loops.back().get());
  }
  boost::asio::io_context& io = *loops.front();
  iscsi::Server server(io);
  server.set_loops(loop_ptrs);
  iscsi::ServerLimits limits;
  limits.max_connections = config.limits.max_connections;
  limits.max_sessions_per_initiator = config.limits.max_sessions_per_initiator;
  limits.connection.login_timeout = std::chrono::seconds(config.limits.login_timeout);
  limits.connection.nop_in_interval = std::chrono::seconds(config.nop_in_interval);
  limits.connection.nop_in_timeout = std::chrono::seconds(config.nop_in_timeout);
  limits.connection.max_output_bytes = config.limits.max_output_bytes;
  limits.session.max_tasks = config.limits.max_outstanding_commands;
  limits.session.cmd_window = std::min(limits.session.cmd_window, limits.session.max_tasks);
  limits.session.max_text_bytes = config.limits.max_text_bytes;
  server.set_limits(limits);
  server.set_warn([](const std::string& message) { spdlog::warn("{}", message); });
  server.set_event_log([](const std::string& line) { spdlog::info("{}", line); });
  // Built only at debug level, which a reload may turn on or off.
  server.set_debug_log([](const std::string& line) { spdlog::debug("{}", line); },
                       [] { return spdlog::should_log(spdlog::level::debug); });
  server.set_security_log(daemon::make_security_log(
      config.security_log_rate, [](const std::string& line) { spdlog::warn("{}", line); }));
  if (config.discovery_chap) server.set_discovery_chap(memstored::chap_of(*config.discovery_chap));
  // Every portal is checked before any LUN's image is created.
  for (const daemon::TargetSpec& t : config.targets) {
    for (const daemon::Portal& p : t.portals) {
      if (const Status err = daemon::check_portal(p); !err.ok()) {
        std::cerr << "memstored: portal " << err.error().message << "\n";
        return 1;
      }
    }
  }
  // One budget each for every LUN of the daemon ([limits]).
  const auto buffer_budget =
      std::make_shared<scsi::MemoryBudget>(std::size_t{config.limits.buffer_megabytes} << 20);
  const auto batch_budget =
      std::make_shared<scsi::MemoryBudget>(std::size_t{config.limits.batch_result_megabytes} << 20);
  memstored::LunContext lun_context;
  lun_context.config = &running;
  lun_context.buffer_budget = buffer_budget;
  lun_context.batch_budget = batch_budget;
  lun_context.completions = &completions;
  lun_context.completions_mutex = &completions_mutex;
  lun_context.loops = loop_ptrs;
  lun_context.server = &server;
  std::vector<control::ControlLun> control_luns;
  for (std::size_t ti = 0; ti < config.targets.size(); ++ti) {
    auto opened = memstored::open_target(lun_context, config.targets[ti],
                                         "target[" + std::to_string(ti) + "].");
    if (!opened.ok()) {
      std::cerr << "memstored: " << opened.error().message << "\n";
      return 1;
    }
    auto& target = *opened;
    control_luns.insert(control_luns.end(), target.luns.begin(), target.luns.end());
    server.add_target(std::move(target.setup));
  }
  if (const Status err = server.start(); !err.ok()) {
    std::cerr << "memstored: " << err.error().message << "\n";
    return 1;
  }
  // Bound ports in portal order (port 0 in the configuration picks a free one).
  const std::vector<std::uint16_t> ports = server.bound_ports();
  std::size_t portal = 0;
  for (const daemon::TargetSpec& t : config.targets) {
    for (const daemon::Portal& p : t.portals) {
      spdlog::info("serving {} on {}", t.name, iscsi::address_text(p.host, ports.at(portal++)));
    }
  }
  spdlog::info("{} event-loop thread{}", threads, threads == 1 ? "" : "s");
  // The daemon's LUNs from here on: the control socket's list, which
  // lun-add and lun-remove change.
  control::ControlServer control_server(io, std::move(control_luns));
  control_server.set_log([](const std::string& line) { spdlog::info("{}", line); });
  control_server.set_debug_log([](const std::string& line) { spdlog::debug("{}", line); });
  control::ControlCommands& commands = control_server.commands();
  commands.set_lun_admin(memstored::lun_admin(lun_context, server, commands));
  commands.set_target_admin(memstored::target_admin(lun_context, server));
  commands.set_sessions(memstored::sessions_query(server));
  commands.set_save(memstored::save_config(io, running, commands));
  memstored::add_access_commands(commands, running, server);
  control::MetricsServer metrics_server(io, commands, [&server] { return server.connections(); });
  if (!config.metrics.empty()) {
    const daemon::Portal at = *daemon::parse_portal(config.metrics);  // checked by resolve()
    if (const Status err = metrics_server.start(at.host, at.port); !err.ok()) {
      std::cerr << "memstored: " << err.error().message << "\n";
      return 1;
    }
    spdlog::info("metrics on http://{}:{}/metrics", at.host, metrics_server.port());
  }
  if (!config.control_socket.empty()) {
    if (const Status err = control_server.start(config.control_socket); !err.ok()) {
      std::cerr << "memstored: " << err.error().message << "\n";
      return 1;
    }
    spdlog::info("control socket {}", config.control_socket);
  }
  // The other loops have no work of their own until a connection or a LUN
  // gives them some: guards keep them running until shutdown.
  using WorkGuard = boost::asio::executor_work_guard<boost::asio::io_context::executor_type>;
  std::vector<WorkGuard> guards;
  for (auto& l : loops) guards.push_back(boost::asio::make_work_guard(*l));
  boost::asio::signal_set signals(io, SIGINT, SIGTERM);
  boost::asio::signal_set hup(io, SIGHUP);  // reload, below
  boost::asio::steady_timer deadline(io);
  boost::asio::steady_timer poll(io);
  std::atomic<bool> forced{false};  // connections were still open at the deadline
  std::function<void()> poll_closed = [&] {
    if (server.connections() == 0) {
      deadline.cancel();
      // No session is left to receive a result: the results still queued in
      // the models are dropped, and every loop returns once its storage
      // operations are done.
      for (const control::ControlLun& l : commands.luns()) {
        boost::asio::post(l.driver->context(), [d = l.driver] { d->stop_timing(); });
      }
      guards.clear();
      return;
    }
    poll.expires_after(std::chrono::milliseconds(10));
    poll.async_wait([&](const boost::system::error_code& ec) {
      if (!ec) poll_closed();
    });
  };
  signals.async_wait([&](const boost::system::error_code&, int sig) {
    spdlog::info("signal {}: shutting down", sig);
    ::sd_notify(0, "STOPPING=1");
    // Closing every connection lets io.run() return by itself once their
    // coroutines have ended and the commands still in the models have been
    // accounted; they must end while the LUNs they point at still exist.
    // The deadline bounds the wait: a peer that never lets go, or commands
    // queued in a slowed-down model (at scale 1000 a queue of reads takes
    // seconds), are dropped after 1.5 s, so that shutdown ends within 2 s.
    server.stop();
    control_server.stop();
    metrics_server.stop();
    hup.cancel();
    deadline.expires_after(std::chrono::milliseconds(1500));
    deadline.async_wait([&](const boost::system::error_code& ec) {
      if (!ec) {
        spdlog::warn(
            "shutdown: after 1.5 s, {} connections still open; the commands still in "
            "the models are dropped",
            server.connections());
        forced = true;
        for (auto& l : loops) l->stop();
      }
    });
    poll_closed();
  });
  // SIGHUP re-reads the configuration file and applies what can change
  // live (target/daemon/reload.h), compared with what runs now
  // (memstored_running.h); the rest is logged as needing a restart.
  std::function<void()> on_hup = [&] {
    hup.async_wait([&](const boost::system::error_code& ec, int) {
      if (ec) return;
      memstored::refresh_running(io, running, commands.luns(), [&] {
        std::map<std::pair<std::string, std::uint16_t>, driver::TimedLun*> lun_index;
        for (const control::ControlLun& l : commands.luns()) lun_index[{l.target, l.id}] = l.driver;
        memstored::reload(cli, running, lun_index, server);
        on_hup();
      });
    });
  };
  on_hup();
  auto run_loop = [busy_poll](boost::asio::io_context& loop) {
    if (busy_poll) {
      // poll() never blocks; it stops, like run(), once no work is left.
      while (!loop.stopped()) loop.poll();
    } else {
      loop.run();
    }
  };
  // The threads inherit the timer slack set above; the realtime policy is
  // reset on fork (run_realtime()), so each loop takes it again.
  std::vector<std::thread> workers;
  for (std::size_t i = 1; i < loops.size(); ++i) {
    workers.emplace_back([&run_loop, &loop = *loops[i], prio = config.rt_priority] {
      if (prio > 0 && !run_realtime(prio)) {
        spdlog::warn("event loop: SCHED_FIFO refused ({}); it runs at normal priority",
                     std::strerror(errno));
      }
      run_loop(loop);
    });
  }
  // systemd (Type=notify): ready once every portal listens, the control
  // socket and metrics are up and SIGHUP is handled (before, a reload
  // request would end the daemon); a no-op without NOTIFY_SOCKET.
  ::sd_notifyf(0, "READY=1\nSTATUS=serving %zu target(s) on %zu portal(s)", config.targets.size(),
               ports.size());
  std::optional<daemon::AwakeCpus> awake;
  if (config.awake_cpus > 0) {
    awake.emplace(config.awake_cpus);
    if (awake->running() < config.awake_cpus) {
      spdlog::info(
          "awake_cpus {}: {} CPU(s) kept awake (the others are not this process's, or "
          "refused SCHED_IDLE)",
          config.awake_cpus, awake->running());
    }
  }
  run_loop(io);
  for (std::thread& w : workers) w.join();
  awake.reset();
  int status = 0;
  for (const control::ControlLun& lun : commands.luns()) {
    driver::TimedLun* d = lun.driver;
    const std::string name = memstored::lun_name(lun.target, lun.id);
    const auto e = d->lun().switch_off("memstored stopping");
    if (!e.ok()) {
      spdlog::error("{}: flush failed: {}", name, e.error().message);
      status = 1;
    }
    const delivery::Lateness& l = d->lateness();
    spdlog::info("{} closed{}: deliveries: {}, late by mean {:.1f} us, max {:.1f} us", name,
                 e.ok() ? ", flushed" : " unflushed", l.count, l.mean_ns() / 1e3,
                 static_cast<double>(l.max_ns) / 1e3);
  }
  completions.close();
  if (forced) {
    // Sessions still hold LUN links whose targets live on the other loops:
    // destroying the loops one by one would have a dying session post to a
    // loop already gone. Everything durable is flushed; leave without it.
    std::fflush(nullptr);
    std::_Exit(status);
  }
  return status;
}
