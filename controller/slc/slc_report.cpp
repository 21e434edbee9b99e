// The SLC cache's epochs, time series and result: every slc.epoch_writes host write requests the
// SLC-size policy is fed the epoch's statistics (EpochStats, controller/slc/sizer.h) and sets new
// SLC targets; each epoch and each division window of the SLC cache mode adds a row to the time
// series (CSV); the "slc" section of the result JSON.
#include <fstream>

#include "controller/slc/hybrid_gc.h"
#include "controller/slc/migration.h"
#include "controller/slc/slc_cache.h"

namespace ssdtlm::slc {

void SlcCache::reset_measurement() {
  hc_ = HybridCounters{};
  busy_mark_ = hc_.busy_ps;  // the epoch in progress counts from here
}

void SlcCache::report(nlohmann::json& r, const ReportContext& ctx) const {
  r["cache"]["flush_policy"] = "write-through (hybrid SSD)";
  r["cache"]["pages"] = 0;
  r["cache"]["grouper"] = grouper_ ? std::string(grouper_->name()) +
                                         " (hybrid SSD: groups SLC-to-native migration units)"
                                   : std::string("none (hybrid SSD: writes go through to flash)");
  r["slc"] = result_json(ctx);
  if (grouper_) r["fsp"] = fsp_json(ctx);
}

double SlcCache::utilization() const {
  const uint64_t lsec = logical_pages_ * spp_;
  return lsec ? double(map_.mapped_sectors()) / double(lsec) : 0.0;
}

void SlcCache::end_epoch() {
  epoch_writes_ = 0;
  ep_.now = port_.now();
  ep_.utilization = utilization();
  ep_.mapped_sectors = map_.mapped_sectors();
  ep_.logical_sectors = logical_pages_ * spp_;
  ep_.valid_pages = map_.mapped_sectors() / spp_;
  ep_.slc_blocks = map_.slc_blocks();
  ep_.capacity_slc_blocks = static_cast<uint32_t>(region_.capacity_blocks());
  ep_.free_blocks = map_.total_free_blocks();
  auto delta = [&](OpOwner o) {
    const size_t p = static_cast<size_t>(o);
    return hc_.busy_ps[p] - busy_mark_[p];
  };
  ep_.t_slc_write = delta(OpOwner::FlushProgram);
  ep_.t_native_write = delta(OpOwner::NativeProgram);
  ep_.t_migration = delta(OpOwner::MigRead) + delta(OpOwner::MigProgram) + delta(OpOwner::MigErase);
  ep_.t_native_gc = delta(OpOwner::GcRead) + delta(OpOwner::GcProgram) + delta(OpOwner::GcErase);
  busy_mark_ = hc_.busy_ps;
  region_.set_targets(sizer_->on_epoch(ep_));
  // The decision unit's cycles delay the next host command (firmware waits for its answer).
  const uint64_t cyc = sizer_->take_cycles();
  pending_unit_cycles_ += cyc;
  unit_cycles_ += cyc;
  ep_ = EpochStats{};
  record_series();
  gc_->check_all();
}

void SlcCache::record_series() {
  if (series_.size() >= (1u << 20)) return;
  uint32_t l1 = 0;
  for (uint32_t p = 0; p < geo_.planes(); ++p) l1 += map_.plane(p).l1_used;
  series_.push_back(SeriesRow{double(port_.now()) / 1e9, ctr_.host_writes, map_.slc_blocks(),
                              region_.allowed(), region_.targets().theta_bytes / 1024, l1,
                              staging_ ? staging_->l2_share() : SlcStaging::initial_l2_share(cfg_),
                              utilization()});
}

nlohmann::json SlcCache::result_json(const ReportContext& ctx) const {
  const double sim_s = ctx.sim_s;
  using nlohmann::json;
  const double us = 1e6;
  auto busy = [&](std::initializer_list<OpOwner> ps) {
    uint64_t t = 0;
    for (OpOwner p : ps) t += hc_.busy_ps[static_cast<size_t>(p)];
    return double(t) / us;
  };
  // Mapping-table memory (SLC-hierarchy paper section IV-C): a page-level table for the whole
  // logical space (4 B per page) for every policy; Hierarchy adds its SMT for L1 (at most
  // slc.l1_max of the SLC region, 5.5 B per sector entry), Sector a sector table over the whole SLC
  // region (twice the SMT at l1_max 0.5). Page and SA add nothing (SA's size field is within
  // the entry).
  const uint64_t slc_sectors = uint64_t(region_.context().max_slc_blocks) * cfg_.slc_pages() * spp_;
  const double extra = staging_ ? staging_->extra_table_bytes(slc_sectors) : 0.0;
  json r = {
      {"policy", cfg_.slc_policy},
      {"size_policy", staging_ ? std::string(sizer_->name()) : std::string("none")},
      {"partition", cfg_.slc_partition},
      {"allocation", cfg_.slc_allocation},
      {"slc_blocks_end", map_.slc_blocks()},
      {"slc_allowed_blocks_end", region_.allowed()},
      {"max_slc_blocks", region_.context().max_slc_blocks},
      {"theta_kib_end", region_.targets().theta_bytes / 1024.0},
      {"pieces_to_slc", hc_.pieces_to_slc},
      {"pieces_to_native", hc_.pieces_to_native},
      {"slc_host_pages", hc_.slc_host_pages},
      {"native_host_pages", hc_.native_host_pages},
      {"packed_pages", hc_.packed_pages},
      {"packed_sectors", hc_.packed_sectors},
      {"padding_sectors", hc_.padding_sectors},
      {"rmw_reads", hc_.rmw_reads},
      {"dram_fills", hc_.dram_fills},
      {"host_flash_reads", hc_.host_flash_reads},
      {"slc_reads", hc_.slc_reads},
      {"dram_read_sectors", hc_.dram_read_sectors},
      {"write_back_mib", cfg_.slc_write_back_mib},
      {"write_back_writes", hc_.write_back_cmds},
      {"gc_reads", hc_.mig_reads + hc_.gc_reads},
      {"migration_reads", hc_.mig_reads},
      {"native_gc_reads", hc_.gc_reads},
      {"migration_pages", hc_.mig_pages},
      {"migration_bytes", hc_.mig_pages * uint64_t(geo_.page_size)},
      {"native_gc_pages", hc_.gc_pages},
      {"migration_victims", hc_.mig_victims},
      {"idle_migrations", hc_.idle_migrations},
      {"native_gc_victims", hc_.gc_victims},
      {"slc_erases", hc_.slc_erases},
      {"native_erases", hc_.native_erases},
      {"blocked_programs", hc_.blocked},
      {"sizer_unit_cycles", unit_cycles_},
      {"write_throughput_mib_s", sim_s > 0 ? double(ctr_.bytes_written) / sim_s / 1048576.0 : 0.0},
      {"busy_us",
       {{"slc_write", busy({OpOwner::FlushProgram})},
        {"native_write", busy({OpOwner::NativeProgram})},
        {"migration", busy({OpOwner::MigRead, OpOwner::MigProgram, OpOwner::MigErase})},
        {"native_gc", busy({OpOwner::GcRead, OpOwner::GcProgram, OpOwner::GcErase})},
        {"host_read", busy({OpOwner::HostRead})},
        {"rmw_read", busy({OpOwner::FlushRmw})}}},
      {"write_latency_us",
       {{"slc", latency_json_us(lat_slc_)}, {"native", latency_json_us(lat_native_)}}},
      {"mapping_table",
       {{"page_table_bytes", logical_pages_ * 4},
        {"extra_bytes_model", extra},
        {"sector_entries_peak", mapping_.sector_entries_peak()},
        {"sector_entries_peak_bytes", mapping_.sector_entries_peak() * 5.5}}},
  };
  if (staging_) staging_->report(r);
  r["sizer"] = sizer_->stats();
  if (!ctx.idle) {  // what is still outstanding (a stuck run is a bug: report it)
    json pl = json::array();
    for (uint32_t p = 0; p < geo_.planes(); ++p) {
      json o = gc_->plane_state(p);
      o["free"] = map_.free_native(p) + map_.free_slc_pool(p);
      o["slc_used"] = map_.plane(p).slc_used;
      pl.push_back(o);
    }
    json bj = json::array();
    for (const Job* j : blocked_)
      bj.push_back({{"purpose", static_cast<int>(j->purpose)},
                    {"stream", j->stream},
                    {"npages", j->npages}});
    r["outstanding"] = {{"blocked", blocked_.size()},
                        {"blocked_jobs", bj},
                        {"jobs", jobs_inflight_},
                        {"ops", ctx.ops_in_flight},
                        {"reserved_slc_pages", region_.reserved_pages()},
                        {"slc_free_pages", region_.free_pages()},
                        {"planes", pl}};
  }
  return r;
}

bool SlcCache::write_series_csv(const std::string& path) const {
  std::ofstream f(path);
  if (!f) throw ConfigError(path + ": cannot write the SLC time series");
  f << "time_ms,host_writes,slc_blocks,slc_target_blocks,theta_kib,l1_blocks,l2_blocks,"
       "l1_share,l2_share,utilization\n";
  for (const auto& r : series_) {
    const uint32_t l2 = r.slc_blocks > r.l1_blocks ? r.slc_blocks - r.l1_blocks : 0;
    f << r.t_ms << ',' << r.writes << ',' << r.slc_blocks << ',' << r.target << ',' << r.theta_kib
      << ',' << r.l1_blocks << ',' << l2 << ',' << 1.0 - r.ratio_l2 << ',' << r.ratio_l2 << ','
      << r.utilization << '\n';
  }
  return true;
}

}  // namespace ssdtlm::slc
