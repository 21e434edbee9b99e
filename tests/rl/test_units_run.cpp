// The rows of controller/rl/units.def as testbench/rl_modes.cpp reads them: each unit's `runs`
// condition selects that unit alone, and its key_prefix names its two control keys.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "controller/config_keys.h"
#include "controller/rl/units.h"
#include "testbench/rl_modes.h"

namespace {

using ssdtlm::SsdConfig;
using ssdtlm::tb::rl_units_in_run;
using Units = std::vector<std::string>;

bool has_key(const std::string& key) {
  for (const auto& p : ssdtlm::config_keys::params())
    if (p.key == key) return true;
  return false;
}

TEST(RlUnitsRun, KeyPrefixesNameTheControlKeys) {
  for (const auto& u : ssdtlm::rl::kUnits) {
    const std::string p = u.key_prefix;
    if (p.empty()) continue;
    EXPECT_TRUE(has_key(p + ".rl_epsilon")) << u.name << ": no key " << p << ".rl_epsilon";
    EXPECT_TRUE(has_key(p + ".rl_fixed_action"))
        << u.name << ": no key " << p << ".rl_fixed_action";
  }
  EXPECT_EQ(std::string(ssdtlm::rl::unit_size("rr").key_prefix), "rd");
  EXPECT_EQ(std::string(ssdtlm::rl::unit_size("slc").key_prefix), "");
}

TEST(RlUnitsRun, EachConditionSelectsItsUnit) {
  SsdConfig c;
  EXPECT_EQ(rl_units_in_run(c), Units{});
  SsdConfig fsp = c;
  fsp.fsp_grouper = "rl";
  EXPECT_EQ(rl_units_in_run(fsp), Units{"fsp"});
  SsdConfig gc = c;
  gc.gc_policy = "rl-aggr";
  EXPECT_EQ(rl_units_in_run(gc), Units{"gc"});
  SsdConfig rr = c;
  rr.rd_policy = "ws+rs";
  EXPECT_EQ(rl_units_in_run(rr), Units{});  // read disturb off
  rr.rd_enabled = true;
  EXPECT_EQ(rl_units_in_run(rr), Units{"rr"});
  SsdConfig slc = c;
  slc.slc_size_policy = "rl";
  EXPECT_EQ(rl_units_in_run(slc), Units{});  // no SLC region
  slc.slc_policy = "page";
  EXPECT_EQ(rl_units_in_run(slc), Units{"slc"});
  slc.fsp_grouper = "rl";
  slc.gc_policy = "rl";
  EXPECT_EQ(rl_units_in_run(slc), (Units{"fsp", "gc", "slc"}));  // the table's order
}

TEST(RlUnitsRun, ControlsAreCheckedUnderTheUnitsKeyPrefix) {
  SsdConfig c;
  c.rd_enabled = true;
  c.rd_policy = "ws+rs";
  c.rd_rl_epsilon = 0.5;
  ssdtlm::tb::RlModeOptions o;
  o.mode = "greedy";
  o.mode_given = true;
  ssdtlm::rl::BackendFactory f;
  try {
    ssdtlm::tb::apply_rl_modes(o, c, "", f);
    FAIL() << "rd.rl_epsilon with --rl-mode greedy was accepted";
  } catch (const ssdtlm::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("key 'rd.rl_epsilon'"), std::string::npos) << e.what();
  }
  SsdConfig none;
  try {
    ssdtlm::tb::apply_rl_modes(o, none, "", f);
    FAIL() << "--rl-mode without an RL unit was accepted";
  } catch (const ssdtlm::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("rr: cfg.rd_enabled && cfg.rd_policy == \"ws+rs\""),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
