// SPDX-License-Identifier: Apache-2.0
#include "host/device.h"

#include <algorithm>

#include "modepages/batch_codec.h"

namespace memstore::host {
namespace {

constexpr std::uint8_t kUnitAttention = 0x6;
constexpr int kUnitAttentionRetries = 3;
constexpr std::pair<std::uint8_t, std::uint8_t> kModeParametersChanged{0x2A, 0x01};
constexpr std::uint16_t kModeSenseAllocation = 1024;  // header + any one page
constexpr std::uint16_t kLogSenseAllocation = 1024;   // 30h and 31h are < 256 bytes
constexpr std::uint32_t kInquiryAllocation = 96;
// READ/WRITE(16) and MEMS BATCH RESULTS move at most this much per command.
constexpr std::uint32_t kMaxTransferBytes = 1u << 20;

std::string num(std::uint64_t v) {
  return std::to_string(v);
}

// "20h".
std::string hex_page(std::uint8_t code) {
  constexpr const char* kDigits = "0123456789ABCDEF";
  return {kDigits[code >> 4], kDigits[code & 0xF], 'h'};
}

Error not_memstore_error(const std::string& name, const std::string& reason) {
  return {Error::Code::kNotMemstore, name + " is not a MEMStore: " + reason, 0, std::nullopt};
}

}  // namespace

Result<std::unique_ptr<Device>> Device::open(const std::string& target,
                                             const TransportOptions& options) {
  auto t = open_transport(target, options);
  if (!t.ok()) return t.error();
  return attach(std::move(t).value());
}

Result<std::unique_ptr<Device>> Device::attach(std::unique_ptr<Transport> transport) {
  std::unique_ptr<Device> d(new Device(std::move(transport)));
  if (Status s = d->identify(); !s.ok()) return s.error();
  return d;
}

Result<Bytes> Device::command(std::string_view what, std::span<const std::uint8_t> cdb,
                              DataDirection direction, std::span<const std::uint8_t> data_out,
                              std::uint32_t data_in_length) {
  Result<Bytes> r = execute(what, cdb, direction, data_out, data_in_length);
  if (geometry_stale_ && !refreshing_) refresh_geometry();
  return r;
}

// SPC-4 MODE SELECT: MODE PARAMETERS CHANGED tells every other initiator
// that a mode page changed; page 20h changes when a tip fails, so the
// geometry the host computes with is read again.
void Device::refresh_geometry() {
  refreshing_ = true;
  geometry_stale_ = false;
  auto page = mode_page(modepages::kGeometryPageCode);
  if (page.ok()) {
    auto g = HostGeometry::from_page_bytes(*page);
    if (g.ok() && g->blocks() == capacity_.blocks) geometry_ = std::move(g).value();
  }
  refreshing_ = false;
}

Result<Bytes> Device::execute(std::string_view what, std::span<const std::uint8_t> cdb,
                              DataDirection direction, std::span<const std::uint8_t> data_out,
                              std::uint32_t data_in_length) {
  const ScsiCommand c{cdb, direction, data_out, data_in_length};
  for (int attempt = 0;; ++attempt) {
    auto r = transport_->execute(c);
    if (!r.ok()) {
      Error e = r.error();
      e.message = std::string(what) + ": " + e.message;
      return e;
    }
    ScsiResponse& resp = r.value();
    if (resp.status == kStatusGood) return std::move(resp.data_in);
    Error e;
    e.status = resp.status;
    if (resp.status != kStatusCheckCondition) {
      e.code = Error::Code::kScsiStatus;
      e.message = std::string(what) + " failed with status " + status_name(resp.status);
      return e;
    }
    e.code = Error::Code::kCheckCondition;
    e.sense = decode_sense(resp.sense);
    if (e.sense && e.sense->key == kUnitAttention) {
      if (e.sense->asc == kModeParametersChanged.first &&
          e.sense->ascq == kModeParametersChanged.second && geometry_) {
        geometry_stale_ = true;
      }
      if (attempt < kUnitAttentionRetries) continue;
    }
    e.message = std::string(what) + " failed: " +
                (e.sense ? describe(*e.sense) : std::string("CHECK CONDITION without sense data"));
    return e;
  }
}

Status Device::identify() {
  const Bytes inq_cdb = inquiry_cdb(kInquiryAllocation);
  auto inq = command("INQUIRY", inq_cdb, DataDirection::kIn, {}, kInquiryAllocation);
  if (!inq.ok()) return inq.error();
  auto decoded = decode_inquiry(*inq);
  if (!decoded) {
    return bad_response("INQUIRY returned " + num(inq->size()) + " bytes, fewer than 36");
  }
  if (decoded->peripheral_qualifier != 0) {
    return invalid_argument(name() + " has no logical unit there (peripheral qualifier " +
                            num(decoded->peripheral_qualifier) + ")");
  }
  inquiry_ = *decoded;

  const Bytes rc16 = read_capacity16_cdb();
  auto cap = command("READ CAPACITY(16)", rc16, DataDirection::kIn, {}, 32);
  std::optional<Capacity> capacity;
  if (cap.ok()) {
    capacity = decode_read_capacity16(*cap);
  } else if (cap.error().code == Error::Code::kCheckCondition) {
    // SBC-3 §5.16: devices without the 16-byte form answer (10).
    const Bytes rc10 = read_capacity10_cdb();
    auto cap10 = command("READ CAPACITY(10)", rc10, DataDirection::kIn, {}, 8);
    if (!cap10.ok()) return cap10.error();
    capacity = decode_read_capacity10(*cap10);
  } else {
    return cap.error();
  }
  if (!capacity || capacity->block_size == 0) {
    return bad_response("READ CAPACITY returned no usable capacity or block size");
  }
  capacity_ = *capacity;

  auto page = mode_page(modepages::kGeometryPageCode);
  if (!page.ok()) {
    if (page.error().code == Error::Code::kTransport) return page.error();
    not_memstore_ = "the device has no mode page 20h (" + page.error().message + ")";
    return {};
  }
  auto g = HostGeometry::from_page_bytes(*page);
  if (!g.ok()) {
    not_memstore_ = g.error().message;
    return {};
  }
  if (g->blocks() != capacity_.blocks) {
    not_memstore_ = "mode page 20h describes " + num(g->blocks()) +
                    " blocks but READ CAPACITY reports " + num(capacity_.blocks);
    return {};
  }
  geometry_ = std::move(g).value();
  return {};
}

Result<Bytes> Device::mode_page(std::uint8_t code, PageControl pc) {
  const Bytes cdb = mode_sense10_cdb(code, pc, kModeSenseAllocation);
  const std::string label = "MODE SENSE(10) page " + hex_page(code);
  auto data = command(label, cdb, DataDirection::kIn, {}, kModeSenseAllocation);
  if (!data.ok()) return data.error();
  const auto page = find_mode_page(*data, code);
  if (!page) return bad_response(label + ": the response does not contain the page");
  return Bytes(page->begin(), page->end());
}

Status Device::require_memstore() const {
  if (geometry_) return {};
  return not_memstore_error(name(), not_memstore_);
}

Status Device::check_lbn(const char* what, Lbn lbn) const {
  if (lbn < capacity_.blocks) return {};
  return invalid_argument(std::string(what) + " " + num(lbn) + " is beyond the device (LBNs 0.." +
                          num(capacity_.blocks - 1) + ")");
}

Result<std::uint32_t> Device::get_parallelism() const {
  if (Status s = require_memstore(); !s.ok()) return s.error();
  return geometry_->parallelism();
}

Result<std::vector<Lbn>> Device::get_equivalent(
    Lbn lbn, std::optional<std::uint32_t> micropositioning) const {
  if (Status s = require_memstore(); !s.ok()) return s.error();
  if (Status s = check_lbn("LBN", lbn); !s.ok()) return s.error();
  return geometry_->equivalent(lbn, micropositioning);
}

Result<bool> Device::check_conflicting(Lbn a, Lbn b) const {
  if (Status s = require_memstore(); !s.ok()) return s.error();
  if (Status s = check_lbn("LBN", a); !s.ok()) return s.error();
  if (Status s = check_lbn("LBN", b); !s.ok()) return s.error();
  return geometry_->conflicting(a, b);
}

Result<Ensemble> Device::get_ensemble(Lbn lbn) const {
  if (Status s = require_memstore(); !s.ok()) return s.error();
  if (Status s = check_lbn("LBN", lbn); !s.ok()) return s.error();
  return geometry_->ensemble(lbn);
}

Result<Batch> Device::new_batch() const {
  if (Status s = require_memstore(); !s.ok()) return s.error();
  const modepages::GeometryPage& g = geometry_->page();
  return Batch(BatchLimits{g.max_batch_descriptors, g.max_batch_blocks, capacity_.blocks,
                           capacity_.block_size});
}

Result<BatchResult> Device::submit(const Batch& batch, const SubmitOptions& options) {
  if (Status s = require_memstore(); !s.ok()) return s.error();
  if (batch.empty()) return invalid_argument("the batch is empty: add reads or writes first");
  if (batch.limits().block_size != capacity_.block_size ||
      batch.limits().capacity_blocks != capacity_.blocks) {
    return invalid_argument("the batch was built for another device (block size " +
                            num(batch.limits().block_size) + ", " +
                            num(batch.limits().capacity_blocks) + " blocks)");
  }
  const std::uint8_t id = next_batch_id_++;
  const Bytes list = batch.parameter_list();
  const Bytes cdb = modepages::make_batch_cdb(id, static_cast<std::uint32_t>(list.size()),
                                              options.strict, options.fua);
  auto sent = command("MEMS BATCH", cdb, DataDirection::kOut, list);
  if (!sent.ok()) {
    Error e = sent.error();
    if (e.sense && e.sense->field && !e.sense->field->in_cdb) {
      e.message += " (" + batch.describe_list_byte(e.sense->field->byte) + ")";
    }
    return e;
  }
  // Read the result in pieces; the device releases it once read to the end.
  const std::uint64_t total = batch.results_size();
  Bytes results;
  results.reserve(static_cast<std::size_t>(total));
  while (results.size() < total) {
    const auto chunk = static_cast<std::uint32_t>(
        std::min<std::uint64_t>(total - results.size(), kMaxTransferBytes));
    const Bytes rcdb =
        modepages::make_results_cdb(id, static_cast<std::uint32_t>(results.size()), chunk);
    auto part = command("MEMS BATCH RESULTS", rcdb, DataDirection::kIn, {}, chunk);
    if (!part.ok()) return part.error();
    if (part->empty()) {
      return bad_response("MEMS BATCH RESULTS returned no data at offset " + num(results.size()) +
                          " of " + num(total));
    }
    results.insert(results.end(), part->begin(), part->end());
  }
  return split_results(batch, id, results);
}

Result<Bytes> Device::read(Lbn lba, std::uint32_t blocks) {
  if (blocks == 0) return Bytes{};
  if (lba >= capacity_.blocks || blocks > capacity_.blocks - lba) {
    return invalid_argument("read of " + num(blocks) + " blocks at LBA " + num(lba) +
                            " goes beyond the device (LBNs 0.." + num(capacity_.blocks - 1) + ")");
  }
  const std::uint32_t per = std::max<std::uint32_t>(1, kMaxTransferBytes / capacity_.block_size);
  Bytes out;
  for (std::uint64_t done = 0; done < blocks;) {
    const auto n = static_cast<std::uint32_t>(std::min<std::uint64_t>(per, blocks - done));
    const Bytes cdb = read16_cdb(lba + done, n);
    auto part = command("READ(16)", cdb, DataDirection::kIn, {}, n * capacity_.block_size);
    if (!part.ok()) return part.error();
    if (part->size() != std::size_t{n} * capacity_.block_size) {
      return bad_response("READ(16) returned " + num(part->size()) + " bytes for " + num(n) +
                          " blocks");
    }
    out.insert(out.end(), part->begin(), part->end());
    done += n;
  }
  return out;
}

Status Device::write(Lbn lba, std::span<const std::uint8_t> data, bool fua) {
  if (data.size() % capacity_.block_size != 0) {
    return invalid_argument(num(data.size()) + " bytes is not a whole number of " +
                            num(capacity_.block_size) + "-byte blocks");
  }
  const std::uint64_t blocks = data.size() / capacity_.block_size;
  if (blocks == 0) return {};
  if (lba >= capacity_.blocks || blocks > capacity_.blocks - lba) {
    return invalid_argument("write of " + num(blocks) + " blocks at LBA " + num(lba) +
                            " goes beyond the device (LBNs 0.." + num(capacity_.blocks - 1) + ")");
  }
  const std::uint32_t per = std::max<std::uint32_t>(1, kMaxTransferBytes / capacity_.block_size);
  for (std::uint64_t done = 0; done < blocks;) {
    const auto n = static_cast<std::uint32_t>(std::min<std::uint64_t>(per, blocks - done));
    const Bytes cdb = write16_cdb(lba + done, n, fua);
    auto r = command("WRITE(16)", cdb, DataDirection::kOut,
                     data.subspan(static_cast<std::size_t>(done * capacity_.block_size),
                                  std::size_t{n} * capacity_.block_size));
    if (!r.ok()) return r.error();
    done += n;
  }
  return {};
}

Result<modepages::PhysicsPage> Device::physics_page() {
  if (Status s = require_memstore(); !s.ok()) return s.error();
  auto page = mode_page(modepages::kPhysicsPageCode);
  if (!page.ok()) return page.error();
  auto decoded = modepages::decode_physics_page(*page);
  if (!decoded) return bad_response("mode page 21h does not decode (length or format version)");
  return *decoded;
}

Result<modepages::ControlPage> Device::control_page() {
  if (Status s = require_memstore(); !s.ok()) return s.error();
  auto page = mode_page(modepages::kControlVendorPageCode);
  if (!page.ok()) return page.error();
  auto decoded = modepages::decode_control_page(*page);
  if (!decoded.ok()) return bad_response("mode page 22h does not decode: " + decoded.error().what);
  return *decoded;
}

Status Device::set_control_page(const modepages::ControlPage& page) {
  if (Status s = require_memstore(); !s.ok()) return s;
  const Bytes list = mode_select10_list(modepages::encode(page));
  const Bytes cdb = mode_select10_cdb(static_cast<std::uint16_t>(list.size()));
  auto r = command("MODE SELECT(10) page 22h", cdb, DataDirection::kOut, list);
  if (!r.ok()) return r.error();
  return {};
}

Result<Bytes> Device::log_page(std::uint8_t code) {
  if (Status s = require_memstore(); !s.ok()) return s.error();
  const Bytes cdb = log_sense_cdb(code, kLogSenseAllocation);
  return command("LOG SENSE page " + hex_page(code), cdb, DataDirection::kIn, {},
                 kLogSenseAllocation);
}

Result<modepages::PowerLog> Device::power_log() {
  auto page = log_page(modepages::kPowerLogPage);
  if (!page.ok()) return page.error();
  auto decoded = modepages::decode_power_log(*page);
  if (!decoded) return bad_response("log page 30h does not decode");
  return *decoded;
}

Result<modepages::PositioningLog> Device::positioning_log() {
  auto page = log_page(modepages::kPositioningLogPage);
  if (!page.ok()) return page.error();
  auto decoded = modepages::decode_positioning_log(*page);
  if (!decoded) return bad_response("log page 31h does not decode");
  return *decoded;
}

}  // namespace memstore::host
