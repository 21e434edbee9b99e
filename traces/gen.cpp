#include "traces/gen.h"

#include <zlib.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <numeric>

namespace ssdtlm::traces {

// ------------------------------------------------------------------ size distributions
SizeDist parse_size_dist(const std::string& spec) {
  SizeDist d;
  auto bad = [&](const std::string& why) {
    throw TraceError("size distribution '" + spec + "': " + why);
  };
  auto parse_size = [&](std::string s) -> uint32_t {
    uint64_t mul = 1;
    if (!s.empty() && (s.back() == 'k' || s.back() == 'K')) {
      mul = 1024;
      s.pop_back();
    } else if (!s.empty() && (s.back() == 'm' || s.back() == 'M')) {
      mul = 1024 * 1024;
      s.pop_back();
    }
    uint64_t v = 0;
    auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size())
      bad("bad size '" + s + "'");
    v *= mul;
    if (v == 0 || v > (1u << 30)) bad("size must be in 1 B .. 1 GiB");
    return static_cast<uint32_t>(v);
  };
  size_t start = 0;
  while (start <= spec.size()) {
    size_t comma = spec.find(',', start);
    std::string item =
        spec.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (item.empty()) bad("empty item");
    size_t colon = item.find(':');
    double w = 1.0;
    if (colon != std::string::npos) {
      std::string ws = item.substr(colon + 1);
      char* end = nullptr;
      w = std::strtod(ws.c_str(), &end);
      if (ws.empty() || *end != '\0' || !(w >= 0) || !std::isfinite(w))
        bad("bad weight '" + ws + "'");
      item = item.substr(0, colon);
    }
    d.emplace_back(parse_size(item), w);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  double total = 0;
  for (auto& e : d) total += e.second;
  if (d.empty() || !(total > 0)) bad("weights must not all be zero");
  return d;
}

std::string format_size_dist(const SizeDist& d) {
  std::string s;
  for (const auto& [size, w] : d) {
    if (!s.empty()) s += ",";
    char b[64];
    std::snprintf(b, sizeof b, "%u:%g", size, w);
    s += b;
  }
  return s;
}

// ------------------------------------------------------------------ presets
namespace {
GenParams preset(double read_ratio, SizeDist rs, SizeDist ws, double footprint_gib, double zr,
                 double zw, double iops, double on_ms, double idle_ms,
                 const char* idle_dist = "exp") {
  GenParams p;
  p.read_ratio = read_ratio;
  p.read_size = std::move(rs);
  p.write_size = std::move(ws);
  p.footprint_bytes = static_cast<uint64_t>(footprint_gib * 1073741824.0) / 4096 * 4096;
  p.zipf_read = zr;
  p.zipf_write = zw;
  p.iops = iops;
  p.on_mean_ms = on_ms;
  p.idle_mean_ms = idle_ms;
  p.idle_dist = idle_dist;
  return p;
}
const SizeDist kSmall = {{4096, 60}, {8192, 20}, {16384, 15}, {32768, 5}};  // mean 8 KiB
}  // namespace

const std::vector<GenPreset>& gen_presets() {
  static const std::vector<GenPreset> v = {
      {"bench-mixed",
       "foundation benchmark: 65% writes, 8 KiB, Zipf 0.9 over 16 GiB, 50k IOPS Poisson",
       preset(0.35, {{8192, 1}}, {{8192, 1}}, 16, 0.9, 0.9, 50000, 0, 0)},
      {"hm0",
       "MSRC hm_0 (FSP Table II, SLC-hierarchy Table II): 35.5% reads, read 7.4 KB, write 8.3 KB,"
       " Int. ratio ~31%, ~2 GiB footprint, ~151 ms mean inter-arrival in bursts",
       preset(0.355, {{4096, 70}, {8192, 20}, {16384, 5}, {32768, 5}}, kSmall, 2.0, 0.8, 0.9, 1000,
              100, 15000)},
      {"ali121", "Alibaba 121 (FSP Table II): 78.2% reads, Int. footprint 77 MB = 4.5% of ~1.7 GiB",
       preset(0.782, {{4096, 50}, {8192, 20}, {16384, 20}, {65536, 10}}, kSmall, 1.7, 1.2, 0.8,
              5000, 200, 200)},
      {"websearch1",
       "UMass WebSearch1 (read-disturb Table 4): 99.9% reads, 15.1 KB reads, Hot R 90.8%, "
       "0.03 ms mean / 1 ms max inter-arrival",
       preset(0.999, {{8192, 50}, {16384, 30}, {32768, 20}}, {{8192, 1}}, 4.0, 1.1, 0.9, 33333, 0,
              0)},
      {"ads",
       "MSR ads (read-disturb Table 4): 90.5% reads, 31.5 KB reads, Hot R 13.7%, 5.7 ms mean "
       "inter-arrival",
       preset(0.905, {{4096, 30}, {16384, 30}, {65536, 40}}, kSmall, 8.0, 0.4, 0.6, 500, 50, 92.5)},
      {"usr0",
       "MSRC usr_0 (read-disturb Table 4, SLC-hierarchy Table II): 40.4% reads, read 40.9 KB, "
       "write 10.2 KB, 2.7 ms mean inter-arrival",
       preset(0.404, {{4096, 40}, {16384, 20}, {65536, 30}, {131072, 10}},
              {{4096, 55}, {8192, 20}, {16384, 15}, {65536, 10}}, 4.0, 0.9, 0.9, 1000, 50, 85)},
      {"lun1-1",
       "SYSTOR'17 VDI LUN (read-disturb Table 4): 76% reads, 28.9 KB reads, Hot R 0.02% "
       "(nearly uniform), 0.13 ms mean / 3.8 s max inter-arrival",
       preset(0.76, {{4096, 35}, {16384, 25}, {65536, 40}}, kSmall, 32.0, 0.0, 0.3, 10000, 500, 150,
              "pareto")},
      {"home1", "FIU home1 (GC Table 1): 99% writes, 8.08 KB, 85.6 ms mean inter-arrival (bursty)",
       preset(0.01, kSmall, kSmall, 4.0, 0.9, 0.9, 2000, 20, 3400, "pareto")},
      {"webmail", "FIU webmail (GC Table 1): 74% writes, 8 KB, 304 ms mean inter-arrival (bursty)",
       preset(0.26, {{8192, 1}}, {{8192, 1}}, 4.0, 0.9, 0.9, 2000, 20, 12100, "pareto")},
      {"msnfs", "MSN file server (GC Table 1): 67% writes, 21.7 KB, 0.74 ms mean inter-arrival",
       preset(0.33, {{4096, 40}, {16384, 30}, {65536, 30}}, {{4096, 40}, {16384, 30}, {65536, 30}},
              8.0, 0.9, 0.9, 5000, 20, 10.6)},
      {"rbesql", "RBE SQL (GC Table 1): 82% writes, 57.9 KB, 11.7 ms mean inter-arrival",
       preset(0.18, {{8192, 30}, {65536, 60}, {262144, 10}},
              {{8192, 30}, {65536, 60}, {262144, 10}}, 8.0, 0.9, 0.9, 1000, 20, 564)},
      {"oltp", "OLTP (GC Table 1): 99% writes, 4.46 KB, 84 us mean inter-arrival, little idle time",
       preset(0.01, {{4096, 90}, {8192, 10}}, {{4096, 90}, {8192, 10}}, 2.0, 0.9, 0.9, 11905, 0,
              0)},
      {"slc-pc",
       "SLC-RL slides PC: 1,029 MB address space, 66.7 KB mean, writes <=128K 29% / <=256K 23% / "
       "<=512K 27% / >512K 20% (read ratio not given: 30% assumed)",
       preset(0.3, {{4096, 50}, {65536, 50}},
              {{32768, 14.7}, {131072, 14.8}, {262144, 23.1}, {524288, 27.0}, {1048576, 20.4}}, 1.0,
              0.9, 0.9, 2000, 100, 100)},
      {"slc-phone",
       "SLC-RL slides Phone: 7,606 MB address space, 42.8 KB mean, writes <=128K 25% / >512K 72% "
       "(read ratio not given: 30% assumed)",
       preset(0.3, {{4096, 60}, {16384, 40}},
              {{16384, 25.2}, {262144, 1.5}, {524288, 1.8}, {1048576, 71.5}}, 7.4, 0.9, 0.9, 2000,
              100, 100)},
  };
  return v;
}

const GenPreset& find_gen_preset(const std::string& name) {
  for (const auto& p : gen_presets())
    if (name == p.name) return p;
  std::string names;
  for (const auto& p : gen_presets()) names += std::string(names.empty() ? "" : ", ") + p.name;
  throw TraceError("--preset: unknown preset '" + name + "' (known: " + names + ")");
}

void validate_gen_params(const GenParams& p) {
  auto bad = [](const std::string& m) { throw TraceError(m); };
  if (!(p.read_ratio >= 0 && p.read_ratio <= 1)) bad("--read-ratio: must be in 0..1");
  if (p.align < 512 || (p.align & (p.align - 1))) bad("--align: must be a power of two >= 512");
  if (p.footprint_bytes < p.align) bad("--footprint: must be at least one --align unit");
  for (const auto* d : {&p.read_size, &p.write_size}) {
    if (d->empty()) bad("--size: empty distribution");
    for (const auto& e : *d)
      if (e.first > p.footprint_bytes) bad("--size: larger than the footprint");
  }
  if (!(p.zipf_read >= 0 && p.zipf_read <= 10) || !(p.zipf_write >= 0 && p.zipf_write <= 10))
    bad("--zipf: must be in 0..10");
  if (!(p.iops > 0) || !std::isfinite(p.iops)) bad("--iops: must be positive");
  if (!(p.on_mean_ms >= 0) || !(p.idle_mean_ms >= 0)) bad("--on-mean-ms/--idle-mean-ms: >= 0");
  if (p.idle_mean_ms > 0 && !(p.on_mean_ms > 0))
    bad("--on-mean-ms: must be positive when --idle-mean-ms is set");
  if (p.pattern != "random" && p.pattern != "seq") bad("--pattern: must be random or seq");
  if (p.pattern == "seq" && p.hot_read_share > 0)
    bad("--hot-read-share: a hot-read set needs --pattern random");
  if (p.idle_dist != "exp" && p.idle_dist != "pareto" && p.idle_dist != "fixed")
    bad("--idle-dist: must be exp, pareto or fixed");
  if (!(p.hot_read_fraction >= 0 && p.hot_read_fraction <= 1) ||
      !(p.hot_read_share >= 0 && p.hot_read_share <= 1))
    bad("--hot-read-fraction/--hot-read-share: must be in 0..1");
}

// ------------------------------------------------------------------ generator
namespace {

// xoshiro256** seeded by splitmix64: identical streams on every platform.
struct Rng {
  uint64_t s[4];
  explicit Rng(uint64_t seed) {
    for (auto& x : s) {
      seed += 0x9E3779B97F4A7C15ull;
      uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      x = z ^ (z >> 31);
    }
  }
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t next() {
    uint64_t r = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return r;
  }
  double uniform() { return double(next() >> 11) * 0x1.0p-53; }  // [0,1)
  uint64_t below(uint64_t n) { return uint64_t((unsigned __int128)next() * n >> 64); }
  double exp(double mean) { return -mean * std::log1p(-uniform()); }
};

// Rejection-inversion Zipf sampler (Hoermann & Derflinger 1996), ranks 1..n, P(k) ~ k^-s.
class Zipf {
 public:
  Zipf(uint64_t n, double s) : n_(n), s_(s) {
    if (s_ > 0) {
      hx1_ = hint(1.5) - 1.0;
      hn_ = hint(double(n_) + 0.5);
      sp_ = 2.0 - hinv(hint(2.5) - h(2.0));
    }
  }
  uint64_t sample(Rng& r) const {  // 0-based rank
    if (s_ <= 0) return r.below(n_);
    for (;;) {
      double u = hn_ + r.uniform() * (hx1_ - hn_);
      double x = hinv(u);
      double kd = std::floor(x + 0.5);
      if (kd < 1) kd = 1;
      if (kd > double(n_)) kd = double(n_);
      uint64_t k = uint64_t(kd);
      if (kd - x <= sp_ || u >= hint(kd + 0.5) - h(kd)) return k - 1;
    }
  }

