// The data-integrity shadow of the controller core (`--integrity`, docs/architecture.md): every
// host-written sector gets a version; the shadow keeps the newest version of each logical sector
// (golden) and the version programmed into each physical sector (flash), and a read compares
// what it returns with the newest version at its lookup. The components that hold data on its
// way (write buffer slots, GC and migration moves, read refresh) carry the versions with it.
//
// Both arrays grow with the sectors touched (PagedArray), and only when integrity is on; the
// version counter runs always (the hybrid write buffer orders its DRAM copies by it).
#pragma once

#include <cstdint>

#include "controller/ftl.h"
#include "controller/stats.h"

namespace ssdtlm {

class IntegrityShadow {
 public:
  // logical_sectors, physical_sectors: sizes of the two arrays (used only when `on`).
  IntegrityShadow(bool on, uint64_t logical_sectors, uint64_t physical_sectors,
                  uint32_t sector_size, SimCounters& ctr)
      : on_(on),
        sector_size_(sector_size),
        ctr_(ctr),
        golden_(on ? logical_sectors : 0, 0),
        flash_(on ? physical_sectors : 0, 0) {}

  bool on() const { return on_; }
  // A new version for a host-written sector.
  uint32_t next_version() { return ++version_; }
  uint32_t golden(uint64_t lsn) const { return golden_.get(lsn); }
  void set_golden(uint64_t lsn, uint32_t v) { golden_.at(lsn) = v; }
  uint32_t flash(uint64_t psn) const { return flash_.get(psn); }
  void set_flash(uint64_t psn, uint32_t v) { flash_.at(psn) = v; }
  // The physical sectors' versions, for components that move data in bulk (null when off).
  PagedArray<uint32_t>* flash_data() { return on_ ? &flash_ : nullptr; }

  // One sector read of logical sector lsn returned version `got`; `want` is the newest version
  // at the read's lookup; `where` the data came from (cache, dram, flash, unmapped).
  void check(uint64_t lsn, uint32_t got, uint32_t want, const char* where) {
    if (got == want) {  // the common case builds no description
      ++ctr_.checked_reads;
      return;
    }
    ctr_.check_read(lsn * sector_size_ / 512, "lsn " + std::to_string(lsn), got, want, where);
  }

 private:
  const bool on_;
  const uint32_t sector_size_;
  SimCounters& ctr_;
  uint32_t version_ = 0;
  PagedArray<uint32_t> golden_;  // by logical sector
  PagedArray<uint32_t> flash_;   // by physical sector
};

}  // namespace ssdtlm
