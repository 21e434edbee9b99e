#include "controller/ftl.h"

#include <algorithm>
#include <cassert>
#include <numeric>
#include <utility>

#include "controller/steady_state.h"

namespace ssdtlm {

Ftl::Ftl(const nand::Geometry& geo, uint64_t logical_pages, uint32_t gc_free_blocks_threshold)
    : geo_(geo),
      logical_pages_(logical_pages),
      gc_threshold_blocks_(gc_free_blocks_threshold),
      l2p_(logical_pages, kNoPpn),
      blocks_(geo.blocks()),
      p2l_(geo.blocks()),
      planes_(geo.planes()) {
  for (uint32_t p = 0; p < geo_.planes(); ++p) {
    PlaneState& ps = planes_[p];
    ps.free_ring.resize(geo_.blocks_per_plane);
    for (uint32_t b = 0; b < geo_.blocks_per_plane; ++b) ps.free_ring[b] = b;
    ps.free_count = geo_.blocks_per_plane;
    ps.bucket_head.assign(geo_.pages_per_block + 1, -1);
  }
  total_free_ = geo_.blocks();
}

uint32_t* Ftl::p2l_of(uint64_t b, bool create, bool fill) const {
  auto& slot = p2l_[b];
  if (!slot && create) {
    if (!p2l_pool_.empty()) {
      slot = std::move(p2l_pool_.back());
      p2l_pool_.pop_back();
    } else {
      slot.reset(new uint32_t[geo_.pages_per_block]);
    }
    if (fill) std::fill(slot.get(), slot.get() + geo_.pages_per_block, kNoLpn);
  }
  return slot.get();
}

Lpn Ftl::reverse(Ppn ppn) const {
  const uint32_t* s = p2l_read(geo_.block_of(ppn));
  return s ? s[geo_.page_of(ppn)] : kNoLpn;
}

bool Ftl::is_valid(Ppn ppn) const {
  Lpn l = reverse(ppn);
  return l != kNoLpn && lookup(l) == ppn;
}

// Where the cold lpn of rank r was laid out (ColdLayout in ftl.h).
static Ppn cold_location(const nand::Geometry& geo, uint64_t stripe,
                         const std::vector<uint32_t>& blocks, uint64_t r) {
  const uint32_t planes = geo.planes();
  const uint64_t s = r / stripe, q = r - s * stripe;
  return geo.ppn_of(blocks[s * planes + q % planes], static_cast<uint32_t>(q / planes));
}

size_t Ftl::ColdLayout::word_of_rank(const std::vector<uint32_t>& rank, uint64_t r) {
  return static_cast<size_t>(std::upper_bound(rank.begin(), rank.end(), static_cast<uint32_t>(r)) -
                             rank.begin() - 1);
}

Ppn Ftl::cold_ppn(Lpn lpn) const {
  const ColdLayout& c = *cold_;
  const uint64_t w = lpn / 64;
  if (w >= c.bits.size()) return kNoPpn;
  const uint64_t m = c.bits[w], bit = uint64_t(1) << (lpn % 64);
  if (!(m & bit)) return kNoPpn;
  const uint64_t r = c.rank[w] + static_cast<uint64_t>(__builtin_popcountll(m & (bit - 1)));
  // A stored cold lpn (the partial stripe) has its chunk written: r < implicit here.
  return r < c.implicit ? cold_location(geo_, c.stripe, c.blocks, r) : kNoPpn;
}

void Ftl::write_out_cold_chunk(Lpn lpn) {
  constexpr uint32_t kChunk = PagedArray<Ppn>::kChunk;
  const uint32_t first = lpn & ~(kChunk - 1);
  Ppn* out = &l2p_.at(first);  // the new chunk, kNoPpn everywhere
  const ColdLayout& c = *cold_;
  const uint64_t end = std::min<uint64_t>(c.bits.size(), (uint64_t(first) + kChunk) / 64);
  for (uint64_t w = first / 64; w < end; ++w) {
    uint64_t r = c.rank[w];
    for (uint64_t m = c.bits[w]; m; m &= m - 1, ++r) {
      if (r >= c.implicit) return;
      out[w * 64 + static_cast<uint64_t>(__builtin_ctzll(m)) - first] =
          cold_location(geo_, c.stripe, c.blocks, r);
    }
  }
}

const uint32_t* Ftl::p2l_read(uint64_t b) const {
  if (const uint32_t* s = p2l_[b].get()) return s;
  if (!cold_ || cold_->stripe_of[b] == ColdLayout::kNone) return nullptr;
  // An implicit cold block: page j holds the cold lpn of rank base + j * planes.
  const ColdLayout& c = *cold_;
  const uint32_t planes = geo_.planes(), ppb = geo_.pages_per_block;
  uint64_t target = uint64_t(c.stripe_of[b]) * c.stripe + geo_.plane_of_block(b);
  uint32_t* rev = p2l_of(b, true, false);
  size_t w = ColdLayout::word_of_rank(c.rank, target);
  uint64_t cur = c.rank[w], m = c.bits[w];  // cur: rank of m's lowest set bit
  for (uint32_t j = 0; j < ppb; ++j, target += planes) {
    for (uint64_t pc; cur + (pc = static_cast<uint64_t>(__builtin_popcountll(m))) <= target;) {
      cur += pc;
      m = c.bits[++w];
    }
    for (uint64_t k = target - cur; k; --k) m &= m - 1;
    rev[j] = static_cast<uint32_t>(w * 64 + static_cast<uint64_t>(__builtin_ctzll(m)));
    m &= m - 1;
    cur = target + 1;
  }
  return rev;
}

void Ftl::invalidate(Ppn ppn) {
  uint64_t b = geo_.block_of(ppn);
  BlockInfo& bi = blocks_[b];
  assert(bi.valid > 0);
  const bool bucketed = bi.in_bucket;
  if (bucketed) bucket_remove(b);
  --bi.valid;
  --mapped_;
  if (bucketed) bucket_insert(b);
}

void Ftl::commit(Ppn ppn, Lpn lpn) {
  uint64_t b = geo_.block_of(ppn);
  BlockInfo& bi = blocks_[b];
  assert(bi.inflight > 0);
  --bi.inflight;
  if (lpn != kNoLpn) {
    Ppn& slot = l2p_at(lpn);
    if (slot != kNoPpn) invalidate(slot);
    slot = ppn;
    p2l_of(b, true)[geo_.page_of(ppn)] = lpn;
    ++bi.valid;
    ++mapped_;
  }
  maybe_close(b);
}

void Ftl::unmap(Lpn lpn) {
  Ppn& slot = l2p_at(lpn);
  if (slot == kNoPpn) return;
  invalidate(slot);
  slot = kNoPpn;
}

bool Ftl::can_allocate(uint32_t plane, uint32_t reserve) const {
  const PlaneState& ps = planes_[plane];
  // An active block with room takes the write unless it was opened from the reserve (free
  // blocks below it): that block is GC's, for the moves that free the next one. Host data in it
  // left partial GC with no page for its moves and every plane at 0 free blocks (a deadlock).
  if (ps.active >= 0 && blocks_[ps.active].write_ptr < geo_.pages_per_block)
    return ps.free_count >= reserve;
  return ps.free_count > reserve;
}

uint32_t Ftl::next_plane(uint32_t reserve) {
  const uint32_t n = geo_.planes();
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t p = plane_cursor_;
    plane_cursor_ = plane_cursor_ + 1 == n ? 0 : plane_cursor_ + 1;
    if (can_allocate(p, reserve)) return p;
  }
  return n;
}

