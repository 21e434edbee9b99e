// ssdtlm gen --requests N --seed S --out FILE [...]: synthetic workload in MSRC CSV
// (docs/traces.md). Deterministic by seed; a preset sets defaults that options override.
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <string>

#include "testbench/cli_util.h"
#include "testbench/commands.h"
#include "traces/fio_workload.h"
#include "traces/gen.h"

namespace ssdtlm::tb {

namespace {
// gen --fio JOB --out F: the job file's workload; every other workload option is refused.
int gen_fio(const CLI::App& app, const std::string& fio, const std::string& out, bool quiet) {
  for (const CLI::Option* o : app.get_options()) {
    const std::string n = o->get_name();
    if (o->count() && n != "--fio" && n != "--out" && n != "--quiet") {
      std::fprintf(stderr, "ssdtlm gen: %s: not with --fio (the job file says the workload)\n",
                   n.c_str());
      return kExitUsage;
    }
  }
  if (out.empty()) {
    std::fprintf(stderr, "ssdtlm gen: --out FILE is required\n");
    return kExitUsage;
  }
  if (const int code = check_result_paths("ssdtlm gen", {{"--out", out}})) return code;
  try {
    const traces::FioJobFile job = traces::read_fio_job(fio);
    const uint64_t n = traces::write_fio_msrc_csv(job, out);
    bool rate = false;
    for (const auto& j : job.jobs) rate |= j.rate_limited();
    if (!quiet)
      std::fprintf(stderr, "ssdtlm gen: %llu requests -> %s from %s (%zu jobs, %s)\n",
                   (unsigned long long)n, out.c_str(), fio.c_str(), job.jobs.size(),
                   rate ? "arrivals at the jobs' rates"
                        : "arrival times 0: replay with run --closed-loop QD");
  } catch (const traces::TraceError& e) {
    std::fprintf(stderr, "ssdtlm gen: %s\n", e.what());
    return kExitBadInput;
  }
  return 0;
}

// --pattern seq: the options of random offsets are refused (they would change nothing).
int random_only(std::initializer_list<const CLI::Option*> opts) {
  for (const auto* o : opts)
    if (o->count()) {
      std::fprintf(stderr, "ssdtlm gen: %s: applies to --pattern random only\n",
                   o->get_name().c_str());
      return kExitUsage;
    }
  return 0;
}

// One line on stderr: what was written, how fast, with which parameters.
void print_summary(const traces::GenParams& p, uint64_t n, const std::string& out, double s,
                   const std::string& preset_name) {
  std::fprintf(stderr,
               "ssdtlm gen: %llu requests -> %s in %.2f s (%.2f M req/s); preset %s, seed "
               "%llu, read ratio %.3f, read sizes %s, write sizes %s, footprint %.3f GiB, "
               "zipf r/w %.2f/%.2f, %.0f IOPS while on, on %.1f ms, idle %.1f ms (%s)\n",
               (unsigned long long)n, out.c_str(), s, s > 0 ? double(n) / s / 1e6 : 0.0,
               preset_name.empty() ? "none" : preset_name.c_str(), (unsigned long long)p.seed,
               p.read_ratio, traces::format_size_dist(p.read_size).c_str(),
               traces::format_size_dist(p.write_size).c_str(),
               double(p.footprint_bytes) / 1073741824.0, p.zipf_read, p.zipf_write, p.iops,
               p.on_mean_ms, p.idle_mean_ms, p.idle_dist.c_str());
}

// --requests given as 0, no --out, or an --out that cannot be written: the exit code, else 0.
int check_count_and_out(bool requests_given, uint64_t requests, const std::string& out) {
  if (requests_given && requests == 0) {
    // (0 is the "not given" value: a given 0 wrote the default 100,000 requests)
    std::fprintf(stderr, "ssdtlm gen: --requests: must be at least 1\n");
    return kExitBadInput;
  }
  if (out.empty()) {
    std::fprintf(stderr, "ssdtlm gen: --out FILE is required\n");
    return kExitUsage;
  }
  return check_result_paths("ssdtlm gen", {{"--out", out}});
}

}  // namespace

int gen_main(int argc, char** argv) {
  CLI::App app{"Generate a synthetic block workload (MSRC CSV), deterministic by seed",
               "ssdtlm gen"};
  std::string out, preset_name, size, read_size, write_size, idle_dist;
  uint64_t requests = 0, seed = 1;
  double read_ratio = 0, footprint_gib = 0, footprint_mib = 0, zipf = 0, zipf_read = 0,
         zipf_write = 0, iops = 0, on_ms = 0, idle_ms = 0, hot_frac = 0, hot_share = 0;
  uint32_t align = 0, device = 0;
  bool same_hot = false, list = false, quiet = false;
  app.add_option("--out", out, "output file (MSRC CSV; .gz compresses; - = stdout)");
  auto* o_req = app.add_option("--requests", requests, "number of requests (default 100000)");
  app.add_option("--seed", seed, "random seed")->capture_default_str();
  app.add_option("--preset", preset_name, "start from a named preset (--list-presets)");
  app.add_flag("--list-presets", list, "list the presets and what they approximate");
  auto* o_rr = app.add_option("--read-ratio", read_ratio, "share of reads (0..1)");
  auto* o_size = app.add_option("--size", size,
                                "request size for reads and writes: BYTES or "
                                "SIZE:WEIGHT,... (k/m suffixes)");
  auto* o_rs = app.add_option("--read-size", read_size, "read size distribution (as --size)");
  auto* o_ws = app.add_option("--write-size", write_size, "write size distribution (as --size)");
  auto* o_fg = app.add_option("--footprint-gib", footprint_gib, "address range in GiB");
  auto* o_fm = app.add_option("--footprint-mib", footprint_mib, "address range in MiB");
  auto* o_al = app.add_option("--align", align, "offset alignment in bytes (power of two)");
  auto* o_z = app.add_option("--zipf", zipf, "Zipf exponent for reads and writes (0 = uniform)");
  auto* o_zr = app.add_option("--zipf-read", zipf_read, "Zipf exponent for reads");
  auto* o_zw = app.add_option("--zipf-write", zipf_write, "Zipf exponent for writes");
  auto* o_same = app.add_flag("--same-hot-set", same_hot,
                              "reads and writes share the hottest addresses (default: separate)");
  auto* o_hf = app.add_option("--hot-read-fraction", hot_frac,
                              "hot-read set: this fraction of the footprint ...");
  auto* o_hs = app.add_option("--hot-read-share", hot_share,
                              "... receives this share of the reads (uniformly)");
  auto* o_iops = app.add_option("--iops", iops, "arrival rate while ON (Poisson)");
  auto* o_on = app.add_option("--on-mean-ms", on_ms, "mean ON (burst) period, exponential");
  auto* o_idle =
      app.add_option("--idle-mean-ms", idle_ms, "mean idle gap between bursts (0 = none)");
  auto* o_id = app.add_option("--idle-dist", idle_dist, "idle gap distribution: exp|pareto|fixed");
  auto* o_dev = app.add_option("--device", device, "DiskNumber written in the CSV");
  std::string pattern, fio;
  auto* o_pat = app.add_option("--pattern", pattern,
                               "random (Zipf over the footprint) or seq (reads and writes each "
                               "advance sequentially, wrapping)");
  auto* o_fio = app.add_option("--fio", fio,
                               "generate the workload of a fio job file (docs/fio.md) instead; "
                               "no other workload option applies");
  app.add_flag("--quiet", quiet, "no summary on stderr");
  if (const int code = parse_command_line(app, argc, argv); code >= 0) return code;
  if (list) {
    for (const auto& p : traces::gen_presets()) std::printf("%-12s %s\n", p.name, p.source);
    return 0;
  }
  if (o_fio->count()) return gen_fio(app, fio, out, quiet);
  if (pattern == "seq")
    if (const int code = random_only({o_z, o_zr, o_zw, o_same, o_hf, o_hs})) return code;
  if (const int code = check_count_and_out(o_req->count() > 0, requests, out)) return code;
  try {
    traces::GenParams p;
    if (!preset_name.empty()) p = traces::find_gen_preset(preset_name).params;
    if (requests) p.requests = requests;
    p.seed = seed;
    if (o_rr->count()) p.read_ratio = read_ratio;
    if (o_size->count()) p.read_size = p.write_size = traces::parse_size_dist(size);
    if (o_rs->count()) p.read_size = traces::parse_size_dist(read_size);
    if (o_ws->count()) p.write_size = traces::parse_size_dist(write_size);
    // A footprint in bytes that fits 63 bits (a negative, NaN or huge value converted to an
    // integer wrapped: --footprint-gib -1 wrote offsets near 2^64).
    const auto bytes = [](const char* opt, double v, double unit) {
      if (!(v > 0) || !(v * unit <= 9.2e18))
        throw traces::TraceError(std::string(opt) + ": must be a positive size of at most 8 EiB");
      return uint64_t(v * unit);
    };
    if (o_fg->count()) p.footprint_bytes = bytes("--footprint-gib", footprint_gib, 1073741824.0);
    if (o_fm->count()) p.footprint_bytes = bytes("--footprint-mib", footprint_mib, 1048576.0);
    if (o_al->count()) p.align = align;
    if (p.align > 0) p.footprint_bytes = p.footprint_bytes / p.align * p.align;  // 0: refused
    if (o_z->count()) p.zipf_read = p.zipf_write = zipf;
    if (o_zr->count()) p.zipf_read = zipf_read;
    if (o_zw->count()) p.zipf_write = zipf_write;
    if (o_same->count()) p.same_hot_set = same_hot;
    if (o_hf->count()) p.hot_read_fraction = hot_frac;
    if (o_hs->count()) p.hot_read_share = hot_share;
    if (o_iops->count()) p.iops = iops;
    if (o_on->count()) p.on_mean_ms = on_ms;
    if (o_idle->count()) p.idle_mean_ms = idle_ms;
    if (o_id->count()) p.idle_dist = idle_dist;
    if (o_dev->count()) p.device = device;
    if (o_pat->count()) p.pattern = pattern;
    auto t0 = std::chrono::steady_clock::now();
    uint64_t n = traces::write_msrc_csv(p, out);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!quiet) print_summary(p, n, out, s, preset_name);
  } catch (const traces::TraceError& e) {
    std::fprintf(stderr, "ssdtlm gen: %s\n", e.what());
    return 1;
  }
  return 0;
}

}  // namespace ssdtlm::tb
