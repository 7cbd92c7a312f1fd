// SPDX-License-Identifier: Apache-2.0
#include "sim/device_options.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "model/device_factory.h"
#include "model/params_toml.h"

namespace memstore::sim {
namespace {

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

Status apply(std::string_view text, const std::string& source, model::DeviceParams& p) {
  model::ParamsResult r = model::params_from_toml(text, p, source);
  if (!r.params) {
    // One problem per line, each prefixed like every other memsim message.
    std::string all;
    for (const model::ParamError& e : r.errors) {
      all += (all.empty() ? "" : "\nmemsim: ") + e.message;
    }
    return Error(all);
  }
  p = *r.params;
  return {};
}

}  // namespace

Expected<model::DeviceParams> resolve_params(const DeviceOptions& o) {
  std::optional<model::DeviceParams> p = model::preset(o.device);
  if (!p) {
    return Error("--device: unknown MEMStore preset '" + o.device + "'; use one of " +
                 join(model::preset_names()));
  }
  if (!o.config.empty()) {
    errno = 0;
    std::ifstream in(o.config);
    if (!in) {
      const int e = errno;
      return Error(e, "--config: cannot read '" + o.config + "': " + std::strerror(e));
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (const Status s = apply(text.str(), o.config, *p); !s.ok()) return s.error();
  }
  for (const std::string& kv : o.set) {
    if (kv.find('=') == std::string::npos) {
      return Error("--set: expected key=value, got '" + kv + "'");
    }
    if (const Status s = apply(kv, "--set " + kv, *p); !s.ok()) return s.error();
  }
  return *p;
}

Expected<std::unique_ptr<model::Device>> build_device(const DeviceOptions& o) {
  if (!model::make_scheduler(o.scheduler, o.scheduler_options)) {
    return Error("--scheduler: unknown scheduler '" + o.scheduler + "'; use one of " +
                 join(model::scheduler_names()));
  }
  if (model::is_comparison_disk(o.device)) {
    if (!o.config.empty() || !o.set.empty()) {
      return Error("--config/--set: the comparison disk '" + o.device + "' takes no parameters");
    }
    return model::make_disk_device(o.device, o.scheduler, o.scheduler_options);
  }
  if (std::optional<model::ZonedDiskParams> z = model::disk_preset(o.device)) {
    if (!o.config.empty()) {
      return Error("--config: the zoned disk '" + o.device + "' takes --set key=value only");
    }
    for (const std::string& kv : o.set) {
      if (const auto e = model::apply_disk_override(*z, kv); !e.ok()) {
        return Error("--set " + kv + ": " + e.error().message);
      }
    }
    const std::vector<model::ParamError> errors = model::validate(*z);
    if (!errors.empty()) {
      return Error("--set: " + errors.front().key + " " + errors.front().message);
    }
    return model::make_zoned_disk_device(*z, o.scheduler, o.scheduler_options);
  }
  Expected<model::DeviceParams> p = resolve_params(o);
  if (!p.ok()) {
    if (!model::preset(o.device)) {
      return Error("--device: unknown device '" + o.device + "'; use one of " +
                   join(model::device_names()));
    }
    return p.error();
  }
  return model::make_mems_device(*p, o.scheduler, o.scheduler_options);
}

}  // namespace memstore::sim