 private:
  static double helper1(double x) {
    return std::fabs(x) > 1e-8 ? std::log1p(x) / x : 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x));
  }
  static double helper2(double x) {
    return std::fabs(x) > 1e-8 ? std::expm1(x) / x : 1 + x * 0.5 * (1 + x / 3 * (1 + 0.25 * x));
  }
  double hint(double x) const {
    double lx = std::log(x);
    return helper2((1 - s_) * lx) * lx;
  }
  double h(double x) const { return std::exp(-s_ * std::log(x)); }
  double hinv(double x) const {
    double t = x * (1 - s_);
    if (t < -1) t = -1;
    return std::exp(helper1(t) * x);
  }
  uint64_t n_;
  double s_;
  double hx1_ = 0, hn_ = 0, sp_ = 0;
};

// rank -> chunk: an affine bijection of [0, n) so hot chunks are scattered over the footprint.
struct Scatter {
  uint64_t n, a, b;
  Scatter(uint64_t n_, Rng& r) : n(n_) {
    a = (r.next() % n) | 1;
    while (std::gcd(a, n) != 1) a += 2;
    a %= n;
    if (a == 0) a = 1;
    b = r.below(n);
  }
  uint64_t operator()(uint64_t k) const { return uint64_t(((unsigned __int128)a * k + b) % n); }
};

