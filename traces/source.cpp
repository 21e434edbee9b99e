// The trace source: line reader + format parser + junk accounting (Reader), and the
// transformation pipeline on top of it (Pipeline). See docs/traces.md for the order of stages.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <queue>

#include "traces/drops.h"
#include "traces/formats.h"
#include "traces/input.h"
#include "traces/loop_remap.h"
#include "traces/options.h"
#include "traces/reader.h"
#include "traces/ties.h"

namespace ssdtlm::traces {

namespace {
// Time differences of hostile input may overflow int64 ns (found by fuzz_trace_tencent):
// saturate instead (a time that far off is then clamped or sorted like any other).
inline int64_t sat_sub(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) return b < 0 ? INT64_MAX : INT64_MIN;
  return r;
}
inline int64_t sat_add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return b > 0 ? INT64_MAX : INT64_MIN;
  return r;
}
}  // namespace

namespace {
using reader_detail::Item;
using reader_detail::loc;
using reader_detail::Reader;

struct LaterFirst {
  bool operator()(const std::pair<Item, uint64_t>& a, const std::pair<Item, uint64_t>& b) const {
    if (a.first.t != b.first.t) return a.first.t > b.first.t;
    return a.second > b.second;  // stable: file order among equal times
  }
};

// The sort window: the records read ahead, popped in (time, file order) order. Records that
// arrive in time order (the common case) go to a FIFO ring, O(1) each; only late records go to a
// heap. The smaller head of the two is the same record a single heap over all of them would pop.
class SortWindow {
 public:
  using Entry = std::pair<Item, uint64_t>;  // record, file order
  size_t size() const { return count_ + late_.size(); }
  bool empty() const { return size() == 0; }
  void clear() {
    head_ = count_ = 0;
    late_ = decltype(late_)();
  }
  void push(const Item& x, uint64_t seq) {
    if (count_ > 0 && x.t < ring_[(head_ + count_ - 1) & mask_].first.t) {
      late_.emplace(x, seq);
      return;
    }
    if (count_ == ring_.size()) grow();
    ring_[(head_ + count_) & mask_] = Entry{x, seq};
    ++count_;
  }
  // The earliest record (the window must not be empty).
  Item pop() {
    if (count_ > 0 && (late_.empty() || LaterFirst()(late_.top(), ring_[head_]))) {
      const Item it = ring_[head_].first;
      head_ = (head_ + 1) & mask_;
      --count_;
      return it;
    }
    const Item it = late_.top().first;
    late_.pop();
    return it;
  }

 private:
  void grow() {
    std::vector<Entry> r(ring_.empty() ? 64 : ring_.size() * 2);
    for (size_t i = 0; i < count_; ++i) r[i] = ring_[(head_ + i) & mask_];
    ring_.swap(r);
    head_ = 0;
    mask_ = ring_.size() - 1;
  }
  std::vector<Entry> ring_;  // power-of-two size
  size_t head_ = 0, count_ = 0, mask_ = 0;
  std::priority_queue<Entry, std::vector<Entry>, LaterFirst> late_;
};

class Pipeline : public TraceSource {
 public:
  Pipeline(std::function<std::unique_ptr<ByteStream>()> open, std::string name,
           const TraceOptions& opt, uint64_t capacity)
      : open_(std::move(open)),
        name_(std::move(name)),
        opt_(opt),
        capacity_(capacity),
        remap_(capacity) {
    validate_trace_options(opt);
    if (opt.loop_remap && capacity == 0)
      throw TraceError(
          "--loop-remap: needs the device capacity (run, or trace-stats "
          "--capacity-gib)");
    reader_ = std::make_unique<Reader>(open_(), name_, opt_);
    mode_ = opt_.unsorted == "sort" ? Mode::kSort
                                    : (opt_.unsorted == "clamp" ? Mode::kClamp : Mode::kError);
    device_set_ = opt_.devices;
    std::sort(device_set_.begin(), device_set_.end());
    if (opt_.map_devices) build_device_map();
    start_ns_ = static_cast<int64_t>(std::llround(opt_.start_s * 1e9));
    dur_ns_ = static_cast<int64_t>(std::llround(opt_.duration_s * 1e9));
    reset_pass_state();
  }