Ppn Ftl::allocate(uint32_t plane, uint32_t n) {
  PlaneState& ps = planes_[plane];
  if (ps.active >= 0) {
    // Units start on a unit boundary (a word line for one-shot programs): pages skipped after
    // single-page preconditioning fills stay unused.
    BlockInfo& cur = blocks_[ps.active];
    uint32_t mis = cur.write_ptr % n;
    if (mis != 0) {
      uint32_t skip = std::min(n - mis, geo_.pages_per_block - cur.write_ptr);
      cur.write_ptr += skip;
      counters_.padding_pages += skip;
    }
  }
  if (ps.active < 0 || blocks_[ps.active].write_ptr + n > geo_.pages_per_block) {
    if (ps.active >= 0) {
      // Pages left in a block that cannot take a whole unit stay unused (never with n dividing
      // pages_per_block, which finalize() guarantees for program units).
      int64_t old = ps.active;
      blocks_[old].write_ptr = geo_.pages_per_block;
      blocks_[old].state = BlockState::Full;
      ps.active = -1;
      maybe_close(old);
    }
    if (ps.free_count == 0) return kNoPpn;
    uint32_t bip = ps.free_ring[ps.free_head];
    ps.free_head = (ps.free_head + 1) % geo_.blocks_per_plane;
    --ps.free_count;
    --total_free_;
    ps.active = int64_t(plane) * geo_.blocks_per_plane + bip;
    BlockInfo& bi = blocks_[ps.active];
    bi.state = BlockState::Active;
    bi.write_ptr = 0;
  }
  BlockInfo& bi = blocks_[ps.active];
  Ppn first = geo_.ppn_of(ps.active, bi.write_ptr);
  bi.write_ptr += n;
  bi.inflight += n;
  if (bi.write_ptr == geo_.pages_per_block) {
    bi.state = BlockState::Full;
    int64_t b = ps.active;
    ps.active = -1;
    maybe_close(b);
  }
  return first;
}

