// The configuration keys of the RL units' design knobs, <prefix>.rl_<knob> (controller/rl/knobs.h,
// docs/rl.md "Design knobs"): one generator for the four units.
#include <cmath>
#include <sstream>
#include <type_traits>

#include "controller/config_keys.h"

namespace ssdtlm::config_keys {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& where, const std::string& key, const std::string& msg) {
  throw ConfigError(where + ": key '" + key + "': " + msg);
}

// The design knobs of the RL unit whose knobs are SsdConfig::*unit (controller/rl/knobs.h), as
// keys <prefix>.rl_<knob>; docs/rl.md "Design knobs".
// A number of [lo, hi] (an integer when `integral`), else a ConfigError naming the key.
double checked(const json& v, const std::string& where, const std::string& key, double lo,
               double hi, bool integral) {
  if (!v.is_number()) fail(where, key, "expected a number, got " + v.dump());
  const double d = v.get<double>();
  std::ostringstream why;
  if (integral && d != std::floor(d))
    why << "expected an integer, got " << v.dump();
  else if (!(d >= lo && d <= hi))
    why << "value " << v.dump() << " out of range [" << lo << ", " << hi << "]";
  if (!why.str().empty()) fail(where, key, why.str());
  return d;
}

template <typename T>
Param knob_num(const std::string& key, rl::Knobs SsdConfig::*unit, T rl::Knobs::*m, double lo,
               double hi, const std::string& meaning) {
  std::ostringstream mm;
  mm << meaning << " [" << lo << ", " << hi << "]";
  return Param{key, mm.str(),
               [=](SsdConfig& c, const json& v, const std::string& where) {
                 (c.*unit).*m =
                     static_cast<T>(checked(v, where, key, lo, hi, std::is_integral<T>::value));
               },
               [=](const SsdConfig& c) { return json((c.*unit).*m); }};
}

Param knob_choice(const std::string& key, rl::Knobs SsdConfig::*unit, std::string rl::Knobs::*m,
                  const std::vector<std::string>& allowed, const std::string& meaning) {
  std::string alts;
  for (const auto& a : allowed) alts += (alts.empty() ? "" : "|") + (a.empty() ? "paper" : a);
  return Param{key, meaning + ": " + alts,
               [=](SsdConfig& c, const json& v, const std::string& where) {
                 if (!v.is_string()) fail(where, key, "expected a string, got " + v.dump());
                 std::string s = v.get<std::string>();
                 if (s == "paper") s = "";
                 for (const auto& a : allowed)
                   if (a == s) {
                     (c.*unit).*m = s;
                     return;
                   }
                 fail(where, key, "'" + v.get<std::string>() + "' is not one of " + alts);
               },
               [=](const SsdConfig& c) {
                 const std::string& s = (c.*unit).*m;
                 return json(s.empty() ? "paper" : s);
               }};
}

void add_knobs(std::vector<Param>& p, const std::string& prefix, rl::Knobs SsdConfig::*u,
               bool own_alpha_gamma, const std::vector<std::string>& credits,
               const std::string& credit_meaning, const std::vector<std::string>& states = {},
               const std::string& state_meaning = "") {
  const std::string k = prefix + ".rl_";
  if (own_alpha_gamma) {
    p.push_back(knob_num(k + "alpha", u, &rl::Knobs::alpha, -1, 1,
                         "rl knob: step size (-1: the paper's 0.3)"));
    p.push_back(knob_num(k + "gamma", u, &rl::Knobs::gamma, -1, 1,
                         "rl knob: discount (-1: the paper's 0.8)"));
  }
  p.push_back(knob_choice(k + "alpha_decay", u, &rl::Knobs::alpha_decay, {"none", "visits", "time"},
                          "rl knob: step-size schedule, halving per doubling of an entry's "
                          "updates (visits) or every rl_alpha_period updates (time)"));
  p.push_back(knob_num(k + "alpha_min_shift", u, &rl::Knobs::alpha_min_shift, 0, 12,
                       "rl knob: a decaying step size stops at 2^-this"));
  p.push_back(knob_num(k + "alpha_period", u, &rl::Knobs::alpha_period, 1, (1 << 24) - 1,
                       "rl knob: time decay, updates per halving (a power of two)"));
  p.push_back(knob_num(k + "eps_period", u, &rl::Knobs::eps_period, 0, (1 << 24) - 1,
                       "rl knob: 0 the paper's epsilon schedule; else epsilon halves every this "
                       "many decisions (a power of two) down to rl_eps_low"));
  p.push_back(knob_num(k + "eps_low", u, &rl::Knobs::eps_low, -1, 1,
                       "rl knob: the schedule's low epsilon (-1: the paper's)"));
  p.push_back(knob_num(k + "q_bits", u, &rl::Knobs::q_bits, 8, 24,
                       "rl knob: q value width, sign included"));
  p.push_back(
      knob_num(k + "q_frac", u, &rl::Knobs::q_frac, 0, 23, "rl knob: q value fraction bits"));
  p.push_back(knob_num(k + "coef_bits", u, &rl::Knobs::coef_bits, 1, 12,
                       "rl knob: fraction bits of alpha and gamma"));
  p.push_back(knob_num(k + "baseline_shift", u, &rl::Knobs::baseline_shift, 0, 12,
                       "rl knob: 0 rewards as given; m: minus their exponential mean of weight "
                       "2^-m (advantage)"));
  if (prefix != "slc")
    p.push_back(knob_choice(k + "reward", u, &rl::Knobs::reward, {"percentile", "log"},
                            "rl knob: the reward unit's output, the paper's percentile classes, "
                            "or minus log2 of the response time in 1/8 octaves (log)"));
  if (credits.size() > 1)
    p.push_back(knob_choice(k + "credit", u, &rl::Knobs::credit, credits, credit_meaning));
  if (states.size() > 1)
    p.push_back(knob_choice(k + "state", u, &rl::Knobs::state, states, state_meaning));
}

}  // namespace

std::vector<Param> rl_knob_params() {
  std::vector<Param> v;
  add_knobs(v, "fsp", &SsdConfig::fsp_rl, true, {"", "read", "read-type"},
            "rl knob: a placed page's reward, the page-type term read or not plus its read's "
            "response time (paper), the same for read pages only (read), or a read page's "
            "type by its read speed alone (read-type)");
  add_knobs(v, "gc", &SsdConfig::gc_rl, true, {"", "step"},
            "rl knob: a decision's reward, the next request's latency (paper) or the worst of "
            "the requests that arrived while its step ran (step)",
            {"", "free"},
            "rl knob: the state, previous interval x current interval x previous action "
            "(paper), or the die's free blocks (4 bins) x current interval (free)");
  add_knobs(v, "rd", &SsdConfig::rd_rl, true, {""}, "");
  add_knobs(v, "slc", &SsdConfig::slc_rl, false, {""}, "");
  return v;
}

}  // namespace ssdtlm::config_keys
