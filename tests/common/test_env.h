// The tests' CoreEnv: drives a Core (either drive) without SystemC. One event queue; each die
// runs one flash operation at a time in submission order (no bus, no priorities, no multi-plane
// merging); an operation takes its array time from the die's timing model,
// nand::TimingModel::op_time, as the flash channel does (models/flash_channel.cpp, array_time).
// DRAM and host transfers take no time (dram() returns now). The env fills op->t_submit /
// t_start / t_done before Core::on_flash_done (the core charges busy time from them), logs every
// submitted operation and records host completion times. The configuration is the bound core's
// (bind), or the one given at construction.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <queue>
#include <vector>

#include "tests/common/core_parts.h"

namespace ssdtlm::test {

class TestEnv : public CoreEnv {
 public:
  struct OpLog {
    FlashKind kind;
    OpOwner owner;
    uint8_t prio;  // dispatch class (logged; this env runs operations in submission order)
    bool slc;
    Ppn ppn;
    uint32_t npages;
    uint64_t block;
    uint32_t plane;
    Tick submit, start, done;
  };
  struct Done {
    HostCmd* cmd;
    uint64_t id;
    Tick at;
  };

  TestEnv() = default;
  explicit TestEnv(const SsdConfig& cfg) : cfg_(&cfg) {}
  void bind(Core* core) {
    core_ = core;
    if (!cfg_) cfg_ = &core->config();
  }

  // Array time of one operation, as FlashChannel::array_time for a single-plane operation.
  static Tick duration(const SsdConfig& cfg, const FlashOp& op) {
    const int type = op.slc ? 0 : cfg.geo.page_type_of(cfg.geo.page_of(op.ppn));
    return cfg.timing.op_time(op.kind, op.slc, type, static_cast<int>(op.npages), op.retry_level,
                              op.read_time);
  }

  Tick now() const override { return now_; }
  void submit(FlashOp* op) override {
    const uint32_t die = cfg_->geo.die_of_plane(op->plane);
    if (die_free_.size() <= die) die_free_.resize(die + 1, 0);
    const Tick start = std::max(now_, die_free_[die]);
    const Tick done = start + duration(*cfg_, *op);
    die_free_[die] = done;
    op->t_submit = now_;
    op->t_start = start;
    op->t_done = done;
    log.push_back({op->kind, op->owner, op->prio, op->slc, op->ppn, op->npages,
                   cfg_->geo.block_of(op->ppn), op->plane, now_, start, done});
    push(done, [this, op] { core_->on_flash_done(op); });
  }
  void timer(Tick at, uint32_t kind, void* ctx) override {
    push(at, [this, kind, ctx] { core_->on_timer(kind, ctx); });
  }
  Tick dram(uint64_t) override { return now_; }
  void host_done(HostCmd* cmd, Tick at) override {
    done.push_back({cmd, cmd->id, at});
    done_at[cmd] = at;
    if (on_done) on_done(cmd, at);
  }

  // Delivers c to the core at c->arrival (>= now).
  void host(HostCmd* c) {
    push(std::max(c->arrival, now_), [this, c] { core_->on_host_cmd(c); });
  }
  // Runs every event (the simulation ends when nothing is scheduled).
  void run() { run_until(~Tick{0}); }
  // Runs the events due at or before t; the clock stays at the last event run.
  void run_until(Tick t) {
    while (!q_.empty() && q_.top().t <= t) {
      if (max_events && events >= max_events) {
        overrun = true;
        return;
      }
      ++events;
      const Ev e = q_.top();
      q_.pop();
      now_ = e.t;
      auto f = std::move(fns_[e.slot]);
      fns_[e.slot] = nullptr;
      free_.push_back(e.slot);
      f();
    }
  }
  bool pending() const { return !q_.empty(); }
  // Event budget: run() stops (overrun = true) after max_events events (0 = no limit), so a
  // core that never settles fails a test instead of exhausting memory.
  uint64_t max_events = 0, events = 0;
  bool overrun = false;

  // Operations logged since index `from` that satisfy pred.
  template <typename P>
  std::vector<OpLog> ops(P&& pred, size_t from = 0) const {
    std::vector<OpLog> r;
    for (size_t i = from; i < log.size(); ++i)
      if (pred(log[i])) r.push_back(log[i]);
    return r;
  }
  std::vector<OpLog> ops_of(FlashKind kind, size_t from = 0) const {
    return ops([kind](const OpLog& l) { return l.kind == kind; }, from);
  }
  uint64_t count(OpOwner owner) const {
    uint64_t n = 0;
    for (const auto& l : log) n += l.owner == owner;
    return n;
  }

  std::vector<OpLog> log;
  std::vector<Done> done;
  std::map<const HostCmd*, Tick> done_at;
  // Called on every host completion (closed-loop drivers issue their next command here; it is
  // called from inside the core, so it should only schedule, e.g. through host()).
  std::function<void(HostCmd*, Tick)> on_done;

 private:
  struct Ev {
    Tick t;
    uint64_t seq;  // events at the same time run in the order they were scheduled
    size_t slot;
    bool operator<(const Ev& o) const { return t != o.t ? t > o.t : seq > o.seq; }
  };
  void push(Tick t, std::function<void()> f) {
    size_t slot;
    if (free_.empty()) {
      slot = fns_.size();
      fns_.push_back(std::move(f));
    } else {
      slot = free_.back();
      free_.pop_back();
      fns_[slot] = std::move(f);
    }
    q_.push(Ev{t, seq_++, slot});
  }
  const SsdConfig* cfg_ = nullptr;
  Core* core_ = nullptr;
  Tick now_ = 0;
  std::priority_queue<Ev> q_;
  std::vector<std::function<void()>> fns_;
  std::vector<size_t> free_;
  uint64_t seq_ = 0;
  std::vector<Tick> die_free_;
};

}  // namespace ssdtlm::test
