// SPDX-License-Identifier: Apache-2.0
// memsctl's subcommands (docs/host-library.md, "memsctl"). Each returns the
// process exit status: 0 on success, 1 when the device or the transport
// fails, 2 on bad arguments (including an LBN beyond the device). Results go
// to stdout, as text or with --json as one JSON object; errors go to stderr
// in words, and with --json also to stdout as {"error": {...}}.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace memstore::memsctl {

// Options every subcommand takes.
struct Common {
  std::string target;  // iscsi:// URL or /dev/sgN
  std::string initiator = "iqn.2026-11.org.memstore:memsctl";
  int timeout_s = 60;
  bool json = false;
};

int cmd_info(const Common& c);

struct EquivArgs {
  std::uint64_t lbn = 0;
  int micropositioning = -1;  // -1: the device's M
};
int cmd_equiv(const Common& c, const EquivArgs& a);
int cmd_ensemble(const Common& c, std::uint64_t lbn);
int cmd_conflict(const Common& c, std::uint64_t a, std::uint64_t b);

struct BatchArgs {
  // In command-line order: (is_write, "LBN:COUNT[@FILE]").
  std::vector<std::pair<bool, std::string>> items;
  bool strict = false;
  bool fua = false;
  std::string output;  // all read data, in descriptor order
};
int cmd_batch(const Common& c, const BatchArgs& a);

int cmd_stats(const Common& c);

struct SetArgs {
  std::optional<std::string> scheduler;
  std::optional<std::string> timing;
  std::optional<double> scale;
};
int cmd_set(const Common& c, const SetArgs& a);

// memsctl admin: a request to memstored's control socket (memsctl_admin.cc).
struct AdminArgs {
  std::string socket;   // path of the daemon's control socket
  std::string command;  // luns, lun-*, target-*, sessions, connections, save, access, acl-*,
                        // chap-*, stats, faults, fault-*, timing, power-cut, trace
  std::string action;   // trace: start or stop
  std::string target;   // empty: the daemon's only target
  std::optional<std::uint32_t> lun;
  std::optional<std::uint32_t> id;       // fault-remove
  std::optional<std::string> rule;       // fault-add: a JSON object
  std::optional<std::string> config;     // lun-add, target-add: a JSON object of the table's keys
  std::optional<std::string> mode;       // timing
  std::optional<double> scale;           // timing
  std::optional<std::string> policy;     // power-cut
  std::optional<std::uint64_t> seed;     // power-cut
  std::optional<double> off_ms;          // power-cut
  std::optional<std::string> file;       // save: where the daemon writes the configuration
  std::optional<std::string> initiator;  // acl-add, acl-remove
  std::optional<std::string> chap;       // chap-set: a JSON object
  std::optional<std::string> format;     // trace start: disksim or spc
  int timeout_s = 10;
  bool json = false;  // accepted as every command takes it: the reply is JSON anyway
};
int cmd_admin(const AdminArgs& a);
// The socket memsctl admin opens without --socket: $MEMSTORED_CONTROL_SOCKET,
// else the path the packaged service uses.
std::string default_control_socket();

}  // namespace memstore::memsctl
