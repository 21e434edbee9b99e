#include "controller/config.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <fstream>
#include <sstream>
#include <type_traits>

#include "controller/config_keys.h"
#include "controller/suggest.h"

namespace ssdtlm {
namespace {

using nlohmann::json;

using config_keys::Param;
using config_keys::params;

const Param* find_param(const std::string& key) {
  for (const auto& p : params())
    if (p.key == key) return &p;
  return nullptr;
}

// A section: a prefix of some key ("nand" of "nand.channels").
bool is_section(const std::string& key) {
  for (const auto& p : params())
    if (p.key.size() > key.size() && p.key.compare(0, key.size(), key) == 0 &&
        p.key[key.size()] == '.')
      return true;
  return false;
}

// Flattens nested objects into dotted keys; arrays and scalars are leaves. An empty object
// stands for itself, so that an unknown section with nothing in it ({"bogus": {}}) is still an
// unknown key.
void flatten(const json& j, const std::string& prefix,
             std::vector<std::pair<std::string, json>>& out) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    std::string key = prefix.empty() ? it.key() : prefix + "." + it.key();
    if (it.value().is_object() && !it.value().empty())
      flatten(it.value(), key, out);
    else
      out.emplace_back(key, it.value());
  }
}

bool file_exists(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// A control key of an RL unit that does not run would change nothing: refused by name.
void check_rl_control(const std::string& unit, bool runs, const std::string& policy, double eps,
                      int32_t fixed) {
  if ((eps >= 0 || fixed >= 0) && !runs)
    throw ConfigError("key '" + unit + (eps >= 0 ? ".rl_epsilon" : ".rl_fixed_action") +
                      "' has no effect with " + policy + ": no RL unit runs there");
  if (eps >= 0 && fixed >= 0)
    throw ConfigError("keys '" + unit + ".rl_epsilon' and '" + unit +
                      ".rl_fixed_action': a fixed action neither explores nor learns; set one");
}

// The design knobs of an RL unit: refused where the unit does not run, and checked together.
// own_alpha: the unit's alpha where it is a key of its own (slc.rl_alpha), else < 0.
void check_rl_knobs(const std::string& unit, bool runs, const std::string& policy,
                    const rl::Knobs& k, double own_alpha = -1) {
  if (k != rl::Knobs{} && !runs)
    throw ConfigError("keys '" + unit + ".rl_*' (design knobs) have no effect with " + policy +
                      ": no RL unit runs there");
  rl::Knobs c = k;
  if (own_alpha >= 0) c.alpha = own_alpha;
  const std::string why = c.check();
  if (!why.empty()) throw ConfigError("key '" + unit + "." + why);
}

}  // namespace

void SsdConfig::set(const std::string& key, const json& value, const std::string& source) {
  const Param* p = find_param(key);
  if (!p && is_section(key)) {
    if (value.is_object() && value.empty()) return;  // an empty section: nothing to set
    throw ConfigError(source + ": key '" + key +
                      "' is a section: expected an object of its keys, got " + value.dump());
  }
  if (!p) throw ConfigError(source + ": unknown key '" + key + "'" + did_you_mean(key, keys()));
  p->set(*this, value, source);
}

void SsdConfig::apply_json(const json& j, const std::string& source) {
  if (!j.is_object()) throw ConfigError(source + ": expected a JSON object at the top level");
  std::vector<std::pair<std::string, json>> kv;
  flatten(j, "", kv);
  for (const auto& [k, v] : kv) {
    if (!k.empty() && k[0] == '_') continue;  // "_comment" style annotations
    if (k.find("._") != std::string::npos) continue;
    set(k, v, source);
  }
}

void SsdConfig::apply_file(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw ConfigError(path + ": cannot open config file");
  json j;
  try {
    j = json::parse(f, nullptr, /*allow_exceptions=*/true, /*ignore_comments=*/true);
  } catch (const json::parse_error& e) {
    // e.byte gives the offset; turn it into a line number for the message.
    std::ifstream g(path);
    std::string text((std::istreambuf_iterator<char>(g)), std::istreambuf_iterator<char>());
    size_t line = 1;
    for (size_t i = 0; i < text.size() && i + 1 < e.byte; ++i)
      if (text[i] == '\n') ++line;
    throw ConfigError(path + ":" + std::to_string(line) + ": JSON syntax error: " + e.what());
  } catch (const json::exception& e) {  // e.g. a number beyond a double (1e400)
    throw ConfigError(path + ": JSON error: " + e.what());
  }
  apply_json(j, path);
}

