// SPDX-License-Identifier: Apache-2.0
// The example configuration (examples/memstored.toml), the installed one
// (etc/memstored.toml), docs/memstored.md and the parser must agree on the
// keys: the example names every key the parser accepts and no other, and the
// documentation's configuration block names the same ones. The parser's own
// key lists are read back from its "unknown key" errors, so a key added to
// config.cc and not to the example or the docs fails here.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <toml++/toml.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "target/daemon/config.h"
#include "tests/daemon/example_text.h"

namespace memstore::daemon {
namespace {

using Keys = std::set<std::string>;

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string error_of(const Expected<Config>& r) {
  return r.ok() ? "" : r.error().message;
}

// Every key of a TOML document as a dotted path ("target.lun.id"); the
// elements of an array of tables share their array's path.
void collect(const toml::table& t, const std::string& prefix, Keys& out) {
  for (const auto& [k, v] : t) {
    const std::string path = prefix + std::string(k.str());
    out.insert(path);
    if (const toml::table* sub = v.as_table()) collect(*sub, path + ".", out);
    if (const toml::array* arr = v.as_array()) {
      for (const toml::node& e : *arr) {
        if (const toml::table* sub = e.as_table()) collect(*sub, path + ".", out);
      }
    }
  }
}

Keys keys_of(std::string_view text) {
  Keys keys;
  collect(toml::parse(text), "", keys);
  return keys;
}

// A configuration with every table, an unknown key `zz_probe` placed in the
// table `probe` ("" for the top level).
std::string probe_config(const std::string& probe) {
  const std::string tables[] = {"",       "daemon",      "limits",    "discovery", "discovery.chap",
                                "target", "target.chap", "target.lun"};
  const std::string body[] = {"",
                              "",
                              "",
                              "",
                              "user = \"finder\"\nsecret = \"finder-secret-16\"\n",
                              "name = \"iqn.2026-11.org.memstore:probe\"\n",
                              "user = \"alice\"\nsecret = \"alice-secret-123\"\n",
                              "id = 0\nbacking = \"memory\"\n"};
  std::string text;
  for (std::size_t i = 0; i < std::size(tables); ++i) {
    const std::string& t = tables[i];
    if (t == "target" || t == "target.lun") {
      text += "[[" + t + "]]\n";
    } else if (!t.empty()) {
      text += "[" + t + "]\n";
    }
    if (t == probe) text += "zz_probe = 1\n";
    text += body[i];
  }
  return text;
}

// The text after `marker` in `error`, split at ", ".
std::vector<std::string> listed_after(const std::string& error, const std::string& marker) {
  std::vector<std::string> items;
  const auto at = error.find(marker);
  EXPECT_NE(at, std::string::npos) << "no \"" << marker << "\" in: " << error;
  if (at == std::string::npos) return items;
  std::stringstream list(error.substr(at + marker.size()));
  for (std::string item; std::getline(list >> std::ws, item, ',');) items.push_back(item);
  return items;
}

// A configuration whose one LUN has one fault rule, `rule`.
std::string fault_config(const std::string& rule) {
  return "[[target]]\nname = \"iqn.2026-11.org.memstore:probe\"\n"
         "[[target.lun]]\nid = 0\nbacking = \"memory\"\n"
         "[[target.lun.fault]]\n" +
         rule;
}

// The keys a fault rule takes: an action-less rule's error lists the
// actions, and an unknown key's error under each action lists its keys.
Keys fault_keys() {
  Keys keys;
  const auto actions =
      listed_after(error_of(parse_config(fault_config(""), "probe.toml")), "use one of ");
  EXPECT_GT(actions.size(), 5u);
  for (const std::string& action : actions) {
    const std::string rule = "action = \"" + action + "\"\nzz_probe = 1\n";
    for (const std::string& key :
         listed_after(error_of(parse_config(fault_config(rule), "probe.toml")), "it takes ")) {
      keys.insert("target.lun.fault." + key);
    }
  }
  return keys;
}

// The keys the parser accepts, from the list its "unknown key" error gives
// for each table, and the fault rules' keys.
Keys parser_keys() {
  Keys keys;
  for (const std::string table : {"", "daemon", "limits", "discovery", "discovery.chap", "target",
                                  "target.chap", "target.lun"}) {
    const std::string error = error_of(parse_config(probe_config(table), "probe.toml"));
    for (const std::string& key : listed_after(error, "unknown key; known keys here are ")) {
      keys.insert(table.empty() ? key : table + "." + key);
    }
  }
  keys.merge(fault_keys());
  return keys;
}

// The ```toml block of docs/memstored.md's "Configuration file" section.
std::string documented_block() {
  const std::string doc = slurp(std::string(MEMSTORE_SOURCE_DIR) + "/docs/memstored.md");
  const auto section = doc.find("## Configuration file");
  const auto begin = doc.find("```toml\n", section);
  const auto end = doc.find("```", begin + 8);
  if (section == std::string::npos || begin == std::string::npos || end == std::string::npos)
    return "";
  return doc.substr(begin + 8, end - begin - 8);
}

// "" when `got` and `want` hold the same keys; otherwise the differences.
std::string difference(const Keys& got, const Keys& want) {
  std::string missing, extra;
  for (const std::string& k : want) {
    if (!got.count(k)) missing += " " + k;
  }
  for (const std::string& k : got) {
    if (!want.count(k)) extra += " " + k;
  }
  if (missing.empty() && extra.empty()) return "";
  return "missing:" + (missing.empty() ? " none" : missing) +
         "; not accepted by the parser:" + (extra.empty() ? " none" : extra);
}

TEST(ExampleConfig, ParserKeysAreReadBackFromItsErrors) {
  const Keys keys = parser_keys();
  // A few that must be there whatever else changes: the probe works.
  EXPECT_TRUE(keys.count("daemon.log_level"));
  EXPECT_TRUE(keys.count("limits.max_connections"));
  EXPECT_TRUE(keys.count("target.lun.backing"));
  EXPECT_TRUE(keys.count("discovery.chap.secret"));
  EXPECT_GT(keys.size(), 40u);
}

TEST(ExampleConfig, TheRealParserAcceptsIt) {
  const auto r = parse_config(example_text(), "examples/memstored.toml");
  ASSERT_TRUE(r.ok()) << error_of(r);
  const Config& c = r.value();
  EXPECT_EQ(c.state_dir, "/var/lib/memstore");
  ASSERT_TRUE(c.discovery_chap.has_value());
  ASSERT_EQ(c.targets.size(), 1u);
  const TargetSpec& t = c.targets[0];
  EXPECT_TRUE(t.chap.has_value());
  EXPECT_EQ(t.portals.size(), 2u);
  ASSERT_EQ(t.luns.size(), 3u);
  // device_config and set both reached the model's parameters.
  EXPECT_EQ(t.luns[0].config.device.active_tips, 1280);
  EXPECT_EQ(t.luns[0].config.device.power.idle_timeout_ns, 1'000'000'000);
  EXPECT_TRUE(t.luns[0].config.device.power.merge_requests);
  EXPECT_EQ(t.luns[1].backing, "memory");
  // A disk LUN, with its own set key.
  ASSERT_TRUE(t.luns[2].config.disk.has_value());
  EXPECT_EQ(t.luns[2].config.disk->name, "atlas10k");
  EXPECT_FALSE(t.luns[2].config.disk->cache.write_back);
}

TEST(ExampleConfig, AsItIsItServesAnyInitiatorWithoutFaults) {
  // Started as it is, the example must serve iscsi-ls and qemu-img: no CHAP,
  // no ACL, no fault rule (tests/integration/examples_test.sh starts it).
  const auto r = parse_config(example_text(false), "examples/memstored.toml");
  ASSERT_TRUE(r.ok()) << error_of(r);
  const Config& c = r.value();
  EXPECT_FALSE(c.discovery_chap.has_value());
  ASSERT_EQ(c.targets.size(), 1u);
  EXPECT_FALSE(c.targets[0].chap.has_value());
  EXPECT_TRUE(c.targets[0].acl.empty());
  ASSERT_EQ(c.targets[0].luns.size(), 3u);
  for (const auto& lun : c.targets[0].luns) EXPECT_TRUE(lun.config.faults.empty()) << lun.id;
}

TEST(ExampleConfig, NamesEveryKeyTheParserAcceptsAndNoOther) {
  EXPECT_EQ(difference(keys_of(example_text()), parser_keys()), "");
}

// Fault rules' keys per action are docs/faults.md's; this page's block shows
// one rule, whose keys must exist.
bool is_fault_key(const std::string& key) {
  return key.rfind("target.lun.fault.", 0) == 0;
}

Keys without_fault_keys(Keys keys) {
  std::erase_if(keys, is_fault_key);
  return keys;
}

TEST(ExampleConfig, DocumentationNamesTheSameKeys) {
  const std::string block = documented_block();
  ASSERT_FALSE(block.empty()) << "no ```toml block under \"## Configuration file\"";
  const Keys documented = keys_of(block);
  const Keys accepted = parser_keys();
  EXPECT_EQ(difference(without_fault_keys(documented), without_fault_keys(accepted)), "");
  for (const std::string& key : documented) {
    if (is_fault_key(key)) {
      EXPECT_TRUE(accepted.count(key)) << key;
    }
  }
}

TEST(ExampleConfig, FaultKeysAreReadBackFromTheParser) {
  const Keys keys = fault_keys();
  for (const char* key : {"op", "lba", "action", "sense", "delay_ms", "tip", "x", "y"}) {
    EXPECT_TRUE(keys.count(std::string("target.lun.fault.") + key)) << key;
  }
}

TEST(ExampleConfig, DottedKeysInTheDocumentationExist) {
  // The limits tables write keys as `limits.max_connections`,
  // `daemon.nop_in_interval`: each must be a key the parser accepts.
  const std::string doc = slurp(std::string(MEMSTORE_SOURCE_DIR) + "/docs/memstored.md");
  const Keys accepted = parser_keys();
  const std::regex dotted("`((daemon|limits)\\.[a-z_]+)`");
  int seen = 0;
  for (std::sregex_iterator it(doc.begin(), doc.end(), dotted), end; it != end; ++it, ++seen) {
    EXPECT_TRUE(accepted.count((*it)[1].str())) << (*it)[1].str();
  }
  EXPECT_GT(seen, 5);
}

TEST(InstalledConfig, TheRealParserAcceptsIt) {
  const auto r = load_config(std::string(MEMSTORE_SOURCE_DIR) + "/etc/memstored.toml");
  ASSERT_TRUE(r.ok()) << error_of(r);
  const Config& c = r.value();
  ASSERT_EQ(c.targets.size(), 1u);
  ASSERT_EQ(c.targets[0].portals.size(), 1u);
  // Installed, it serves the loopback address only, until the operator says otherwise.
  EXPECT_EQ(c.targets[0].portals[0], (Portal{"127.0.0.1", 3260}));
  ASSERT_EQ(c.targets[0].luns.size(), 1u);
  EXPECT_EQ(c.targets[0].luns[0].backing.rfind("/var/lib/memstore/", 0), 0u);
}

}  // namespace
}  // namespace memstore::daemon
