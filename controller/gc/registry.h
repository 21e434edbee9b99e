// The GC policies by name. One table (kPolicies in controller/gc/policy.cpp) gives the factory
// (make_gc_policy), the choice list of the gc.policy key and the CLI's --gc help.
#pragma once

#include <string>
#include <vector>

namespace ssdtlm {

// The names gc.policy accepts, in the table's order.
const std::vector<std::string>& gc_policy_names();
// The same names joined by `sep` (help texts).
std::string gc_policy_names_joined(const char* sep = "|");

}  // namespace ssdtlm
