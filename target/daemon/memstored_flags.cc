// SPDX-License-Identifier: Apache-2.0
#include "target/daemon/memstored_flags.h"

namespace memstore::memstored {

void add_flags(CLI::App& app, Flags& f) {
  app.add_option("--config", f.cli.config_file,
                 "TOML configuration (targets, portals, LUNs, auth)");
  app.add_option("--listen", f.cli.listen, "Portal ADDR:PORT (default 127.0.0.1:3260)");
  app.add_option("--backing", f.cli.backing,
                 "LUN image path, or 'memory' (default ./var/<target>-lun0.img)");
  app.add_option("--device", f.cli.device,
                 "Device preset: g1, g2 (default), g3, uysal03, tos05, asplos99-g1, asplos99-g2, "
                 "asplos99-g3; or a "
                 "rotating disk: atlas10k, disk20k, cheetah4lp, superdisk");
  app.add_option("--timing", f.cli.timing, "realtime (default), scaled or off");
  app.add_option("--scheduler", f.cli.scheduler,
                 "fcfs (default), clook, sstf, sptf, asptf, sdf, zsptf, zfcfs, ztsptf");
  app.add_option("--target-name", f.cli.target_name,
                 "iSCSI target name (default iqn.2026-11.org.memstore:g2)");
  app.add_option("--log-level", f.cli.log_level,
                 "trace, debug, info (default), warn, error, critical or off");
  app.add_option(
         "--nop-in-interval", f.cli.nop_in_interval,
         "Seconds of silence from an initiator before a NOP-In ping (default 5; 0: no pings)")
      ->check(CLI::Range(0, 3600));
  app.add_option("--nop-in-timeout", f.cli.nop_in_timeout,
                 "Seconds after a ping with nothing received before the connection and its session "
                 "end (default 10)")
      ->check(CLI::Range(1, 3600));
  app.add_option("--spin-us", f.cli.spin_us,
                 "Microseconds before each modeled completion at which delivery stops sleeping "
                 "and waits on the CPU, for accuracy (default 100; 0: sleep until the timer)")
      ->check(CLI::Range(0, 10000));
  app.add_option("--rt-priority", f.cli.rt_priority,
                 "Run under SCHED_FIFO at this priority (1-99) so that other processes cannot "
                 "delay deliveries (needs CAP_SYS_NICE; default 0: normal scheduling)")
      ->check(CLI::Range(0, 99));
  app.add_option("--transport-compensation-us", f.cli.transport_compensation_us,
                 "Realtime timing: date each command's arrival this many microseconds earlier, "
                 "the initiator's own round trip (measure it with timing off at QD1), so that "
                 "the latency the initiator sees matches the model (default 0)")
      ->check(CLI::Range(0, 10000));
  app.add_option("--threads", f.cli.threads,
                 "Event-loop threads: LUNs and connections are spread over them (default 0: one "
                 "per core)")
      ->check(CLI::Range(0U, daemon::Config::kMaxThreads));
  app.add_option("--awake-cpus", f.cli.awake_cpus,
                 "Keep this many CPUs from halting with a spinner at the lowest priority "
                 "(SCHED_IDLE), so that a delivery never waits for a virtual machine's halted "
                 "vCPU to be run again by its host; costs those CPUs' power (default 0: none)")
      ->check(CLI::Range(0U, 4096U));
  app.add_option("--control-initiator", f.cli.control_initiators,
                 "An initiator name that may change the control mode page 22h (timing, scale, "
                 "scheduler) of every LUN; repeatable (default: none may)");
  app.add_option("--security-log-rate", f.cli.security_log_rate,
                 "Refused logins logged per second at most, per kind (login, CHAP, ACL); the "
                 "rest are counted (default 10)");
  app.add_option("--control-socket", f.cli.control_socket,
                 "Serve the control socket (JSON lines: statistics, fault rules, timing; "
                 "`memsctl admin`) at this path, mode 0600 (default: none)");
  app.add_option("--metrics", f.cli.metrics,
                 "Serve Prometheus text metrics at http://ADDR:PORT/metrics (per-LUN commands, "
                 "bytes, lateness, faults fired; connections); default: none");
  app.add_flag("--busy-poll", f.busy_poll,
               "Poll the sockets and timers without ever sleeping (one core at 100%): commands "
               "are seen as they arrive, for timing-fidelity measurements");
  app.add_option("--completion-log", f.completion_log,
                 "Write one CSV line per completion delivered in realtime or scaled timing: "
                 "the model's prediction beside the actual delivery time");
}

}  // namespace memstore::memstored
