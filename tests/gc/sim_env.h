// A minimal CoreEnv for driving Core without SystemC: one event queue, each die runs
// one flash operation at a time (read 60 us, program 700 us, erase 3500 us as on the 512Gb TLC
// die), DRAM and host transfers take no time. Every submitted operation is logged.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <queue>
#include <vector>

#include "tests/common/core_parts.h"

namespace ssdtlm::gctest {

class SimEnv : public CoreEnv {
 public:
  struct OpLog {
    FlashKind kind;
    OpOwner owner;
    uint8_t prio;
    uint32_t plane;
    Tick submit, start, done;
  };
  struct Done {
    uint64_t id;
    Tick at;
  };
  static constexpr Tick kRead = 60'000'000, kProgram = 700'000'000, kErase = 3'500'000'000;

  void bind(Core* core) { core_ = core; }
  Tick now() const override { return now_; }
  void submit(FlashOp* op) override {
    const uint32_t die = op->channel * 64 + op->die;
    if (die_free_.size() <= die) die_free_.resize(die + 1, 0);
    const Tick start = std::max(now_, die_free_[die]);
    const Tick dur = op->kind == FlashKind::Read      ? kRead
                     : op->kind == FlashKind::Program ? kProgram
                                                      : kErase;
    die_free_[die] = start + dur;
    log.push_back({op->kind, op->owner, op->prio, op->plane, now_, start, start + dur});
    push(start + dur, [this, op] { core_->on_flash_done(op); });
  }
  void timer(Tick at, uint32_t kind, void* ctx) override {
    push(at, [this, kind, ctx] { core_->on_timer(kind, ctx); });
  }
  Tick dram(uint64_t) override { return now_; }
  void host_done(HostCmd* cmd, Tick at) override { done.push_back({cmd->id, at}); }

  void host(HostCmd* c) {
    push(c->arrival, [this, c] { core_->on_host_cmd(c); });
  }
  void run() {
    while (!q_.empty()) {
      Ev e = q_.top();
      q_.pop();
      now_ = e.t;
      fns_[e.id]();
    }
  }
  uint64_t count(OpOwner owner) const {
    uint64_t n = 0;
    for (const auto& l : log) n += l.owner == owner;
    return n;
  }

  std::vector<OpLog> log;
  std::vector<Done> done;

 private:
  struct Ev {
    Tick t;
    uint64_t id;
    bool operator<(const Ev& o) const { return t != o.t ? t > o.t : id > o.id; }
  };
  void push(Tick t, std::function<void()> f) {
    fns_.push_back(std::move(f));
    q_.push(Ev{t, fns_.size() - 1});
  }
  Core* core_ = nullptr;
  Tick now_ = 0;
  std::priority_queue<Ev> q_;
  std::vector<std::function<void()>> fns_;
  std::vector<Tick> die_free_;
};

// A small TLC die in the shape of tlc-gc-512gb: 1 channel, 2 planes x 64 blocks x 48 pages of
// 16 KiB, per-page programs, 7% over-provisioning.
inline SsdConfig small_tlc(const std::string& policy, double gc_threshold = 0.0) {
  SsdConfig c;
  c.preset = "test";
  c.geo.cell = nand::CellType::TLC;
  c.geo.channels = 1;
  c.geo.chips_per_channel = 1;
  c.geo.dies_per_chip = 1;
  c.geo.planes_per_die = 2;
  c.geo.blocks_per_plane = 64;
  c.geo.pages_per_block = 48;
  c.geo.page_size = 16384;
  c.geo.sector_size = 4096;
  c.program_mode = "per_page";
  c.read_us = {60, 60, 60};
  c.program_us = {700, 700, 700};
  c.erase_us = 3500;
  c.overprovisioning = 0.07;
  c.gc_threshold = gc_threshold;
  c.wl_threshold = 0;
  c.cache_mib = 0.25;
  c.dram_size_mib = 64;
  c.gc_policy = policy;
  c.finalize();
  return c;
}

}  // namespace ssdtlm::gctest
