// SPDX-License-Identifier: Apache-2.0
// simulate() spread over two or three threads, for long replays and runs.
//
// A replay's work splits into three stages that only pass values forward:
// producing the requests (parsing the trace, or generating a workload for
// `memsim run`), running the device model, and
// adding each completion to the statistics. The model is about 70% of a
// 1M-request replay; the other two stages are the rest
// (docs/benchmarks/log/2026-11-27.md, "Toward 40x, third step").
// Here the model keeps the calling thread while helper threads produce the
// requests ahead of it and count its completions behind it. Both cross in
// batches of a thousand, so the threads meet about a thousand times in a
// million-request replay, not per request.
//
// The result is bit-identical to simulate(): the device sees the same
// requests in the same order, with the same causality, and the statistics
// add the same completions in the same order. It takes less wall time when a
// second CPU is free, and a few percent more CPU time in total (handing the
// batches over).
#pragma once

#include "model/device.h"
#include "sim/report.h"
#include "sim/simulate.h"

namespace memstore::sim {

// Threads for a replay by default: two, or one when this process may run on
// only one CPU.
int default_simulation_threads();

// memsim's --threads: `requested` if positive, else the default.
int simulation_threads(int requested);

// simulate() on `threads` threads: 1 is simulate() itself; 2 adds one helper
// that both produces the requests and counts the completions; 3 (or more)
// gives each of those its own helper.
//
// REQUIRES: `next` may be called from another thread, and nothing else uses
// what it reads while this runs (it is called from a helper; whatever it
// writes, e.g. requests_of's error, may be read once this returns).
// `on_completion` is called on the calling thread, in completion order.
// An exception thrown by `next` reaches the caller after the requests it
// returned before have been submitted, as from simulate(); the helpers have
// stopped by then.
RunStats simulate_pipelined(model::Device& device, const RequestSource& next, int threads,
                            const model::Device::Sink& on_completion = {});

}  // namespace memstore::sim
