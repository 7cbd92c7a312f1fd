// SPDX-License-Identifier: Apache-2.0
// The one interface the thesis' two applications are written against: the
// application interface of §6.3.4 (get_parallelism, get_equivalent,
// check_conflicting, get_ensemble, through host::HostGeometry) plus batch()
// submission that reports what the media access cost.
//
// Two implementations: HostBlockDevice (a MEMStore over the host library,
// e.g. a running memstored) and SimBlockDevice (the device model itself, no
// target: the same application code "inside memsim"). Both see the geometry
// through HostGeometry built from mode page 20h's fields, and both are timed
// by the same model code, so one request sequence costs the same modeled time
// on either (tests/apps and tests/integration/apps_test.sh check this).
//
// Time: an application runs closed-loop, one batch at a time, so its modeled
// elapsed time is the sum of the batches' modeled service times.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "host/geometry.h"
#include "host/result.h"

namespace memstore::apps {

using host::Lbn;
using Bytes = std::vector<std::uint8_t>;

enum class Op : std::uint8_t { kRead, kWrite };

// One descriptor of a batch: `blocks` consecutive blocks from `lbn`.
struct Extent {
  Op op = Op::kRead;
  Lbn lbn = 0;
  std::uint32_t blocks = 1;
  friend bool operator==(const Extent&, const Extent&) = default;
};

struct BatchDone {
  std::int64_t service_ns = 0;    // modeled service time (see service_resolution_ns)
  std::uint32_t media_steps = 0;  // sequential parallel accesses the device needed
  // Per extent, in batch order: the read data (blocks × block size), empty
  // for a write. Empty altogether when the device keeps no data.
  std::vector<Bytes> data;
};

struct SubmitOptions {
  // Ask the device to refuse a batch that needs more than one media step
  // (MEMS BATCH's STRICT bit): the applications use it to have the device
  // confirm that what they built is one parallel access.
  bool strict = false;
};

class BlockDevice {
 public:
  virtual ~BlockDevice() = default;

  // What the device is, in words ("iscsi://...", "model g2 (p=10, M=0)").
  virtual std::string name() const = 0;
  // The geometry of mode page 20h: the thesis' host interface (§6.3.4).
  virtual const host::HostGeometry& geometry() const = 0;
  virtual std::uint32_t block_size() const = 0;
  std::uint64_t blocks() const { return geometry().blocks(); }
  // The largest batch, from mode page 20h (descriptors capped at 4095, the
  // reach of a sense field pointer, as host::Batch does).
  std::uint32_t max_batch_descriptors() const;
  std::uint32_t max_batch_blocks() const { return geometry().page().max_batch_blocks; }

  // Granularity of BatchDone::service_ns: 1000 when the device reports whole
  // microseconds (MEMS BATCH RESULTS), 1 for the model's own nanoseconds.
  virtual std::int64_t service_resolution_ns() const = 0;
  // Whether reads return data (a simulated device without a store does not).
  virtual bool returns_data() const = 0;

  // One batch (thesis §6.3.3): `extents` in order; `write_data` holds the
  // data of the write extents, in order, whole blocks. Served as one media
  // access in as few parallel steps as the geometry allows.
  virtual host::Result<BatchDone> submit(std::span<const Extent> extents,
                                         std::span<const std::uint8_t> write_data,
                                         const SubmitOptions& options) = 0;
  host::Result<BatchDone> read(std::span<const Extent> extents, const SubmitOptions& options = {}) {
    return submit(extents, {}, options);
  }
};

// Floor of a service time to the device's whole microseconds, as MEMS BATCH
// RESULTS reports it: summing these gives the same total on both devices.
inline std::int64_t reported_us(std::int64_t service_ns) {
  return service_ns / 1000;
}

}  // namespace memstore::apps
