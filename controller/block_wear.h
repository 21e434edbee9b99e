// What the read-disturb model (controller/rr/disturb_model.h) reads of a drive's blocks: the
// erase count (P/E) and the reads since the last erase. The page-mapped Ftl keeps both in its
// block records; the hybrid core's read refresh keeps the reads beside its sector map.
#pragma once

#include <cstdint>

namespace ssdtlm {

class BlockWear {
 public:
  virtual uint32_t erase_count(uint64_t block) const = 0;
  virtual uint32_t read_count(uint64_t block) const = 0;

 protected:
  ~BlockWear() = default;
};

}  // namespace ssdtlm
