#include "controller/fsp/baseline_rw.h"

namespace ssdtlm {

int BaselineRwGrouper::select(const WriteCache& cache, int unit_pages, int32_t* out) {
  int n = 0;
  for (int32_t s = cache.lru_tail(); s >= 0 && n < unit_pages; s = cache.entry(s).newer)
    if (cache.entry(s).dirty) out[n++] = s;
  return n;
}

}  // namespace ssdtlm
