// SPDX-License-Identifier: Apache-2.0
// A program's first word that names none of its commands, said as such:
// CLI11 alone answers `memsim frob` with "A subcommand is required", which
// names neither the word nor the commands there are.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

namespace memstore {

// "unknown command 'frob'; use one of geometry, run, ... (memsim --help)"
// when argv[1] is a word (not an option) that is none of `app`'s
// subcommands; otherwise nothing.
std::optional<std::string> unknown_command(const CLI::App& app, const std::string& program,
                                           int argc, char** argv);

}  // namespace memstore
