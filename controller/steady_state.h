// Steady state of greedy GC under uniform random overwrites (fluid limit), used to precondition a
// drive into the state a long-running one converges to (docs/presets.md "Preconditioning").
//
// Model (Desnoyers, "Analytic modeling of SSD write performance", SYSTOR 2012; the large-block
// limit of Van Houdt's mean-field model that MQSim's preconditioning follows): with U valid pages
// in P = D x b pages of used blocks and uniform random overwrites, a block written at host-write
// time 0 still holds a fraction exp(-t/U) of valid pages at time t; greedy GC then collects
// blocks at the age where that fraction is u, so every host write costs 1/(1-u) programs, and
//     alpha = U / P = (1 - u) / (-ln u).
// Block ages are uniform over [0, -U ln u], so a used block's valid fraction is u^x with x
// uniform in [0, 1]. [interpretation: greedy behaves as FIFO in this limit; at finite block
// sizes greedy's victims are slightly emptier, so the WAF here is an upper estimate.]
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "controller/ftl.h"

namespace ssdtlm {

// Valid fraction u of greedy's victims for a used-block valid fraction alpha in [0, 1].
double greedy_victim_valid_fraction(double alpha);
// Expected steady-state write amplification 1 / (1 - u) (infinite as alpha -> 1).
double greedy_steady_waf(double alpha);

// The part of the "precondition" section both cores report: free blocks per plane (min, mean),
// the GC threshold and the planes below it. free_of(p): free blocks of plane p; below_of(p): plane
// p is below its GC threshold. The sum of free blocks goes to *free_sum when given.
template <typename FreeOf, typename BelowOf>
nlohmann::json free_blocks_state(uint32_t planes, FreeOf free_of, BelowOf below_of,
                                 uint32_t threshold, uint64_t* free_sum = nullptr) {
  uint32_t mn = UINT32_MAX, below = 0;
  uint64_t sum = 0;
  for (uint32_t p = 0; p < planes; ++p) {
    const uint32_t f = free_of(p);
    mn = f < mn ? f : mn;
    sum += f;
    below += below_of(p) ? 1 : 0;
  }
  if (free_sum) *free_sum = sum;
  return {{"free_blocks_per_plane", {{"min", mn}, {"mean", double(sum) / planes}}},
          {"gc_threshold_blocks", threshold},
          {"planes_below_gc_threshold", below}};
}

// A page-mapped drive after preconditioning (the result's "precondition" section): free blocks
// per plane (min, mean), the GC threshold, planes below it, the valid fraction of the used
// blocks and greedy GC's steady-state WAF at the drive's load.
nlohmann::json precondition_state(const Ftl& ftl);
// Valid-page counts of `blocks` used blocks of `pages_per_block` pages holding `valid` pages in
// all, distributed as in the steady state (block k at the quantile (k + 0.5) / blocks, oldest
// first); the counts add up to `valid` exactly. Requires valid <= blocks * pages_per_block.
std::vector<uint32_t> greedy_steady_block_counts(uint32_t blocks, uint32_t pages_per_block,
                                                 uint64_t valid);

}  // namespace ssdtlm
