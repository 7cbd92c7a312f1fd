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

bool apply(std::string_view text, const std::string& source, model::DeviceParams& p,
           std::string& error) {
  model::ParamsResult r = model::params_from_toml(text, p, source);
  if (!r.params) {
    // One problem per line, each prefixed like every other memsim message.
    for (const model::ParamError& e : r.errors) {
      error += (error.empty() ? "" : "\nmemsim: ") + e.message;
    }
    return false;
  }
  p = *r.params;
  return true;
}

}  // namespace

std::optional<model::DeviceParams> resolve_params(const DeviceOptions& o, std::string& error) {
  std::optional<model::DeviceParams> p = model::preset(o.device);
  if (!p) {
    error = "--device: unknown MEMStore preset '" + o.device + "'; use one of " +
            join(model::preset_names());
    return std::nullopt;
  }
  if (!o.config.empty()) {
    errno = 0;
    std::ifstream in(o.config);
    if (!in) {
      error = "--config: cannot read '" + o.config + "': " + std::strerror(errno);
      return std::nullopt;
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (!apply(text.str(), o.config, *p, error)) return std::nullopt;
  }
  for (const std::string& kv : o.set) {
    if (kv.find('=') == std::string::npos) {
      error = "--set: expected key=value, got '" + kv + "'";
      return std::nullopt;
    }
    if (!apply(kv, "--set " + kv, *p, error)) return std::nullopt;
  }
  return p;
}

std::unique_ptr<model::Device> build_device(const DeviceOptions& o, std::string& error) {
  if (!model::make_scheduler(o.scheduler, o.scheduler_options)) {
    error = "--scheduler: unknown scheduler '" + o.scheduler + "'; use one of " +
            join(model::scheduler_names());
    return nullptr;
  }
  if (model::is_comparison_disk(o.device)) {
    if (!o.config.empty() || !o.set.empty()) {
      error = "--config/--set: the comparison disk '" + o.device + "' takes no parameters";
      return nullptr;
    }
    return model::make_disk_device(o.device, o.scheduler, o.scheduler_options);
  }
  if (std::optional<model::ZonedDiskParams> z = model::disk_preset(o.device)) {
    if (!o.config.empty()) {
      error = "--config: the zoned disk '" + o.device + "' takes --set key=value only";
      return nullptr;
    }
    for (const std::string& kv : o.set) {
      if (const auto e = model::apply_disk_override(*z, kv); !e.ok()) {
        error = "--set " + kv + ": " + e.error().message;
        return nullptr;
      }
    }
    const std::vector<model::ParamError> errors = model::validate(*z);
    if (!errors.empty()) {
      error = "--set: " + errors.front().key + " " + errors.front().message;
      return nullptr;
    }
    return model::make_zoned_disk_device(*z, o.scheduler, o.scheduler_options);
  }
  std::optional<model::DeviceParams> p = resolve_params(o, error);
  if (!p) {
    if (!model::preset(o.device)) {
      error =
          "--device: unknown device '" + o.device + "'; use one of " + join(model::device_names());
    }
    return nullptr;
  }
  return model::make_mems_device(*p, o.scheduler, o.scheduler_options);
}

}  // namespace memstore::sim
