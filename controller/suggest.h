// Close-match suggestions for misspelt names (options, configuration keys, MQSim parameters).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace ssdtlm {

// Levenshtein distance (insertions, deletions, substitutions) between a and b.
size_t edit_distance(const std::string& a, const std::string& b);

// The candidate closest to `name` if it is at most 2 edits away, or a third of `name`'s length;
// "" if none is (or `name` is itself a candidate).
std::string closest_name(const std::string& name, const std::vector<std::string>& candidates);

// " (did you mean 'x'?)" for the closest candidate, "" if none is close.
std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace ssdtlm
