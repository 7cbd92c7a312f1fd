// SPDX-License-Identifier: Apache-2.0
// memsim: the offline simulator on the device model (issue: model/ and memsim).
// Command-line wiring only; each subcommand lives in cmd_*.cc.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>
#include <map>

#include "model/device_factory.h"
#include "model/scheduler.h"
#include "sim/cmd_paper_array.h"
#include "sim/commands.h"
#include "sim/csv_json.h"
#include "version/unknown_command.h"
#include "version/version.h"

namespace {

// The --json of the commands that print CSV (sim/csv_json.h).
constexpr const char* kCsvAsJson = "The same rows as a JSON array of objects instead of CSV";

using memstore::sim::DeviceOptions;
using memstore::sim::OutputFormat;

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

void add_device_options(CLI::App* cmd, DeviceOptions& o, bool with_scheduler) {
  cmd->add_option("--device", o.device,
                  "Device: " + joined(memstore::model::device_names()) + " (default g2)");
  cmd->add_option("--config", o.config, "TOML file of device parameter overrides")
      ->check(CLI::ExistingFile);
  cmd->add_option("--set", o.set, "Override one parameter, key=value (TOML syntax), repeatable");
  if (with_scheduler) {
    cmd->add_option("--scheduler", o.scheduler,
                    "Scheduler: " + joined(memstore::model::scheduler_names()) + " (default fcfs)");
    cmd->add_option("--age-weight", o.scheduler_options.age_weight, "asptf aging weight");
  }
}

// CLI::PositiveNumber reports 0 as "not in range 0.000000 to 1797693...";
// this says what is wanted.
CLI::Validator number_check(bool allow_zero) {
  return {[allow_zero](std::string& s) -> std::string {
            char* end = nullptr;
            const double v = std::strtod(s.c_str(), &end);
            const bool ok = end != s.c_str() && *end == '\0' && (allow_zero ? v >= 0 : v > 0);
            if (ok) return {};
            return std::string("must be a ") + (allow_zero ? "non-negative" : "positive") +
                   " number, got '" + s + "'";
          },
          allow_zero ? "NONNEGATIVE" : "POSITIVE"};
}

void add_format(CLI::App* cmd, OutputFormat& f, bool csv) {
  cmd->add_flag_callback(
      "--json", [&f] { f = OutputFormat::kJson; }, "Print JSON");
  if (csv)
    cmd->add_flag_callback(
        "--csv", [&f] { f = OutputFormat::kCsv; }, "Print CSV");
}

// --threads of run and replay (sim/pipelined_simulate.h); `produce` says how
// the helper makes the requests.
void add_threads(CLI::App* cmd, int& threads, const std::string& produce) {
  cmd->add_option("--threads", threads,
                  "Threads: 1 = one; 2 = another " + produce +
                      " and counts the statistics; 3 = one for each (default 2; 1 when only "
                      "one CPU is usable)")
      ->check(CLI::Range(1, 3));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"memsim: offline simulator of a MEMS-based storage device (MEMStore)"};
  app.set_version_flag("--version", memstore::version_line("memsim"));
  app.require_subcommand(1);
  int status = 0;

  memstore::sim::GeometryArgs geometry;
  auto* g = app.add_subcommand("geometry", "Print the virtual geometry (p, N, Sx, Sy, M, ...)");
  add_device_options(g, geometry.device, false);
  add_format(g, geometry.format, false);
  g->callback([&] { status = memstore::sim::cmd_geometry(geometry); });

  memstore::sim::ParamsArgs params;
  auto* pa = app.add_subcommand(
      "params", "Print every device parameter after --config/--set (TOML that --config reads)");
  add_device_options(pa, params.device, false);
  add_format(pa, params.format, false);
  pa->callback([&] { status = memstore::sim::cmd_params(params); });

  memstore::sim::EquivArgs equiv;
  auto* e = app.add_subcommand("equiv", "Print an LBN's equivalence class and ensemble");
  add_device_options(e, equiv.device, false);
  e->add_option("--lbn", equiv.lbn, "Logical block number")->required();
  e->add_option("--micropositioning", equiv.micropositioning,
                "Degree of micropositioning M (default: the device's)")
      ->check(number_check(true));
  add_format(e, equiv.format, false);
  e->callback([&] { status = memstore::sim::cmd_equiv(equiv); });

