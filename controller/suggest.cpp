#include "controller/suggest.h"

#include <algorithm>
#include <cstdint>

namespace ssdtlm {

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string closest_name(const std::string& name, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_d = SIZE_MAX;
  for (const std::string& c : candidates) {
    const size_t d = edit_distance(name, c);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  const size_t limit = std::max<size_t>(2, name.size() / 3);
  return best_d > 0 && best_d <= limit ? best : std::string();
}

std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates) {
  const std::string near = closest_name(name, candidates);
  return near.empty() ? std::string() : " (did you mean '" + near + "'?)";
}

}  // namespace ssdtlm
