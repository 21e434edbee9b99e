#include "controller/fsp/grouper.h"

#include <stdexcept>

#include "controller/fsp/baseline_rw.h"
#include "controller/fsp/distance.h"
#include "controller/fsp/frequency.h"
#include "controller/fsp/rl.h"

namespace ssdtlm {

int BaselineGrouper::select(const WriteCache& cache, int unit_pages, int32_t* out) {
  int n = 0;
  for (int32_t s = cache.lru_tail(); s >= 0 && n < unit_pages; s = cache.entry(s).newer)
    out[n++] = s;
  return n;
}

std::unique_ptr<FspGrouper> make_fsp_grouper(const std::string& name) {
  if (name == "baseline") return std::make_unique<BaselineGrouper>();
  if (name == "baseline-rw") return std::make_unique<BaselineRwGrouper>();
  if (name == "frequency") return std::make_unique<FrequencyGrouper>();
  if (name == "distance") return std::make_unique<DistanceGrouper>();
  if (name == "rl") return std::make_unique<RlGrouper>();
  throw std::invalid_argument("unknown FSP grouper '" + name + "'");
}

}  // namespace ssdtlm
