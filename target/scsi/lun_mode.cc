// MODE SENSE and MODE SELECT (SPC-4 §6.11-6.14): the standard pages and the
// MEMStore vendor pages, with the control page's changes applied to the LUN.
#include "modepages/bytes.h"
#include "target/scsi/lun.h"

namespace memstore::scsi {

Outcome Lun::mode_sense(const CommandContext& c) {
  modepages::ModeSenseRequest req;
  req.ten = c.cdb[0] == 0x5A;
  req.dbd = (c.cdb[1] & 0x08) != 0;
  req.llbaa = req.ten && (c.cdb[1] & 0x10) != 0;
  req.pc = static_cast<modepages::PageControl>(c.cdb[2] >> 6);
  req.page = c.cdb[2] & 0x3F;
  req.subpage = c.cdb[3];
  req.blocks = blocks();
  req.block_size = block_size();
  auto r = modepages::mode_sense(mode_, req);
  if (const auto* e = std::get_if<modepages::FieldError>(&r)) return Outcome::fail(sense_from(*e));
  Outcome o;
  o.data_in = std::move(std::get<Bytes>(r));
  return o;
}

Outcome Lun::mode_select(const CommandContext& c) {
  const bool ten = c.cdb[0] == 0x55;
  const bool pf = (c.cdb[1] & 0x10) != 0;
  const bool sp = (c.cdb[1] & 0x01) != 0;
  const std::uint64_t len = ten ? modepages::get_be(c.cdb, 7, 2) : c.cdb[4];
  if (c.data_out.size() < len) return Outcome::fail({Reason::kParamListLengthError, {}, {}});
  if (len == 0) return {};  // SPC-4 §6.13: no data, no change
  if (const auto e = modepages::mode_select(mode_, ten, pf, sp, c.data_out.first(len))) {
    return Outcome::fail(sense_from(*e));
  }
  apply_control_page();
  return {};
}

void Lun::apply_control_page() {
  // Power Condition (1Ah): its standby timer is the sled's idle timeout.
  if (mode_.idle_timeout_ns() != config_.device.power.idle_timeout_ns) {
    config_.device.power.idle_timeout_ns = mode_.idle_timeout_ns();
    device_->set_idle_timeout_ns(config_.device.power.idle_timeout_ns);
  }
  const modepages::ControlPage page = mode_.control();
  config_.timing.mode = page.timing;
  config_.timing.scale = page.scale_milli / 1000.0;
  const std::optional<std::string> name = modepages::scheduler_name(page.scheduler);
  if (name && *name != config_.scheduler) {
    config_.scheduler = *name;
    device_->replace_schedulers(config_.scheduler, config_.scheduler_options);
  }
}

}  // namespace memstore::scsi
