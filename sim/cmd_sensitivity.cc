// SPDX-License-Identifier: Apache-2.0
// memsim tip-rate and memsim turnarounds: the thesis' sensitivity to the
// per-tip data rate (§3.6, Fig. 3.6) and the springs' effect on turnarounds
// (Fig. 3.9); the method is sim/sensitivity.h.
#include <cmath>
#include <cstdio>
#include <iostream>

#include "sim/commands.h"
#include "sim/sensitivity.h"

namespace memstore::sim {

int cmd_tip_rate(const TipRateArgs& a) {
  const auto p = resolve_params(a.device);
  if (!p.ok()) {
    std::cerr << "memsim: tip-rate: " << p.error().message << "\n";
    return 2;
  }
  std::vector<double> rates = a.rates_kbit_s;
  if (rates.empty()) {
    // 100 kbit/s to 30 Mbit/s, 8 points a decade: past every generation's
    // maximum (a few Mbit/s, Fig. 3.6).
    for (int i = 0; i <= 20; ++i) rates.push_back(100 * std::pow(10.0, i / 8.0));
  }
  std::cout << "device,rate_kbit_s,sustained_kbit_s,column_ms,switch_ms\n";
  char line[160];
  for (const double r : rates) {
    if (!(r > 0)) {
      std::cerr << "memsim: tip-rate: --rates-kbit-s must be positive\n";
      return 2;
    }
    const TipRatePoint t = tip_rate_point(*p, r * 1e3);
    std::snprintf(line, sizeof line, "%s,%.3f,%.3f,%.6f,%.6f\n", p->name.c_str(), t.rate_kbit_s,
                  t.sustained_kbit_s, t.column_ms, t.switch_ms);
    std::cout << line;
  }
  return 0;
}

int cmd_turnarounds(const TurnaroundsArgs& a) {
  if (a.points < 2) {
    std::cerr << "memsim: turnarounds: --points must be 2 or more\n";
    return 2;
  }
  const auto p = resolve_params(a.device);
  if (!p.ok()) {
    std::cerr << "memsim: turnarounds: " << p.error().message << "\n";
    return 2;
  }
  std::cout << "device,displacement_um,with_springs_ms,without_springs_ms\n";
  char line[160];
  for (const TurnaroundPoint& t : turnaround_profile(*p, a.points)) {
    std::snprintf(line, sizeof line, "%s,%.4f,%.6f,%.6f\n", p->name.c_str(), t.displacement_um,
                  t.with_springs_ms, t.without_springs_ms);
    std::cout << line;
  }
  return 0;
}

}  // namespace memstore::sim
