#include "controller/fsp_grouper.h"

#include <stdexcept>

namespace ssdtlm {

int BaselineGrouper::select(const WriteCache& cache, int unit_pages, int32_t* out) {
  int n = 0;
  for (int32_t s = cache.lru_tail(); s >= 0 && n < unit_pages; s = cache.entry(s).newer)
    out[n++] = s;
  return n;
}

std::unique_ptr<FspGrouper> make_fsp_grouper(const std::string& name) {
  if (name == "baseline") return std::make_unique<BaselineGrouper>();
  throw std::invalid_argument("unknown FSP grouper '" + name + "'");
}

}  // namespace ssdtlm
