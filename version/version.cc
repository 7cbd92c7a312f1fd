// SPDX-License-Identifier: Apache-2.0
#include "version/version.h"

#include "memstore_git_revision.h"
#include "memstore_version_number.h"

namespace memstore {

std::string_view version() {
  return MEMSTORE_VERSION;
}

std::string_view git_revision() {
  return MEMSTORE_GIT_REVISION;
}

std::string version_line(std::string_view program) {
  std::string line(program);
  line += ' ';
  line += version();
  line += " (git ";
  line += git_revision();
  line += ')';
  return line;
}

}  // namespace memstore