  bool next(TraceRecord& rec) override {
    if (opt_.max_requests && emitted_ >= opt_.max_requests) {
      truncated_ = truncated_ || has_more();
      return false;
    }
    if (repeat_left_ > 0) {
      const uint32_t k = opt_.read_repeat - repeat_left_;  // copy k of N - 1
      --repeat_left_;
      ++repeat_added_;
      rec = last_;
      rec.time_ns = last_.time_ns + k * repeat_step_;
      ++emitted_;
      return true;
    }
    for (;;) {
      Item it;
      if (!next_in_pass(it)) {
        if (pass_ + 1 >= opt_.loop || pass_count_ == 0) return false;
        // Next loop pass: same addresses, continuing in time.
        int64_t gap = pass_count_ > 1 ? pass_last_t_ / static_cast<int64_t>(pass_count_ - 1) : 0;
        if (gap <= 0) gap = 1000000;  // 1 ms between passes of a one-request trace
        period_ = sat_add(pass_last_t_, gap);
        if (pass_ == 0)
          check_loop_span(opt_.loop, opt_.max_requests, pass_count_, period_, pass_last_t_);
        ++pass_;
        remap_.start_pass(pass_);
        time_shift_ = sat_add(time_shift_, period_);
        reader_->rewind();
        reset_pass_state();
        continue;
      }
      rec.time_ns = static_cast<uint64_t>(sat_add(it.t, time_shift_));
      if (opt_.max_time_ns && rec.time_ns > opt_.max_time_ns)
        throw TraceError(name_ + ": request " + std::to_string(emitted_ + 1) + " arrives " +
                         std::to_string(rec.time_ns / 86400000000000ull) +
                         " days after the first one (line " + std::to_string(it.line) +
                         ", after --speed and --loop), beyond the " +
                         std::to_string(opt_.max_time_ns / 86400000000000ull) +
                         " days a replay can span (simulated time is picoseconds in 64 bits); "
                         "replay a part of it with --start and --duration, or compress it with "
                         "--speed");
      rec.offset = opt_.loop_remap ? remap_.map(it.offset, it.size) : it.offset;
      rec.size = it.size;
      rec.device = it.device;
      rec.is_read = it.is_read;
      if (!any_device_) {
        any_device_ = true;
        first_device_ = rec.device;
      } else if (rec.device != first_device_) {
        multi_device_ = true;
      }
      last_ = rec;
      if (rec.is_read && opt_.read_repeat > 1) {
        repeat_left_ = opt_.read_repeat - 1;
        // spread: the copies divide the gap to the next request of the pass evenly, so
        // inter-arrival times stay those of the trace, scaled by 1/N (the last read of a pass
        // has no gap: its copies come at its own time, before the next pass).
        repeat_step_ = 0;
        if (opt_.read_repeat_mode == "spread") {
          Item nx;
          uint64_t gap = 0;
          if (next_in_pass(nx)) {
            peek_ = nx;
            peeked_ = true;
            const int64_t t = sat_add(nx.t, time_shift_);
            gap = t > static_cast<int64_t>(rec.time_ns) ? uint64_t(t) - rec.time_ns : 0;
          }
          repeat_step_ = gap / opt_.read_repeat;
        }
      }
      ++emitted_;
      return true;
    }
  }

  void rewind() override {
    reader_->rewind();
    pass_ = 0;
    remap_.start_pass(0);
    time_shift_ = 0;
    emitted_ = 0;
    repeat_left_ = 0;
    repeat_added_ = 0;
    truncated_ = false;
    dropped_device_ = out_of_order_ = clamped_ = window_dropped_ = folded_ = rejected_ = 0;
    any_device_ = multi_device_ = false;
    log_.clear();
    ties_.clear();
    spreader_.clear_counts();
    reset_pass_state();
  }