int64_t Ftl::open_block(uint32_t plane) {
  PlaneState& ps = planes_[plane];
  if (ps.free_count == 0) return -1;
  const uint32_t bip = ps.free_ring[ps.free_head];
  ps.free_head = (ps.free_head + 1) % geo_.blocks_per_plane;
  --ps.free_count;
  --total_free_;
  const int64_t b = int64_t(plane) * geo_.blocks_per_plane + bip;
  blocks_[b].state = BlockState::Active;
  blocks_[b].write_ptr = 0;
  return b;
}

Ppn Ftl::allocate_in(uint64_t b, uint32_t n) {
  BlockInfo& bi = blocks_[b];
  if (bi.state != BlockState::Active) return kNoPpn;
  const uint32_t mis = bi.write_ptr % n;
  const uint32_t start = mis ? bi.write_ptr + (n - mis) : bi.write_ptr;
  if (start + n > geo_.pages_per_block) return kNoPpn;
  counters_.padding_pages += start - bi.write_ptr;
  const Ppn first = geo_.ppn_of(b, start);
  bi.write_ptr = start + n;
  bi.inflight += n;
  if (bi.write_ptr == geo_.pages_per_block) {
    bi.state = BlockState::Full;
    maybe_close(b);
  }
  return first;
}

void Ftl::close_block(uint64_t b) {
  BlockInfo& bi = blocks_[b];
  if (bi.state != BlockState::Active || planes_[geo_.plane_of_block(b)].active == int64_t(b))
    return;
  counters_.padding_pages += geo_.pages_per_block - bi.write_ptr;
  bi.write_ptr = geo_.pages_per_block;
  bi.state = BlockState::Full;
  maybe_close(b);
}

bool Ftl::close_active(uint32_t plane) {
  PlaneState& ps = planes_[plane];
  if (ps.active < 0) return true;
  const int64_t b = ps.active;
  ps.active = -1;
  close_block(static_cast<uint64_t>(b));
  return true;
}

void Ftl::maybe_close(uint64_t b) {
  BlockInfo& bi = blocks_[b];
  if (bi.state == BlockState::Full && bi.inflight == 0 && !bi.in_bucket) bucket_insert(b);
}

