// The configuration's key table (controller/config_keys.cpp): each key with its meaning, a setter
// that converts and range-checks a JSON value, and a getter for the resolved config. SsdConfig's
// set, to_json and describe_keys read it.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "controller/config.h"

namespace ssdtlm::config_keys {

struct Param {
  std::string key;
  std::string meaning;
  std::function<void(SsdConfig&, const nlohmann::json&, const std::string& where)> set;
  std::function<nlohmann::json(const SsdConfig&)> get;
};

const std::vector<Param>& params();
// The keys of the RL units' design knobs (controller/config_rl_keys.cpp), part of params().
std::vector<Param> rl_knob_params();

}  // namespace ssdtlm::config_keys