  memstore::sim::SeekArgs seek;
  auto* s = app.add_subcommand("seek", "Positioning breakdown of one seek between two LBNs");
  add_device_options(s, seek.device, false);
  s->add_option("--from-lbn", seek.from_lbn, "LBN just read")->required();
  s->add_option("--to-lbn", seek.to_lbn, "LBN to position for")->required();
  s->add_flag("--reference", seek.reference, "Also integrate the spring-mass system");
  add_format(s, seek.format, false);
  s->callback([&] { status = memstore::sim::cmd_seek(seek); });

  memstore::sim::SeekProfileArgs profile;
  auto* sp = app.add_subcommand(
      "seek-profile", "Positioning time from the corner or centre to a grid of cylinders and rows");
  add_device_options(sp, profile.device, false);
  sp->add_option("--from", profile.from, "Start: corner or centre (default corner)");
  sp->add_option("--direction", profile.direction,
                 "Row access direction: best (default), up or down (one access direction, "
                 "the power paper's Fig. 4)");
  sp->add_option("--x-step", profile.x_step, "Every x_step-th cylinder (default 50)")
      ->check(number_check(false));
  bool profile_json = false;
  sp->add_flag("--json", profile_json, kCsvAsJson);
  sp->callback([&] {
    status = memstore::sim::with_json_output(
        profile_json, [&] { return memstore::sim::cmd_seek_profile(profile); });
  });

  memstore::sim::LargeReadsArgs large;
  auto* lr = app.add_subcommand(
      "large-reads", "Service time of large reads against X seek distance, thesis Fig. 6.8 (CSV)");
  add_device_options(lr, large.device, false);
  lr->add_option("--requests", large.requests, "Reads, each from a random position (default 2000)")
      ->check(number_check(false));
  lr->add_option("--size-kb", large.size_kb, "Read size in KB (default 256)")
      ->check(number_check(false));
  lr->add_option("--seed", large.seed, "Random seed");
  bool large_json = false;
  lr->add_flag("--json", large_json, kCsvAsJson);
  lr->callback([&] {
    status = memstore::sim::with_json_output(large_json,
                                             [&] { return memstore::sim::cmd_large_reads(large); });
  });

  memstore::sim::TipRateArgs tip_rate;
  auto* tr = app.add_subcommand(
      "tip-rate", "Sustained bandwidth of one tip against its data rate, thesis Fig. 3.6 (CSV)");
  add_device_options(tr, tip_rate.device, false);
  tr->add_option("--rates-kbit-s", tip_rate.rates_kbit_s,
                 "Per-tip data rates, comma-separated (default 100 to 30,000, 8 a decade)")
      ->delimiter(',');
  bool tip_rate_json = false;
  tr->add_flag("--json", tip_rate_json, kCsvAsJson);
  tr->callback([&] {
    status = memstore::sim::with_json_output(tip_rate_json,
                                             [&] { return memstore::sim::cmd_tip_rate(tip_rate); });
  });

  memstore::sim::TurnaroundsArgs turnarounds;
  auto* ta =
      app.add_subcommand("turnarounds",
                         "Turnaround time against Y displacement with and without springs, thesis "
                         "Fig. 3.9 (CSV)");
  add_device_options(ta, turnarounds.device, false);
  ta->add_option("--points", turnarounds.points, "Displacements, edge to edge (default 101)");
  bool turnarounds_json = false;
  ta->add_flag("--json", turnarounds_json, kCsvAsJson);
  ta->callback([&] {
    status = memstore::sim::with_json_output(
        turnarounds_json, [&] { return memstore::sim::cmd_turnarounds(turnarounds); });
  });

