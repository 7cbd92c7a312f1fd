// SPDX-License-Identifier: Apache-2.0
// memstored's configuration: targets, portals, LUNs, authentication (a TOML
// file, or the command line's common single-LUN case). Parsing and
// validation only: every error names the key and the fix; nothing here opens
// files other than the config itself or binds sockets.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "base/expected.h"
#include "model/params.h"
#include "target/lunspec/lun_spec.h"
#include "target/scsi/timing.h"

namespace memstore::daemon {

inline constexpr const char* kDefaultTargetName = "iqn.2026-11.org.memstore:g2";
inline constexpr const char* kDefaultPortal = "127.0.0.1:3260";

struct Portal {
  std::string host;  // numeric IPv4 or IPv6 address
  std::uint16_t port = 3260;
  friend bool operator==(const Portal&, const Portal&) = default;
};

// The LUN description memstored and the TCMU handler share (lun_spec.h).
using lunspec::Durability;
using lunspec::LunSpec;

struct Chap {
  std::string user;
  std::string secret;
  std::string mutual_user;  // empty: one-way CHAP
  std::string mutual_secret;
  friend bool operator==(const Chap&, const Chap&) = default;
};

struct TargetSpec {
  std::string name = kDefaultTargetName;
  std::string alias;
  std::vector<Portal> portals;
  std::vector<std::string> acl;  // initiator names; empty: any initiator
  std::optional<Chap> chap;
  std::vector<LunSpec> luns;
};

// What a remote initiator may hold ([limits]; docs/memstored.md, "Limits").
// Every one has a safe default and finite bounds.
struct Limits {
  std::uint32_t max_connections = 1024;
  std::uint32_t max_sessions_per_initiator = 64;
  std::uint32_t login_timeout = 15;              // seconds from accept to the full feature phase
  std::uint32_t max_outstanding_commands = 128;  // per session, immediate ones counted
  std::uint32_t max_text_bytes = 64 * 1024;      // one login or Text request, continued
  std::uint32_t max_output_bytes = 16 << 20;     // per connection, before it stops reading
  // Daemon-wide (every LUN together): data buffers of commands not yet
  // delivered and kept for reuse; MEMS BATCH results kept for reading.
  std::uint32_t buffer_megabytes = 256;
  std::uint32_t batch_result_megabytes = 64;
  friend bool operator==(const Limits&, const Limits&) = default;
};

// One bound of [limits]: its key, where it goes, its range and unit.
struct LimitNumber {
  const char* key;
  std::uint32_t Limits::*field;
  std::uint32_t min, max;
  const char* unit;  // nullptr: a count
};
inline constexpr LimitNumber kLimitNumbers[] = {
    {"max_connections", &Limits::max_connections, 1, 1'000'000, nullptr},
    {"max_sessions_per_initiator", &Limits::max_sessions_per_initiator, 1, 1'000'000, nullptr},
    {"login_timeout", &Limits::login_timeout, 1, 3600, nullptr},
    {"max_outstanding_commands", &Limits::max_outstanding_commands, 1, 65536, nullptr},
    {"max_text_bytes", &Limits::max_text_bytes, 8192, 16 << 20, nullptr},
    {"max_output_bytes", &Limits::max_output_bytes, 1 << 20, 1U << 30, nullptr},
    // At least two of the largest transfers (scsi::kMaxTransferBlocks, 32 MiB).
    {"buffer_megabytes", &Limits::buffer_megabytes, 64, 1 << 20, "MiB"},
    {"batch_result_megabytes", &Limits::batch_result_megabytes, 16, 1 << 20, "MiB"},
};

// The log levels `log_level` and --log-level accept, in spdlog's spelling.
inline constexpr const char* kLogLevels[] = {"trace", "debug",    "info", "warn",
                                             "error", "critical", "off"};

// RFC 7143 §4.2.7.1: an iSCSI name is at most 223 bytes.
inline constexpr std::size_t kMaxIscsiNameBytes = 223;

struct Config {
  std::string log_level = "info";  // one of kLogLevels
  std::string state_dir = "var";   // default images live here
  // The control socket's path (docs/memstored.md, "Control socket"); empty: none.
  std::string control_socket;
  // Prometheus text metrics at http://ADDR:PORT/metrics (docs/memstored.md,
  // "Metrics"); empty: none.
  std::string metrics;
  // Seconds of silence from an initiator before the target's NOP-In ping;
  // nothing received for nop_in_timeout seconds after it ends the connection
  // (and its session). 0: off.
  std::uint32_t nop_in_interval = 5;
  std::uint32_t nop_in_timeout = 10;
  Limits limits;
  // Microseconds before each modeled completion at which the delivery stops
  // sleeping and waits on the CPU (timer wake-up costs tens of microseconds
  // on a VM; docs/benchmarks/log/2026-11-21.md, "Timing fidelity"). 0: always
  // sleep.
  std::uint32_t spin_us = kDefaultSpinUs;
  static constexpr std::uint32_t kDefaultSpinUs = 100;
  // SCHED_FIFO priority of the daemon (1-99), so that other processes on
  // the machine cannot delay a delivery. 0: the normal scheduler.
  std::uint32_t rt_priority = 0;
  // Microseconds of the initiator's own round trip to take off every
  // command's modeled latency in realtime timing (driver::TimedLun::set_compensation).
  std::uint32_t transport_compensation_us = 0;
  // Event-loop threads (docs/design.md, "Threads"). 0: one per core.
  std::uint32_t threads = 0;
  // CPUs kept from halting by a spinner at the lowest priority (awake_cpus.h):
  // on a VM, a halted vCPU wakes only when its host runs it again. 0: none.
  std::uint32_t awake_cpus = 0;
  static constexpr std::uint32_t kMaxThreads = 256;
  // Initiator names that may change the control mode pages (22h, 1Ah) of every LUN
  // (scsi::ControlAccess); empty: none may. Copied into each LunSpec.
  std::vector<std::string> control_initiators;
  // Refused logins (by kind: login, CHAP, ACL) logged per second at most;
  // the rest are counted and the count logged with the next line.
  std::uint32_t security_log_rate = 10;
  // CHAP that discovery sessions must pass ([discovery] chap); none: any
  // initiator may discover, and sees the targets its name may log in to.
  std::optional<Chap> discovery_chap;
  std::vector<TargetSpec> targets;
};

// One bounded number of [daemon]: its key, where it goes, its range and
// what it counts (for the error). The command line's mirrors (--spin-us for
// spin_us) are checked against the same rows.
struct DaemonNumber {
  const char* key;
  std::uint32_t Config::*field;
  std::uint32_t min, max;
  const char* unit;
};
inline constexpr DaemonNumber kDaemonNumbers[] = {
    {"nop_in_interval", &Config::nop_in_interval, 0, 3600, "seconds; 0: no pings"},
    {"nop_in_timeout", &Config::nop_in_timeout, 1, 3600, "seconds"},
    {"spin_us", &Config::spin_us, 0, 10000, "microseconds"},
    {"rt_priority", &Config::rt_priority, 0, 99, "SCHED_FIFO priority; 0: normal scheduling"},
    {"transport_compensation_us", &Config::transport_compensation_us, 0, 10000, "microseconds"},
    {"threads", &Config::threads, 0, Config::kMaxThreads, "event-loop threads; 0: one per core"},
    {"awake_cpus", &Config::awake_cpus, 0, 4096, "CPUs kept from halting; 0: none"},
    {"security_log_rate", &Config::security_log_rate, 1, 1000, "lines per second per kind"},
};

// "addr:port" or "[v6]:port"; nullopt when malformed.
std::optional<Portal> parse_portal(std::string_view text);

// A TOML configuration. `source` names the file in messages.
Expected<Config> parse_config(std::string_view toml, const std::string& source);
Expected<Config> load_config(const std::string& path);

// The command line's single-LUN configuration: one target, one portal, one LUN.
struct CommandLine {
  std::string config_file;
  std::string listen;   // ADDR:PORT
  std::string backing;  // image path or "memory"
  std::string device;
  std::string timing;  // realtime | scaled | off
  std::string scheduler;
  std::string target_name;
  std::string log_level;
  std::optional<std::uint32_t> nop_in_interval;  // seconds
  std::optional<std::uint32_t> nop_in_timeout;   // seconds
  std::optional<std::uint32_t> spin_us;
  std::optional<std::uint32_t> rt_priority;
  std::optional<std::uint32_t> transport_compensation_us;
  std::optional<std::uint32_t> threads;
  std::optional<std::uint32_t> awake_cpus;
  std::optional<std::uint32_t> security_log_rate;
  std::vector<std::string> control_initiators;  // --control-initiator, repeatable
  std::string control_socket;                   // --control-socket PATH
  std::string metrics;                          // --metrics ADDR:PORT
};
// Applies the command line: with --config, the file first, then --listen
// (replacing the first target's portals) and --log-level; without it, the
// default G2 LUN under ./var with any of the flags applied. The daemon's
// numbers and log level are checked after the flags apply, so main only
// applies what it gets; --control-initiator adds to the file's list.
Expected<Config> resolve(const CommandLine& cli);

// The checks every configuration passes last, whatever its source (a file,
// or the flags after it): the daemon's numbers, log level and control
// initiators, which the flags may have changed; and every LUN given the
// control initiators. Errors name `source`.
Expected<Config> finish_config(Config config, const std::string& source);

}  // namespace memstore::daemon