  nlohmann::json describe() const override {
    nlohmann::json j;
    j["path"] = name_;
    reader_->describe(j);
    reader_->log().to_json(j, &log_);
    j["requests"] = emitted_;
    j["multiple_devices"] = multi_device_;
    j["timestamps"] = ties_.to_json();
    nlohmann::json t = nlohmann::json::object();
    if (!opt_.devices.empty())
      t["device_filter"] = {{"devices", opt_.devices}, {"dropped", dropped_device_}};
    nlohmann::json u = {{"mode", opt_.unsorted}, {"out_of_order", out_of_order_}};
    if (opt_.unsorted == "sort") {
      u["window"] = opt_.sort_window;
      u["clamped_beyond_window"] = clamped_;
    } else if (opt_.unsorted == "clamp") {
      u["clamped"] = clamped_;
    }
    t["unsorted"] = u;
    if (opt_.spread_ties)
      t["spread_ties"] = {{"instants_spread", spreader_.groups()}, {"moved", spreader_.moved()}};
    if (opt_.start_s > 0 || opt_.duration_s > 0)
      t["time_window"] = {
          {"start_s", opt_.start_s}, {"duration_s", opt_.duration_s}, {"dropped", window_dropped_}};
    if (opt_.map_devices) t["map_devices"] = map_json_;
    if (capacity_ > 0)
      t["fold"] = {{"mode", opt_.fold},
                   {"capacity_bytes", capacity_},
                   {"folded", folded_},
                   {"rejected", rejected_}};
    if (opt_.speed != 1.0) t["speed"] = opt_.speed;
    if (opt_.read_repeat > 1)
      t["read_repeat"] = {{"factor", opt_.read_repeat},
                          {"mode", opt_.read_repeat_mode},
                          {"added_reads", repeat_added_}};
    if (opt_.loop > 1)
      t["loop"] = {{"count", opt_.loop}, {"passes_started", pass_ + 1}, {"remap", opt_.loop_remap}};
    if (opt_.max_requests)
      t["max_requests"] = {{"limit", opt_.max_requests}, {"truncated", truncated_}};
    j["transformations"] = t;
    return j;
  }

 private:
  bool has_more() {
    // Whether anything was left when --max-requests stopped the stream (cheap: one lookahead).
    if (repeat_left_ > 0) return true;
    if (peeked_) return true;
    Item it;
    if (next_in_pass(it)) {
      peek_ = it;
      peeked_ = true;
      return true;
    }
    return pass_ + 1 < opt_.loop;
  }

  void reset_pass_state() {
    window_.clear();
    reader_eof_ = false;
    seq_ = 0;
    have_max_ = false;
    max_t_ = 0;
    have_last_out_ = false;
    last_out_t_ = 0;
    have_t0_ = false;
    t0_ = 0;
    have_origin_ = false;
    origin_ = 0;
    window_done_ = false;
    pass_count_ = 0;
    pass_last_t_ = 0;
    peeked_ = false;
    spreader_.clear();
  }

  // Reader + device filter.
  bool next_filtered(Item& it) {
    while (reader_->next(it)) {
      if (!device_set_.empty() &&
          !std::binary_search(device_set_.begin(), device_set_.end(), it.device)) {
        ++dropped_device_;
        continue;
      }
      return true;
    }
    return false;
  }

