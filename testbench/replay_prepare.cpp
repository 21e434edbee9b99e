// The passes over the trace before the replay: preconditioning, prefill and the measured start.
#include <chrono>
#include <cstdio>

#include "controller/composition.h"
#include "testbench/fio_run.h"
#include "testbench/prepass.h"
#include "testbench/replay_parts.h"

namespace ssdtlm::tb {
namespace {

using nlohmann::json;

// Warm-up requests are issued closed loop at this depth; the measured replay starts this long
// after the last of them completed (the write-back drains in between).
constexpr uint32_t kWarmupQd = 16;
constexpr Tick kWarmupGap = 100 * nand::kPsPerMs;

// Pre-pass over the trace: pages read before the trace ever writes them. `once`: the core's
// prefill() of a page already offered changes nothing (the page-mapped drive: the page is mapped
// now, or the drive was full and a failed fill leaves no trace), so each page is offered once.
// The hybrid drive's instant writes may run GC and count a failed prefill: it sees every read.
uint64_t prefill_unwritten(traces::TraceSource& src, Core& core, const SsdConfig& cfg, bool once) {
  const uint64_t logical = cfg.logical_pages();
  PagedArray<uint64_t> written((logical + 63) / 64, 0);  // written or offered to prefill()
  traces::TraceRecord r;
  uint64_t n = 0;
  const uint64_t ps = cfg.geo.page_size;
  while (src.next(r)) {
    ++n;
    const uint64_t first = r.offset / ps, last = (r.offset + r.size - 1) / ps;
    for (uint64_t p = first; p <= last; ++p) {
      const uint64_t lpn = p % logical;
      const uint32_t w = static_cast<uint32_t>(lpn / 64);
      const uint64_t bit = 1ull << (lpn % 64);
      if (r.is_read) {
        if (!(written.get(w) & bit)) {
          core.prefill(static_cast<Lpn>(lpn));
          if (once) written.at(w) |= bit;
        }
      } else {
        written.at(w) |= bit;
      }
    }
  }
  src.rewind();
  return n;
}

// One pass over the trace: the logical pages it writes and those it reads before writing them
// (bit l of word l / 64), and its request count.
struct TraceScan {
  PagedArray<uint64_t> written, read_first;
  uint64_t requests = 0;
};
TraceScan scan_trace(traces::TraceSource& src, const SsdConfig& cfg) {
  const uint64_t logical = cfg.logical_pages();
  TraceScan t{PagedArray<uint64_t>((logical + 63) / 64, 0),
              PagedArray<uint64_t>((logical + 63) / 64, 0), 0};
  traces::TraceRecord r;
  const uint64_t ps = cfg.geo.page_size;
  while (src.next(r)) {
    ++t.requests;
    const uint64_t first = r.offset / ps, last = (r.offset + r.size - 1) / ps;
    for (uint64_t p = first; p <= last; ++p) {
      const uint64_t lpn = p % logical;
      const uint32_t w = static_cast<uint32_t>(lpn / 64);
      const uint64_t bit = 1ull << (lpn % 64);
      if (!r.is_read)
        t.written.at(w) |= bit;
      else if (!(t.written.get(w) & bit))
        t.read_first.at(w) |= bit;
    }
  }
  src.rewind();
  return t;
}

PreconditionMode parse_mode(const std::string& m) {
  return m == "fill"        ? PreconditionMode::Fill
         : m == "overwrite" ? PreconditionMode::Overwrite
         : m == "steady"    ? PreconditionMode::Steady
                            : PreconditionMode::Auto;
}

// Writes the drive's state before the replay; returns the requests the pre-passes counted (0
// when none ran). `chosen`: the layout written (docs/results.md, precondition.mode_chosen).
uint64_t precondition(const RunOptions& opt, const SsdConfig& cfg, Core& core,
                      traces::TraceSource& pre_trace, traces::TraceSource& pre_replay,
                      const WarmupSource* warm, std::string& chosen) {
  uint64_t requests = 0;
  const PreconditionMode pmode = parse_mode(opt.precondition_mode);
  PreconditionSpec spec;
  spec.fraction = opt.precondition;
  spec.random_fraction = opt.precondition_random;
  spec.mode = pmode;
  std::unique_ptr<TraceScan> scan;
  if (cfg.hybrid()) {
    check_precondition_mode(cfg, pmode, opt.precondition_mode, opt.preset);
    // auto with random overwrites: they fall on the pages the trace writes (its steady state,
    // reached by timing-free greedy GC); overwrite: on any filled page.
    chosen = opt.precondition_random > 0 ? "overwrite" : "fill";
    if (pmode == PreconditionMode::Auto && opt.precondition_random > 0 && opt.precondition > 0) {
      scan = std::make_unique<TraceScan>(scan_trace(pre_trace, cfg));
      spec.hot = &scan->written;
      chosen = "overwrite-written";  // the random overwrites on the pages the trace writes
    }
    core.precondition(spec);
    if (cfg.unmapped_reads == "prefill") requests = prefill_unwritten(pre_replay, core, cfg, false);
    return requests;
  }
  const bool steady = pmode == PreconditionMode::Steady ||
                      (pmode == PreconditionMode::Auto && opt.precondition_random > 0);
  chosen = steady ? "steady" : pmode == PreconditionMode::Overwrite ? "overwrite" : "fill";
  if (steady) {
    // The steady state of this trace's writes: the pages it writes are the hot set; the pages
    // it reads before writing them are laid out with the rest (no prefill pass).
    scan = std::make_unique<TraceScan>(scan_trace(pre_trace, cfg));  // the trace, not the warm-up
    spec.mode = PreconditionMode::Steady;
    spec.hot = &scan->written;
    spec.read_first = &scan->read_first;
    core.precondition(spec);
    requests = scan->requests + (warm ? warm->warmup_records() : 0);
  } else {
    core.precondition(spec);
    // Pages the warm-up writes are not prefilled: the warm-up places them.
    if (cfg.unmapped_reads == "prefill") requests = prefill_unwritten(pre_replay, core, cfg, true);
  }
  return requests;
}

}  // namespace

void prepare_replay(const RunOptions& opt, const SsdConfig& cfg, models::Ssd& ssd,
                    ReplayTrace& trace, bool progress, ReplayState& state) {
  Core& core = ssd.ctrl.core();
  traces::TraceSource& replay_src = trace.replay();
  // The passes over the trace before the replay, with a progress line when they take a while.
  PrepassProgress pre_trace(*trace.recorded, progress), pre_replay(replay_src, progress);
  const auto t_pre0 = std::chrono::steady_clock::now();
  std::string chosen;
  uint64_t requests = precondition(opt, cfg, core, pre_trace, pre_replay, trace.warm.get(), chosen);
  if (trace.fio) fio_prefill(*trace.fio, core, cfg);  // the regions fio's jobs read hold data
  state.pre_state = core.precondition_state();
  state.pre_state["mode_chosen"] = opt.precondition > 0 ? json(chosen) : json("none");
  state.precondition_wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t_pre0).count();
  const json& pre = state.pre_state;
  core.mark_replay_start();
  if (pre["planes_below_gc_threshold"].get<uint32_t>() > 0 && !opt.quiet_warnings)
    std::fprintf(stderr,
                 "ssdtlm: warning: the replay starts with %u of %u planes below the GC threshold "
                 "(%u free blocks; fewest %u): GC runs from the first write\n",
                 pre["planes_below_gc_threshold"].get<uint32_t>(), cfg.geo.planes(),
                 pre["gc_threshold_blocks"].get<uint32_t>(),
                 pre["free_blocks_per_plane"]["min"].get<uint32_t>());
  // Erase counts at the start of the replay: the lifetime estimate counts the replay's wear only.
  std::vector<uint32_t>& erase_base = state.erase_base;
  if (opt.precondition > 0) {
    erase_base.resize(cfg.geo.blocks());
    for (uint64_t b = 0; b < cfg.geo.blocks(); ++b) erase_base[b] = core.mapping().erase_count(b);
  }
  // Warm-up: the host serves the first records unmeasured; at the first measured arrival the
  // counters restart (policy statistics keep counting: the warm-up is their training).
  if (trace.warm) {
    ssd.host.set_warmup(trace.warm->warmup_records(), kWarmupQd, kWarmupGap);
  } else if (opt.measure_last_pass) {
    if (requests == 0) {  // no pre-pass ran: count the records
      traces::TraceRecord rec;
      while (pre_replay.next(rec)) ++requests;
      replay_src.rewind();
    }
    ssd.host.set_warmup(requests - requests / opt.trace.loop, 0, 0);
  }
  pre_trace.finish();
  pre_replay.finish();
  const uint64_t blocks = cfg.geo.blocks();
  ssd.host.on_measure_start = [&ssd, &core, &erase_base, blocks](Tick t) {
    core.reset_measurement();
    ssd.dram.reset_measurement(t);
    for (auto& ch : ssd.channels) ch->reset_measurement();
    if (!erase_base.empty())
      for (uint64_t b = 0; b < blocks; ++b) erase_base[b] = core.mapping().erase_count(b);
  };
  ssd.host.set_expected_requests(requests);
  state.pre_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_pre0).count();
}

}  // namespace ssdtlm::tb
