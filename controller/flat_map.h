// Open-addressing hash map from uint32 keys to small values: linear probing, backward-shift
// deletion, no allocation after construction unless it grows. Used on the hot path (cache index,
// in-flight flush table) where std::unordered_map would allocate per insert.
#pragma once

#include <cstdint>
#include <vector>

namespace ssdtlm {

template <typename V>
class FlatMap {
 public:
  static constexpr uint32_t kEmpty = 0xffffffffu;  // reserved key

  explicit FlatMap(uint64_t expected = 16) { rehash(capacity_for(expected)); }

  V* find(uint32_t key) {
    uint64_t i = slot(key);
    while (keys_[i] != kEmpty) {
      if (keys_[i] == key) return &vals_[i];
      i = (i + 1) & mask_;
    }
    return nullptr;
  }
  const V* find(uint32_t key) const { return const_cast<FlatMap*>(this)->find(key); }

  // Inserts or overwrites; returns a reference to the value.
  V& put(uint32_t key, const V& v) {
    if ((size_ + 1) * 4 > (mask_ + 1) * 3) rehash((mask_ + 1) * 2);
    uint64_t i = slot(key);
    while (keys_[i] != kEmpty) {
      if (keys_[i] == key) {
        vals_[i] = v;
        return vals_[i];
      }
      i = (i + 1) & mask_;
    }
    keys_[i] = key;
    vals_[i] = v;
    ++size_;
    return vals_[i];
  }

  bool erase(uint32_t key) {
    uint64_t i = slot(key);
    while (keys_[i] != key) {
      if (keys_[i] == kEmpty) return false;
      i = (i + 1) & mask_;
    }
    // Backward-shift deletion keeps probe sequences intact without tombstones.
    uint64_t j = i;
    for (;;) {
      j = (j + 1) & mask_;
      if (keys_[j] == kEmpty) break;
      uint64_t home = slot(keys_[j]);
      // Move j into i if home is cyclically outside (i, j].
      bool between = i <= j ? (i < home && home <= j) : (i < home || home <= j);
      if (!between) {
        keys_[i] = keys_[j];
        vals_[i] = vals_[j];
        i = j;
      }
    }
    keys_[i] = kEmpty;
    --size_;
    return true;
  }

  uint64_t size() const { return size_; }
  uint64_t bytes() const { return (mask_ + 1) * (sizeof(uint32_t) + sizeof(V)); }

 private:
  static uint64_t capacity_for(uint64_t n) {
    uint64_t c = 16;
    while (c * 3 < n * 4 + 4) c <<= 1;
    return c;
  }
  uint64_t slot(uint32_t key) const {
    return (uint64_t(key) * 0x9E3779B97F4A7C15ull >> 32) & mask_;
  }
  void rehash(uint64_t cap) {
    std::vector<uint32_t> ok = std::move(keys_);
    std::vector<V> ov = std::move(vals_);
    keys_.assign(cap, kEmpty);
    vals_.assign(cap, V{});
    mask_ = cap - 1;
    size_ = 0;
    for (uint64_t i = 0; i < ok.size(); ++i)
      if (ok[i] != kEmpty) put(ok[i], ov[i]);
  }

  std::vector<uint32_t> keys_;
  std::vector<V> vals_;
  uint64_t mask_ = 0;
  uint64_t size_ = 0;
};

}  // namespace ssdtlm
