// memsim's subcommands. Each returns the process exit status: 0 on success,
// 1 on a runtime error (unreadable or malformed input), 2 on bad arguments;
// messages go to stderr, results to stdout.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/device_options.h"

namespace memstore::sim {

enum class OutputFormat { kText, kJson, kCsv };

struct GeometryArgs {
  DeviceOptions device;
  OutputFormat format = OutputFormat::kText;
};
int cmd_geometry(const GeometryArgs& a);

// The device's whole parameter set after --config and --set: TOML that
// --config reads back, or JSON.
struct ParamsArgs {
  DeviceOptions device;
  OutputFormat format = OutputFormat::kText;
};
int cmd_params(const ParamsArgs& a);

struct EquivArgs {
  DeviceOptions device;
  std::int64_t lbn = 0;
  int micropositioning = -1;  // -1: the device's M
  OutputFormat format = OutputFormat::kText;
};
int cmd_equiv(const EquivArgs& a);

struct SeekArgs {
  DeviceOptions device;
  std::int64_t from_lbn = 0;
  std::int64_t to_lbn = 0;
  bool reference = false;  // also integrate the spring-mass system
  OutputFormat format = OutputFormat::kText;
};
int cmd_seek(const SeekArgs& a);

struct RunArgs {
  DeviceOptions device;
  std::string workload = "random";
  std::int64_t requests = 10000;
  double interarrival_ms = 50.0;
  double mean_size_kb = 4.0;
  double read_fraction = 0.67;
  std::uint64_t seed = 1;
  std::string write_trace;  // if set, the generated requests as a DiskSim ASCII trace
  OutputFormat format = OutputFormat::kText;
};
int cmd_run(const RunArgs& a);

struct ReplayArgs {
  DeviceOptions device;
  std::string trace;
  std::string trace_format = "disksim";
  double scale = 1.0;
  std::int64_t device_number = -1;  // -1: every device in the trace
  OutputFormat format = OutputFormat::kText;
};
int cmd_replay(const ReplayArgs& a);

struct SweepArgs {
  DeviceOptions device;
  std::string workload = "random";
  std::vector<double> rates;  // requests per second
  std::vector<std::string> schedulers;
  std::int64_t requests = 10000;
  double mean_size_kb = 4.0;
  double read_fraction = 0.67;
  std::uint64_t seed = 1;
  OutputFormat format = OutputFormat::kCsv;  // CSV unless --json
};
int cmd_sweep(const SweepArgs& a);

}  // namespace memstore::sim
