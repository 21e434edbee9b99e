#include "testbench/run_config.h"

#include <cstdio>

#include "controller/mqsim/mapping.h"

namespace ssdtlm::tb {

using nlohmann::json;

SsdConfig resolve_run_config(const RunOptions& opt, json& mqsim_record) {
  SsdConfig cfg;
  cfg.apply_file(find_preset(opt.preset));
  if (!opt.mqsim_config.empty()) {
    const mqsim::Mapping m = mqsim::read_config(opt.mqsim_config);
    mqsim_record = mqsim::apply(cfg, m);
    if (!opt.quiet_warnings) std::fputs(mqsim::unmapped_report(m).c_str(), stderr);
  }
  for (const auto& f : opt.config_files) cfg.apply_file(f);
  for (const auto& s : opt.sets) {
    auto eq = s.find('=');
    if (eq == std::string::npos) throw ConfigError("--set '" + s + "': expected key=value");
    const std::string key = s.substr(0, eq), val = s.substr(eq + 1);
    json v = json::parse(val, nullptr, false);
    if (v.is_discarded()) v = val;  // bare strings
    cfg.set(key, v, "--set");
  }
  if (opt.cache_mb) cfg.set("cache.size_mib", *opt.cache_mb, "--cache-mb");
  cfg.finalize();
  return cfg;
}

json checked_config(const SsdConfig& cfg, const json& mqsim_record) {
  json r = {{"config", cfg.to_json()}};
  if (!mqsim_record.is_null()) r["mqsim_config"] = mqsim_record;
  return r;
}

}  // namespace ssdtlm::tb
