// SPDX-License-Identifier: Apache-2.0
#include "model/seek_piecewise.h"

#include <algorithm>
#include <cmath>
#include <limits>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace memstore::model {
namespace {

// Time to cover [xa, xb] (xa < xb, travel toward +) under net acceleration
// a(x) = thrust - k x, entering at speed v; v becomes the speed at xb.
//
// The speed at each chunk boundary follows from the work done so far,
// v_i^2 = v^2 + 2 (thrust (x_i - xa) - k/2 (x_i^2 - xa^2)), which equals the
// thesis' chunk-by-chunk recurrence (Eqs. 3.2-3.4) exactly because the chunk
// acceleration is the mean of a linear function. Within a chunk the
// acceleration is constant, so its time is 2 dx / (v_start + v_end) — the same
// value as Eq. 3.4. Computing the boundaries independently lets the chunks
// evaluate in parallel (vectorised) instead of as a chain of dependent square
// roots.
template <int kMaxChunks>
double phase_s(double thrust, double k, double xa, double xb, double& v, int chunks) {
  const double dx = (xb - xa) / chunks;
  if (dx <= 0) return 0;
  double speed[kMaxChunks + 1];
  const double v2 = v * v;
  // Independent iterations: fully unrolled for the model's 8 chunks, so the
  // square roots and divisions overlap instead of waiting on each other.
#pragma GCC unroll 65
  for (int i = 0; i <= kMaxChunks; ++i) {
    const double d = dx * i;  // distance covered; x_i = xa + d
    const double work = thrust * d - k * (xa * d + 0.5 * d * d);
    speed[i] = std::sqrt(std::max(0.0, v2 + 2 * work));
    if (i == chunks) break;
  }
  double t = 0;
#pragma GCC unroll 64
  for (int i = 0; i < kMaxChunks; ++i) {
    if (i == chunks) break;
    const double sum = speed[i] + speed[i + 1];
    t += sum > 0 ? 2 * dx / sum : 0;
  }
  v = speed[chunks];
  return t;
}

// The speed at a phase's first boundary: sqrt(max(0, v^2 + 2 work)) with no
// work done yet (every term of the work is a product with d = 0, so +-0).
// That is sqrt(RN(v^2)), which is v itself whenever v^2 is a normal double
// (in binary floating point with rounding to nearest, sqrt(RN(x^2)) = |x|
// barring underflow and overflow; tested: Seek.SquareRootOfSquareIsExact). So
// the packed phases below skip that square root: 8 per phase instead of 9,
// which packs into whole registers. Other speeds (0, tiny, huge) take the
// scalar expression. With non-finite parameters (never, after validation)
// the first chunk's time is masked to 0 either way, as the next speed is NaN.
inline double first_speed(double v) {
  const double v2 = v * v;
  if (v > 0 && v2 >= std::numeric_limits<double>::min() &&
      v2 <= std::numeric_limits<double>::max()) {
    return v;
  }
  return std::sqrt(std::max(0.0, v2));
}

#if defined(__SSE2__)
// phase_s<kChunksPerPhase> two chunk boundaries at a time: the 8 square roots
// (after first_speed) and 8 divisions of a phase are 4 sqrtpd and 4 divpd,
// which cost per instruction what sqrtsd and divsd do on the CPUs measured
// (docs/benchmarks/log/2026-11-26.md, "How the service-time figure came
// under 250 ns"). Every lane computes the scalar code's expression in
// the same order, and IEEE square root and division are correctly rounded
// packed or not, so each value is bit-identical to phase_s's; the chunk times
// are summed in the same order too. SSE2 is part of x86-64, so no CPU is
// assumed. (Tested against phase_s bit for bit: Seek.PackedPhasesEqualScalarOnes.)
inline double phase8_sse2_s(double thrust, double k, double xa, double xb, double& v) {
  constexpr int kChunks = kChunksPerPhase;
  static_assert(kChunks == 8);
  const double dx = (xb - xa) / kChunks;
  if (dx <= 0) return 0;
  const __m128d vdx = _mm_set1_pd(dx), vthrust = _mm_set1_pd(thrust), vk = _mm_set1_pd(k);
  const __m128d vxa = _mm_set1_pd(xa), v2 = _mm_set1_pd(v * v);
  const __m128d half = _mm_set1_pd(0.5), two = _mm_set1_pd(2), zero = _mm_setzero_pd();
  alignas(16) double speed[kChunks + 1];
  // The last boundary first: its speed is where the next phase starts, which
  // then need not wait for the others.
#pragma GCC unroll 8
  for (int i = kChunks - 1; i >= 1; i -= 2) {
    // d = dx i; work = thrust d - k (xa d + 0.5 d d); speed = sqrt(max(0, v2 + 2 work)).
    const __m128d d = _mm_mul_pd(vdx, _mm_set_pd(i + 1, i));
    const __m128d inner = _mm_add_pd(_mm_mul_pd(vxa, d), _mm_mul_pd(_mm_mul_pd(half, d), d));
    const __m128d work = _mm_sub_pd(_mm_mul_pd(vthrust, d), _mm_mul_pd(vk, inner));
    // max(x, 0) is std::max(0.0, x): 0 for NaN and -0 as well.
    const __m128d sq = _mm_max_pd(_mm_add_pd(v2, _mm_mul_pd(two, work)), zero);
    _mm_storeu_pd(speed + i, _mm_sqrt_pd(sq));
  }
  speed[0] = first_speed(v);
  alignas(16) double chunk[kChunks];
  const __m128d twice_dx = _mm_set1_pd(2 * dx);
#pragma GCC unroll 8
  for (int i = 0; i < kChunks; i += 2) {
    const __m128d sum = _mm_add_pd(_mm_load_pd(speed + i), _mm_loadu_pd(speed + i + 1));
    // sum > 0 ? 2 dx / sum : 0 (the masked lanes may divide by 0, unseen).
    const __m128d q = _mm_div_pd(twice_dx, sum);
    _mm_store_pd(chunk + i, _mm_and_pd(_mm_cmpgt_pd(sum, zero), q));
  }
  double t = 0;
#pragma GCC unroll 8
  for (int i = 0; i < kChunks; ++i) t += chunk[i];
  v = speed[kChunks];
  return t;
}

// The same four boundaries at a time with AVX, for CPUs that have it (chosen
// at run time: the build assumes no more than x86-64). On the project's AMD
// EPYC a 4-wide vsqrtpd or vdivpd costs what a 2-wide one does, so a phase's
// 8 square roots and 8 divisions take half the instructions: independent
// seeks run about 1.3x faster, a replay, where each seek waits on its own
// chain of square roots, about 2% (docs/benchmarks/log/2026-11-26.md,
// "Toward 40x"). Only
// AVX itself is enabled here, not FMA, so every product and sum is rounded as
// in the scalar code and each value stays bit-identical.
__attribute__((target("avx"))) double phase8_avx_s(double thrust, double k, double xa, double xb,
                                                   double& v) {
  constexpr int kChunks = kChunksPerPhase;
  const double dx = (xb - xa) / kChunks;
  if (dx <= 0) return 0;
  const __m256d vdx = _mm256_set1_pd(dx), vthrust = _mm256_set1_pd(thrust);
  const __m256d vk = _mm256_set1_pd(k), vxa = _mm256_set1_pd(xa);
  const __m256d v2 = _mm256_set1_pd(v * v), half = _mm256_set1_pd(0.5);
  const __m256d two = _mm256_set1_pd(2), zero = _mm256_setzero_pd();
  alignas(32) double speed[kChunks + 1];
  // As phase8_sse2_s: boundaries 5-8 first, then 1-4.
#pragma GCC unroll 2
  for (int i = kChunks - 3; i >= 1; i -= 4) {
    const __m256d d = _mm256_mul_pd(vdx, _mm256_set_pd(i + 3, i + 2, i + 1, i));
    const __m256d inner =
        _mm256_add_pd(_mm256_mul_pd(vxa, d), _mm256_mul_pd(_mm256_mul_pd(half, d), d));
    const __m256d work = _mm256_sub_pd(_mm256_mul_pd(vthrust, d), _mm256_mul_pd(vk, inner));
    const __m256d sq = _mm256_max_pd(_mm256_add_pd(v2, _mm256_mul_pd(two, work)), zero);
    _mm256_storeu_pd(speed + i, _mm256_sqrt_pd(sq));
  }
  speed[0] = first_speed(v);
  alignas(32) double chunk[kChunks];
  const __m256d twice_dx = _mm256_set1_pd(2 * dx);
#pragma GCC unroll 2
  for (int i = 0; i < kChunks; i += 4) {
    const __m256d sum = _mm256_add_pd(_mm256_load_pd(speed + i), _mm256_loadu_pd(speed + i + 1));
    const __m256d q = _mm256_div_pd(twice_dx, sum);
    _mm256_store_pd(chunk + i, _mm256_and_pd(_mm256_cmp_pd(sum, zero, _CMP_GT_OQ), q));
  }
  double t = 0;
#pragma GCC unroll 8
  for (int i = 0; i < kChunks; ++i) t += chunk[i];
  v = speed[kChunks];
  return t;
}

// Set before main(); a seek computed during static initialisation, before
// it is, takes the SSE2 path, which gives the same values.
const bool kAvx = seek_detail::cpu_has_avx();

// Both phases of a base seek with the model's chunks. The AVX test is one
// predictable branch per seek.
inline double two_phases8_s(double a, double k, double from, double xm, double to, double& v,
                            bool avx = kAvx) {
  if (avx) {
    const double t = phase8_avx_s(a, k, from, xm, v);
    return t + phase8_avx_s(-a, k, xm, to, v);
  }
  const double t = phase8_sse2_s(a, k, from, xm, v);
  return t + phase8_sse2_s(-a, k, xm, to, v);
}
#else
inline double two_phases8_s(double a, double k, double from, double xm, double to, double& v) {
  const double t = phase_s<kChunksPerPhase>(a, k, from, xm, v, kChunksPerPhase);
  return t + phase_s<kChunksPerPhase>(-a, k, xm, to, v, kChunksPerPhase);
}
#endif

}  // namespace

