// SPDX-License-Identifier: Apache-2.0
#include "apps/device_args.h"

#include "apps/host_block_device.h"
#include "apps/sim_block_device.h"

namespace memstore::apps {

void add_device_args(CLI::App& app, DeviceArgs& a) {
  auto* target = app.add_option("--target", a.target,
                                "A MEMStore: iscsi://[user[%password]@]host[:port]/iqn/lun or "
                                "/dev/sgN (e.g. a running memstored)");
  auto* sim = app.add_flag("--sim", a.sim, "Run on the device model itself (no target)");
  target->excludes(sim);
  sim->excludes(target);
  app.add_option("--device", a.sim_device.device, "With --sim: preset g1, g2 or g3 (default g2)");
  app.add_option("--config", a.sim_device.config,
                 "With --sim: TOML file of parameter overrides (the file memstored's "
                 "device_config takes)")
      ->check(CLI::ExistingFile);
  app.add_option("--set", a.sim_device.set,
                 "With --sim: override one parameter, key=value (TOML syntax), repeatable");
  app.add_option("--initiator", a.initiator, "With --target: iSCSI initiator name");
  app.add_option("--timeout", a.timeout_s, "With --target: seconds to wait for a command")
      ->check(CLI::Range(1, 3600));
}

host::Result<std::unique_ptr<BlockDevice>> open_device(const DeviceArgs& a, bool keep_data) {
  if (a.sim == !a.target.empty()) {
    return host::invalid_argument("give either --target URL or --sim");
  }
  if (!a.sim) {
    if (!a.sim_device.config.empty() || !a.sim_device.set.empty() || a.sim_device.device != "g2") {
      return host::invalid_argument(
          "--device, --config and --set describe a simulated device (--sim); a target has its "
          "own configuration");
    }
    host::TransportOptions options;
    options.initiator_name = a.initiator;
    options.timeout_s = a.timeout_s;
    auto d = HostBlockDevice::open(a.target, options);
    if (!d.ok()) return d.error();
    return std::unique_ptr<BlockDevice>(std::move(*d));
  }
  auto params = sim::resolve_params(a.sim_device);
  if (!params.ok()) return host::invalid_argument(params.error().message);
  auto d = SimBlockDevice::create(*params, keep_data);
  if (!d.ok()) return d.error();
  return std::unique_ptr<BlockDevice>(std::move(*d));
}

}  // namespace memstore::apps