  // + time ordering.
  bool next_ordered(Item& it) {
    if (mode_ == Mode::kSort) {
      while (!reader_eof_ && window_.size() <= opt_.sort_window) {
        Item x;
        if (!next_filtered(x)) {
          reader_eof_ = true;
          break;
        }
        note_order(x);
        window_.push(x, seq_++);
      }
      if (window_.empty()) return false;
      it = window_.pop();
    } else {
      if (!next_filtered(it)) return false;
      note_order(it);
      if (mode_ == Mode::kError && have_last_out_ && it.t < last_out_t_)
        throw TraceError(loc(name_, it.line) +
                         ": field 'time': earlier than the previous record "
                         "(use --unsorted sort or clamp)");
    }
    if (have_last_out_ && it.t < last_out_t_) {
      it.t = last_out_t_;
      ++clamped_;
      log_.alter("time: earlier than a record before it, clamped", it.line,
                 loc(name_, it.line) + ": field 'time': earlier than a record before it" +
                     (mode_ == Mode::kSort ? " by more than --sort-window records" : "") +
                     ", clamped");
    }
    have_last_out_ = true;
    last_out_t_ = it.t;
    return true;
  }

  // + the count of requests sharing an instant (first pass) and --spread-ties.
  bool next_timed(Item& it) {
    auto pull = [this](Item& x) {
      if (!next_ordered(x)) return false;
      if (pass_ == 0) ties_.add(x.t, x.line);
      return true;
    };
    return opt_.spread_ties ? spreader_.next(it, pull, name_) : pull(it);
  }

  void note_order(const Item& x) {
    if (have_max_ && x.t < max_t_) ++out_of_order_;
    if (!have_max_ || x.t > max_t_) max_t_ = x.t;
    have_max_ = true;
  }

  // + start/duration, map, fold, speed. Times relative to the first kept record.
  bool next_in_pass(Item& it) {
    if (peeked_) {
      it = peek_;
      peeked_ = false;
      return true;
    }
    for (;;) {
      if (window_done_) return false;
      if (!next_timed(it)) return false;
      if (!have_t0_) {
        t0_ = it.t;
        have_t0_ = true;
      }
      int64_t rel = sat_sub(it.t, t0_);
      if (rel < start_ns_) {
        ++window_dropped_;
        continue;
      }
      if (dur_ns_ > 0 && rel - start_ns_ >= dur_ns_) {
        window_done_ = true;  // ordered: nothing later can be inside the window
        ++window_dropped_;
        return false;
      }
      if (opt_.map_devices) {
        auto m = device_base_.find(it.device);
        if (m != device_base_.end() && __builtin_add_overflow(it.offset, m->second, &it.offset))
          ++it.offset_hi;
      }
      if ((it.beyond_64() || (capacity_ > 0 && it.offset + it.size > capacity_)) && !fold(it))
        continue;
      if (!have_origin_) {
        origin_ = it.t;
        have_origin_ = true;
      }
      int64_t t = sat_sub(it.t, origin_);
      if (opt_.speed != 1.0) {
        const double scaled = static_cast<double>(t) / opt_.speed;  // (saturated: a time that
        t = scaled >= 9.2e18 ? INT64_MAX : static_cast<int64_t>(std::llround(scaled));  // far
      }  // off is said by the replay, naming the request)
      it.t = t;
      ++pass_count_;
      pass_last_t_ = t;
      return true;
    }
  }

  // The fold rule (fold_address) for a record beyond the device. False: dropped.
  bool fold(Item& it) {
    const FoldResult f = fold_address(
        opt_.fold, capacity_, loc(name_, it.line), it.offset_hi, it.offset, it.size,
        opt_.map_devices && opt_.fold == "error" ? packed_devices_advice(ranges_, capacity_) : "");
    if (f.dropped) {
      ++rejected_;
      log_.drop(f.reason, it.line, f.where);
    } else {
      ++folded_;
      log_.alter(f.reason, it.line, f.where);
    }
    return !f.dropped;
  }

