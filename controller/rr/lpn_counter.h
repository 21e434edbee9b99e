// Open-addressing lpn -> count table cleared in O(1) by a generation stamp: the hot-read mining of
// read-disturb-aware write scheduling (ws) counts every read address of a window in it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ssdtlm {

class LpnCounter {
 public:
  explicit LpnCounter(uint32_t expected = 1024);
  uint32_t add(uint32_t key);  // returns the new count
  bool contains(uint32_t key) const;
  void insert(uint32_t key) { add(key); }
  void clear() {
    ++gen_;
    size_ = 0;
  }
  uint32_t size() const { return size_; }
  template <typename F>
  void for_each(F&& f) const {
    for (size_t i = 0; i < keys_.size(); ++i)
      if (gens_[i] == gen_) f(keys_[i], counts_[i]);
  }

 private:
  void grow();
  std::vector<uint32_t> keys_, counts_, gens_;
  uint32_t gen_ = 1, size_ = 0, mask_ = 0;
};

}  // namespace ssdtlm
