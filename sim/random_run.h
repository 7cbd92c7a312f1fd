// SPDX-License-Identifier: Apache-2.0
// The steps `memsim run` and `memsim sweep` share: a device from the options
// (errors reported on stderr), the Random workload completed with the
// device's capacity, and one run of it.
#pragma once

#include <iosfwd>
#include <memory>
#include <optional>
#include <string>

#include "model/device.h"
#include "sim/commands.h"
#include "sim/device_options.h"
#include "sim/report.h"
#include "sim/workload.h"

namespace memstore::sim {

// The device for `o`, or null after printing "memsim: <error>" on stderr.
std::unique_ptr<model::Device> device_or_report(const DeviceOptions& o);

// Prints a run's statistics on stdout in format `f`; returns 0.
int print_run(const RunStats& s, const RunLabel& label, OutputFormat f);

// `memsim run --workload files` (sim/cmd_files.cc).
int run_files(const RunArgs& a);

// True for the Random workload; otherwise reports the name.
bool check_workload(const std::string& w);

// The device for `o` and `spec` completed with its capacity, or null after
// reporting what is wrong with either.
std::unique_ptr<model::Device> prepare_random(const DeviceOptions& o, RandomWorkloadSpec& spec);

// `spec` as completed by prepare_random(). `trace`, if not null, receives
// every generated request as a DiskSim line (written by the thread that
// generates them: nothing else may use it until this returns). `threads` as
// for simulate_pipelined().
RunStats simulate_random(model::Device& device, const RandomWorkloadSpec& spec,
                         std::ostream* trace = nullptr, int threads = 1);

// prepare_random() then simulate_random(); nullopt after reporting an error.
std::optional<RunStats> run_random(const DeviceOptions& o, RandomWorkloadSpec spec);

}  // namespace memstore::sim
