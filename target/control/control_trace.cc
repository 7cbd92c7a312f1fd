// SPDX-License-Identifier: Apache-2.0
// trace-start and trace-stop: a LUN's requests captured while it runs
// (lunspec/lun_trace.h; docs/memstored.md, "Traces").
#include "target/control/control_commands.h"
#include "target/lunspec/lun_trace.h"

namespace memstore::control {

void ControlCommands::trace_start(const json& request, const Reply& reply) {
  const Expected<const ControlLun*> found = find(request);
  if (!found.ok()) return reply(failure(found.error().message));
  const ControlLun& lun = **found;
  const Expected<std::string> f = absolute_file(request, "trace start");
  if (!f.ok()) return reply(failure(f.error().message));
  const json& fm = request.contains("format") ? request["format"] : json("disksim");
  const auto format =
      fm.is_string() ? model::parse_trace_format(fm.get<std::string>()) : std::nullopt;
  if (!format) return reply(failure("format: must be \"disksim\" or \"spc\""));
  const std::string name = lun.target + " LUN " + std::to_string(lun.id);
  dispatch_(
      *lun.driver,
      [file = *f, format = *format, name, args = lun.memsim_args,
       id = lun.id](driver::TimedLun& d) {
        if (const scsi::RequestTrace* t = d.lun().trace()) {
          return failure("trace: LUN " + std::to_string(id) + " is capturing into '" + t->path() +
                         "' already; `trace stop` ends that capture first");
        }
        const scsi::Ns now = d.model_time();
        auto opened = lunspec::open_trace(file, format, name, args, d.lun(), now);
        if (!opened.ok()) return failure("file: " + opened.error().message);
        d.lun().set_trace(std::move(opened).value());
        return ok({{"file", file},
                   {"format", model::trace_format_name(format)},
                   {"from_ns", now},
                   {"replay", lunspec::replay_command(file, format, args, d.lun())}});
      },
      reply);
}

void ControlCommands::trace_stop(const json& request, const Reply& reply) {
  const Expected<const ControlLun*> found = find(request);
  if (!found.ok()) return reply(failure(found.error().message));
  dispatch_(
      *(*found)->driver,
      [id = (*found)->id](driver::TimedLun& d) {
        std::unique_ptr<scsi::RequestTrace> trace = d.lun().set_trace(nullptr);
        if (!trace) {
          return failure("trace: LUN " + std::to_string(id) +
                         " is not capturing; `trace start` begins a capture");
        }
        if (const memstore::Status closed = trace->close(); !closed.ok()) {
          return failure("trace: the capture ended, but " + closed.error().message);
        }
        return ok({{"file", trace->path()},
                   {"requests", trace->requests()},
                   {"batches_skipped", trace->batches_skipped()},
                   {"until_ns", d.model_time()}});
      },
      reply);
}

}  // namespace memstore::control
