// SPDX-License-Identifier: Apache-2.0
// memsim's subcommands. Each returns the process exit status: 0 on success,
// 1 on a runtime error (unreadable or malformed input), 2 on bad arguments;
// messages go to stderr, results to stdout.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/device_options.h"
#include "sim/microbench.h"
#include "sim/write_buffer.h"

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

// Positioning from the corner or the centre to every row of every
// x_step-th cylinder (thesis Figs. 3.2, 3.3), CSV.
struct SeekProfileArgs {
  DeviceOptions device;
  std::string from = "corner";  // or "centre"
  std::int32_t x_step = 50;
  // Which way each row is read: "best" (the sooner of the two a bidirectional
  // device allows), or "up"/"down" only (the power paper's Fig. 4 draws the
  // even-indexed bit columns, one access direction).
  std::string direction = "best";
};
int cmd_seek_profile(const SeekProfileArgs& a);

// The service time of large reads against their X seek distance (thesis
// Fig. 6.8; sim/large_reads.h), one CSV row per read.
struct LargeReadsArgs {
  DeviceOptions device;
  std::int64_t requests = 2000;
  std::int64_t size_kb = 256;
  std::uint64_t seed = 1;
};
int cmd_large_reads(const LargeReadsArgs& a);

// Thesis §3.6 (sim/sensitivity.h): the sustained bandwidth of one tip against
// its data rate (Fig. 3.6) and the turnaround time against Y displacement
// (Fig. 3.9), CSV.
struct TipRateArgs {
  DeviceOptions device;
  std::vector<double> rates_kbit_s;  // empty: 100 kbit/s to 30 Mbit/s, 8 a decade
};
int cmd_tip_rate(const TipRateArgs& a);
struct TurnaroundsArgs {
  DeviceOptions device;
  int points = 101;
};
int cmd_turnarounds(const TurnaroundsArgs& a);

struct RunArgs {
  DeviceOptions device;
  std::string workload = "random";
  std::int64_t requests = 10000;
  double interarrival_ms = 50.0;
  std::string arrivals = "exponential";  // or "constant" (thesis Fig. 5.1)
  double mean_size_kb = 4.0;
  double read_fraction = 0.67;
  std::uint64_t seed = 1;
  std::string write_trace;  // if set, the generated requests as a DiskSim ASCII trace
  // --workload files (sim/file_workload.h): the layout and the popularity's mean rank.
  std::string layout;
  double popularity_mean = 1.0 / 25;
  // --workload user|server|mobile (sim/shaped_workload.h): every gap divided by this.
  double scale = 1.0;
  // Threads of the simulation (sim/pipelined_simulate.h); 0: the default.
  int threads = 0;
  OutputFormat format = OutputFormat::kText;
};
int cmd_run(const RunArgs& a);

// The power paper's studies (second paper §5.2, Fig. 11) on the workloads of
// sim/shaped_workload.h: energy and response time against the idle timeout,
// and with request merging and subsector accesses as the workloads are
// replayed faster. CSV (default) or JSON, one row per run.
struct PowerArgs {
  DeviceOptions device;
  std::vector<std::string> shapes = {"user", "server", "mobile"};
  std::int64_t requests = 20000;
  std::uint64_t seed = 1;
  // Idle timeouts of the timeout study, in ms; -1 = never spin down.
  std::vector<double> timeouts_ms = {-1, 1000, 100, 10, 1, 0.1, 0};
  // Scales of the strategies study, and the idle timeout it runs at (ms;
  // 0 = aggressive spin-down, the paper's first strategy).
  std::vector<double> scales = {1, 2, 4, 8, 16};
  double strategies_timeout_ms = 0;
  OutputFormat format = OutputFormat::kCsv;
};
int cmd_power(const PowerArgs& a);