void SsdConfig::finalize() {
  const std::string where = "config";
  if (std::string e = geo.validate(); !e.empty()) throw ConfigError(where + ": " + e);
  try {
    timing = nand::TimingModel::from_keys({read_us, program_us, erase_us, program_mode, slc_read_us,
                                           slc_program_us, slc_erase_us, rd_retry_us},
                                          geo.cell);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(where + ": " + e.what());
  }
  if (slc_rl_reward == "ema" && !(slc_rl_cost_ema > 0))
    throw ConfigError(where + ": key 'slc.rl_cost_ema': must be > 0 with slc.rl_reward ema");
  if (hybrid()) {
    if (slc_pages() == 0 || slc_pages() > geo.pages_per_block)
      throw ConfigError(where +
                        ": key 'slc.pages_per_block': must be in [1, nand.pages_per_block]");
    if (slc_partition == "fixed" && slc_policy != "none" && slc_blocks_per_plane == 0)
      throw ConfigError(where +
                        ": key 'slc.blocks_per_plane': 0 SLC blocks per plane, so slc.policy " +
                        slc_policy +
                        " (--slc) has no SLC region to cache in with slc.partition fixed: set "
                        "slc.blocks_per_plane, or slc.partition convertible (blocks converted "
                        "at erase), or choose a hybrid preset with a fixed SLC region (e.g. "
                        "--preset hybrid-slc-tlc)");
    if (slc_partition == "fixed" && slc_blocks_per_plane + 4 > geo.blocks_per_plane)
      throw ConfigError(where +
                        ": key 'slc.blocks_per_plane': a fixed partition needs at least 4 "
                        "native blocks per plane (at most nand.blocks_per_plane - 4 SLC "
                        "blocks)");
    if (geo.sectors_per_page() > 8)
      throw ConfigError(where +
                        ": key 'nand.sector_size': hybrid SLC caching supports at most 8 "
                        "sectors per page");
    // Its sector map numbers sectors in 32 bits (slc/sector_map.h: Psn, kNoLsn).
    if (geo.pages() * geo.sectors_per_page() >= 0xffffffffull)
      throw ConfigError(where +
                        ": key 'nand.sector_size': hybrid SLC caching numbers sectors in "
                        "32 bits, and this drive has " +
                        std::to_string(geo.pages() * geo.sectors_per_page()) +
                        " physical sectors (at most 2^32-1: fewer or smaller dies, or larger "
                        "sectors)");
  }
  bus.bytes_per_us = static_cast<uint64_t>(std::llround(channel_rate_mt_s));
  bus.cmd_addr_cycles = channel_cmd_addr_cycles;
  bus.cycle = static_cast<nand::Tick>(std::llround(channel_cycle_ns * 1000));
  ctrl_cycle = static_cast<nand::Tick>(std::llround(1e6 / ctrl_clock_mhz));
  if (cache_pages() > 0 && cache_pages() < static_cast<uint64_t>(unit_pages()))
    throw ConfigError(where +
                      ": key 'cache.size_mib': the cache must hold at least one program unit (" +
                      std::to_string(unit_pages() * geo.page_size) + " bytes)");
  if (cache_flush_low_watermark > cache_flush_high_watermark)
    throw ConfigError(where +
                      ": key 'cache.flush_low_watermark': above cache.flush_high_watermark");
  // GC thresholds above the over-provisioning are legal (the read-disturb paper runs SSDsim with
  // GC at 30% free and 25% over-provisioning: GC then runs whenever a victim has invalid pages).
  if (gc_threshold * geo.blocks_per_plane + 3 > geo.blocks_per_plane)
    throw ConfigError(where + ": key 'ftl.gc_threshold': leaves no block for data");
  if (rd_soft_threshold > rd_hard_threshold)
    throw ConfigError(where + ": key 'rd.soft_threshold': above rd.hard_threshold");
  if (rd_rber_hard > rd_rber_max)
    throw ConfigError(where + ": key 'rd.rber_hard': above rd.rber_max");
  // ws+rs's idle scope: away from its default where no ws+rs agent runs it would change nothing.
  const bool wsrs = rd_enabled && rd_policy == "ws+rs";
  if (rd_rs_scope != default_rd_rs_scope() && !wsrs)
    throw ConfigError("rd.rs_scope " + rd_rs_scope + " has no effect with " +
                      (rd_enabled ? "--rr " + rd_policy + " (rd.policy)"
                                  : std::string("no read-refresh policy (--rr / rd.enabled)")) +
                      ": only ws+rs's agent decides in idle time");
  if (wsrs && rd_rs_scope == "die" && rd_rs_trigger != "step")
    throw ConfigError("rd.rs_scope die with rd.rs_trigger " + rd_rs_trigger +
                      ": a die's agent decides when the die turns idle and again when a step on "
                      "it ends (step); use rd.rs_scope device for the once-per-idle ablation");
  check_rl_control("fsp", fsp_grouper == "rl", "fsp.grouper " + fsp_grouper, fsp_rl_epsilon,
                   fsp_rl_fixed_action);
  check_rl_control("gc", gc_policy == "rl" || gc_policy == "rl-aggr", "gc.policy " + gc_policy,
                   gc_rl_epsilon, gc_rl_fixed_action);
  check_rl_control("rd", wsrs, "rd.policy " + (rd_enabled ? rd_policy : "none"), rd_rl_epsilon,
                   rd_rl_fixed_action);
  check_rl_knobs("fsp", fsp_grouper == "rl", "fsp.grouper " + fsp_grouper, fsp_rl);
  check_rl_knobs("gc", gc_policy == "rl" || gc_policy == "rl-aggr", "gc.policy " + gc_policy,
                 gc_rl);
  check_rl_knobs("rd", wsrs, "rd.policy " + (rd_enabled ? rd_policy : "none"), rd_rl);
  check_rl_knobs("slc", hybrid() && slc_size_policy == "rl", "slc.size_policy " + slc_size_policy,
                 slc_rl, slc_rl_alpha);
  // DRAM must hold the data cache and the fully cached mapping table (4 bytes per logical page).
  double need_mib = cache_mib + logical_pages() * 4.0 / (1024 * 1024);
  if (need_mib > dram_size_mib)
    throw ConfigError(where + ": key 'dram.size_mib': " + std::to_string(dram_size_mib) +
                      " MiB cannot hold the cache and the mapping table (" +
                      std::to_string(need_mib) + " MiB)");
}