  void build_device_map() {
    Reader r(open_(), name_, opt_);
    std::map<uint32_t, uint64_t> extent;
    Item it;
    while (r.next(it)) {
      if (!device_set_.empty() &&
          !std::binary_search(device_set_.begin(), device_set_.end(), it.device))
        continue;
      if (it.beyond_64()) continue;  // (beyond any device: the fold rule meets it)
      uint64_t end = it.offset + it.size;
      uint64_t& e = extent[it.device];
      if (end > e) e = end;
    }
    const uint64_t align = 1 << 20;
    uint64_t base = 0;
    nlohmann::json layout = nlohmann::json::array();
    for (const auto& [dev, ext] : extent) {
      device_base_[dev] = base;
      ranges_.push_back({dev, base, ext});
      if (extent.size() <= 64)
        layout.push_back({{"device", dev}, {"base_bytes", base}, {"extent_bytes", ext}});
      base += (ext + align - 1) / align * align;
    }
    map_json_ = {{"mode", "packed"}, {"devices", extent.size()}, {"total_bytes", base}};
    if (extent.size() <= 64) map_json_["layout"] = layout;
  }

  std::function<std::unique_ptr<ByteStream>()> open_;
  std::string name_;
  TraceOptions opt_;
  uint64_t capacity_;
  LoopRemap remap_;
  std::unique_ptr<Reader> reader_;
  enum class Mode { kSort, kClamp, kError } mode_ = Mode::kSort;
  std::vector<uint32_t> device_set_;
  std::map<uint32_t, uint64_t> device_base_;
  std::vector<DeviceRange> ranges_;  // --map-devices: the packed devices in id order
  nlohmann::json map_json_;
  int64_t start_ns_ = 0, dur_ns_ = 0;

  SortWindow window_;
  bool reader_eof_ = false;
  uint64_t seq_ = 0;
  bool have_max_ = false;
  int64_t max_t_ = 0;
  bool have_last_out_ = false;
  int64_t last_out_t_ = 0;
  bool have_t0_ = false;
  int64_t t0_ = 0;
  bool have_origin_ = false;
  int64_t origin_ = 0;
  bool window_done_ = false;
  Item peek_;
  bool peeked_ = false;

  uint32_t pass_ = 0;
  uint64_t pass_count_ = 0;
  int64_t pass_last_t_ = 0;
  int64_t period_ = 0;
  int64_t time_shift_ = 0;
  uint64_t emitted_ = 0;
  uint32_t repeat_left_ = 0;
  uint64_t repeat_added_ = 0;
  TraceRecord last_;
  uint64_t repeat_step_ = 0;  // ns between the copies of a repeated read
  bool truncated_ = false;
  uint64_t dropped_device_ = 0, out_of_order_ = 0, clamped_ = 0, window_dropped_ = 0, folded_ = 0,
           rejected_ = 0;
  DropLog log_;  // the pipeline's drops and alterations (the reader keeps its own)
  TieCount ties_;
  TieSpreader<Item> spreader_;
  // Whether the records returned came from more than one device id (describe's multiple_devices).
  bool any_device_ = false, multi_device_ = false;
  uint32_t first_device_ = 0;
};

}  // namespace

void validate_trace_options(const TraceOptions& opt) {
  Format f;
  if (opt.format != "auto" && !parse_format_name(opt.format, f))
    throw TraceError("--format: unknown trace format '" + opt.format + "'");
  if (opt.unsorted != "sort" && opt.unsorted != "clamp" && opt.unsorted != "error")
    throw TraceError("--unsorted: must be sort, clamp or error, not '" + opt.unsorted + "'");
  if (opt.fold != "error" && opt.fold != "modulo" && opt.fold != "reject")
    throw TraceError("--fold: must be error, modulo or reject, not '" + opt.fold + "'");
  if (!(opt.speed > 0) || !std::isfinite(opt.speed))
    throw TraceError("--speed: must be a positive number");
  if (opt.read_repeat < 1) throw TraceError("--read-repeat: must be at least 1");
  if (opt.loop < 1) throw TraceError("--loop: must be at least 1");
  if (opt.loop_remap && opt.loop < 2)
    throw TraceError("--loop-remap: has no effect without --loop N (N >= 2)");
  if (!(opt.start_s >= 0) || !std::isfinite(opt.start_s) || opt.start_s > 1e9)
    throw TraceError("--start: must be a number of seconds in [0, 1e9]");
  if (!(opt.duration_s >= 0) || !std::isfinite(opt.duration_s) || opt.duration_s > 1e9)
    throw TraceError("--duration: must be a number of seconds in [0, 1e9]");
  if (opt.blkparse_event.size() != 1)
    throw TraceError("--blkparse-event: must be one action letter (Q, D, C, ...)");
  if (opt.sort_window < 1 || opt.sort_window > (uint64_t{1} << 28))
    throw TraceError("--sort-window: must be in 1..268435456");
}

