// The simulated fio options: each one's value read as fio reads it (HOWTO, options.c) into the
// job. What they do is in fio_stream.cpp (offsets, sizes, directions) and fio_engine.cpp (depth,
// rate, think time, phases, latency target, steady state).
#include <algorithm>
#include <cmath>
#include <map>

#include "traces/fio_parse.h"

namespace ssdtlm::traces::fio {

void zoned_split(const OptionContext& ctx, const std::string& v, const std::string& post,
                 bool absolute);
void submission(const OptionContext& ctx, const std::string& key, const std::string& v);
void timing(const OptionContext& ctx, const std::string& key, const std::string& v);
void reporting(const OptionContext& ctx, const std::string& key, const std::string& v);

bool size_of(const OptionContext& ctx, const std::string& key, const std::string& v,
             uint64_t& out) {
  if (parse_fio_size(v, out, ctx.job.kb_base)) return true;
  ctx.bad(key, v, "not a size (e.g. 4096, 4k, 1m, 2g)");
  return false;
}

// A size, or a percentage of the drive ("50%"): pct > 0 then.
bool size_or_pct(const OptionContext& ctx, const std::string& key, const std::string& v,
                 uint64_t& out, double& pct) {
  pct = 0;
  if (!v.empty() && v.back() == '%') {
    double p = 0;
    if (!parse_double(v.substr(0, v.size() - 1), p) || !(p > 0 && p <= 100)) {
      ctx.bad(key, v, "a percentage of the drive in (0, 100]");
      return false;
    }
    pct = p;
    out = 0;
    return true;
  }
  return size_of(ctx, key, v, out);
}

bool u32_in(const OptionContext& ctx, const std::string& key, const std::string& v, uint64_t lo,
            uint64_t hi, uint32_t& out) {
  uint64_t n = 0;
  if (!parse_fio_size(v, n, ctx.job.kb_base)) {
    ctx.bad(key, v, "not an integer");
    return false;
  }
  if (n < lo || n > hi) {
    ctx.bad(key, v, "must be in " + std::to_string(lo) + ".." + std::to_string(hi));
    return false;
  }
  out = static_cast<uint32_t>(n);
  return true;
}

bool time_of(const OptionContext& ctx, const std::string& key, const std::string& v,
             uint64_t unit_ns, uint64_t& out) {
  if (parse_fio_time(v, unit_ns, out)) return true;
  ctx.bad(key, v, "not a time (a number with ns, us, ms, s, m, h or d)");
  return false;
}

bool flag_of(const OptionContext& ctx, const std::string& key, const std::string& v, bool& out) {
  if (v.empty()) {  // a bare flag
    out = true;
    return true;
  }
  if (parse_bool(v, out)) return true;
  ctx.bad(key, v, "expected 0 or 1");
  return false;
}

namespace {

using Handler = void (*)(const OptionContext&, const std::string&, const std::string&);

void rw(const OptionContext& ctx, const std::string& key, const std::string& v) {
  static const std::map<std::string, std::string> kRw = {
      {"read", "read"}, {"write", "write"},  {"randread", "randread"}, {"randwrite", "randwrite"},
      {"rw", "rw"},     {"readwrite", "rw"}, {"randrw", "randrw"}};
  const size_t colon = v.find(':');
  const std::string mode = lower(trim(v.substr(0, colon)));
  const auto it = kRw.find(mode);
  if (it == kRw.end()) {
    const bool trim_mode = mode.find("trim") != std::string::npos;
    ctx.bad(key, v,
            trim_mode ? "the drive model has no TRIM (deallocate) command"
                      : "expected read, write, randread, randwrite, rw (readwrite) or randrw");
    return;
  }
  FioJob& j = ctx.job;
  j.rw = it->second;
  j.random = j.rw.compare(0, 4, "rand") == 0;
  j.dir[0] = j.rw == "read" || j.rw == "randread" || j.rw == "rw" || j.rw == "randrw";
  j.dir[1] = j.rw == "write" || j.rw == "randwrite" || j.rw == "rw" || j.rw == "randrw";
  j.seq_nr = 1;
  j.seq_add = 0;
  if (colon == std::string::npos) return;
  const std::string post = trim(v.substr(colon + 1));
  const bool neg = !post.empty() && post[0] == '-';
  uint64_t n = 0;
  if (!parse_fio_size(neg ? post.substr(1) : post, n, j.kb_base) || n > (1ull << 40)) {
    ctx.bad(key, v, "the part after ':' must be a count (random) or a size (sequential)");
    return;
  }
  if (j.random) {
    if (neg || n == 0) return ctx.bad(key, v, "a random job's :N is a positive count");
    j.seq_nr = static_cast<uint32_t>(std::min<uint64_t>(n, UINT32_MAX));
  } else {
    j.seq_add = neg ? -static_cast<int64_t>(n) : static_cast<int64_t>(n);
  }
}

void rw_sequencer(const OptionContext& ctx, const std::string& key, const std::string& v) {
  const std::string m = lower(v);
  if (m != "sequential" && m != "identical")
    return ctx.bad(key, v, "expected sequential or identical");
  ctx.job.rw_seq_identical = m == "identical";
}

void rwmix(const OptionContext& ctx, const std::string& key, const std::string& v) {
  uint32_t p = 0;
  if (!u32_in(ctx, key, v, 0, 100, p)) return;
  const int d = key == "rwmixread" ? 0 : 1;
  ctx.job.rwmix[d] = p;
  ctx.job.rwmix[1 - d] = 100 - p;
}

void percentage_random(const OptionContext& ctx, const std::string& key, const std::string& v) {
  per_dir(ctx, key, v, [&](int d, const std::string& s) {
    u32_in(ctx, key, s, 0, 100, ctx.job.perc_random[d]);
  });
}

void bs(const OptionContext& ctx, const std::string& key, const std::string& v) {
  per_dir(ctx, key, v, [&](int d, const std::string& text) {
    std::string s = text;
    const size_t dash = s.find('-', 1);
    if (dash != std::string::npos) {  // fio reads the first size of "4k-16k" and no more
      s = trim(s.substr(0, dash));
      ctx.note(key + "-range", key + "=" + v + ": fio reads the first size only (" + s +
                                   "); bsrange=" + text + " draws sizes in the range");
    }
    uint64_t n = 0;
    if (!size_of(ctx, key, s, n)) return;
    if (n == 0 || n > (1u << 30)) return ctx.bad(key, v, "block sizes must be in 1 B .. 1 GiB");
    ctx.job.bs_min[d] = ctx.job.bs_max[d] = static_cast<uint32_t>(n);
    ctx.job.bssplit[d].clear();
  });
}

void bsrange(const OptionContext& ctx, const std::string& key, const std::string& v) {
  per_dir(ctx, key, v, [&](int d, const std::string& s) {
    const size_t sep = s.find_first_of("-:");
    uint64_t lo = 0, hi = 0;
    if (sep == std::string::npos) return ctx.bad(key, v, "expected MIN-MAX");
    if (!size_of(ctx, key, trim(s.substr(0, sep)), lo) ||
        !size_of(ctx, key, trim(s.substr(sep + 1)), hi))
      return;
    if (lo == 0 || hi > (1u << 30)) return ctx.bad(key, v, "block sizes must be in 1 B .. 1 GiB");
    if (lo > hi) return ctx.bad(key, v, "minimum above maximum");
    ctx.job.bs_min[d] = static_cast<uint32_t>(lo);
    ctx.job.bs_max[d] = static_cast<uint32_t>(hi);
    ctx.job.bssplit[d].clear();
  });
}

// bssplit=SIZE/PERC:SIZE/PERC...[,writes]: entries without a percentage share what is left;
// sorted by percentage (fio's order of lookup).
void bssplit(const OptionContext& ctx, const std::string& key, const std::string& v) {
  per_dir(ctx, key, v, [&](int d, const std::string& s) {
    std::vector<FioBsSplit> out;
    uint32_t given = 0, missing = 0;
    for (const std::string& e : split(s, ':')) {
      if (e.empty()) break;
      const size_t slash = e.find('/');
      uint64_t b = 0;
      if (!size_of(ctx, key, trim(e.substr(0, slash)), b)) return;
      if (b == 0 || b > (1u << 30)) return ctx.bad(key, v, "block sizes must be in 1 B .. 1 GiB");
      uint32_t p = UINT32_MAX;
      if (slash != std::string::npos && !trim(e.substr(slash + 1)).empty()) {
        uint64_t n = 0;
        if (!parse_u64(e.substr(slash + 1), n)) return ctx.bad(key, v, "'" + e + "': SIZE/PERCENT");
        p = n == 0 ? UINT32_MAX : static_cast<uint32_t>(std::min<uint64_t>(n, 100));
      }
      (p == UINT32_MAX ? missing : given) += p == UINT32_MAX ? 1 : p;
      out.push_back({static_cast<uint32_t>(b), p});
    }
    if (out.empty()) return ctx.bad(key, v, "no SIZE/PERCENT entry");
    if (given > 100 && missing > 1) return ctx.bad(key, v, "percentages add up to more than 100");
    if (missing == 1 && out.size() == 1) given = 100;
    for (auto& e : out)
      if (e.perc == UINT32_MAX) e.perc = given >= 100 ? 0 : (100 - given) / missing;
    std::stable_sort(out.begin(), out.end(),
                     [](const FioBsSplit& a, const FioBsSplit& b) { return a.perc < b.perc; });
    uint32_t lo = UINT32_MAX, hi = 0;
    for (const auto& e : out) lo = std::min(lo, e.bs), hi = std::max(hi, e.bs);
    ctx.job.bssplit[d] = out;
    ctx.job.bs_min[d] = lo;
    ctx.job.bs_max[d] = hi;
  });
}

void blockalign(const OptionContext& ctx, const std::string& key, const std::string& v) {
  per_dir(ctx, key, v, [&](int d, const std::string& s) {
    uint64_t n = 0;
    if (!size_of(ctx, key, s, n)) return;
    if (n == 0 || n > (1u << 30)) return ctx.bad(key, v, "must be in 1 B .. 1 GiB");
    ctx.job.ba[d] = static_cast<uint32_t>(n);
  });
}

void region(const OptionContext& ctx, const std::string& key, const std::string& v) {
  FioJob& j = ctx.job;
  if (key == "size") {
    if (size_or_pct(ctx, key, v, j.size, j.size_pct)) j.size_set = true;
    if (j.size_set && j.size == 0 && j.size_pct == 0) ctx.bad(key, v, "must be positive");
  } else if (key == "offset" || key == "fileoffset") {
    size_or_pct(ctx, key, v, j.offset, j.offset_pct);
  } else if (key == "io_size" || key == "io_limit") {
    size_of(ctx, key, v, j.io_size);
  } else if (key == "offset_increment") {
    size_of(ctx, key, v, j.offset_increment);
  } else if (key == "offset_align") {
    size_of(ctx, key, v, j.offset_align);
  } else if (key == "number_ios") {
    size_of(ctx, key, v, j.number_ios);
  } else if (key == "loops") {
    u32_in(ctx, key, v, 1, UINT32_MAX, j.loops);
  } else if (key == "fill_device" || key == "fill_fs") {
    flag_of(ctx, key, v, j.fill_device);
  } else if (key == "nrfiles" || key == "nr_files") {
    uint32_t n = 0;
    if (u32_in(ctx, key, v, 1, UINT32_MAX, n) && n != 1)
      ctx.bad(key, v, "several files per job: give each file's region its own job");
  }
}

void distribution(const OptionContext& ctx, const std::string& key, const std::string& v) {
  FioJob& j = ctx.job;
  const size_t colon = v.find(':');
  const std::string kind = lower(trim(v.substr(0, colon)));
  const std::string post = colon == std::string::npos ? "" : trim(v.substr(colon + 1));
  static const std::map<std::string, FioDist> kKinds = {
      {"random", FioDist::Random},      {"zipf", FioDist::Zipf},        {"pareto", FioDist::Pareto},
      {"normal", FioDist::Normal},      {"gauss", FioDist::Normal},     {"zoned", FioDist::Zoned},
      {"zoned_abs", FioDist::ZonedAbs}, {"sequence", FioDist::Sequence}};
  const auto it = kKinds.find(kind);
  if (it == kKinds.end())
    return ctx.bad(key, v, "expected random, zipf, pareto, normal, zoned, zoned_abs or sequence");
  j.dist = it->second;
  j.dist_center = -1;
  if (j.dist == FioDist::Zoned || j.dist == FioDist::ZonedAbs) {
    return zoned_split(ctx, v, post, j.dist == FioDist::ZonedAbs);
  }
  if (j.dist == FioDist::Sequence) {
    j.sequence.clear();
    for (const std::string& s : split(post, ',')) {
      uint64_t n = 0;
      if (!parse_u64(s, n) || n > UINT32_MAX) return ctx.bad(key, v, "'" + s + "': a block index");
      j.sequence.push_back(static_cast<uint32_t>(n));
    }
    if (post.empty() || j.sequence.size() > 4096)
      ctx.bad(key, v, "sequence:I,J,...: 1 to 4096 block indices");
    return;
  }
  double val = j.dist == FioDist::Zipf ? 1.1 : j.dist == FioDist::Pareto ? 0.2 : 0.0;
  if (!post.empty()) {
    const std::vector<std::string> p = split(post, ':');
    if (p.size() > 2 || !parse_double(p[0], val) ||
        (p.size() == 2 &&
         (!parse_double(p[1], j.dist_center) || j.dist_center < 0 || j.dist_center > 1)))
      return ctx.bad(key, v, "expected KIND:VALUE[:CENTER] with CENTER in [0, 1]");
  }
  if (j.dist == FioDist::Zipf && (val == 1.0 || !(val > 0)))
    return ctx.bad(key, v, "zipf's theta must be positive and not 1");
  if (j.dist == FioDist::Pareto && !(val > 0 && val < 1))
    return ctx.bad(key, v, "pareto's h must be in (0, 1)");
  if (j.dist == FioDist::Normal && !(val >= 0 && val < 100))
    return ctx.bad(key, v, "normal's deviation must be a percentage in [0, 100)");
  j.dist_param = val;
}

void random_opts(const OptionContext& ctx, const std::string& key, const std::string& v) {
  FioJob& j = ctx.job;
  if (key == "norandommap") {
    flag_of(ctx, key, v, j.norandommap);
  } else if (key == "random_sequence_stride") {
    flag_of(ctx, key, v, j.sequence_stride);
  } else if (key == "randseed") {
    if (!parse_u64(v, j.randseed)) ctx.bad(key, v, "not an integer");
  } else if (key == "randrepeat" || key == "allrandrepeat") {
    if (flag_of(ctx, key, v, j.randrepeat) && !j.randrepeat)
      ctx.note(key, key +
                        "=0: the simulation is repeatable, every run draws the same streams "
                        "(randseed=N chooses others)");
  }
}

const std::map<std::string, Handler>& handlers() {
  static const std::map<std::string, Handler> h = [] {
    std::map<std::string, Handler> m;
    for (const char* k : {"rw", "readwrite"}) m[k] = rw;
    m["rw_sequencer"] = rw_sequencer;
    for (const char* k : {"rwmixread", "rwmixwrite"}) m[k] = rwmix;
    m["percentage_random"] = percentage_random;
    for (const char* k : {"bs", "blocksize"}) m[k] = bs;
    for (const char* k : {"bsrange", "blocksize_range"}) m[k] = bsrange;
    m["bssplit"] = bssplit;
    for (const char* k : {"ba", "blockalign"}) m[k] = blockalign;
    for (const char* k :
         {"size", "offset", "fileoffset", "io_size", "io_limit", "offset_increment", "offset_align",
          "number_ios", "loops", "fill_device", "fill_fs", "nrfiles", "nr_files"})
      m[k] = region;
    m["random_distribution"] = distribution;
    for (const char* k :
         {"norandommap", "random_sequence_stride", "randseed", "randrepeat", "allrandrepeat"})
      m[k] = random_opts;
    for (const char* k :
         {"iodepth", "iodepth_low", "iodepth_batch_complete_min", "iodepth_batch_complete",
          "numjobs", "rate", "rate_iops", "rate_process", "io_submit_mode", "rate_ignore_thinktime",
          "thinktime", "thinktime_spin", "thinktime_blocks", "thinktime_blocks_type",
          "thinktime_iotime", "bs_unaligned", "blocksize_unaligned", "bs_is_seq_rand"})
      m[k] = submission;
    for (const char* k : {"runtime",
                          "timeout",
                          "time_based",
                          "ramp_time",
                          "ramp_size",
                          "startdelay",
                          "stonewall",
                          "wait_for_previous",
                          "new_group",
                          "wait_for",
                          "exitall",
                          "flow_id",
                          "flow",
                          "flow_sleep",
                          "latency_target",
                          "latency_window",
                          "latency_percentile",
                          "latency_run",
                          "max_latency",
                          "steadystate",
                          "ss",
                          "steadystate_duration",
                          "ss_dur",
                          "steadystate_ramp_time",
                          "ss_ramp",
                          "steadystate_check_interval",
                          "ss_interval"})
      m[k] = timing;
    for (const char* k :
         {"verify", "do_verify", "group_reporting", "disk_util", "clat_percentiles",
          "lat_percentiles", "slat_percentiles", "percentile_list", "unified_rw_reporting",
          "bwavgtime", "iopsavgtime", "kb_base", "name", "description"})
      m[k] = reporting;
    return m;
  }();
  return h;
}

}  // namespace

std::vector<std::string> simulated_option_names() {
  std::vector<std::string> v;
  for (const auto& h : handlers()) v.push_back(h.first);
  return v;
}

bool is_simulated(const std::string& key) {
  return handlers().count(key) > 0;
}

bool is_flag(const std::string& key) {
  static const char* const kFlags[] = {
      "time_based",   "norandommap",    "group_reporting", "stonewall",       "wait_for_previous",
      "new_group",    "thread",         "exitall",         "bs_unaligned",    "blocksize_unaligned",
      "zero_buffers", "refill_buffers", "verify_only",     "exitall_on_error"};
  return std::find(std::begin(kFlags), std::end(kFlags), key) != std::end(kFlags);
}

bool apply_simulated(const OptionContext& ctx, const std::string& key, const std::string& value,
                     bool /*has_value*/) {
  const auto it = handlers().find(key);
  if (it == handlers().end()) return false;
  it->second(ctx, key, value);
  return true;
}

}  // namespace ssdtlm::traces::fio