struct SizePicker {
  std::vector<uint32_t> size;
  std::vector<double> cum;
  explicit SizePicker(const SizeDist& d) {
    double t = 0;
    for (const auto& e : d) t += e.second;
    double c = 0;
    for (const auto& e : d) {
      c += e.second / t;
      size.push_back(e.first);
      cum.push_back(c);
    }
    cum.back() = 1.0;
  }
  uint32_t pick(Rng& r) const {
    if (size.size() == 1) return size[0];
    double u = r.uniform();
    size_t i = 0;
    while (i + 1 < cum.size() && u >= cum[i]) ++i;
    return size[i];
  }
};

}  // namespace

constexpr double kMaxGenTimeNs = 9e20;

struct Generator::Impl {
  GenParams p;
  Rng rng;
  uint64_t chunks;
  Zipf zr, zw;
  Scatter sr, sw;
  SizePicker rs, ws;
  uint64_t hot_chunks;
  uint64_t emitted = 0;
  double t_ns = 0;
  double on_end_ns = 0;
  uint64_t cursor[2] = {0, 0};  // --pattern seq: next read / write offset
  explicit Impl(const GenParams& q)
      : p(q),
        rng(q.seed),
        chunks(q.footprint_bytes / q.align),
        zr(chunks, q.zipf_read),
        zw(chunks, q.zipf_write),
        sr(chunks, rng),
        sw(q.same_hot_set ? sr : Scatter(chunks, rng)),
        rs(q.read_size),
        ws(q.write_size) {
    hot_chunks = uint64_t(double(chunks) * p.hot_read_fraction);
    if (p.hot_read_share > 0 && hot_chunks == 0) hot_chunks = 1;
    if (p.idle_mean_ms > 0) on_end_ns = rng.exp(p.on_mean_ms * 1e6);
  }
  double idle_gap() {
    double mean = p.idle_mean_ms * 1e6;
    if (p.idle_dist == "fixed") return mean;
    if (p.idle_dist == "pareto") {  // shape 1.5, scale chosen for the mean
      const double a = 1.5;
      double xm = mean * (a - 1) / a;
      return xm / std::pow(1.0 - rng.uniform(), 1.0 / a);
    }
    return rng.exp(mean);
  }
};

