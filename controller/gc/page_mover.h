// The page-mapped drive's Mover (controller/gc/engine.h): a victim's valid pages read one by one
// through FlashPort, buffered, and programmed again in full program units of the destination
// (the last one padded), the integrity check's data moving with them; GC victims that would free
// nothing once padded are passed over.
#pragma once

#include <cstdint>
#include <vector>

#include "controller/gc/engine.h"
#include "controller/object_pool.h"

namespace ssdtlm {

class PageMover final : public Mover {
 public:
  // flash_data: the integrity check's data by physical sector (null when integrity is off).
  PageMover(const SsdConfig& cfg, BlockStore& store, SimCounters& ctr, FlashPort& port,
            PagedArray<uint32_t>* flash_data);

  int64_t take_victim(uint32_t plane, uint32_t max_valid) override;
  void start(uint32_t plane, const CollectJob& j) override;
  void advance(uint32_t plane, CollectJob& j) override;
  bool holds_moves(uint32_t plane) const override;
  bool in_flight(uint32_t plane) const override;
  bool flush_padded(uint32_t plane) override;
  bool block_reads_busy(uint64_t block) override;
  void issue_erase(uint32_t plane, const CollectJob& j) override;
  void before_erase(uint64_t block) override;
  void on_flash_done(FlashOp* op) override;
  void report(nlohmann::json& gc) const override;

 private:
  struct Move {
    Lpn lpn;
    Ppn src;
  };
  struct Unit {  // one program unit in flight
    uint32_t plane = 0;
    int n = 0;
    Move moves[4];
    Ppn dst = kNoPpn;
  };
  struct Plane {
    uint32_t reads_inflight = 0, programs_inflight = 0;
    std::vector<Move> buf;          // read, waiting to be programmed
    std::vector<uint32_t> buf_ver;  // integrity: their sector versions
  };

  bool frees_space(int64_t victim) const;  // collecting it nets free pages after padding
  void on_read_done(FlashOp* op);
  void on_program_done(FlashOp* op);
  bool program(uint32_t plane, bool pad);  // false: nothing issued
  uint64_t psn_of(Ppn ppn, uint32_t sector) const { return uint64_t(ppn) * spp_ + sector; }

  const SsdConfig& cfg_;
  const nand::Geometry& geo_;
  BlockStore& store_;
  SimCounters& ctr_;
  FlashPort& port_;
  PagedArray<uint32_t>* flash_data_;
  uint64_t moved_ = 0;                       // pages moved so far (counted only with fault.gc_copy)
  static constexpr uint32_t kCorrupt = ~0u;  // fault.gc_copy's data version
  const uint32_t spp_;
  const int unit_;
  std::vector<Plane> planes_;
  ObjectPool<Unit> units_;
  uint64_t refused_no_gain_ = 0;  // GC victims left: collecting them frees nothing (frees_space)
};

}  // namespace ssdtlm