double base_seek_scalar_s(const Axis& axis, double x0, double x1, double v0, double v1) {
  if (x0 == x1) return 0;
  const auto [from, to, xm] = seek_frame(axis, x0, x1, v0, v1);
  const double a = axis.accel_m_s2;
  const double k = axis.spring_per_m;
  double v = v0;
  const double t = phase_s<kChunksPerPhase>(a, k, from, xm, v, kChunksPerPhase);
  return t + phase_s<kChunksPerPhase>(-a, k, xm, to, v, kChunksPerPhase);
}

double base_seek_s(const Axis& axis, double x0, double x1, double v0, double v1, int chunks) {
  if (x0 == x1) return 0;
  const auto [from, to, xm] = seek_frame(axis, x0, x1, v0, v1);
  const double a = axis.accel_m_s2;
  const double k = axis.spring_per_m;
  double v = v0;
  if (chunks == kChunksPerPhase) {
    // The model's own chunk count, packed (base_seek_scalar_s is the same
    // computation one value at a time).
    return two_phases8_s(a, k, from, xm, to, v);
  }
  constexpr int kMaxChunks = 256;
  chunks = std::clamp(chunks, 1, kMaxChunks);
  double t = phase_s<kMaxChunks>(a, k, from, xm, v, chunks);
  return t + phase_s<kMaxChunks>(-a, k, xm, to, v, chunks);
}

