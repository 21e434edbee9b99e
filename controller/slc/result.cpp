// The hybrid core's results: the "slc" section of the result JSON, the SLC time series (CSV) and
// the drive-wide figures the replay reports (free blocks, wear, state memory).
#include <fstream>

#include "controller/slc/hybrid_core.h"

namespace ssdtlm::slc {

void HybridCore::reset_measurement() {
  ctr_.restart_measurement();
  const uint64_t peak = hc_.sector_entries_peak;  // a size, not a count of the measured span
  hc_ = HybridCounters{};
  hc_.sector_entries_peak = peak;
  busy_mark_ = hc_.busy_ps;  // the epoch in progress counts from here
  mark_replay_start();
}

void HybridCore::mark_replay_start() {
  if (native_gc_) native_gc_->restart_min_free();
}

void HybridCore::set_backend_factory(const rl::BackendFactory& f) {
  sizer_->set_backend_factory(f);
  if (native_gc_) native_gc_->policy().set_backend_factory(f);
  if (rd_) rd_->set_backend_factory(f);
}

uint64_t HybridCore::mapped_pages() const {
  return map_.mapped_sectors() / geo_.sectors_per_page();
}

uint64_t HybridCore::total_free_blocks() const {
  return map_.total_free_blocks();
}

uint32_t HybridCore::max_erase_count() const {
  return map_.max_erase_count();
}

uint64_t HybridCore::worn_blocks() const {
  return map_.worn_blocks(cfg_.erase_limit, cfg_.slc_erase_limit);
}

uint64_t HybridCore::state_bytes() const {
  return map_.state_bytes() + dram_.size() * 8 + host_written_.bytes();
}

nlohmann::json HybridCore::result_json(double sim_s) const {
  using nlohmann::json;
  const double us = 1e6;
  auto busy = [&](std::initializer_list<uint32_t> ps) {
    uint64_t t = 0;
    for (uint32_t p : ps) t += hc_.busy_ps[p];
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
       {{"slc_write", busy({kSlcWrite})},
        {"native_write", busy({kNativeWrite})},
        {"migration", busy({kMigRead, kMigWrite, kSlcErase})},
        {"native_gc", busy({kGcRead, kGcWrite, kNativeErase})},
        {"host_read", busy({kHostRead})},
        {"rmw_read", busy({kRmwRead})}}},
      {"write_latency_us",
       {{"slc", latency_json_us(lat_slc_)}, {"native", latency_json_us(lat_native_)}}},
      {"mapping_table",
       {{"page_table_bytes", logical_pages_ * 4},
        {"extra_bytes_model", extra},
        {"sector_entries_peak", hc_.sector_entries_peak},
        {"sector_entries_peak_bytes", hc_.sector_entries_peak * 5.5}}},
  };
  if (staging_) staging_->report(r);
  r["sizer"] = sizer_->stats();
  if (!idle()) {  // what is still outstanding (a stuck run is a bug: report it)
    json pl = json::array();
    for (uint32_t p = 0; p < geo_.planes(); ++p) {
      json o = migration_.plane_state(p);
      o["free"] = map_.free_native(p) + map_.free_slc_pool(p);
      o["slc_used"] = map_.plane(p).slc_used;
      pl.push_back(o);
    }
    json bj = json::array();
    for (const Job* j : blocked_)
      bj.push_back({{"purpose", j->purpose}, {"stream", j->stream}, {"npages", j->npages}});
    r["outstanding"] = {{"blocked", blocked_.size()},
                        {"blocked_jobs", bj},
                        {"jobs", jobs_inflight_},
                        {"ops", ops_in_flight()},
                        {"reserved_slc_pages", region_.reserved_pages()},
                        {"slc_free_pages", region_.free_pages()},
                        {"planes", pl}};
  }
  return r;
}

void HybridCore::write_series_csv(const std::string& path) const {
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
}

}  // namespace ssdtlm::slc
