// Shared pieces of the FSP groupers (docs/fsp.md): the candidate window at the LRU tail and the
// Group module's assignment rule (FSP paper Section III-C, Fig. 7).
#pragma once

#include <cstdint>
#include <vector>

#include "controller/write_cache.h"

namespace ssdtlm::fsp {

// Candidate window: the `fraction` of the cache's pages nearest the LRU tail (the paper's 5%),
// at least one unit.
uint32_t window_pages(uint64_t cache_pages, double fraction, int unit_pages);

// Long-term read-count class of the paper (Section III-B): 0-1 -> 0, 2-3 -> 1, 4-5 -> 2, >5 -> 3.
inline uint32_t read_bin(uint32_t count) {
  return count > 5 ? 3 : count / 2;
}

// Group module. cand[0..n) are candidate slots ordered from the LRU tail, cls[k] the page type
// each candidate was classified to (0 = LSB .. unit_pages-1). For every type the candidate
// nearest the tail classified to it is taken; a type without candidate takes, among the
// candidates not yet taken, the one nearest the tail whose class is nearest to the missing type
// (distance 1 first: the neighbouring types of Fig. 7; then 2, ...). Types are filled from LSB
// up. Returns the number of slots written to out (min(n, unit_pages)).
int group_by_class(const int32_t* cand, const uint8_t* cls, int n, int unit_pages, int32_t* out);

// A grouper's candidate buffers: slots from the LRU tail and the class each was given.
struct Candidates {
  std::vector<int32_t> cand;
  std::vector<uint8_t> cls;
  // Makes room for the window of `cache` and returns its size in pages (window_pages).
  uint32_t prepare(const WriteCache& cache, double fraction, int unit_pages) {
    const uint32_t w = window_pages(cache.capacity(), fraction, unit_pages);
    if (cand.size() < w) {
      cand.resize(w);
      cls.resize(w);
    }
    return w;
  }
  // Class of a candidate from its class among four (page types of QLC) for a unit of `unit_pages`.
  static uint8_t scaled(uint32_t c4, int unit_pages) {
    return static_cast<uint8_t>(unit_pages == 4 ? c4 : c4 * unit_pages / 4);
  }
  int group(int n, int unit_pages, int32_t* out) const {
    return group_by_class(cand.data(), cls.data(), n, unit_pages, out);
  }
};

}  // namespace ssdtlm::fsp
