// Small hybrid drives for unit tests: one plane of 16 blocks, so that SLC caching, migration and
// GC act within a few host commands.
#pragma once

#include <string>

#include "controller/config.h"

namespace ssdtlm::slctest {

// hybrid-slc-tlc: 16 blocks x 12 pages (4 SLC blocks of 4 pages) on one plane, cache mode `policy`,
// write-through (the preset's DRAM write-back off).
inline SsdConfig tlc_small(const std::string& policy) {
  SsdConfig c;
  c.apply_file(find_preset("hybrid-slc-tlc"));
  c.set("nand.channels", 1, "test");
  c.set("nand.planes_per_die", 1, "test");
  c.set("nand.blocks_per_plane", 16, "test");
  c.set("nand.pages_per_block", 12, "test");
  c.set("slc.blocks_per_plane", 4, "test");
  c.set("slc.pages_per_block", 4, "test");
  c.set("slc.policy", policy, "test");
  c.set("slc.write_back_mib", 0, "test");  // write-through: writes complete when programmed
  c.finalize();
  return c;
}

// tlc_small on 2 channels (2 planes, each its own die), plane allocation `allocation`.
inline SsdConfig tlc_small2(const std::string& policy, const std::string& allocation) {
  SsdConfig c = tlc_small(policy);
  c.set("nand.channels", 2, "test");
  c.set("slc.allocation", allocation, "test");
  c.finalize();
  return c;
}

// hybrid-slc-qlc: 16 blocks x 16 pages (SLC mode 4 pages); size_policy empty: the preset's.
inline SsdConfig qlc_small(const std::string& size_policy = "") {
  SsdConfig c;
  c.apply_file(find_preset("hybrid-slc-qlc"));
  c.set("nand.blocks_per_plane", 16, "test");
  c.set("nand.pages_per_block", 16, "test");
  c.set("slc.pages_per_block", 4, "test");
  if (!size_policy.empty()) c.set("slc.size_policy", size_policy, "test");
  c.set("slc.write_back_mib", 0, "test");  // write-through: writes complete when programmed
  c.finalize();
  return c;
}

}  // namespace ssdtlm::slctest
