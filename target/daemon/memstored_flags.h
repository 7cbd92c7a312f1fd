// SPDX-License-Identifier: Apache-2.0
// memstored's command line: the options that mirror the configuration file
// (daemon::CommandLine) and those only the command line has.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "target/daemon/config.h"

namespace memstore::memstored {

struct Flags {
  daemon::CommandLine cli;
  bool busy_poll = false;
  std::string completion_log;
};

void add_flags(CLI::App& app, Flags& f);

}  // namespace memstore::memstored
