#include "traces/mqsim_flows.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

#include "traces/options.h"

namespace ssdtlm::traces {
namespace {

constexpr uint64_t kSector = 512;  // MQSim's SECTOR_SIZE_IN_BYTE

// splitmix64: one stream per random quantity of a flow, seeded as MQSim seeds its generators
// (Seed, Seed + 1, ...). The distributions are MQSim's; the streams are not its generator's.
struct Rng {
  uint64_t s = 0;
  explicit Rng(int64_t seed = 0) : s(static_cast<uint64_t>(seed) * 0x9E3779B97F4A7C15ull) {}
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return double(next() >> 11) * 0x1.0p-53; }  // [0, 1)
  uint64_t between(uint64_t lo, uint64_t hi) {                   // [lo, hi]
    return lo + uint64_t((unsigned __int128)next() * (hi - lo + 1) >> 64);
  }
  double exponential(double mean) { return -mean * std::log1p(-uniform()); }
  double normal(double mean, double sd) {
    const double u = 1.0 - uniform(), v = uniform();
    return mean + sd * std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * M_PI * v);
  }
};

std::string at(const MqsimScenario& s, const MqsimFlow& f) {
  return s.path + ":" + std::to_string(f.line);
}

// Each flow's logical range [first, last] in sectors: its share of the planes it uses (a plane
// used by k flows gives each 1/k of it), packed in flow order (Logical_Address_Partitioning_Unit).
std::vector<std::pair<uint64_t, uint64_t>> flow_ranges(const std::vector<MqsimFlow>& flows,
                                                       uint64_t sectors) {
  std::map<std::array<uint32_t, 4>, uint32_t> users;
  auto each_plane = [](const MqsimFlow& f, auto&& fn) {
    for (uint32_t c : f.channels)
      for (uint32_t w : f.chips)
        for (uint32_t d : f.dies)
          for (uint32_t p : f.planes) fn(std::array<uint32_t, 4>{c, w, d, p});
  };
  for (const auto& f : flows) each_plane(f, [&](const auto& k) { ++users[k]; });
  std::vector<double> share(flows.size(), 0.0);
  double total = 0;
  for (size_t i = 0; i < flows.size(); ++i) {
    each_plane(flows[i], [&](const auto& k) { share[i] += 1.0 / users[k]; });
    total += share[i];
  }
  std::vector<std::pair<uint64_t, uint64_t>> r;
  uint64_t start = 0;
  for (size_t i = 0; i < flows.size(); ++i) {
    const uint64_t n = std::max<uint64_t>(1, uint64_t(double(sectors) * share[i] / total));
    r.emplace_back(start, start + n - 1);
    start += n;
  }
  return r;
}

// One synthetic flow (IO_Flow_Synthetic::Generate_next_request).
class SyntheticFlow {
 public:
  SyntheticFlow(const MqsimFlow& f, uint64_t first, uint64_t last) : f_(f), first_(first) {
    last_ = first + uint64_t(double(last - first) * f.working_set);
    hot_last_ = first + uint64_t(double(last_ - first) * f.hot_ratio);
    rewind();
  }
  void rewind() {
    int64_t seed = f_.seed;
    type_ = Rng(seed++);
    addr_ = Rng(seed++);
    hot_addr_ = Rng(seed++);
    hot_cold_ = Rng(seed++);
    size_ = Rng(seed++);
    time_ = Rng(seed++);
    issued_ = 0;
    done_ = false;
    next_ns_ = f_.queue_depth ? 0.0 : time_.exponential(double(f_.mean_gap_ns));
    stream_ = addr_.between(first_, last_);
    if (f_.aligned) stream_ -= stream_ % f_.align;
  }
  bool done() const { return done_; }
  double next_ns() const { return next_ns_; }
  // The next request (false: the flow has ended; a closed loop stopped by Stop_Time only ends
  // at the scenario's bound).
  bool make(TraceRecord& r);

 private:
  uint64_t address(uint64_t count);
  MqsimFlow f_;
  uint64_t first_, last_, hot_last_;
  Rng type_, addr_, hot_addr_, hot_cold_, size_, time_;
  uint64_t issued_ = 0, stream_ = 0;
  double next_ns_ = 0;
  bool done_ = false;
};