namespace seek_detail {

bool cpu_has_avx() {
#if defined(__SSE2__)
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx");
#else
  return false;
#endif
}

double base_seek_packed_s(const Axis& axis, double x0, double x1, double v0, double v1, bool avx) {
  if (x0 == x1) return 0;
  const auto [from, to, xm] = seek_frame(axis, x0, x1, v0, v1);
  double v = v0;
#if defined(__SSE2__)
  return two_phases8_s(axis.accel_m_s2, axis.spring_per_m, from, xm, to, v, avx && kAvx);
#else
  (void)avx;
  return two_phases8_s(axis.accel_m_s2, axis.spring_per_m, from, xm, to, v);
#endif
}

}  // namespace seek_detail

SeekBounds base_seek_bounds_s(const Axis& axis, double x0, double x1, double v, bool upper_only) {
  if (x0 == x1) return {};
  if (x1 < x0) {
    x0 = -x0;
    x1 = -x1;
  }
  const double a = axis.accel_m_s2;
  const double k = axis.spring_per_m;
  // Where the spring outpulls the actuator the sled cannot accelerate toward
  // the target, and the model's phases (and the reasoning above) break down.
  if (!(a > k * std::max(std::abs(x0), std::abs(x1)))) {
    return {0, std::numeric_limits<double>::infinity()};
  }
  // Switch point as base_seek_s computes it (v0 = v1); inside [x0, x1] once
  // the actuator beats the spring at both ends.
  const double xm = 0.5 * (x0 + x1) + (0.5 * k * (x1 * x1 - x0 * x0)) / (2 * a);
  const double d1 = xm - x0;
  const double d2 = x1 - xm;
  // Net acceleration at the outer ends of the phases: a - k x0 and a + k x1.
  const double e1 = a - k * x0;
  const double e2 = a + k * x1;
  // Speed at the switch point: v^2 plus twice the work of phase 1.
  const double vm = std::sqrt(std::max(0.0, v * v + d1 * (2 * e1 - k * d1)));
  SeekBounds b;
  b.upper_s = 2 * (x1 - x0) / (v + vm);
  if (upper_only) return b;
  if (k <= 0) {
    b.lower_s = b.upper_s;  // constant acceleration: every chunking is exact
    return b;
  }
  // Phase 1 circles about a/k, phase 2 about -a/k; R^2 = v^2/k + (x - centre)^2
  // at either end, and z = c / 2R, so
  //   z^2 = k (k d^2 + (vm - v)^2) / (4 (k v^2 + e^2)),
  // which from rest (v = 0, vm^2 = 2 d1 e1 - k d1^2) is k d / (2 e). The
  // divisions do not wait for vm's square root.
  double z1_sq, z2_sq;
  if (v == 0) {
    z1_sq = 0.5 * k * d1 / e1;
    z2_sq = 0.5 * k * d2 / e2;
  } else {
    const double kv2 = k * v * v;
    const double q1 = k / (4 * (kv2 + e1 * e1));
    const double q2 = k / (4 * (kv2 + e2 * e2));
    const double dv2 = (vm - v) * (vm - v);
    z1_sq = (k * d1 * d1 + dv2) * q1;
    z2_sq = (k * d2 * d2 + dv2) * q2;
  }
  z1_sq = std::min(1.0, z1_sq);
  z2_sq = std::min(1.0, z2_sq);
  auto asin_below = [](double z, double zz) {
    return z * (1 + zz * (1.0 / 6 + zz * (3.0 / 40 + zz * (5.0 / 112))));
  };
  b.lower_s = 2 * (asin_below(std::sqrt(z1_sq), z1_sq) + asin_below(std::sqrt(z2_sq), z2_sq)) /
              std::sqrt(k);
  return b;
}

double turnaround_s(const Axis& axis, double x, double v) {
  if (v == 0) return 0;
  // Reversing a sled moving with velocity v needs net acceleration against v:
  // the actuator plus the spring (-k x), which helps when x has v's sign.
  const double toward_reverse = axis.accel_m_s2 + axis.spring_per_m * (v > 0 ? x : -x);
  return 2 * std::abs(v) / toward_reverse;
}

}  // namespace memstore::model
