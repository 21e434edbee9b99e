#include "testbench/rl_modes.h"

#include <algorithm>
#include <fstream>
#include <stdexcept>

#include "controller/config_keys.h"
#include "controller/rl/units.h"

namespace ssdtlm::tb {

std::vector<std::string> rl_units_in_run(const SsdConfig& cfg) {
  std::vector<std::string> u;
#define RL_UNIT(name, states, actions, shadow, has_reward, episode_len, role, key_prefix, runs, \
                ...)                                                                            \
  if (runs) u.push_back(#name);
#include "controller/rl/units.def"
#undef RL_UNIT
  return u;
}

namespace {

// The units and the configurations that run them, for an error message (units.def's `runs`).
std::string units_and_conditions() {
  std::string s;
#define RL_UNIT(name, states, actions, shadow, has_reward, episode_len, role, key_prefix, runs, \
                ...)                                                                            \
  s += std::string(s.empty() ? "" : "; ") + #name + ": " + #runs;
#include "controller/rl/units.def"
#undef RL_UNIT
  return s;
}

// The value of configuration key `key` in `cfg` (controller/config_keys.cpp).
nlohmann::json key_value(const SsdConfig& cfg, const std::string& key) {
  for (const config_keys::Param& p : config_keys::params())
    if (p.key == key) return p.get(cfg);
  throw std::logic_error("controller/rl/units.def: key_prefix names no key '" + key + "'");
}

// The unit's non-learning controls, <key_prefix>.rl_epsilon and .rl_fixed_action (units.def; slc
// has none: its epsilon is its own parameter, which greedy and frozen set to 0).
void check_controls(const SsdConfig& cfg, const std::string& unit, const std::string& option) {
  const std::string key = rl::unit_size(unit).key_prefix;
  if (key.empty()) return;
  const double eps = key_value(cfg, key + ".rl_epsilon").get<double>();
  const int64_t fixed = key_value(cfg, key + ".rl_fixed_action").get<int64_t>();
  if (fixed >= 0)
    throw ConfigError(option + " and key '" + key + ".rl_fixed_action': a fixed action has no " +
                      "q-table and no exploration; set one");
  if (eps >= 0 && option.rfind("--rl-mode", 0) == 0)
    throw ConfigError(option + " and key '" + key + ".rl_epsilon': the mode sets epsilon 0; " +
                      "set one");
}

std::shared_ptr<rl::TableSet> read_tables(const std::string& file,
                                          const std::vector<std::string>& units) {
  std::ifstream f(file, std::ios::binary);
  if (!f) throw ConfigError(file + ": cannot read the q-tables (--rl-load)");
  auto t = std::make_shared<rl::TableSet>();
  try {
    t->read(f, file);
    for (const std::string& u : units) {
      if (!t->has(u))
        throw ConfigError(file + ": no q-table of unit " + u + " (--rl-load: the file has " +
                          std::to_string(t->tables().size()) + " units' tables)");
      const rl::UnitSize& s = rl::unit_size(u);
      t->check_size(file, u, s.states, s.actions);
    }
  } catch (const ConfigError&) {
    throw;
  } catch (const std::exception& e) {
    throw ConfigError(std::string(e.what()) + " (--rl-load)");
  }
  return t;
}

}  // namespace

std::shared_ptr<rl::ModeRegistry> apply_rl_modes(const RlModeOptions& o, const SsdConfig& cfg,
                                                 const std::string& slc_rl_load,
                                                 rl::BackendFactory& factory) {
  if (!o.any()) return nullptr;
  rl::ModeSetup setup;
  try {
    setup.mode = rl::parse_mode(o.mode);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(std::string("--rl-mode: ") + e.what());
  }
  const std::vector<std::string> units = rl_units_in_run(cfg);
  const char* opt = o.mode_given ? "--rl-mode" : !o.load.empty() ? "--rl-load" : "--rl-save";
  if (units.empty())
    throw ConfigError(std::string(opt) + ": has no effect: no RL unit runs (" +
                      units_and_conditions() + ")");
  if (setup.mode == rl::Mode::Frozen && o.load.empty())
    throw ConfigError(
        "--rl-mode frozen: needs --rl-load FILE (a frozen unit decides with a table trained "
        "elsewhere, saved by --rl-save)");
  for (const std::string& u : units) {
    if (setup.mode != rl::Mode::Online) check_controls(cfg, u, "--rl-mode " + o.mode);
    if (!o.load.empty()) check_controls(cfg, u, "--rl-load");
    if (!o.save.empty()) check_controls(cfg, u, "--rl-save");
  }
  if (!o.load.empty() && !slc_rl_load.empty() &&
      std::find(units.begin(), units.end(), "slc") != units.end())
    throw ConfigError("--rl-load and --slc-rl-load: two q-tables for the SLC agent; give one");
  if (!o.load.empty()) {
    setup.tables = read_tables(o.load, units);
    setup.tables_file = o.load;
  }
  std::shared_ptr<rl::ModeRegistry> reg;
  factory = rl::mode_factory(factory, setup, reg);
  return reg;
}

std::string save_rl_tables(const RlModeOptions& o, const rl::ModeRegistry* reg) {
  if (o.save.empty() || !reg) return "";
  std::ofstream f(o.save, std::ios::binary);
  reg->save().write(f);
  f.close();
  return f ? "" : o.save + ": cannot write the q-tables (--rl-save)";
}

}  // namespace ssdtlm::tb