void Ftl::bucket_insert(uint64_t b) {
  BlockInfo& bi = blocks_[b];
  PlaneState& ps = planes_[geo_.plane_of_block(b)];
  const int32_t idx = static_cast<int32_t>(b % geo_.blocks_per_plane);
  bi.prev = -1;
  bi.next = ps.bucket_head[bi.valid];
  if (bi.next >= 0) blocks_[b - idx + bi.next].prev = idx;
  ps.bucket_head[bi.valid] = idx;
  bi.in_bucket = true;
  if (bi.valid < ps.min_hint) ps.min_hint = bi.valid;
}

void Ftl::bucket_remove(uint64_t b) {
  BlockInfo& bi = blocks_[b];
  PlaneState& ps = planes_[geo_.plane_of_block(b)];
  const uint64_t base = b - b % geo_.blocks_per_plane;
  if (bi.prev >= 0)
    blocks_[base + bi.prev].next = bi.next;
  else
    ps.bucket_head[bi.valid] = bi.next;
  if (bi.next >= 0) blocks_[base + bi.next].prev = bi.prev;
  bi.prev = bi.next = -1;
  bi.in_bucket = false;
}

int64_t Ftl::take_victim(uint32_t plane) {
  PlaneState& ps = planes_[plane];
  // Buckets below min_hint are empty; the hint only moves down on insert, so the scan is
  // amortised O(1) per block state change.
  while (ps.min_hint <= geo_.pages_per_block && ps.bucket_head[ps.min_hint] < 0) ++ps.min_hint;
  if (ps.min_hint > geo_.pages_per_block) {
    ps.min_hint = geo_.pages_per_block;
    return -1;
  }
  // A block with no invalid page frees nothing: not a victim.
  if (ps.min_hint == geo_.pages_per_block) return -1;
  uint64_t b = uint64_t(plane) * geo_.blocks_per_plane + ps.bucket_head[ps.min_hint];
  bucket_remove(b);
  blocks_[b].state = BlockState::Victim;
  return static_cast<int64_t>(b);
}

bool Ftl::take_block(uint64_t b) {
  BlockInfo& bi = blocks_[b];
  if (!bi.in_bucket) return false;
  bucket_remove(b);
  bi.state = BlockState::Victim;
  return true;
}

void Ftl::release_victim(uint64_t b) {
  blocks_[b].state = BlockState::Full;
  maybe_close(b);
}

uint32_t Ftl::collect_valid(uint64_t b, uint32_t from, uint32_t max, std::vector<Ppn>& out) const {
  const uint32_t* s = p2l_read(b);
  if (!s) return geo_.pages_per_block;
  const uint32_t end = blocks_[b].write_ptr;
  uint32_t p = from;
  for (; p < end && max > 0; ++p) {
    Lpn l = s[p];
    if (l == kNoLpn) continue;
    Ppn ppn = geo_.ppn_of(b, p);
    if (lookup(l) == ppn) {
      out.push_back(ppn);
      --max;
    }
  }
  return p >= end ? geo_.pages_per_block : p;
}

void Ftl::erase(uint64_t b) {
  BlockInfo& bi = blocks_[b];
  assert(bi.valid == 0 && bi.inflight == 0);
  if (bi.in_bucket) bucket_remove(b);
  if (p2l_[b]) p2l_pool_.push_back(std::move(p2l_[b]));
  if (cold_) cold_->stripe_of[b] = ColdLayout::kNone;
  bi.write_ptr = 0;
  bi.read_count = 0;
  ++bi.erase_count;
  max_erase_ = std::max(max_erase_, bi.erase_count);
  bi.state = BlockState::Free;
  const uint32_t plane = geo_.plane_of_block(b);
  PlaneState& ps = planes_[plane];
  uint32_t tail = (ps.free_head + ps.free_count) % geo_.blocks_per_plane;
  ps.free_ring[tail] = static_cast<uint32_t>(b % geo_.blocks_per_plane);
  ++ps.free_count;
  ++total_free_;
  ++counters_.erases;
}

