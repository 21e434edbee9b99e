#include "controller/rr/lpn_counter.h"

namespace ssdtlm {

LpnCounter::LpnCounter(uint32_t expected) {
  uint32_t cap = 16;
  while (cap < expected * 2) cap <<= 1;
  keys_.assign(cap, 0);
  counts_.assign(cap, 0);
  gens_.assign(cap, 0);
  mask_ = cap - 1;
}

static inline uint32_t mix(uint32_t k) {
  k ^= k >> 16;
  k *= 0x7feb352dU;
  k ^= k >> 15;
  k *= 0x846ca68bU;
  k ^= k >> 16;
  return k;
}

uint32_t LpnCounter::add(uint32_t key) {
  if ((size_ + 1) * 2 > keys_.size()) grow();
  for (uint32_t i = mix(key) & mask_;; i = (i + 1) & mask_) {
    if (gens_[i] != gen_) {
      gens_[i] = gen_;
      keys_[i] = key;
      counts_[i] = 1;
      ++size_;
      return 1;
    }
    if (keys_[i] == key) return ++counts_[i];
  }
}

bool LpnCounter::contains(uint32_t key) const {
  for (uint32_t i = mix(key) & mask_;; i = (i + 1) & mask_) {
    if (gens_[i] != gen_) return false;
    if (keys_[i] == key) return true;
  }
}

void LpnCounter::grow() {
  std::vector<uint32_t> k, c;
  for_each([&](uint32_t key, uint32_t cnt) {
    k.push_back(key);
    c.push_back(cnt);
  });
  const size_t cap = keys_.size() * 2;
  keys_.assign(cap, 0);
  counts_.assign(cap, 0);
  gens_.assign(cap, 0);
  mask_ = static_cast<uint32_t>(cap - 1);
  gen_ = 1;
  size_ = 0;
  for (size_t i = 0; i < k.size(); ++i) {  // the keys are distinct: each takes a new slot
    uint32_t j = mix(k[i]) & mask_;
    while (gens_[j] == gen_) j = (j + 1) & mask_;
    gens_[j] = gen_;
    keys_[j] = k[i];
    counts_[j] = c[i];
  }
  size_ = static_cast<uint32_t>(k.size());
}

}  // namespace ssdtlm