Generator::Generator(const GenParams& p) {
  validate_gen_params(p);
  impl_ = new Impl(p);
}
Generator::~Generator() {
  delete impl_;
}

bool Generator::next(TraceRecord& r) {
  Impl& g = *impl_;
  if (g.emitted >= g.p.requests) return false;
  if (g.emitted > 0) {
    double gap = g.rng.exp(1e9 / g.p.iops);
    if (g.p.idle_mean_ms > 0 && g.t_ns + gap > g.on_end_ns) {
      g.t_ns = g.on_end_ns + g.idle_gap();
      g.on_end_ns = g.t_ns + g.rng.exp(g.p.on_mean_ms * 1e6);
    } else {
      g.t_ns += gap;
    }
  }
  bool is_read = g.rng.uniform() < g.p.read_ratio;
  uint64_t chunk = 0;
  uint32_t size;
  const bool seq = g.p.pattern == "seq";
  if (seq) {
    size = is_read ? g.rs.pick(g.rng) : g.ws.pick(g.rng);
  } else if (is_read) {
    size = g.rs.pick(g.rng);
    if (g.hot_chunks > 0 && g.rng.uniform() < g.p.hot_read_share)
      chunk = g.sr(g.rng.below(g.hot_chunks));  // the hottest-ranked chunks, uniformly
    else
      chunk = g.sr(g.zr.sample(g.rng));
  } else {
    size = g.ws.pick(g.rng);
    chunk = g.sw(g.zw.sample(g.rng));
  }
  uint64_t off = chunk * g.p.align;
  if (seq) {  // each direction's cursor, aligned, wrapping at the footprint's end
    uint64_t& c = g.cursor[is_read ? 0 : 1];
    if (c + size > g.p.footprint_bytes) c = 0;
    off = c;
    c = (c + size + g.p.align - 1) / g.p.align * g.p.align;
  }
  if (off + size > g.p.footprint_bytes) off = (g.p.footprint_bytes - size) / g.p.align * g.p.align;
  // The MSRC writer's timestamps (FILETIME ticks from 2007) stay within a signed 64-bit
  // integer, which every reader takes: about 28,500 years of arrivals.
  if (!(g.t_ns <= kMaxGenTimeNs))
    throw TraceError("request " + std::to_string(g.emitted + 1) +
                     " arrives beyond the timestamp range (9e20 ns): raise --iops or lower "
                     "--idle-mean-ms");
  r.time_ns = uint64_t(g.t_ns);
  r.offset = off;
  r.size = size;
  r.device = g.p.device;
  r.is_read = is_read;
  ++g.emitted;
  return true;
}