uint64_t SyntheticFlow::address(uint64_t count) {
  uint64_t lba = first_;
  switch (f_.addr) {
    case MqsimFlow::Addr::kStreaming:  // (as MQSim: the cursor advances from where it was)
      lba = stream_ + count > last_ ? first_ : stream_;
      stream_ += count;
      if (stream_ > last_) stream_ = first_;
      if (f_.aligned && stream_ % f_.align) stream_ += f_.align - stream_ % f_.align;
      break;
    case MqsimFlow::Addr::kHotCold:  // (100 - H)% of the requests to the hot H% of the range
      lba = hot_cold_.uniform() < f_.hot_ratio && hot_last_ < last_
                ? hot_addr_.between(hot_last_ + 1, last_)
                : hot_addr_.between(first_, hot_last_);
      break;
    case MqsimFlow::Addr::kUniform:
      lba = addr_.between(first_, last_);
      if (lba + count > last_) lba = first_;
      break;
  }
  if (f_.aligned) lba -= lba % f_.align;
  return lba;
}

bool SyntheticFlow::make(TraceRecord& r) {
  if (done_) return false;
  const uint64_t limit = f_.stop_ns > 0 ? ~uint64_t{0} : f_.total_requests;
  if (issued_ >= limit || (!f_.queue_depth && f_.stop_ns > 0 && next_ns_ > double(f_.stop_ns))) {
    done_ = true;
    return false;
  }
  r.is_read = f_.read_ratio > 0 && type_.uniform() <= f_.read_ratio;
  uint64_t count = f_.avg_size;
  if (f_.normal_size)
    count = uint64_t(std::max(1.0, std::ceil(size_.normal(f_.avg_size, f_.size_stdev))));
  count = std::min<uint64_t>(std::max<uint64_t>(count, 1), last_ - first_ + 1);
  uint64_t lba = address(count);
  if (lba + count > last_ + 1) lba = last_ + 1 - count;  // (kept in the flow's range)
  r.offset = lba * kSector;
  r.size = static_cast<uint32_t>(count * kSector);
  r.time_ns = uint64_t(next_ns_);
  ++issued_;
  if (!f_.queue_depth) next_ns_ += time_.exponential(double(f_.mean_gap_ns));
  return true;
}

// The flows merged: by arrival time (open loop), or round-robin (closed loop).
class ScenarioSource : public TraceSource {
 public:
  ScenarioSource(const MqsimScenario& s, uint64_t capacity, uint64_t bound) : s_(s), bound_(bound) {
    closed_ = s.closed_loop_slots() > 0;
    ranges_ = flow_ranges(s.flows, capacity / kSector);
    for (size_t i = 0; i < s.flows.size(); ++i) {
      const MqsimFlow& f = s.flows[i];
      Flow fl;
      if (f.trace) {
        TraceOptions o;
        o.path = f.file;
        o.format = "mqsim";
        o.fold = "modulo";
        o.loop = f.relay;
        o.max_time_ns = kMaxReplayNs;
        const uint64_t range = (ranges_[i].second - ranges_[i].first + 1) * kSector;
        fl.src = open_trace(o, range);
        if (f.relay == 1 && f.percent < 100) {
          uint64_t n = 0;
          TraceRecord r;
          while (fl.src->next(r)) ++n;
          o.max_requests = std::max<uint64_t>(1, n * f.percent / 100);
          fl.src = open_trace(o, range);
        }
      } else {
        fl.syn = std::make_unique<SyntheticFlow>(f, ranges_[i].first, ranges_[i].second);
      }
      flows_.push_back(std::move(fl));
    }
    rewind();
  }

  bool next(TraceRecord& r) override {
    if (closed_) {
      for (size_t tried = 0; tried < flows_.size(); ++tried) {
        const size_t i = turn_;
        turn_ = (turn_ + 1) % flows_.size();
        if (emitted_ < bound_ && pull(i, r)) return count(i, r);
      }
      return false;
    }
    size_t best = flows_.size();
    for (size_t i = 0; i < flows_.size(); ++i)
      if (peek(i) && (best == flows_.size() || flows_[i].head.time_ns < flows_[best].head.time_ns))
        best = i;
    if (best == flows_.size()) return false;
    r = flows_[best].head;
    flows_[best].has_head = false;
    return count(best, r);
  }

  void rewind() override {
    for (auto& f : flows_) {
      if (f.src) f.src->rewind();
      if (f.syn) f.syn->rewind();
      f.has_head = false;
      f.emitted = 0;
    }
    turn_ = 0;
    emitted_ = reads_ = 0;
  }

