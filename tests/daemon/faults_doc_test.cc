// SPDX-License-Identifier: Apache-2.0
// docs/faults.md against the parser: every TOML block of the page parses
// as the configuration of a G2 LUN, and together they show every action
// the parser knows, so the page's examples cannot drift from the code.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "target/daemon/config.h"
#include "target/daemon/config_save.h"
#include "target/scsi/fault_rule.h"

namespace memstore::daemon {
namespace {

std::vector<std::string> toml_blocks(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  const std::string text = s.str();
  std::vector<std::string> blocks;
  const std::string open = "```toml\n";
  for (std::size_t at = text.find(open); at != std::string::npos; at = text.find(open, at)) {
    at += open.size();
    const std::size_t end = text.find("```", at);
    blocks.push_back(text.substr(at, end - at));
    at = end;
  }
  return blocks;
}

TEST(FaultsDoc, EveryBlockParsesAndEveryActionHasAnExample) {
  const auto blocks = toml_blocks(std::string(MEMSTORE_SOURCE_DIR) + "/docs/faults.md");
  ASSERT_GE(blocks.size(), 3U);
  std::set<std::string> shown;
  const std::regex action(R"(action = "([a-z0-9-]+)\")");
  for (const std::string& b : blocks) {
    const bool has_lun = b.find("[[target.lun]]") != std::string::npos;
    const std::string config =
        "[[target]]\n" + std::string(has_lun ? "" : "[[target.lun]]\nbacking = \"memory\"\n") + b;
    const auto parsed = parse_config(config, "docs/faults.md");
    EXPECT_TRUE(parsed.ok()) << (parsed.ok() ? "" : parsed.error().message) << "\nin the block:\n"
                             << b;
    if (!parsed.ok()) continue;
    // A saved configuration gives every rule back as it was (memsctl admin save).
    const std::string saved = config_to_toml(*parsed);
    const auto again = parse_config(saved, "saved");
    ASSERT_TRUE(again.ok()) << again.error().message << "\nin:\n" << saved;
    for (std::size_t l = 0; l < parsed->targets[0].luns.size(); ++l) {
      const scsi::LunConfig& before = parsed->targets[0].luns[l].config;
      const scsi::LunConfig& after = again->targets[0].luns[l].config;
      EXPECT_TRUE(before.faults == after.faults) << "saved as:\n" << saved;
      EXPECT_EQ(before.fault_seed, after.fault_seed);
    }
    for (auto it = std::sregex_iterator(b.begin(), b.end(), action); it != std::sregex_iterator();
         ++it) {
      shown.insert((*it)[1].str());
    }
  }
  for (const std::string_view name : scsi::fault_action_names()) {
    EXPECT_TRUE(shown.contains(std::string(name))) << "no example of action \"" << name << "\"";
  }
}

}  // namespace
}  // namespace memstore::daemon