uint64_t SsdConfig::cache_pages() const {
  return static_cast<uint64_t>(cache_mib * 1024 * 1024) / geo.page_size;
}

uint64_t SsdConfig::logical_pages() const {
  uint64_t phys = geo.pages();
  if (hybrid() && slc_partition == "fixed" && slc_blocks_per_plane < geo.blocks_per_plane)
    phys = uint64_t(geo.planes()) * (geo.blocks_per_plane - slc_blocks_per_plane) *
           geo.pages_per_block;
  return static_cast<uint64_t>(static_cast<double>(phys) * (1.0 - overprovisioning));
}

json SsdConfig::to_json() const {
  json out = json::object();
  for (const auto& p : params()) {
    json* node = &out;
    std::string key = p.key;
    size_t pos;
    while ((pos = key.find('.')) != std::string::npos) {
      node = &(*node)[key.substr(0, pos)];
      key = key.substr(pos + 1);
    }
    (*node)[key] = p.get(*this);
  }
  return out;
}

// ws+rs's idle scope by default: die. Measured (docs/read-disturb.md "Idle scope: device or
// die"): with blocking refreshes it beats device on read mean and p99.99 on every workload of
// experiments/read-disturb; with preemptible ones and on the acceptance's real excerpts it is
// within a few percent of device.
std::string SsdConfig::default_rd_rs_scope() {
  return "die";
}

std::vector<std::string> SsdConfig::keys() {
  std::vector<std::string> k;
  for (const auto& p : params()) k.push_back(p.key);
  return k;
}

std::string SsdConfig::describe_keys() {
  SsdConfig def;
  std::ostringstream os;
  for (const auto& p : params())
    os << p.key << " = " << p.get(def).dump() << "  -- " << p.meaning << "\n";
  return os.str();
}

std::string find_preset(const std::string& name) {
  if (name.find('/') != std::string::npos ||
      (name.size() > 5 && name.rfind(".json") == name.size() - 5)) {
    if (file_exists(name)) return name;
    throw ConfigError(name + ": preset file not found");
  }
  // SSDTLM_CONFIG_DIR, then the installed layout next to the executable (PREFIX/bin/ssdtlm ->
  // PREFIX/share/ssdtlm/configs, where `cmake --install` puts them), then the source tree the
  // binary was built from, then build-tree layouts and ./configs.
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("SSDTLM_CONFIG_DIR")) dirs.push_back(env);
  // The executable's folder and its parents, without "..": PREFIX/bin -> PREFIX.
  std::string up1, up2;
  char exe[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = 0;
    std::string d(exe);
    up1 = d.substr(0, d.rfind('/'));
    up1 = up1.substr(0, up1.rfind('/'));
    up2 = up1.substr(0, up1.rfind('/'));
    dirs.push_back(up1 + "/share/ssdtlm/configs");
  }
#ifdef SSDTLM_SOURCE_CONFIG_DIR
  dirs.push_back(SSDTLM_SOURCE_CONFIG_DIR);
#endif
  if (!up1.empty()) {
    dirs.push_back(up1 + "/configs");
    dirs.push_back(up2 + "/configs");
  }
  dirs.push_back("configs");
  std::string looked;
  for (size_t i = 0; i < dirs.size(); ++i) {
    std::string p = dirs[i] + "/" + name + ".json";
    if (file_exists(p)) return p;
    if (std::find(dirs.begin(), dirs.begin() + i, dirs[i]) == dirs.begin() + i)
      looked += (looked.empty() ? "" : ", ") + p;
  }
  throw ConfigError("preset '" + name + "': not found (looked for " + looked + ")");
}

}  // namespace ssdtlm
