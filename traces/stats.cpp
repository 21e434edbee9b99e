#include "traces/stats.h"

#include <algorithm>
#include <map>

namespace ssdtlm::traces {

namespace {
constexpr uint64_t kPage = 4096;

inline uint64_t mix(uint32_t device, uint64_t page) {
  uint64_t h = page * 0x9E3779B97F4A7C15ull ^
               (uint64_t{device} + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 32;
  return h;
}

// Idle-period histogram bins (upper bounds in ns; the last is open).
constexpr uint64_t kIdleBounds[] = {100000ull,    1000000ull,    10000000ull,
                                    100000000ull, 1000000000ull, 10000000000ull};
constexpr const char* kIdleNames[] = {"<100us",   "100us-1ms", "1ms-10ms", "10ms-100ms",
                                      "100ms-1s", "1s-10s",    ">=10s"};
}  // namespace

TraceStats::TraceStats(StatsParams p) : p_(p), table_(1 << 16) {
  if (p_.page_size < kPage) p_.page_size = kPage;
  if (p_.pages_per_block < 1) p_.pages_per_block = 1;
}

void TraceStats::grow() {
  std::vector<Slot> old(table_.size() * 2);
  old.swap(table_);
  const uint64_t mask = table_.size() - 1;
  for (const Slot& s : old) {
    if (!s.used) continue;
    uint64_t i = mix(s.device, s.page) & mask;
    while (table_[i].used) i = (i + 1) & mask;
    table_[i] = s;
  }
}

TraceStats::Slot& TraceStats::slot(uint32_t device, uint64_t page) {
  if ((table_used_ + 1) * 10 > table_.size() * 7) grow();
  const uint64_t mask = table_.size() - 1;
  uint64_t i = mix(device, page) & mask;
  for (;;) {
    Slot& s = table_[i];
    if (!s.used) {
      s.used = 1;
      s.device = device;
      s.page = page;
      ++table_used_;
      return s;
    }
    if (s.page == page && s.device == device) return s;
    i = (i + 1) & mask;
  }
}

void TraceStats::add(const TraceRecord& r) {
  ++requests_;
  if (have_last_) {
    gaps_.push_back(r.time_ns >= last_t_ ? r.time_ns - last_t_ : 0);
  } else {
    first_t_ = r.time_ns;
    have_last_ = true;
  }
  last_t_ = r.time_ns;
  if (r.size == 0) return;
  uint64_t first = r.offset / kPage;
  uint64_t last = (r.offset + r.size - 1) / kPage;
  if (r.is_read) {
    ++reads_;
    read_bytes_ += r.size;
    for (uint64_t pg = first; pg <= last; ++pg) {
      Slot& s = slot(r.device, pg);
      if (s.reads < UINT32_MAX) ++s.reads;
      ++read_accesses_;
    }
  } else {
    ++writes_;
    write_bytes_ += r.size;
    const uint64_t kib = 1024;
    int b = r.size <= 128 * kib ? 0 : r.size <= 256 * kib ? 1 : r.size <= 512 * kib ? 2 : 3;
    ++wsize_buckets_[b];
    bool partial = (r.offset % p_.page_size) != 0 || (r.size % p_.page_size) != 0;
    bool update = false;
    for (uint64_t pg = first; pg <= last; ++pg) {
      Slot& s = slot(r.device, pg);
      if (s.writes) update = true;
      if (s.writes < UINT32_MAX) ++s.writes;
    }
    if (partial) ++partial_writes_;
    if (update) ++updates_;
    if (update && partial) ++partial_updates_;
  }
}

namespace {
struct BlockPage {
  uint32_t device;
  uint64_t block;
  uint32_t reads;
};
}  // namespace

// Concn R: blocks whose reads are concentrated (>= 2/3 of the block's reads on < 20% of its
// pages). Returns the blocks considered and the concentrated ones among them.
static std::pair<uint64_t, uint64_t> concentration(std::vector<BlockPage>& bp,
                                                   const StatsParams& p) {
  std::sort(bp.begin(), bp.end(), [](const BlockPage& a, const BlockPage& b) {
    if (a.device != b.device) return a.device < b.device;
    if (a.block != b.block) return a.block < b.block;
    return a.reads > b.reads;
  });
  uint64_t considered = 0, concentrated = 0;
  const uint64_t min_reads = p.concn_min_reads ? p.concn_min_reads : p.pages_per_block;
  for (size_t i = 0; i < bp.size();) {
    size_t e = i;
    uint64_t total = 0;
    while (e < bp.size() && bp[e].device == bp[i].device && bp[e].block == bp[i].block)
      total += bp[e++].reads;
    if (total >= min_reads) {
      ++considered;
      uint64_t c = 0, pages = 0;
      for (size_t q = i; q < e && c * 3 < total * 2; ++q) {
        c += bp[q].reads;
        ++pages;
      }
      if (pages * 5 < p.pages_per_block) ++concentrated;  // pages < 20% of the block
    }
    i = e;
  }
  return {considered, concentrated};
}

// Inter-arrival times and idle periods ("interarrival_us", "idle_histogram").
static void interarrival_stats(nlohmann::json& j, const std::vector<uint64_t>& gaps) {
  nlohmann::json ia;
  if (gaps.empty()) {
    ia = {{"mean", 0.0}, {"median", 0.0}, {"max", 0.0}};
  } else {
    std::vector<uint64_t> g(gaps);
    uint64_t sum = 0, mx = 0;
    for (uint64_t x : g) {
      sum += x;
      mx = std::max(mx, x);
    }
    size_t n = g.size();
    std::nth_element(g.begin(), g.begin() + n / 2, g.end());
    double med = double(g[n / 2]);
    if (n % 2 == 0) {
      uint64_t lo = *std::max_element(g.begin(), g.begin() + n / 2);
      med = (med + double(lo)) / 2;
    }
    ia = {
        {"mean", double(sum) / double(n) / 1e3}, {"median", med / 1e3}, {"max", double(mx) / 1e3}};
  }
  j["interarrival_us"] = ia;
  uint64_t idle_count[7] = {0}, idle_ns[7] = {0};
  for (uint64_t x : gaps) {
    int b = 0;
    while (b < 6 && x >= kIdleBounds[b]) ++b;
    ++idle_count[b];
    idle_ns[b] += x;
  }
  nlohmann::json hist = nlohmann::json::array();
  for (int b = 0; b < 7; ++b)
    hist.push_back({{"bin", kIdleNames[b]},
                    {"min_us", b == 0 ? 0.0 : double(kIdleBounds[b - 1]) / 1e3},
                    {"max_us", b == 6 ? nullptr : nlohmann::json(double(kIdleBounds[b]) / 1e3)},
                    {"count", idle_count[b]},
                    {"total_s", double(idle_ns[b]) / 1e9}});
  j["idle_histogram"] = hist;
}

nlohmann::json TraceStats::result() const {
  nlohmann::json j;
  auto ratio = [](double a, double b) { return b > 0 ? a / b : 0.0; };
  j["requests"] = requests_;
  j["reads"] = reads_;
  j["writes"] = writes_;
  j["read_bytes"] = read_bytes_;
  j["write_bytes"] = write_bytes_;
  j["read_ratio_ops"] = ratio(double(reads_), double(requests_));
  j["read_ratio_bytes"] = ratio(double(read_bytes_), double(read_bytes_ + write_bytes_));
  j["mean_read_size_bytes"] = ratio(double(read_bytes_), double(reads_));
  j["mean_write_size_bytes"] = ratio(double(write_bytes_), double(writes_));
  j["duration_s"] = requests_ ? double(last_t_ - first_t_) / 1e9 : 0.0;

  // Footprints and read-count based statistics.
  uint64_t footprint = 0, read_pages = 0, write_pages = 0, hot = 0;
  std::map<uint32_t, uint64_t> by_device;
  std::vector<uint32_t> counts;
  std::vector<BlockPage> bp;
  for (const Slot& s : table_) {
    if (!s.used) continue;
    ++footprint;
    ++by_device[s.device];
    if (s.writes) ++write_pages;
    if (s.reads) {
      ++read_pages;
      if (s.reads >= p_.hot_reads) ++hot;
      counts.push_back(s.reads);
      bp.push_back({s.device, s.page / p_.pages_per_block, s.reads});
    }
  }
  j["footprint_4k_pages"] = footprint;
  j["footprint_bytes"] = footprint * kPage;
  j["read_footprint_4k_pages"] = read_pages;
  j["write_footprint_4k_pages"] = write_pages;
  nlohmann::json dev = nlohmann::json::object();
  for (const auto& [d, n] : by_device) dev[std::to_string(d)] = n;
  j["footprint_4k_pages_by_device"] = dev;
  j["devices"] = by_device.size();

  // Int. footprint: hottest read pages that serve int_share of all page read accesses.
  std::sort(counts.begin(), counts.end(), std::greater<uint32_t>());
  uint64_t cum = 0, k = 0;
  const double target = p_.int_share * double(read_accesses_);
  while (k < counts.size() && double(cum) < target) cum += counts[k++];
  j["read_accesses_4k"] = read_accesses_;
  j["int_footprint_4k_pages"] = k;
  j["int_footprint_bytes"] = k * kPage;
  j["int_ratio"] = ratio(double(k), double(footprint));
  j["hot_read_ratio"] = ratio(double(hot), double(read_pages));

  const auto [considered, concentrated] = concentration(bp, p_);
  j["concn_ratio"] = ratio(double(concentrated), double(considered));
  j["concn_blocks_considered"] = considered;
  j["concn_blocks_concentrated"] = concentrated;

  interarrival_stats(j, gaps_);

  j["write_size_distribution"] = {{"le_128k", ratio(double(wsize_buckets_[0]), double(writes_))},
                                  {"le_256k", ratio(double(wsize_buckets_[1]), double(writes_))},
                                  {"le_512k", ratio(double(wsize_buckets_[2]), double(writes_))},
                                  {"gt_512k", ratio(double(wsize_buckets_[3]), double(writes_))}};
  j["page_size_bytes"] = p_.page_size;
  j["partial_page_write_ratio"] = ratio(double(partial_writes_), double(writes_));
  j["update_write_ratio"] = ratio(double(updates_), double(writes_));
  j["partial_page_update_ratio"] = ratio(double(partial_updates_), double(updates_));
  j["params"] = {{"page_size", p_.page_size},
                 {"pages_per_block", p_.pages_per_block},
                 {"concn_min_reads", p_.concn_min_reads ? p_.concn_min_reads : p_.pages_per_block},
                 {"int_share", p_.int_share},
                 {"hot_reads", p_.hot_reads}};
  return j;
}

}  // namespace ssdtlm::traces
