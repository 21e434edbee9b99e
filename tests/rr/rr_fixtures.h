// Shared by the read-refresh tests: a recording TestEnv, a fixed wear model and a driver of host
// reads and writes through the core.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "controller/rr/lpn_counter.h"
#include "controller/rr/read_disturb.h"
#include "nand/reliability.h"
#include "tests/common/core_parts.h"
#include "tests/gc/small_tlc.h"

namespace ssdtlm {
namespace {

using nand::LdpcModel;
using nand::RberTable;

// Records the physical page of every GC-engine read (the refresh order) and every submitted
// operation with its page (index = the TestEnv log's index).
class RecEnv : public test::TestEnv {
 public:
  struct Op {
    FlashKind kind;
    OpOwner owner;
    Ppn ppn;
    uint8_t prio;
    bool no_transfer;
    Tick read_time;
  };
  void submit(FlashOp* op) override {
    if (op->owner == OpOwner::GcRead) gc_read_ppns.push_back(op->ppn);
    if (op->kind == FlashKind::Read) levels.push_back(op->retry_level);
    ops.push_back({op->kind, op->owner, op->ppn, op->prio, op->no_transfer, op->read_time});
    TestEnv::submit(op);
  }
  std::vector<Ppn> gc_read_ppns;
  std::vector<int> levels;
  std::vector<Op> ops;
};

// ws+rs's scope is the default unless asked; the once-per-idle ablation ("request") is a device
// one.
SsdConfig rd_config(const std::string& policy, uint32_t hard, uint32_t soft,
                    const std::string& rs_trigger = "step", const std::string& rs_scope = "") {
  SsdConfig c = gctest::small_tlc("greedy", 0.0);
  c.rd_enabled = true;
  c.rd_policy = policy;
  c.rd_hard_threshold = hard;
  c.rd_soft_threshold = soft;
  c.rd_rs_trigger = rs_trigger;
  if (!rs_scope.empty())
    c.rd_rs_scope = rs_scope;
  else if (rs_trigger == "request")
    c.rd_rs_scope = "device";
  c.finalize();
  return c;
}

// A block-wear source with every count set by the test.
struct FixedWear : BlockWear {
  std::vector<uint32_t> erases, reads;
  explicit FixedWear(uint64_t blocks) : erases(blocks, 0), reads(blocks, 0) {}
  uint32_t erase_count(uint64_t b) const override { return erases[b]; }
  uint32_t read_count(uint64_t b) const override { return reads[b]; }
};

// rd.initial_pe_max: each block starts at a P/E count drawn uniformly in [0, max] (seeded, so
// the same run gives the same wear), on top of its erases; 0 is a fresh drive.
class Driver {
 public:
  Driver(const SsdConfig& cfg, bool integrity = true) : cfg_(cfg), core(cfg_, env, integrity) {
    env.bind(&core);
    precondition(core, 0.5, 0.0);
  }
  // One page read of lpn, spaced `gap` after the previous request, run to completion.
  void read(Lpn lpn, Tick gap = 1'000'000'000) {
    cmds_.emplace_back();
    HostCmd& c = cmds_.back();
    c.id = cmds_.size();
    t_ += gap;
    c.arrival = t_;
    c.offset = uint64_t(lpn) * cfg_.geo.page_size;
    c.size = cfg_.geo.page_size;
    c.is_read = true;
    env.host(&c);
    env.run();
    t_ = std::max(t_, env.now());
  }
  uint64_t block_of(Lpn lpn) const { return cfg_.geo.block_of(ftl(core).lookup(lpn)); }
  // The first n mapped lpns that live in block b.
  std::vector<Lpn> lpns_in(uint64_t b, size_t n) const {
    std::vector<Lpn> out;
    for (Lpn l = 0; l < ftl(core).logical_pages() && out.size() < n; ++l)
      if (ftl(core).lookup(l) != kNoPpn && block_of(l) == b) out.push_back(l);
    return out;
  }
  void reads(Lpn lpn, int n, Tick gap = 1'000'000'000) {
    for (int i = 0; i < n; ++i) read(lpn, gap);
  }
  // One-page reads that overlap: read i of lpns[i] arrives at_[i] after the previous request
  // (1 ms + at_[i] after it), all run together to completion. Returns their command ids.
  std::vector<uint64_t> overlapping_reads(const std::vector<Lpn>& lpns,
                                          const std::vector<Tick>& at) {
    const Tick t0 = t_ + 1'000'000'000;
    std::vector<uint64_t> ids;
    for (size_t i = 0; i < lpns.size(); ++i) {
      cmds_.emplace_back();
      HostCmd& c = cmds_.back();
      c.id = cmds_.size();
      c.arrival = t0 + at[i];
      c.offset = uint64_t(lpns[i]) * cfg_.geo.page_size;
      c.size = cfg_.geo.page_size;
      c.is_read = true;
      env.host(&c);
      ids.push_back(c.id);
    }
    env.run();
    t_ = std::max(t0, env.now());
    return ids;
  }
  uint32_t die_of(Lpn lpn) const {
    return cfg_.geo.die_of_plane(cfg_.geo.plane_of_block(block_of(lpn)));
  }

  SsdConfig cfg_;
  RecEnv env;
  Core core;

 private:
  std::deque<HostCmd> cmds_;
  Tick t_ = 0;
};

}  // namespace
}  // namespace ssdtlm
