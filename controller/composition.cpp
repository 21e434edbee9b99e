#include "controller/composition.h"

namespace ssdtlm {

// Policy families reach the core they were built for. A combination that has no mechanism to
// act on is refused, naming both options, instead of being ignored (docs/architecture.md).
void check_composition(const SsdConfig& cfg, const std::string& preset) {
  const std::string drive = "--preset " + preset;
  if (cfg.hybrid()) {
    // GC policies, wear leveling and read refresh (baseline, ipr, ws, ws+rs; preemptible or
    // not) are jobs of the native region's block-collection engine (controller/slc/hybrid_gc.h),
    // FSP groupers group the one-shot units of SLC migration (controller/slc/unit_grouping.h);
    // leveling's shadow blocks and Baseline-RW's read caching have no mechanism on the hybrid
    // drive (docs/slc.md, docs/fsp.md).
    if (cfg.fsp_grouper != "baseline") {
      const std::string fsp = "--fsp " + cfg.fsp_grouper + " (fsp.grouper) with " + drive;
      if (cfg.fsp_grouper == "baseline-rw")
        throw ConfigError(fsp +
                          " (hybrid SSD: its DRAM holds only written data not yet programmed, "
                          "so there is no read cache for Baseline-RW to fill; docs/fsp.md)");
      if (cfg.unit_pages() == 1)
        throw ConfigError(fsp +
                          " and nand.program_mode per_page (migration programs one page at "
                          "a time: there is no one-shot unit whose page types a grouper "
                          "could assign)");
      if (cfg.slc_policy == "none")
        throw ConfigError(fsp + " and --slc none (no SLC cache: no migration units to group)");
      if (cfg.fsp_window != SsdConfig{}.fsp_window)
        throw ConfigError("fsp.window with " + drive +
                          " (hybrid SSD: a migration unit's candidates are all of its victim's "
                          "pages; docs/fsp.md)");
      if (!cfg.fsp_rewrite_read_promotion || cfg.fsp_rewrite_when_full != "evict")
        throw ConfigError(std::string(cfg.fsp_rewrite_read_promotion
                                          ? "fsp.rewrite_when_full " + cfg.fsp_rewrite_when_full
                                          : "fsp.rewrite_read_promotion false") +
                          " with " + drive +
                          " (hybrid SSD: a rewrite re-stages the page in the SLC cache, or is "
                          "skipped when it has no free page; there is no DRAM cache; "
                          "docs/fsp.md)");
    }
    // Leveling hops a read-hot page into a shadow block: a block it opens outside the host's
    // rotation and fills page by page (Ftl::open_block, allocate_in). The hybrid's native blocks
    // are opened by the SLC cache's destination streams, and its moves are one-shot program jobs
    // of that cache (controller/slc/sector_mover.h): no block can be opened for a policy, nor a
    // move placed in one.
    if (cfg.rd_enabled && cfg.rd_policy == "leveling")
      throw ConfigError("--rr leveling (rd.policy) with " + drive +
                        " (hybrid SSD: leveling hops a read-hot page into a shadow block it opens "
                        "outside the host's rotation; the hybrid's native blocks are opened only "
                        "by the SLC cache's destination streams, which program its moves as "
                        "one-shot units, so there is no block to open for it; docs/slc.md)");
  } else if (cfg.fsp_grouper != "baseline" && cfg.fsp_grouper != "baseline-rw" &&
             cfg.unit_pages() == 1) {
    // Page-by-page programming: a page's type is its place in the block, not a choice (Baseline-
    // RW's read caching is a cache policy and stays meaningful).
    throw ConfigError("--fsp " + cfg.fsp_grouper + " (fsp.grouper) with " + drive +
                      " (it programs one page at a time: there is no one-shot unit whose page "
                      "types a grouper could assign; FSP needs full-sequence programming, e.g. "
                      "--preset qlc-fsp)");
  } else if (cfg.slc_size_policy != "static") {
    throw ConfigError("--slc-size " + cfg.slc_size_policy + " (slc.size_policy) with " + drive +
                      " (no SLC region: choose a hybrid preset or --slc page|sa|sector|hierarchy)");
  }
  // A policy option away from its default where its policy does not run would change nothing.
  auto refuse = [](const std::string& opt, const std::string& needs) {
    throw ConfigError(opt + " has no effect with " + needs);
  };
  if (cfg.gc_free_count != "plane" && cfg.gc_policy == "greedy")
    refuse("gc.free_count " + cfg.gc_free_count,
           "--gc greedy (gc.policy): only the partial policies count N_free");
  if (cfg.gc_rl_selection != "greedy" && cfg.gc_policy != "rl" && cfg.gc_policy != "rl-aggr")
    refuse("gc.rl_selection " + cfg.gc_rl_selection, "--gc " + cfg.gc_policy + " (gc.policy)");
  if (cfg.rd_refresh_preemptible && (!cfg.rd_enabled || cfg.rd_policy == "none"))
    refuse("rd.refresh_preemptible", "no read-refresh policy (--rr / rd.enabled, rd.policy)");
  const bool rl_fsp = cfg.fsp_grouper == "rl";
  if (cfg.fsp_bootstrap != "slot" && !rl_fsp)
    refuse("fsp.bootstrap " + cfg.fsp_bootstrap, "--fsp " + cfg.fsp_grouper + " (fsp.grouper)");
  if (cfg.fsp_episode_steps != 1000 && !rl_fsp)
    refuse("fsp.episode_steps " + std::to_string(cfg.fsp_episode_steps),
           "--fsp " + cfg.fsp_grouper + " (fsp.grouper)");
  if (cfg.fsp_rewrite_when_full != "evict" && !rl_fsp && cfg.fsp_grouper != "frequency")
    refuse("fsp.rewrite_when_full " + cfg.fsp_rewrite_when_full,
           "--fsp " + cfg.fsp_grouper + " (fsp.grouper): it never rewrites");
}

void check_fault_injection(const SsdConfig& cfg, const std::string& preset, bool integrity) {
  if (cfg.fault_gc_copy && cfg.hybrid())
    throw ConfigError("fault.gc_copy with " + preset +
                      " (a hybrid SSD: its GC and migrations do not go through the page-level "
                      "GC engine whose moves the fault corrupts)");
  if (cfg.fault_gc_copy && !integrity)
    throw ConfigError(
        "fault.gc_copy without --integrity (the injected corruption is of the data versions "
        "that only the data-integrity mode keeps)");
}

void check_precondition_mode(const SsdConfig& cfg, PreconditionMode mode,
                             const std::string& mode_name, const std::string& preset) {
  // The hybrid drive writes its preconditioning one page at a time (fill, then overwrites).
  if (cfg.hybrid() && (mode == PreconditionMode::Steady || mode == PreconditionMode::Fill))
    throw ConfigError("--precondition-mode " + mode_name + ": not available with --preset " +
                      preset + " (hybrid SSD: use auto or overwrite)");
}

}  // namespace ssdtlm
