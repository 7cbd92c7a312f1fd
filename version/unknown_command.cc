// SPDX-License-Identifier: Apache-2.0
#include "version/unknown_command.h"

namespace memstore {

std::optional<std::string> unknown_command(const CLI::App& app, const std::string& program,
                                           int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return std::nullopt;
  const std::string word = argv[1];
  std::string names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->check_name(word)) return std::nullopt;
    names += (names.empty() ? "" : ", ") + sub->get_name();
  }
  return "unknown command '" + word + "'; use one of " + names + " (" + program + " --help)";
}

}  // namespace memstore