  memstore::sim::RunArgs run;
  auto* r = app.add_subcommand("run", "Run a synthetic workload (the thesis' Random, §6.1.1)");
  add_device_options(r, run.device, true);
  auto* workload_opt =
      r->add_option("--workload", run.workload,
                    "Workload: random, files (the thesis' layout workload), or user, "
                    "server, mobile (shaped like the power paper's traces)");
  r->add_option("--requests", run.requests, "Number of requests")->check(number_check(false));
  r->add_option("--interarrival-ms", run.interarrival_ms, "Mean exponential inter-arrival (ms)");
  r->add_option("--arrivals", run.arrivals,
                "Random workload's gaps: exponential (default) or constant (every gap "
                "--interarrival-ms, thesis Fig. 5.1)")
      ->check(CLI::IsMember({"exponential", "constant"}));
  r->add_option("--mean-size-kb", run.mean_size_kb, "Mean exponential request size (KB)");
  r->add_option("--read-fraction", run.read_fraction, "Fraction of reads")
      ->check(CLI::Range(0.0, 1.0));
  r->add_option("--seed", run.seed, "Random seed");
  r->add_option("--write-trace", run.write_trace,
                "Also write the generated requests to this file as a DiskSim ASCII trace");
  r->add_option("--layout", run.layout,
                "Layout of the files workload: random, organ-pipe, subregioned (bipartite), "
                "columnar; implies --workload files");
  r->add_option("--scale", run.scale,
                "user, server, mobile: divide every gap by K (the traces replayed faster)")
      ->check(number_check(false));
  r->add_option("--popularity-mean", run.popularity_mean,
                "Files workload: mean popularity rank, as a fraction of the files (default 0.04)")
      ->check(number_check(false));
  add_threads(r, run.threads, "generates the workload");
  add_format(r, run.format, true);
  r->callback([&] {
    if (!run.layout.empty() && workload_opt->count() == 0) run.workload = "files";
    status = memstore::sim::cmd_run(run);
  });

  memstore::sim::SubregionsArgs subregions;
  auto* sr = app.add_subcommand(
      "subregions",
      "Mean service time (and positioning) in each of 5 x 5 subregions, thesis Fig. 6.7 (CSV)");
  add_device_options(sr, subregions.device, false);
  sr->add_option("--requests", subregions.requests, "Requests per subregion")
      ->check(number_check(false));
  sr->add_option("--mean-size-kb", subregions.mean_size_kb,
                 "Mean exponential request size (KB, default 4)")
      ->check(number_check(false));
  sr->add_option("--read-fraction", subregions.read_fraction, "Fraction of reads (default 0.67)")
      ->check(CLI::Range(0.0, 1.0));
  sr->add_option("--seed", subregions.seed, "Random seed");
  bool subregions_json = false;
  sr->add_flag("--json", subregions_json, kCsvAsJson);
  sr->callback([&] {
    status = memstore::sim::with_json_output(
        subregions_json, [&] { return memstore::sim::cmd_subregions(subregions); });
  });

  memstore::sim::ReplayArgs replay;
  auto* p = app.add_subcommand("replay", "Replay a block trace (DiskSim ASCII or SPC)");
  add_device_options(p, replay.device, true);
  p->add_option("--trace", replay.trace, "Trace file")->required();
  p->add_option("--format", replay.trace_format, "Trace format: disksim or spc");
  p->add_option("--scale", replay.scale,
                "Arrival-rate scale: K divides every inter-arrival gap by K (§6.1.1)")
      ->check(number_check(false));
  p->add_option("--device-number", replay.device_number,
                "Replay only this device number / ASU of the trace");
  p->add_flag("--absolute-times", replay.absolute_times,
              "Arrivals as the trace gives them, not from its first request (a live LUN's "
              "capture: the LUN's model clock)");
  p->add_option("--completions", replay.completions,
                "Write one CSV line per request served: arrival, start and completion on the "
                "model's clock, to join a live LUN's --completion-log");
  add_threads(p, replay.threads, "parses the trace");
  add_format(p, replay.format, true);
  p->callback([&] { status = memstore::sim::cmd_replay(replay); });

  memstore::sim::SweepArgs sweep;
  auto* w = app.add_subcommand(
      "sweep",
      "Mean response and squared coefficient of variation per scheduler and rate (CSV or JSON)");
  add_device_options(w, sweep.device, false);
  w->add_option("--workload", sweep.workload, "Workload: random");
  w->add_option("--rates", sweep.rates, "Arrival rates in requests/s, comma-separated")
      ->delimiter(',')
      ->required();
  w->add_option("--schedulers", sweep.schedulers, "Schedulers, comma-separated")
      ->delimiter(',')
      ->required();
  w->add_option("--requests", sweep.requests, "Requests per point")->check(number_check(false));
  w->add_option("--mean-size-kb", sweep.mean_size_kb, "Mean exponential request size (KB)");
  w->add_option("--read-fraction", sweep.read_fraction, "Fraction of reads")
      ->check(CLI::Range(0.0, 1.0));
  w->add_option("--seed", sweep.seed, "Random seed");
  w->add_option("--shard", sweep.shard,
                "Compute only shard I of N (0 <= I < N) of the points, for `memsim merge`");
  add_format(w, sweep.format, true);
  w->callback([&] { status = memstore::sim::cmd_sweep(sweep); });

