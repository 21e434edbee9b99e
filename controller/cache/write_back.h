// The page-mapped drive's WriteBuffer (controller/core/parts.h): a DRAM write-back cache whose
// dirty pages are written back in program units chosen by an FSP grouper (controller/fsp/).
//
//   write: a page piece enters the cache (a hit updates its slot) or, when no slot is free,
//          waits in arrival order; the write completes once its pages are in the cache
//   write-back: on demand (pages waiting), to keep headroom, and between the watermarks
//          (cache.flush_policy); FspGrouper::select picks the unit's pages, partial pages read
//          the rest of their page first (read-modify-write), the unit goes to the next plane of
//          the FTL's round robin (or ws's choice) and is mapped when its program completes
//   reads: a page the cache holds whole is a hit; FSP's Rewrite and Baseline-RW's read caching
//          bring flash pages back into the cache (write_back_fsp.cpp)
//
// Plain C++; reaches the flash path through the core's FlashPort.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "controller/core/parts.h"
#include "controller/flash_port.h"
#include "controller/flat_map.h"
#include "controller/fsp/grouper.h"
#include "controller/object_pool.h"
#include "controller/write_cache.h"

namespace ssdtlm {

class PageMapping;
class CollectEngine;

class WriteBackCache final : public WriteBuffer, private CorePart {
 public:
  WriteBackCache(const CoreServices& s, PageMapping& map, CollectEngine& gc);
  ~WriteBackCache() override;
  // ws: the read-disturb-aware plane choice of a unit (null without read disturb).
  void set_read_disturb(ReadDisturb* rd) { rd_ = rd; }

  const WriteCache& cache() const { return cache_; }
  FspGrouper& grouper() { return *grouper_; }
  const FspGrouper& grouper() const { return *grouper_; }
  uint64_t pages_waiting() const { return waitq_.size(); }
  // FSP Rewrite module (docs/fsp.md): lpn, absent from the cache, re-enters it as a dirty page
  // at the LRU tail carrying the data of its current flash copy. Needs a free slot and no write
  // waiting for one; returns false (nothing done) otherwise.
  bool rewrite(Lpn lpn, uint32_t req_bytes = 0);

  // --- WriteBuffer ---
  uint32_t read_hit(Lpn lpn, uint32_t mask) override;
  bool hit_without_flash() const override { return false; }
  void on_read_hit(Lpn lpn) override;
  void on_read_unwritten(Lpn lpn) override { grouper_->on_host_read(lpn, -1, false); }
  void on_host_read_done(const FlashOp& op, const HostCmd& c) override;
  void write_piece(HostCmd* c, Lpn lpn, uint32_t mask) override;
  void end_write(HostCmd* /*c*/) override { pump_evictions(); }
  void on_served(const HostCmd& c, Tick latency) override {
    if (c.is_read) grouper_->on_read_served(c, latency);
  }
  void on_flash_done(FlashOp* op) override;
  void on_timer(void* ctx) override;  // the FSP decision unit's time for a flush job has passed
  bool blocked() const override { return !blocked_.empty(); }
  void retry_blocked() override;
  bool idle() const override { return flushes_inflight_ == 0 && waitq_.empty(); }
  void set_backend_factory(const rl::BackendFactory& f) override {
    grouper_->set_backend_factory(f);
  }
  uint64_t state_bytes() const override { return cache_.capacity() * sizeof(WriteCache::Entry); }
  uint64_t resident() const override { return cache_.resident(); }
  uint64_t flushing() const override { return cache_.flushing(); }
  void report(nlohmann::json& r, const ReportContext& ctx) const override;
  void write_fsp_rewards_csv(const std::string& path) const override;

 private:
  struct Piece {
    HostCmd* cmd;
    Lpn lpn;
    uint32_t mask;
  };
  struct FlushJob {
    int n = 0;
    int32_t slots[4];  // -1: a page programmed from outside the cache (immediate rewrite)
    Lpn lpns[4];
    uint64_t seq = 0;
    uint32_t pending_reads = 0;
    Ppn ppn = kNoPpn;
    std::vector<uint32_t> extra_ver;  // integrity: versions of the slot -1 page
  };
  struct InflightLpn {
    uint64_t newest_committed = 0;
    uint32_t inflight = 0;
  };
  // write path and write-back
  bool accept_write(HostCmd* c, Lpn lpn, uint32_t mask);
  bool accept_waiting();
  void drain_waitq();
  void pump_evictions();
  bool evict_unit();
  FlushJob* start_flush_job(const int32_t* slots, const Lpn* lpns, int n);
  void issue_flush_program(FlushJob* job);
  void flush_program_done(FlashOp* op);
  // FSP helpers (write_back_fsp.cpp, docs/fsp.md)
  bool evict_unit_hot(Lpn lpn);  // lpn -> LSB + the LRU-tail dirty pages, programmed now
  bool drop_clean_tail();        // baseline-rw: frees the LRU tail slot if it holds clean data
  void admit_read(Lpn lpn, Ppn ppn, uint32_t req_bytes);
  void after_flash_read(const FlashOp& op, int type, const HostCmd& c);
  // Pages waiting for a cache slot outside the host write path: clean read data (baseline-rw)
  // and rewrites (rl). A bounded ring; each entry is re-validated when a slot frees.
  struct PendingAdmit {
    Lpn lpn;
    Ppn ppn;
    uint32_t bytes;
    bool rewrite;
  };
  static constexpr uint32_t kAdmitRing = 64;
  void queue_admit(Lpn lpn, Ppn ppn, uint32_t bytes, bool rewrite);
  bool admit_pending();
  bool insert_from_flash(Lpn lpn, Ppn ppn, uint32_t bytes, bool rewrite);
  // Queued admissions that count as eviction demand (fsp.rewrite_when_full wait: not rewrites).
  uint32_t admit_demand() const;
  uint64_t lsn_of(Lpn lpn, uint32_t sector) const { return uint64_t(lpn) * spp_ + sector; }
  uint64_t psn_of(Ppn ppn, uint32_t sector) const { return uint64_t(ppn) * spp_ + sector; }

  PageMapping& map_;
  Ftl& ftl_;
  CollectEngine& gc_;
  ReadDisturb* rd_ = nullptr;
  const uint32_t spp_;
  const int unit_;
  const bool rewrite_wait_, rewrite_skip_;  // fsp.rewrite_when_full
  WriteCache cache_;
  std::unique_ptr<FspGrouper> grouper_;

  ObjectPool<FlushJob> jobs_;
  std::deque<Piece> waitq_;
  std::deque<FlushJob*> blocked_;
  FlatMap<InflightLpn> inflight_lpn_;
  uint64_t flush_seq_ = 0;
  uint64_t flushes_inflight_ = 0;
  int32_t hit_slot_ = -1;  // the slot read_hit found

  std::vector<PendingAdmit> admit_ring_;
  uint32_t admit_head_ = 0, admit_count_ = 0;
  uint32_t admit_rewrites_ = 0;  // rewrites among the queued admissions

  // Watermark write-back (cache.flush_policy): dirty-slot counts that start and stop it.
  const bool watermark_;
  const uint64_t flush_high_, flush_low_;
  bool flushing_down_ = false;
};

}  // namespace ssdtlm