// ------------------------------------------------------------------ MSRC CSV writer
uint64_t write_msrc_csv(const GenParams& p, const std::string& path) {
  Generator gen(p);
  return write_msrc_records([&gen](TraceRecord& r) { return gen.next(r); }, p.device, path);
}

uint64_t write_msrc_records(const std::function<bool(TraceRecord&)>& next, uint32_t device,
                            const std::string& path) {
  FILE* f = nullptr;
  gzFile gz = nullptr;
  bool to_stdout = path == "-";
  bool is_gz = path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
  if (to_stdout) {
    f = stdout;
  } else if (is_gz) {
    gz = gzopen(path.c_str(), "wb6");
    if (!gz) throw TraceError(path + ": cannot write");
  } else {
    f = std::fopen(path.c_str(), "wb");
    if (!f) throw TraceError(path + ": cannot write: " + std::strerror(errno));
  }
  constexpr size_t kBuf = 1 << 20;
  std::vector<char> buf(kBuf + 256);
  size_t len = 0;
  bool io_error = false;
  auto flush = [&]() {
    if (len == 0) return;
    if (gz) {
      if (gzwrite(gz, buf.data(), unsigned(len)) != int(len)) io_error = true;
    } else if (std::fwrite(buf.data(), 1, len, f) != len) {
      io_error = true;
    }
    len = 0;
  };
  // Windows FILETIME of 2007-02-22 00:00 UTC (the MSRC traces' week), in 100 ns ticks.
  const uint64_t base_ticks = 128166336000000000ull;
  char dev[16];
  auto dr = std::to_chars(dev, dev + sizeof dev, device);
  size_t devlen = size_t(dr.ptr - dev);
  TraceRecord r;
  uint64_t n = 0;
  // A generation error (arrivals beyond the timestamp range) or a write error leaves no partial
  // file behind.
  const auto discard = [&]() {
    if (gz)
      gzclose(gz);
    else if (!to_stdout)
      std::fclose(f);
    if (!to_stdout) std::remove(path.c_str());
  };
  try {
    while (next(r)) {
      char* o = buf.data() + len;
      o = std::to_chars(o, o + 24, base_ticks + r.time_ns / 100).ptr;
      std::memcpy(o, ",gen,", 5);
      o += 5;
      std::memcpy(o, dev, devlen);
      o += devlen;
      if (r.is_read) {
        std::memcpy(o, ",Read,", 6);
        o += 6;
      } else {
        std::memcpy(o, ",Write,", 7);
        o += 7;
      }
      o = std::to_chars(o, o + 24, r.offset).ptr;
      *o++ = ',';
      o = std::to_chars(o, o + 24, r.size).ptr;
      std::memcpy(o, ",0\n", 3);
      o += 3;
      len = size_t(o - buf.data());
      if (len >= kBuf) flush();
      ++n;
    }
  } catch (...) {
    discard();
    throw;
  }
  flush();
  if (gz) {
    if (gzclose(gz) != Z_OK) io_error = true;
  } else if (!to_stdout) {
    if (std::fclose(f) != 0) io_error = true;
  } else {
    std::fflush(f);
  }
  if (io_error) {
    if (!to_stdout) std::remove(path.c_str());
    throw TraceError(path + ": write error");
  }
  return n;
}

}  // namespace ssdtlm::traces