// Wang and Brandt's write buffer (sim/hybrid.h): the disk alone, the disk behind the MEMS
// write buffer, and the MEMStore alone, on a write-heavy Random workload at each speedup
// (inter-arrival divided by it). CSV (default) or JSON.
struct WbufferArgs {
  std::string disk = "atlas10k";  // the paper's Quantum Atlas 10K
  std::string mems = "g2";        // the paper's CMU G2 MEMStore
  // snake-like, cello-like (sim/wbuffer_workloads.h) or random (the --interarrival-ms,
  // --mean-size-kb and --read-fraction load).
  std::string workload = "snake-like";
  std::int64_t requests = 20000;
  double interarrival_ms = 40.0;  // random: at speedup 1
  double mean_size_kb = 4.0;
  double read_fraction = 0.3;
  std::uint64_t seed = 1;
  std::vector<double> speedups = {1, 2, 4, 8, 16};
  std::vector<std::int64_t> cache_mb = {16, 32, 64, 128, 256, 512};
  WriteBufferParams buffer;  // its segments come from each --cache-mb
  std::string trace;         // replaces the synthetic workload; its gaps divided by each speedup
  std::string trace_format = "disksim";
  OutputFormat format = OutputFormat::kCsv;
};
int cmd_wbuffer(const WbufferArgs& a);

// The disk-array configurations of Uysal, Merchant and Alvarez (FAST 2003; sim/array.h):
// disk-only, MEMS-only, MEMS/disk mirror, MEMS cache, log on MEMS, mixed stripe, each on the
// same workload at each speedup. CSV (default) or JSON.
struct ArrayArgs {
  std::string disk = "disk20k";  // the paper's 20,000 rpm disk
  std::string mems = "g2";
  std::vector<std::string> disk_set, mems_set;  // --set keys for every disk / MEMStore
  std::int64_t disks = 4;                       // the volume is their capacity
  std::int64_t cache_mems = 1;                  // MEMStores of the cache
  std::int64_t stripe_mems = 0;  // MEMStores in the mixed stripe; 0 = as many as disks
  std::vector<std::string> configs = {"disk", "mems", "mirror", "cache", "log", "stripe"};
  std::vector<std::string> workloads = {"random", "oltp", "dss"};
  std::int64_t requests = 20000;
  std::int64_t warmup_requests = 1000000;  // through the MEMS cache's bookkeeping first
  double interarrival_ms = 20;             // at speedup 1
  std::vector<double> speedups = {1, 2, 4, 8, 16};
  std::uint64_t seed = 1;
  double stripe_kb = 64;
  double line_kb = 8;
  std::int64_t log_segments = 2048;  // 256 MB of log
  double mems_cost = 10;  // MEMS price per byte over the disk's (the paper's abstract: 10x)
  std::string trace;      // replaces the synthetic workloads
  std::string trace_format = "disksim";
  OutputFormat format = OutputFormat::kCsv;
};
int cmd_array(const ArrayArgs& a);

// The 5 x 5 subregion map of service time (thesis Fig. 6.7;
// sim/subregion_map.h), CSV.
struct SubregionsArgs {
  DeviceOptions device;
  std::int64_t requests = 1000;  // per subregion
  double mean_size_kb = 4.0;     // §6.1.1's Random: exponential sizes
  double read_fraction = 0.67;   // §6.1.1's Random
  std::uint64_t seed = 1;
};
int cmd_subregions(const SubregionsArgs& a);

struct ReplayArgs {
  DeviceOptions device;
  std::string trace;
  std::string trace_format = "disksim";
  double scale = 1.0;
  std::int64_t device_number = -1;  // -1: every device in the trace
  bool absolute_times = false;      // TraceOptions::absolute_times
  std::string completions;          // CSV of every completion; empty: none
  int threads = 0;                  // as in RunArgs
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
  std::string shard;  // "I/N": only the points k with k mod N == I (sim/sweep_shard.h)
  OutputFormat format = OutputFormat::kCsv;  // CSV unless --json
};
int cmd_sweep(const SweepArgs& a);

// Seed 003's microbenchmark (its Fig. 5; sim/microbench.h) on each device, one CSV row each.
struct MicrobenchArgs {
  std::vector<std::string> devices;  // empty: the paper's five (microbench_devices())
  MicrobenchSpec spec;
  std::string write_trace;  // with one device: its requests as a DiskSim ASCII trace
};
int cmd_microbench(const MicrobenchArgs& a);

// Joins the outputs of `sweep --shard I/N` for every I into the unsharded CSV.
struct MergeArgs {
  std::vector<std::string> files;
};
int cmd_merge(const MergeArgs& a);

}  // namespace memstore::sim
