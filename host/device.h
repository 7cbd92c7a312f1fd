// SPDX-License-Identifier: Apache-2.0
// A SCSI device seen from the host: opened over a Transport, identified with
// INQUIRY and READ CAPACITY, and recognised as a MEMStore by mode page 20h
// (docs/host-library.md). The page is the only source of the geometry.
// A device without the page is "not a MEMStore": reads and writes still work
// and every geometry call says why it cannot answer.
//
// Thread safety: none; use one Device per thread (or lock around it).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "host/batch.h"
#include "host/geometry.h"
#include "host/result.h"
#include "host/scsi_commands.h"
#include "host/transport.h"
#include "modepages/log_pages.h"
#include "modepages/mode_vendor.h"

namespace memstore::host {

class Device {
 public:
  // Opens `target` (an iscsi:// URL or a device path, see open_transport),
  // then INQUIRY, READ CAPACITY(16) (or (10)) and MODE SENSE(10) page 20h.
  static Result<std::unique_ptr<Device>> open(const std::string& target,
                                              const TransportOptions& options = {});
  // The same over a transport the caller made (tests use fakes).
  static Result<std::unique_ptr<Device>> attach(std::unique_ptr<Transport> transport);

  std::string name() const { return transport_->name(); }
  const InquiryData& inquiry() const { return inquiry_; }
  std::uint64_t blocks() const { return capacity_.blocks; }
  std::uint32_t block_size() const { return capacity_.block_size; }

  bool is_memstore() const { return geometry_.has_value(); }
  // Why the device is not a MEMStore (empty when it is), e.g. "the device has
  // no mode page 20h (MODE SENSE(10): ILLEGAL REQUEST: INVALID FIELD IN CDB ...)".
  const std::string& not_memstore_reason() const { return not_memstore_; }
  // nullptr when not a MEMStore.
  const HostGeometry* geometry() const { return geometry_ ? &*geometry_ : nullptr; }

  // --- the thesis' application interface (§6.3.4) ------------------------
  // Each is kNotMemstore on a plain disk and kInvalidArgument for an LBN
  // beyond the device.
  Result<std::uint32_t> get_parallelism() const;
  Result<std::vector<Lbn>> get_equivalent(Lbn lbn,
                                          std::optional<std::uint32_t> micropositioning = {}) const;
  Result<bool> check_conflicting(Lbn a, Lbn b) const;
  Result<Ensemble> get_ensemble(Lbn lbn) const;

  // batch(): an empty batch with this device's limits; submit() sends it as
  // MEMS BATCH and collects MEMS BATCH RESULTS. A CHECK CONDITION whose field
  // pointer lies in the parameter list names the descriptor and field.
  Result<Batch> new_batch() const;
  Result<BatchResult> submit(const Batch& batch, const SubmitOptions& options = {});

  // --- plain block access (any SBC device) ---------------------------------
  Result<Bytes> read(Lbn lba, std::uint32_t blocks);
  // `data` is whole blocks.
  Status write(Lbn lba, std::span<const std::uint8_t> data, bool fua = false);

  // --- vendor pages (docs/vendor-interface.md) ----------------------------
  Result<modepages::PhysicsPage> physics_page();
  Result<modepages::ControlPage> control_page();
  // MODE SELECT(10) of page 22h.
  Status set_control_page(const modepages::ControlPage& page);
  Result<modepages::PowerLog> power_log();
  Result<modepages::PositioningLog> positioning_log();

  // A mode page (header included) from MODE SENSE(10).
  Result<Bytes> mode_page(std::uint8_t code, PageControl pc = PageControl::kCurrent);

  // Any command: GOOD gives the data-in; CHECK CONDITION is kCheckCondition
  // with the sense decoded and described in the message, which starts with
  // `what`; any other status is kScsiStatus. UNIT ATTENTION is retried
  // (up to 3 times): it reports an event, not a failure of this command.
  // MODE PARAMETERS CHANGED also makes the device read page 20h again
  // (a failed tip changes it), before this call returns.
  Result<Bytes> command(std::string_view what, std::span<const std::uint8_t> cdb,
                        DataDirection direction = DataDirection::kNone,
                        std::span<const std::uint8_t> data_out = {},
                        std::uint32_t data_in_length = 0);

  Transport& transport() { return *transport_; }

 private:
  explicit Device(std::unique_ptr<Transport> t) : transport_(std::move(t)) {}
  Status identify();
  Result<Bytes> execute(std::string_view what, std::span<const std::uint8_t> cdb,
                        DataDirection direction, std::span<const std::uint8_t> data_out,
                        std::uint32_t data_in_length);
  void refresh_geometry();
  Status require_memstore() const;
  Status check_lbn(const char* what, Lbn lbn) const;
  Result<Bytes> log_page(std::uint8_t code);

  std::unique_ptr<Transport> transport_;
  InquiryData inquiry_;
  Capacity capacity_;
  std::optional<HostGeometry> geometry_;
  std::string not_memstore_;
  std::uint8_t next_batch_id_ = 1;
  bool geometry_stale_ = false;  // MODE PARAMETERS CHANGED was reported
  bool refreshing_ = false;
};

}  // namespace memstore::host