  memstore::sim::MicrobenchArgs micro;
  auto* mb = app.add_subcommand(
      "microbench",
      "Seed 003's Fig. 5 microbenchmark: 10,000 random requests, 2/3 reads, 20 requests/s, on "
      "the Cheetah 4LP, the SuperDisk and asplos99-g1..g3 (CSV)");
  mb->add_option("--devices", micro.devices,
                 "Devices, comma-separated (default cheetah4lp,superdisk,asplos99-g1,"
                 "asplos99-g2,asplos99-g3)")
      ->delimiter(',');
  mb->add_option("--requests", micro.spec.requests, "Requests per device (default 10000)")
      ->check(number_check(false));
  mb->add_option("--rate", micro.spec.rate_per_s, "Mean arrival rate, requests/s (default 20)")
      ->check(CLI::PositiveNumber);
  mb->add_option("--read-fraction", micro.spec.read_fraction, "Fraction of reads (default 2/3)")
      ->check(CLI::Range(0.0, 1.0));
  mb->add_option("--mean-size-kb", micro.spec.mean_size_kb,
                 "Mean exponential request size, KB (default 4)");
  mb->add_option("--seed", micro.spec.seed, "Random seed (default 1)");
  mb->add_option("--scheduler", micro.spec.scheduler, "Scheduler (default fcfs)");
  mb->add_option("--write-trace", micro.write_trace,
                 "With one device: write its requests as a DiskSim ASCII trace (what "
                 "bench/asplos99-microbench replays against a live LUN)");
  bool micro_json = false;
  mb->add_flag("--json", micro_json, kCsvAsJson);
  mb->callback([&] {
    status = memstore::sim::with_json_output(micro_json,
                                             [&] { return memstore::sim::cmd_microbench(micro); });
  });

  memstore::sim::WbufferArgs wbuffer;
  auto* wb = app.add_subcommand(
      "wbuffer",
      "Wang and Brandt's MEMS write buffer: the disk behind it at each cache size, the disk "
      "alone, the MEMStore alone, replayed 1x..16x (CSV/JSON)");
  wb->add_option("--disk", wbuffer.disk, "Disk (default atlas10k)");
  wb->add_option("--mems", wbuffer.mems, "MEMStore holding the log (default g2)");
  wb->add_option("--workload", wbuffer.workload,
                 "snake-like, cello-like (stand-ins for the paper's traces) or random "
                 "(default snake-like)");
  wb->add_option("--requests", wbuffer.requests,
                 "Requests per run (default 20000; 0 = a stand-in's whole day)")
      ->check(number_check(true));
  wb->add_option("--interarrival-ms", wbuffer.interarrival_ms,
                 "random: mean exponential inter-arrival at speedup 1 (ms, default 40)");
  wb->add_option("--mean-size-kb", wbuffer.mean_size_kb,
                 "random: mean exponential request size (KB)");
  wb->add_option("--read-fraction", wbuffer.read_fraction,
                 "random: fraction of reads (default 0.3)")
      ->check(CLI::Range(0.0, 1.0));
  wb->add_option("--seed", wbuffer.seed, "Random seed");
  wb->add_option("--speedups", wbuffer.speedups,
                 "Scaling factors: inter-arrival times divided by each (default 1,2,4,8,16)")
      ->delimiter(',');
  wb->add_option("--cache-mb", wbuffer.cache_mb,
                 "MEMS cache sizes in MB, comma-separated (default 16,32,64,128,256,512)")
      ->delimiter(',');
  wb->add_option("--high-water", wbuffer.buffer.high_water,
                 "Clean once cache usage is beyond this share (default 0.9)");
  wb->add_option(
      "--low-water", wbuffer.buffer.low_water,
      "... until it is back at this one (default: one clean buffer below the high mark)");
  wb->add_option("--clean-segments", wbuffer.buffer.clean_segments,
                 "Clean buffer size in 128 KB segments (default 4)")
      ->check(number_check(false));
  wb->add_option("--trace", wbuffer.trace,
                 "Replay this trace instead of the synthetic workload (--speedups scale it)");
  wb->add_option("--trace-format", wbuffer.trace_format, "Trace format: disksim or spc");
  wb->add_flag_callback(
      "--json", [&] { wbuffer.format = memstore::sim::OutputFormat::kJson; },
      "JSON instead of CSV");
  wb->callback([&] { status = memstore::sim::cmd_wbuffer(wbuffer); });

