// The GC and read-refresh tests' drive: a small TLC die (read 60 us, program 700 us, erase
// 3500 us as on the 512Gb TLC die), driven through tests/common/test_env.h.
#pragma once

#include <string>

#include "tests/common/test_env.h"

namespace ssdtlm::gctest {

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