int64_t Ftl::coldest_block(uint32_t plane) const {
  return coldest_block_of(
      plane, geo_.blocks_per_plane, [&](uint64_t b) { return blocks_[b].in_bucket; },
      [&](uint64_t b) { return blocks_[b].erase_count; });
}

uint32_t Ftl::min_erase_count(uint32_t plane) const {
  uint32_t m = ~0u;
  const uint64_t base = uint64_t(plane) * geo_.blocks_per_plane;
  for (uint32_t i = 0; i < geo_.blocks_per_plane; ++i)
    m = std::min(m, blocks_[base + i].erase_count);
  return m;
}

bool Ftl::fill(Lpn lpn) {
  // Fill keeps word lines whole: a unit of `bits` pages is allocated and its unused pages count
  // as padding only at the very end of preconditioning, which fill() avoids by allocating one
  // page at a time inside the active block (preconditioned data carries no timing).
  uint32_t plane = next_plane();
  if (plane == geo_.planes()) return false;
  Ppn ppn = allocate(plane, 1);
  if (ppn == kNoPpn) return false;
  commit(ppn, lpn);
  return true;
}

void Ftl::gc_instant(uint32_t plane) {
  int64_t v = take_victim(plane);
  if (v < 0) return;
  std::vector<Ppn> valid;
  collect_valid(static_cast<uint64_t>(v), 0, geo_.pages_per_block, valid);
  for (Ppn src : valid) {
    Lpn l = reverse(src);
    Ppn dst = allocate(plane, 1);
    if (dst == kNoPpn) break;
    commit(dst, l);
  }
  if (blocks_[v].valid == 0)
    erase(static_cast<uint64_t>(v));
  else
    release_victim(static_cast<uint64_t>(v));
}

void Ftl::precondition(uint64_t n, uint64_t overwrites, std::mt19937_64& rng) {
  n = std::min<uint64_t>(n, logical_pages_);
  for (uint64_t l = 0; l < n; ++l)
    if (!fill(static_cast<Lpn>(l))) break;
  if (n == 0) return;
  std::uniform_int_distribution<uint64_t> pick(0, n - 1);
  const uint64_t spare_blocks =
      geo_.blocks_per_plane -
      (logical_pages_ / geo_.planes() + geo_.pages_per_block - 1) / geo_.pages_per_block;
  const uint32_t target_free = static_cast<uint32_t>(
      std::max<uint64_t>(3, std::min<uint64_t>(gc_threshold_blocks_, spare_blocks / 2)));
  for (uint64_t i = 0; i < overwrites; ++i) {
    uint32_t plane = next_plane();
    if (plane == geo_.planes()) break;
    // Timing-free GC keeps each plane where a running drive would be: at the runtime GC
    // threshold, capped at half the spare blocks (a threshold above the over-provisioning, as in
    // the read-disturb paper's setup, would otherwise collect nearly-full blocks at every write).
    while (free_blocks(plane) < target_free) {
      uint64_t before = free_blocks(plane);
      gc_instant(plane);
      if (free_blocks(plane) <= before) break;
    }
    Ppn dst = allocate(plane, 1);
    if (dst == kNoPpn) break;
    commit(dst, static_cast<Lpn>(pick(rng)));
  }
}

uint64_t Ftl::state_bytes() const {
  uint64_t p2l = 0;
  for (const auto& s : p2l_)
    if (s) p2l += geo_.pages_per_block * sizeof(uint32_t);
  p2l += p2l_pool_.size() * geo_.pages_per_block * sizeof(uint32_t);
  if (cold_)
    p2l += cold_->bits.size() * 8 + cold_->rank.size() * 4 +
           (cold_->blocks.size() + cold_->stripe_of.size()) * 4;
  return l2p_.bytes() + p2l + blocks_.size() * (sizeof(BlockInfo) + sizeof(void*)) +
         planes_.size() * (geo_.blocks_per_plane * 4 + (geo_.pages_per_block + 1) * 4);
}

}  // namespace ssdtlm