  memstore::sim::ArrayArgs array;
  auto* ar = app.add_subcommand(
      "array",
      "Disk arrays with MEMStores (Uysal et al., FAST 2003): disk-only, MEMS-only, mirror, "
      "MEMS cache, log on MEMS, mixed stripe, replayed 1x..16x (CSV or JSON)");
  ar->add_option("--disk", array.disk, "Disk (default disk20k, the paper's 20,000 rpm drive)");
  ar->add_option("--mems", array.mems, "MEMStore (default g2)");
  ar->add_option(
      "--disk-set", array.disk_set,
      "Override a parameter of every disk, key=value (e.g. write_back=false), repeatable");
  ar->add_option("--mems-set", array.mems_set,
                 "Override a parameter of every MEMStore, key=value, repeatable");
  ar->add_option("--disks", array.disks, "Disks of the conventional array (default 4)")
      ->check(number_check(false));
  ar->add_option("--cache-mems", array.cache_mems, "MEMStores of the MEMS cache (default 1)")
      ->check(number_check(false));
  ar->add_option("--stripe-mems", array.stripe_mems,
                 "MEMStores in the mixed stripe (default: as many as disks)")
      ->check(number_check(true));
  ar->add_option("--configs", array.configs,
                 "Configurations: disk, mems, mirror, cache, log, stripe (default all)")
      ->delimiter(',');
  ar->add_option("--workloads", array.workloads, "Workloads: random, oltp, dss (default all)")
      ->delimiter(',');
  ar->add_option("--requests", array.requests, "Requests per run (default 20000)")
      ->check(number_check(false));
  ar->add_option("--warmup-requests", array.warmup_requests,
                 "Requests that warm the MEMS cache before each synthetic run (default 1000000)")
      ->check(number_check(true));
  ar->add_option("--interarrival-ms", array.interarrival_ms,
                 "Mean exponential inter-arrival at speedup 1 (ms, default 20)")
      ->check(number_check(false));
  ar->add_option("--speedups", array.speedups, "Speedups, comma-separated (default 1,2,4,8,16)")
      ->delimiter(',');
  ar->add_option("--seed", array.seed, "Random seed");
  ar->add_option("--stripe-kb", array.stripe_kb, "Stripe unit (KB, default 64)")
      ->check(number_check(false));
  ar->add_option("--line-kb", array.line_kb, "MEMS cache line (KB, default 8)")
      ->check(number_check(false));
  ar->add_option("--log-segments", array.log_segments,
                 "Log on MEMS in 128 KB segments (default 2048: 256 MB)")
      ->check(number_check(false));
  ar->add_option("--mems-cost", array.mems_cost,
                 "MEMS price per byte as a multiple of the disk's, for relative_cost (default 10)")
      ->check(number_check(false));
  ar->add_option("--trace", array.trace,
                 "Replay this trace instead of the synthetic workloads (--speedups scale it)");
  ar->add_option("--trace-format", array.trace_format, "Trace format: disksim or spc");
  ar->add_flag_callback(
      "--json", [&] { array.format = memstore::sim::OutputFormat::kJson; }, "JSON instead of CSV");
  ar->callback([&] { status = memstore::sim::cmd_array(array); });