void add_trace_options(CLI::App& app, TraceOptions& opt) {
  std::string formats = "auto";
  for (const auto& f : all_formats()) formats += std::string("|") + f.name;
  app.add_option("--format", opt.format, "trace format: " + formats)->capture_default_str();
  app.add_flag("--strict", opt.strict, "any malformed line is an error (default: skip and count)");
  app.add_option("--blkparse-event", opt.blkparse_event,
                 "blkparse action taken as the request arrival")
      ->capture_default_str();
  app.add_option("--device", opt.devices, "keep only this device/volume/ASU/LUN id (repeatable)");
  app.add_option("--unsorted", opt.unsorted,
                 "out-of-order timestamps: sort (bounded window, then clamp), clamp, error")
      ->capture_default_str();
  app.add_option("--sort-window", opt.sort_window, "records a late record may move back over")
      ->capture_default_str();
  app.add_flag("--spread-ties", opt.spread_ties,
               "requests sharing an arrival instant arrive evenly spread up to the next instant");
  app.add_option("--start", opt.start_s, "skip the first S seconds of the trace")
      ->capture_default_str();
  app.add_option("--duration", opt.duration_s, "keep S seconds after --start (0 = all)")
      ->capture_default_str();
  app.add_flag("--map-devices", opt.map_devices,
               "give each device its own LBA range (packed in device-id order)");
  app.add_option("--fold", opt.fold,
                 "addresses beyond the capacity: error, modulo (fold), reject (drop)")
      ->capture_default_str();
  app.add_option("--speed", opt.speed, "time scaling: arrival times divided by X")
      ->capture_default_str();
  app.add_option("--read-repeat", opt.read_repeat, "issue each read N times (read amplification)")
      ->capture_default_str();
  app.add_option("--read-repeat-mode", opt.read_repeat_mode,
                 "spread: the copies divide the gap to the next request evenly; burst: all at "
                 "the read's own time")
      ->check(CLI::IsMember({"spread", "burst"}))
      ->capture_default_str();
  app.add_option("--loop", opt.loop, "replay the trace N times, continuing in time")
      ->capture_default_str();
  app.add_flag("--loop-remap", opt.loop_remap,
               "passes after the first move addresses through their own bijection of 64 KiB "
               "chunks (GC pressure of a long trace from a short one)");
  app.add_option("--max-requests", opt.max_requests, "stop after N requests (0 = all)")
      ->capture_default_str();
}

std::unique_ptr<TraceSource> open_trace(const TraceOptions& opt, uint64_t capacity_bytes) {
  if (opt.path.empty()) throw TraceError("no trace file given");
  std::string path = opt.path;
  auto open = [path]() { return open_file_stream(path); };
  return std::make_unique<Pipeline>(open, path, opt, capacity_bytes);
}

std::unique_ptr<TraceSource> open_trace_memory(const TraceOptions& opt, std::string data,
                                               const std::string& name, uint64_t capacity_bytes) {
  auto shared = std::make_shared<std::string>(std::move(data));
  auto open = [shared, name]() { return open_memory_stream(*shared, name); };
  return std::make_unique<Pipeline>(open, name, opt, capacity_bytes);
}

}  // namespace ssdtlm::traces
