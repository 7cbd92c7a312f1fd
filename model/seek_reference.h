// SPDX-License-Identifier: Apache-2.0
// High-accuracy reference for the seek model: numerical integration (RK4) of
// the undamped spring-mass system x'' = +-a - k x, used by tests and by
// `memsim seek --reference` to bound the error of the piecewise model.
//
// The thesis (§3.4) compares its piecewise model with Hong's closed-form
// spring-mass solution and reports a maximum gap of 55 us. This integrator
// solves the same equations to sub-nanosecond accuracy, so the gap it shows is
// the piecewise discretisation error alone. Slow by design (thousands of steps
// per seek); never on a hot path.
#pragma once

#include "model/axis.h"

namespace memstore::model {

// Same contract as base_seek_s: speeds along the direction of travel.
double reference_base_seek_s(const Axis& axis, double x0_m, double x1_m, double v0_m_s,
                             double v1_m_s, double step_s = 1e-7);

// Time to reverse velocity v at x by integrating the deceleration and the
// re-acceleration (the sled moves a little while it turns).
double reference_turnaround_s(const Axis& axis, double x_m, double v_m_s, double step_s = 1e-7);

}  // namespace memstore::model
