// SPDX-License-Identifier: Apache-2.0
// memsim microbench: seed 003's Fig. 5 microbenchmark on each device (sim/microbench.h).
#include <algorithm>
#include <fstream>
#include <iostream>

#include "model/device_factory.h"
#include "sim/commands.h"
#include "sim/microbench.h"

namespace memstore::sim {

int cmd_microbench(const MicrobenchArgs& a) {
  const std::vector<std::string> devices = a.devices.empty() ? microbench_devices() : a.devices;
  // Every name is checked before the first row, so a typo leaves no partial CSV behind.
  const std::vector<std::string> known = model::device_names();
  for (const std::string& d : devices) {
    if (std::find(known.begin(), known.end(), d) == known.end()) {
      std::cerr << "memsim: microbench: unknown device '" << d << "'\n";
      return 2;
    }
  }
  std::ofstream trace;
  if (!a.write_trace.empty()) {
    if (devices.size() != 1) {
      std::cerr << "memsim: microbench: --write-trace needs exactly one device (--devices)\n";
      return 2;
    }
    trace.open(a.write_trace, std::ios::binary | std::ios::trunc);
    if (!trace) {
      std::cerr << "memsim: microbench: --write-trace: cannot write '" << a.write_trace << "'\n";
      return 1;
    }
  }
  std::cout << microbench_csv_header() << "\n";
  for (const std::string& device : devices) {
    const std::optional<MicrobenchRow> row =
        run_microbench(device, a.spec, trace.is_open() ? &trace : nullptr);
    if (!row) return 2;
    std::cout << microbench_csv_line(*row) << "\n" << std::flush;
  }
  if (trace.is_open()) {
    trace.close();
    if (!trace) {
      std::cerr << "memsim: microbench: --write-trace: error writing '" << a.write_trace << "'\n";
      return 1;
    }
  }
  return 0;
}

}  // namespace memstore::sim