  memstore::sim::PaperArrayArgs paper;
  auto* paper_cmd = app.add_subcommand(
      "paper-array",
      "Figures 5, 6 and 10 of Uysal, Merchant and Alvarez (FAST 2003): the paper's own array "
      "architectures behind the NVRAM, maximum throughput and normal-usage latency (CSV)");
  paper_cmd->add_option("--figure", paper.figure, "5, 6 or 10 (default 5)");
  paper_cmd
      ->add_option("--max-requests", paper.max_requests,
                   "Requests per maximum-throughput run (default 20000)")
      ->check(number_check(false));
  paper_cmd
      ->add_option("--half-requests", paper.half_requests,
                   "Requests per normal-usage run at half the maximum (default 10000)")
      ->check(number_check(false));
  paper_cmd
      ->add_option("--read-fractions", paper.read_fractions,
                   "Figure 6: read fractions (default 0,0.25,0.5,0.75,1)")
      ->delimiter(',');
  paper_cmd->add_option("--ks", paper.ks, "Figure 6: LogDisk+K's K values (default 0,1,2,4)")
      ->delimiter(',');
  paper_cmd->add_option("--seed", paper.seed, "Random seed");
  paper_cmd
      ->add_option("--banks", paper.banks,
                   "The LU in banks of 7 chips, every capacity scaled with it (default 4: 8 "
                   "disks, 161 GB raw; 50: the paper's 2 TB; at least 2 for MEMScache's RAID 5)")
      ->check(CLI::Range(2, 100));
  paper_cmd->add_option("--trace", paper.trace,
                        "Replay this trace open-loop on every Figure 5 configuration instead");
  paper_cmd->add_option("--trace-format", paper.trace_format, "Trace format: disksim or spc");
  paper_cmd
      ->add_option("--scales", paper.scales,
                   "With --trace: inter-arrival times divided by each (default 1)")
      ->delimiter(',');
  paper_cmd->add_option("--max-from", paper.max_from,
                        "Figure 10: take the maximum throughputs from this Figure 5 CSV");
  bool paper_json = false;
  paper_cmd->add_flag("--json", paper_json, kCsvAsJson);
  paper_cmd->callback([&] {
    status = memstore::sim::with_json_output(paper_json,
                                             [&] { return memstore::sim::cmd_paper_array(paper); });
  });

  memstore::sim::PowerArgs power;
  auto* pw = app.add_subcommand(
      "power",
      "Energy and response against the idle timeout, request merging and subsector accesses "
      "(the power paper's §5.2) on workloads shaped like its traces (CSV or JSON)");
  add_device_options(pw, power.device, true);
  pw->add_option("--shapes", power.shapes, "Workload shapes: user, server, mobile (default all)")
      ->delimiter(',');
  pw->add_option("--requests", power.requests, "Requests per run (default 20000)")
      ->check(number_check(false));
  pw->add_option("--seed", power.seed, "Random seed");
  pw->add_option(
        "--timeouts-ms", power.timeouts_ms,
        "Idle timeouts of the timeout study, ms; -1 = never (default -1,1000,100,10,1,0.1,0)")
      ->delimiter(',');
  pw->add_option("--scales", power.scales,
                 "Replay speeds of the strategies study (default 1,2,4,8,16)")
      ->delimiter(',');
  pw->add_option("--strategies-timeout-ms", power.strategies_timeout_ms,
                 "Idle timeout of the strategies study, ms (default 0: aggressive spin-down)");
  pw->add_flag_callback(
      "--json", [&] { power.format = memstore::sim::OutputFormat::kJson; }, "JSON instead of CSV");
  pw->callback([&] { status = memstore::sim::cmd_power(power); });

  memstore::sim::MergeArgs merge;
  auto* m = app.add_subcommand(
      "merge", "Join the outputs of `sweep --shard I/N` (every I) into the unsharded CSV");
  m->add_option("files", merge.files, "Shard files, in any order")->required();
  bool merge_json = false;
  m->add_flag("--json", merge_json, kCsvAsJson);
  m->callback([&] {
    status = memstore::sim::with_json_output(merge_json,
                                             [&] { return memstore::sim::cmd_merge(merge); });
  });

  if (const auto unknown = memstore::unknown_command(app, "memsim", argc, argv)) {
    std::cerr << "memsim: " << *unknown << "\n";
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& parse_error) {
    // CLI11's own codes (105, 106, ...) are not memsim's: any usage error is 2.
    return app.exit(parse_error) == 0 ? 0 : 2;
  }
  return status;
}
