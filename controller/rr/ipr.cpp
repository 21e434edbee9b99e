// In-place reprogramming (baselines.md 5): a block at the hard threshold moves its MSB data out
// and has its MSB word lines reprogrammed, turning TLC into MLC with 10x the read limit and 1/10
// the disturb, while the MLC quota (rd.shadow_fraction of the blocks) allows; otherwise it gets
// the full refresh.
#include "controller/config.h"
#include "controller/gc/policy.h"
#include "controller/rr/policies.h"

namespace ssdtlm {

IprRefresh::IprRefresh(const SsdConfig& cfg)
    : mlc_quota_(static_cast<uint32_t>(cfg.rd_shadow_fraction * cfg.geo.blocks())),
      reprog_left_(cfg.geo.planes(), 0) {}

bool IprRefresh::start_urgent(uint32_t b) {
  RefreshJobs& J = *jobs_;
  if (J.disturb().is_mlc(b) || J.stats().mlc_blocks >= mlc_quota_ || J.config().geo.bits() < 3)
    return J.start_full(b);
  ++J.stats().mlc_blocks;  // reserved for this block (released if the reprogram is abandoned)
  const bool started =
      J.start_job(b, J.config().geo.pages_per_block, J.urgent_prio(), RefreshJob::Ipr, true);
  if (!started) --J.stats().mlc_blocks;
  return started;
}

void IprRefresh::on_erase(uint64_t b) {
  if (jobs_->disturb().is_mlc(b)) --jobs_->stats().mlc_blocks;
}

void IprRefresh::begin_reprogram(uint32_t p) {
  RefreshJobs& J = *jobs_;
  const uint64_t b = static_cast<uint64_t>(J.engine().victim(p));
  const uint32_t bits = static_cast<uint32_t>(J.config().geo.bits());
  const Ppn first = J.config().geo.ppn_of(b, 0);
  bool msb_valid = false;
  for (uint32_t pg = bits - 1; pg < J.config().geo.pages_per_block && !msb_valid; pg += bits)
    msb_valid = J.store().page_valid(first + pg);
  if (msb_valid) {
    // A move found no room: the block stays TLC and waits for the next attempt (urgent queue).
    J.engine().release(p);
    --J.stats().mlc_blocks;
    ++J.stats().ipr_aborted;
    J.end_job(p);
    J.queue_urgent(static_cast<uint32_t>(b));
    J.engine().policy_idle(p);
    return;
  }
  // Reads of the block still in flight (issued before the moves) finish first; poll() retries.
  if (J.port().block_reads_busy(static_cast<uint32_t>(b))) return;
  // [INTERP] baselines.md 5: every word line's MSB page is reprogrammed in place, one program
  // operation of the MSB page type each (tPROG(MSB) on the die, foreground class unless
  // rd.refresh_preemptible, no data on the bus); the block turns MLC when the last one completes.
  J.set_job(p, RefreshJob::Reprogram);
  const uint32_t wordlines = J.store().written_pages(b) / bits;
  reprog_left_[p] = wordlines;
  if (wordlines == 0) {
    finish_reprogram(p);
    return;
  }
  for (uint32_t w = 0; w < wordlines; ++w) {
    FlashOp* op = J.port().new_op(FlashKind::Program, first + w * bits + bits - 1, 1,
                                  J.urgent_prio(), OpOwner::RdReprogram);
    op->no_transfer = true;
    ++J.counters().programs;  // flash.programs counts them; no page is programmed for data
    ++J.stats().reprogram_ops;
    J.stats().reprogram_time += J.config().timing.program(false, static_cast<int>(bits) - 1, 1);
    J.port().submit(op);
  }
}

void IprRefresh::on_reprogram_done(const FlashOp& op) {
  const uint32_t p = op.plane;
  if (reprog_left_[p] > 0 && --reprog_left_[p] == 0) finish_reprogram(p);
}

void IprRefresh::finish_reprogram(uint32_t p) {
  RefreshJobs& J = *jobs_;
  const uint64_t b = J.engine().release(p);
  // [INTERP] The block serves as MLC: reads count from zero, 10x the limit, 1/10 the disturb.
  J.disturb().set_mlc(b);
  J.unmark(b, kRefreshHard);
  ++J.stats().ipr_reprograms;
  J.end_job(p);
  J.engine_released(p);
}

}  // namespace ssdtlm
