// SPDX-License-Identifier: Apache-2.0
#include "host/result.h"

namespace memstore::host {

const char* code_name(Error::Code code) {
  switch (code) {
    case Error::Code::kInvalidArgument:
      return "invalid argument";
    case Error::Code::kTransport:
      return "transport error";
    case Error::Code::kCheckCondition:
      return "check condition";
    case Error::Code::kScsiStatus:
      return "SCSI status";
    case Error::Code::kBadResponse:
      return "bad response";
    case Error::Code::kNotMemstore:
      return "not a MEMStore";
  }
  return "error";
}

}  // namespace memstore::host
