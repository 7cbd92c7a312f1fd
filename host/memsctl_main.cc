// SPDX-License-Identifier: Apache-2.0
// memsctl: look at and drive a MEMStore from the host (docs/host-library.md,
// "memsctl"). Command-line wiring only; the subcommands are memsctl_*.cc.
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

#include "host/memsctl_args.h"
#include "host/memsctl_commands.h"
#include "version/unknown_command.h"
#include "version/version.h"

namespace {

using memstore::memsctl::Common;

void add_common(CLI::App* cmd, Common& c) {
  cmd->add_option("target", c.target,
                  "iscsi://[user[%password]@]host[:port]/target-iqn/lun, or /dev/sgN")
      ->required();
  cmd->add_option("--initiator", c.initiator, "iSCSI initiator name (default " + c.initiator + ")");
  cmd->add_option("--timeout", c.timeout_s, "Seconds to wait for a login or a command")
      ->check(CLI::Range(1, 3600));
  cmd->add_flag("--json", c.json, "Print JSON");
}

int run(int argc, char** argv) {
  CLI::App app{"memsctl: inspect and use a MEMStore (MEMS-based storage device) from the host"};
  app.set_version_flag("--version", memstore::version_line("memsctl"));
  app.require_subcommand(1);
  int status = 0;
  Common common;

  auto* info = app.add_subcommand(
      "info", "INQUIRY, capacity, geometry (page 20h), physics (21h), control (22h)");
  add_common(info, common);
  info->callback([&] { status = memstore::memsctl::cmd_info(common); });

  memstore::memsctl::EquivArgs equiv;
  auto* e =
      app.add_subcommand("equiv", "An LBN's equivalence class (thesis §6.3.2, get_equivalent)");
  add_common(e, common);
  e->add_option("lbn", equiv.lbn, "Logical block number")->required();
  e->add_option("--micropositioning", equiv.micropositioning,
                "Degree of micropositioning M (default: the device's)")
      ->check(CLI::Range(0, 1 << 30));
  e->callback([&] { status = memstore::memsctl::cmd_equiv(common, equiv); });

  std::uint64_t ensemble_lbn = 0;
  auto* n = app.add_subcommand("ensemble", "The track holding an LBN (get_ensemble)");
  add_common(n, common);
  n->add_option("lbn", ensemble_lbn, "Logical block number")->required();
  n->callback([&] { status = memstore::memsctl::cmd_ensemble(common, ensemble_lbn); });

  std::uint64_t conflict_a = 0;
  std::uint64_t conflict_b = 0;
  auto* k = app.add_subcommand("conflict",
                               "Whether two LBNs conflict (check_conflicting, thesis §6.3.4)");
  add_common(k, common);
  k->add_option("lbn-a", conflict_a, "First LBN")->required();
  k->add_option("lbn-b", conflict_b, "Second LBN")->required();
  k->callback([&] { status = memstore::memsctl::cmd_conflict(common, conflict_a, conflict_b); });

  memstore::memsctl::BatchArgs batch;
  auto* b = app.add_subcommand("batch", "Send one MEMS BATCH and fetch its results");
  add_common(b, common);
  // trigger_on_parse keeps --read and --write in command-line order: the
  // batch's descriptors follow it.
  b->add_option_function<std::string>(
       "--read", [&](const std::string& v) { batch.items.emplace_back(false, v); },
       "Read LBN:COUNT blocks (LBN:COUNT@FILE also saves them to FILE); repeatable")
      ->trigger_on_parse()
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  b->add_option_function<std::string>(
       "--write", [&](const std::string& v) { batch.items.emplace_back(true, v); },
       "Write LBN:COUNT blocks from FILE (exactly COUNT blocks long): LBN:COUNT@FILE; repeatable")
      ->trigger_on_parse()
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  b->add_flag("--strict", batch.strict,
              "Refuse the batch unless it takes one media access (ASC 26h/80h)");
  b->add_flag("--fua", batch.fua, "Writes are durable before the batch completes");
  b->add_option("--output", batch.output, "Write all read data, in descriptor order, to FILE");
  b->callback([&] { status = memstore::memsctl::cmd_batch(common, batch); });

  auto* s = app.add_subcommand("stats", "Power (log page 30h) and positioning (31h) statistics");
  add_common(s, common);
  s->callback([&] { status = memstore::memsctl::cmd_stats(common); });

  memstore::memsctl::SetArgs set;
  auto* t = app.add_subcommand("set", "Change the scheduler or timing (control mode page 22h)");
  add_common(t, common);
  t->add_option("--scheduler", set.scheduler, memstore::memsctl::scheduler_list());
  t->add_option("--timing", set.timing, "realtime, scaled or off");
  t->add_option("--scale", set.scale, "Scaled timing: completions at SCALE x the modeled time");
  t->callback([&] { status = memstore::memsctl::cmd_set(common, set); });

  memstore::memsctl::AdminArgs admin;
  admin.socket = memstore::memsctl::default_control_socket();
  auto* a = app.add_subcommand(
      "admin",
      "memstored's control socket: LUNs and targets added and removed, sessions, access "
      "control, the running configuration saved, statistics, fault rules, timing and power "
      "cuts");
  a->add_option(
       "command", admin.command,
       "luns, lun-add, lun-remove, target-add, target-remove, sessions, connections, "
       "save, access, acl-add, acl-remove, acl-clear, chap-set, chap-clear, stats, faults, "
       "fault-add, fault-remove, fault-clear, timing, power-cut, trace (start or stop), or "
       "rpc_get_methods (the daemon's list)")
      ->required();
  a->add_option("action", admin.action, "trace: start or stop");
  a->add_option(
      "--socket", admin.socket,
      "The daemon's control socket (default $MEMSTORED_CONTROL_SOCKET, else " + admin.socket + ")");
  a->add_option("--target", admin.target,
                "Target name (default: the daemon's only target; target-remove: required)");
  a->add_option("--lun", admin.lun, "LUN number");
  a->add_option("--rule", admin.rule,
                "fault-add: the rule as a JSON object of [[target.lun.fault]]'s keys");
  a->add_option("--config", admin.config,
                "lun-add: the new LUN as a JSON object of [[target.lun]]'s keys (id required); "
                "target-add: the new target as a JSON object of [[target]]'s keys, its LUNs "
                "under \"lun\"");
  a->add_option("--id", admin.id, "fault-remove: the rule's id, as `faults` lists it");
  a->add_option("--mode", admin.mode, "timing: realtime, scaled or off");
  a->add_option("--scale", admin.scale, "timing: completions at SCALE x the modeled time");
  a->add_option("--policy", admin.policy,
                "power-cut: what the volatile cache's writes do, drop-all (default), "
                "keep-random or torn");
  a->add_option("--seed", admin.seed, "power-cut: seeds the policy's draws (default 1)");
  a->add_option("--off-ms", admin.off_ms,
                "power-cut: how long the LUN stays without power, answering nothing and its "
                "target refusing logins (default 0)")
      ->check(CLI::Range(0.0, 3'600'000.0));
  a->add_option("--file", admin.file,
                "save: the file the daemon writes its running configuration to (mode 0600); "
                "without it the configuration is printed. trace start: the file the LUN's "
                "requests are captured into");
  a->add_option("--format", admin.format,
                "trace start: disksim (default; what memsim replay reads by default) or spc");
  a->add_option("--initiator", admin.initiator, "acl-add, acl-remove: the initiator's iSCSI name");
  a->add_option("--chap", admin.chap,
                "chap-set: the target's CHAP as a JSON object: user, secret and, for mutual "
                "CHAP, mutual_user and mutual_secret");
  // The reply is JSON already; the flag every other command takes is
  // accepted here too, so that scripts can pass it everywhere.
  a->add_flag("--json", admin.json,
              "The reply as JSON (admin always prints JSON; save without --file prints TOML)");
  a->add_option("--timeout", admin.timeout_s, "Seconds to wait for the reply")
      ->check(CLI::Range(1, 3600));
  a->callback([&] { status = memstore::memsctl::cmd_admin(admin); });

  if (const auto unknown = memstore::unknown_command(app, "memsctl", argc, argv)) {
    std::cerr << "memsctl: " << *unknown << "\n";
    return memstore::memsctl::kExitUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& parse_error) {
    // CLI11's own codes (105, 106, ...) are not memsctl's: any usage error is 2.
    return app.exit(parse_error) == 0 ? 0 : memstore::memsctl::kExitUsage;
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  // The library reports errors as values; this only catches what the
  // standard library throws (out of memory, a stream failure).
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "memsctl: " << e.what() << "\n";
    return memstore::memsctl::kExitFailure;
  }
}
