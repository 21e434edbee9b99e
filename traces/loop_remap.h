// --loop-remap (docs/traces.md "Transformations"): pass k > 0 of a looped trace moves each request
// through its own bijection of the device's 64 KiB chunks, c -> (a_k c + b_k) mod n with a_k
// coprime to n, keeping the offset inside the chunk and the size; a request that would then
// cross the capacity is moved to end at it (512 B aligned), as --fold modulo does. Pass 0 is the
// trace itself. A short trace looped this way overwrites its footprint in a different order every
// pass, so blocks hold data of several passes and GC victims keep valid pages, as a long trace's
// would; timing, sizes and the read/write mix are the trace's.
#pragma once

#include <cstdint>
#include <numeric>

namespace ssdtlm::traces {

class LoopRemap {
 public:
  static constexpr uint64_t kChunk = 64 * 1024;

  explicit LoopRemap(uint64_t capacity)
      : capacity_(capacity), n_(capacity / kChunk > 0 ? capacity / kChunk : 1) {}

  void start_pass(uint32_t pass) {
    if (pass == 0) {
      a_ = 1;
      b_ = 0;
      return;
    }
    const uint64_t h = mix(pass), g = mix(h ^ 0x5bd1e995u);
    a_ = n_ > 1 ? 1 + h % (n_ - 1) : 1;
    while (std::gcd(a_, n_) != 1) a_ = a_ + 1 < n_ ? a_ + 1 : 1;
    b_ = g % n_;
  }

  uint64_t map(uint64_t offset, uint64_t size) const {
    const uint64_t c = (offset / kChunk) % n_;
    const auto m = static_cast<uint64_t>((static_cast<unsigned __int128>(a_) * c + b_) % n_);
    uint64_t o = m * kChunk + offset % kChunk;
    if (size <= capacity_ && o + size > capacity_) o = (capacity_ - size) & ~uint64_t{511};
    return o;
  }

 private:
  static uint64_t mix(uint64_t x) {  // splitmix64's finaliser
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
  }
  uint64_t capacity_, n_, a_ = 1, b_ = 0;
};

}  // namespace ssdtlm::traces
