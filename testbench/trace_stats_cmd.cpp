// ssdtlm trace-stats FILE [--json] [--records OUT]: workload statistics of a trace, and the
// records as the simulator reads them (docs/traces.md).
#include <CLI/CLI.hpp>
#include <cinttypes>
#include <cstdio>
#include <string>

#include "testbench/cli_util.h"
#include "testbench/commands.h"
#include "traces/drops.h"
#include "traces/options.h"
#include "traces/stats.h"
#include "traces/ties.h"

namespace ssdtlm::tb {

namespace {
std::string pct(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f%%", 100.0 * x);
  return b;
}
std::string num(double x, int prec = 2) {
  char b[48];
  std::snprintf(b, sizeof b, "%.*f", prec, x);
  return b;
}
std::string mib(double bytes) {
  return num(bytes / 1048576.0) + " MiB";
}

// The statistics as text on stdout.
void print_stats(const nlohmann::json& j, const traces::StatsParams& sp) {
  const auto& t = j["trace"];
  std::printf("trace            %s (%s%s, %s)\n", t["path"].get<std::string>().c_str(),
              t["format"].get<std::string>().c_str(),
              t["format_sniffed"].get<bool>() ? ", sniffed" : "",
              t["compression"].get<std::string>().c_str());
  std::printf("requests         %llu (%llu reads, %llu writes) over %s s\n",
              (unsigned long long)j["requests"].get<uint64_t>(),
              (unsigned long long)j["reads"].get<uint64_t>(),
              (unsigned long long)j["writes"].get<uint64_t>(),
              num(j["duration_s"].get<double>(), 3).c_str());
  std::printf("read ratio       %s of ops, %s of bytes\n", pct(j["read_ratio_ops"]).c_str(),
              pct(j["read_ratio_bytes"]).c_str());
  std::printf("mean size        read %s KiB, write %s KiB\n",
              num(j["mean_read_size_bytes"].get<double>() / 1024).c_str(),
              num(j["mean_write_size_bytes"].get<double>() / 1024).c_str());
  std::printf("footprint        %llu 4 KiB pages (%s) on %llu device(s)\n",
              (unsigned long long)j["footprint_4k_pages"].get<uint64_t>(),
              mib(j["footprint_bytes"].get<double>()).c_str(),
              (unsigned long long)j["devices"].get<uint64_t>());
  std::printf("Int. footprint   %s, Int. ratio %s (hottest reads serving 80%% of reads)\n",
              mib(j["int_footprint_bytes"].get<double>()).c_str(), pct(j["int_ratio"]).c_str());
  std::printf("Hot R            %s (read pages read >= 4 times)\n",
              pct(j["hot_read_ratio"]).c_str());
  std::printf("Concn R          %s of %llu blocks (%u x 4 KiB pages per block)\n",
              pct(j["concn_ratio"]).c_str(),
              (unsigned long long)j["concn_blocks_considered"].get<uint64_t>(), sp.pages_per_block);
  const auto& ia = j["interarrival_us"];
  std::printf("inter-arrival    mean %s us, median %s us, max %s us\n",
              num(ia["mean"].get<double>(), 3).c_str(), num(ia["median"].get<double>(), 3).c_str(),
              num(ia["max"].get<double>(), 3).c_str());
  std::printf("idle periods    ");
  for (const auto& b : j["idle_histogram"])
    std::printf(" %s:%llu", b["bin"].get<std::string>().c_str(),
                (unsigned long long)b["count"].get<uint64_t>());
  std::printf("\n");
  const auto& w = j["write_size_distribution"];
  std::printf("write sizes      <=128K %s, <=256K %s, <=512K %s, >512K %s\n",
              pct(w["le_128k"]).c_str(), pct(w["le_256k"]).c_str(), pct(w["le_512k"]).c_str(),
              pct(w["gt_512k"]).c_str());
  std::printf("partial pages    %s of writes, %s of updates (page %u B); updates %s of writes\n",
              pct(j["partial_page_write_ratio"]).c_str(),
              pct(j["partial_page_update_ratio"]).c_str(), sp.page_size,
              pct(j["update_write_ratio"]).c_str());
  std::printf("junk lines       %llu\n", (unsigned long long)j["junk_lines"].get<uint64_t>());
  for (const auto& e : t["junk_examples"])
    std::printf("                 %s\n", e["message"].get<std::string>().c_str());
  if (!t["transformations"].empty())
    std::printf("transformations  %s\n", t["transformations"].dump().c_str());
}

}  // namespace

int trace_stats_main(int argc, char** argv) {
  CLI::App app{
      "Workload statistics of a block trace (counting rule: a request touches every "
      "4 KiB page it overlaps; read accesses are counted per page touched)",
      "ssdtlm trace-stats"};
  traces::TraceOptions topt;
  traces::StatsParams sp;
  bool json = false;
  double capacity_gib = 0;
  std::string out_path, records_path;
  app.add_option("FILE", topt.path, "trace file (plain, .gz, .bz2, .zst)")->required();
  app.add_flag("--json", json, "print the statistics as JSON (stable keys, docs/traces.md)");
  app.add_option("--out", out_path, "also write the JSON to this file");
  app.add_option("--records", records_path,
                 "also write every record after the transformations as CSV "
                 "(time_ns,op,offset_bytes,size_bytes,device; op R or W; with a header)");
  app.add_option("--page-size", sp.page_size, "flash page size for the partial-page statistics")
      ->capture_default_str();
  app.add_option("--pages-per-block", sp.pages_per_block, "4 KiB pages per block for Concn R")
      ->capture_default_str();
  app.add_option("--concn-min-reads", sp.concn_min_reads,
                 "blocks with fewer page reads are left out of Concn R (0 = pages per block)")
      ->capture_default_str();
  app.add_option("--capacity-gib", capacity_gib, "device capacity for --fold (0 = none)")
      ->capture_default_str();
  traces::add_trace_options(app, topt);
  if (const int code = parse_command_line(app, argc, argv); code >= 0) return code;
  if (sp.page_size < 4096 || sp.pages_per_block < 1) {
    std::fprintf(stderr,
                 "ssdtlm trace-stats: --page-size must be >= 4096 and "
                 "--pages-per-block >= 1\n");
    return 2;
  }
  if (!(capacity_gib >= 0 && capacity_gib * 1073741824.0 <= 9.2e18)) {  // NaN fails too
    std::fprintf(stderr, "ssdtlm trace-stats: --capacity-gib must be in 0 .. 8 EiB (0 = none)\n");
    return 2;
  }
  if (const int code = check_result_paths("ssdtlm trace-stats",
                                          {{"--out", out_path}, {"--records", records_path}}))
    return code;
  if (records_path == "-") records_path = "/dev/stdout";
  nlohmann::json j;
  FILE* rec = nullptr;
  if (!records_path.empty()) {
    rec = std::fopen(records_path.c_str(), "w");
    if (!rec) {
      std::fprintf(stderr, "ssdtlm trace-stats: cannot write %s\n", records_path.c_str());
      return 1;
    }
    std::fputs("time_ns,op,offset_bytes,size_bytes,device\n", rec);
  }
  try {
    auto src = traces::open_trace(topt, static_cast<uint64_t>(capacity_gib * 1073741824.0));
    traces::TraceStats st(sp);
    traces::TraceRecord r;
    while (src->next(r)) {
      st.add(r);
      if (rec)
        std::fprintf(rec, "%" PRIu64 ",%c,%" PRIu64 ",%" PRIu32 ",%" PRIu32 "\n", r.time_ns,
                     r.is_read ? 'R' : 'W', r.offset, r.size, r.device);
    }
    j = st.result();
    nlohmann::json d = src->describe();
    j["junk_lines"] = d["junk_lines"];
    j["trace"] = d;
    std::fputs(traces::drop_warning(d).c_str(), stderr);
    std::fputs(traces::timing_warning(d, false).c_str(), stderr);
  } catch (const traces::TraceError& e) {
    if (rec) std::fclose(rec);
    std::fprintf(stderr, "ssdtlm trace-stats: %s\n", e.what());
    return 1;
  }
  if (rec && std::fclose(rec) != 0) {
    std::fprintf(stderr, "ssdtlm trace-stats: cannot write %s\n", records_path.c_str());
    return 1;
  }
  if (!out_path.empty()) {
    FILE* f = out_path == "-" ? stdout : std::fopen(out_path.c_str(), "w");
    if (!f) {
      std::fprintf(stderr, "ssdtlm trace-stats: cannot write %s\n", out_path.c_str());
      return 1;
    }
    std::string s = j.dump(2) + "\n";
    std::fwrite(s.data(), 1, s.size(), f);
    if (f == stdout) return std::fflush(stdout) == 0 ? 0 : 1;  // (--out -: the JSON is the output)
    if (std::fclose(f) != 0) {
      std::fprintf(stderr, "ssdtlm trace-stats: cannot write %s\n", out_path.c_str());
      return 1;
    }
  }
  if (json) {
    std::printf("%s\n", j.dump(2).c_str());
    return 0;
  }
  print_stats(j, sp);
  return 0;
}

}  // namespace ssdtlm::tb