  nlohmann::json describe() const override;

 private:
  struct Flow {
    std::unique_ptr<TraceSource> src;
    std::unique_ptr<SyntheticFlow> syn;
    TraceRecord head;
    bool has_head = false;
    uint64_t emitted = 0;
  };
  // The flow's next request, in the drive's address space (its range) as device id = flow index.
  bool pull(size_t i, TraceRecord& r) {
    Flow& f = flows_[i];
    if (f.src ? !f.src->next(r) : !f.syn->make(r)) return false;
    if (f.src) r.offset += ranges_[i].first * kSector;
    r.device = static_cast<uint32_t>(i);
    return true;
  }
  bool peek(size_t i) {
    Flow& f = flows_[i];
    if (!f.has_head) f.has_head = pull(i, f.head);
    return f.has_head;
  }
  bool count(size_t i, const TraceRecord& r) {
    ++flows_[i].emitted;
    ++emitted_;
    reads_ += r.is_read;
    return true;
  }

  MqsimScenario s_;
  uint64_t bound_;
  bool closed_ = false;
  std::vector<std::pair<uint64_t, uint64_t>> ranges_;
  std::vector<Flow> flows_;
  size_t turn_ = 0;
  uint64_t emitted_ = 0, reads_ = 0;
};

nlohmann::json ScenarioSource::describe() const {
  nlohmann::json flows = nlohmann::json::array();
  for (size_t i = 0; i < flows_.size(); ++i) {
    const MqsimFlow& f = s_.flows[i];
    nlohmann::json j = {
        {"line", f.line},
        {"type", f.trace         ? "trace"
                 : f.queue_depth ? "synthetic QUEUE_DEPTH"
                                 : "synthetic BANDWIDTH"},
        {"range_bytes", {ranges_[i].first * kSector, (ranges_[i].second + 1) * kSector}},
        {"requests", flows_[i].emitted}};
    if (flows_[i].src) j["trace"] = flows_[i].src->describe();
    flows.push_back(j);
  }
  return {{"path", s_.path},
          {"format", "mqsim-workload"},
          {"requests", emitted_},
          {"reads", reads_},
          {"multiple_devices", false},
          {"mqsim_workload",
           {{"scenario", s_.index},
            {"scenarios", s_.count},
            {"mode", closed_ ? "closed loop (QUEUE_DEPTH)" : "open loop (trace, BANDWIDTH)"},
            {"closed_loop_slots", s_.closed_loop_slots()},
            {"flows", flows},
            {"notes", s_.notes}}}};
}

}  // namespace

uint32_t MqsimScenario::closed_loop_slots() const {
  uint32_t n = 0;
  for (const auto& f : flows) {
    if (f.trace || !f.queue_depth) return 0;
    n += f.qd;
  }
  return n;
}

uint64_t MqsimScenario::closed_loop_stop_ns() const {
  return closed_loop_slots() > 0 && !flows.empty() ? flows[0].stop_ns : 0;
}

std::unique_ptr<TraceSource> make_mqsim_source(const MqsimScenario& s, uint64_t capacity_bytes,
                                               uint64_t max_closed_requests) {
  if (s.flows.empty())
    throw TraceError(s.path + ": scenario " + std::to_string(s.index) + ": no I/O flow");
  const MqsimFlow* closed = nullptr;
  const MqsimFlow* open = nullptr;
  for (const auto& f : s.flows) (f.trace || !f.queue_depth ? open : closed) = &f;
  if (closed && open)
    throw TraceError(at(s, *open) + ": scenario " + std::to_string(s.index) +
                     " mixes QUEUE_DEPTH flows (line " + std::to_string(closed->line) +
                     ") with trace or BANDWIDTH flows: a replay is closed loop or open loop; "
                     "put them in scenarios of their own");
  for (const auto& f : s.flows) {
    if (closed && f.stop_ns != s.flows[0].stop_ns)
      throw TraceError(at(s, f) +
                       ": the QUEUE_DEPTH flows of a scenario share the replay's "
                       "stop time: give them the same Stop_Time");
    if (!f.trace && f.stop_ns == 0 && f.total_requests == 0)
      throw TraceError(at(s, f) +
                       ": Stop_Time and Total_Requests_To_Generate are 0: the flow "
                       "generates no request");
  }
  return std::make_unique<ScenarioSource>(s, capacity_bytes, max_closed_requests);
}

}  // namespace ssdtlm::traces
