// Ftl::precondition_steady: the steady-state layout built directly (controller/ftl.h).
#include <algorithm>
#include <cassert>
#include <numeric>
#include <utility>

#include "controller/ftl.h"
#include "controller/steady_state.h"

namespace ssdtlm {
namespace {

bool bit(const PagedArray<uint64_t>* m, uint64_t l) {
  return (m->get(uint32_t(l / 64)) >> (l % 64) & 1) != 0;
}
// Word-wise (64 lpns at a time): the lpns laid out and the hot ones among lpns [64w, 64w + 64).
uint64_t word(const PagedArray<uint64_t>* m, uint64_t w) {
  return m->get(static_cast<uint32_t>(w));
}
uint64_t below(uint64_t w, uint64_t end) {  // bits of the lpns of word w below end
  return end >= (w + 1) * 64 ? ~0ull : end <= w * 64 ? 0ull : (1ull << (end - w * 64)) - 1;
}

}  // namespace

// One run of precondition_steady, step by step: the lpns to lay out, the cold and hot classes,
// the steady state's valid-page counts per block, the cold stripes, the hot pages, the planes'
// free rings.
class Ftl::SteadyBuilder {
 public:
  SteadyBuilder(Ftl& f, std::mt19937_64& rng, const PagedArray<uint64_t>* hot,
                const PagedArray<uint64_t>* extra)
      : f_(f),
        rng_(rng),
        hot_(hot),
        extra_(extra),
        planes_(f.geo_.planes()),
        bpp_(f.geo_.blocks_per_plane),
        ppb_(f.geo_.pages_per_block),
        used_(planes_, 0),
        fill_in_(planes_, 0),
        open_(planes_, -1) {}

  uint64_t run(uint64_t n, uint32_t target_free, uint32_t min_gain, uint32_t min_free) {
    const uint64_t added = extend(std::min<uint64_t>(n, f_.logical_pages_));
    if (n_ == 0) return 0;
    count_classes();
    block_counts(target_free, min_gain, min_free);
    uint64_t a = std::max<uint64_t>(1, static_cast<uint64_t>(double(n_) * 0.6180339887498949)) | 1;
    while (std::gcd(a, n_) != 1) a += 2;
    const uint64_t c = rng_() % n_;
    place_cold();
    place_hot(a, c);
    finish();
    return added;
  }

 private:
  // Lpns laid out: [0, n) and the extra ones; n_ becomes the end of that range.
  uint64_t extend(uint64_t n) {
    uint64_t added = 0;
    n0_ = n_ = n;
    if (extra_)
      for (uint64_t w = n0_ / 64; w * 64 < f_.logical_pages_; ++w) {
        const uint64_t x = word(extra_, w) & ~below(w, n0_) & below(w, f_.logical_pages_);
        if (!x) continue;
        added += static_cast<uint64_t>(__builtin_popcountll(x));
        n_ = w * 64 + 64 - static_cast<uint64_t>(__builtin_clzll(x));
      }
    return added;
  }
  uint64_t laid_word(uint64_t w) const {
    return (below(w, n0_) | (extra_ ? word(extra_, w) : 0)) & below(w, n_);
  }
  uint64_t hot_word(uint64_t w) const { return hot_ ? word(hot_, w) : ~0ull; }
  bool laid(uint64_t l) const { return l < n0_ || bit(extra_, l); }
  bool is_hot(uint64_t l) const { return !hot_ || bit(hot_, l); }

  // The cold lpns' bitmap with per-word ranks (ColdLayout), and the count of each class.
  void count_classes() {
    layout_ = std::make_unique<ColdLayout>();
    ColdLayout& cl = *layout_;
    words_ = (n_ + 63) / 64;
    cl.bits.resize(words_);
    cl.rank.resize(words_ + 1);
    for (uint64_t w = 0; w < words_; ++w) {
      const uint64_t m = laid_word(w), h = hot_word(w);
      nhot_ += static_cast<uint64_t>(__builtin_popcountll(m & h));
      cl.rank[w] = static_cast<uint32_t>(ncold_);
      cl.bits[w] = m & ~h;
      ncold_ += static_cast<uint64_t>(__builtin_popcountll(m & ~h));
    }
    cl.rank[words_] = static_cast<uint32_t>(ncold_);
  }

  // Per plane: cold lpns in LBA order, hot lpns; the k-th lpn of each class goes to plane k mod
  // planes. The hot blocks' valid-page counts are greedy GC's steady state.
  void block_counts(uint32_t target_free, uint32_t min_gain, uint32_t min_free) {
    counts_.resize(planes_);
    for (uint32_t p = 0; p < planes_; ++p) {
      const uint64_t cold = ncold_ / planes_ + (p < ncold_ % planes_);
      const uint64_t hotn = nhot_ / planes_ + (p < nhot_ % planes_);
      const uint32_t cold_blocks = static_cast<uint32_t>((cold + ppb_ - 1) / ppb_);
      const uint64_t room = cold_blocks * uint64_t(ppb_) - cold;  // stale tail of cold blocks
      const uint64_t hot_left = hotn > room ? hotn - room : 0;
      const uint64_t need = cold_blocks + (hot_left + ppb_ - 1) / ppb_;
      uint32_t free_blocks =
          static_cast<uint32_t>(std::min<uint64_t>(target_free, bpp_ > need ? bpp_ - need : 0));
      // The hot pages that do not fit the cold blocks' tail spread over the hot blocks; fewer
      // free blocks (more hot blocks) while the next victim would gain less than min_gain pages.
      for (;;) {
        const uint32_t hot_blocks = bpp_ - free_blocks - cold_blocks;
        counts_[p] = greedy_steady_block_counts(hot_blocks, ppb_, hotn - std::min(hotn, room));
        if (free_blocks <= min_free || counts_[p].empty() || counts_[p][0] + min_gain <= ppb_)
          break;
        --free_blocks;
      }
    }
  }

  // The next free block of plane p, full. whole: every page written next; implicit: none (a
  // block of the cold layout's whole stripes).
  uint64_t take_block(uint32_t p, bool whole = false, bool implicit = false) {
    PlaneState& ps = f_.planes_[p];
    const uint64_t b = uint64_t(p) * bpp_ + ps.free_ring[(ps.free_head + used_[p]) % bpp_];
    ++used_[p];
    BlockInfo& bi = f_.blocks_[b];
    bi.state = BlockState::Full;
    bi.write_ptr = ppb_;
    if (!implicit) f_.p2l_of(b, true, !whole);  // a whole block needs no kNoLpn fill
    return b;
  }

  // Cold: whole blocks in LBA order, the k-th cold lpn on plane k mod planes, a stripe (planes *
  // ppb cold lpns: one block per plane) at a time. The whole stripes stay implicit (ColdLayout:
  // no map entry or reverse map written); the last, partial one is stored, block by block, so
  // that each block's reverse map is written in order and once.
  void place_cold() {
    ColdLayout& cl = *layout_;
    const uint64_t stripe = uint64_t(planes_) * ppb_;
    const uint64_t full_stripes = ncold_ / stripe;
    cl.stripe = stripe;
    cl.implicit = full_stripes * stripe;
    cl.blocks.resize(full_stripes * planes_);
    cl.stripe_of.assign(f_.blocks_.size(), ColdLayout::kNone);
    for (uint64_t s = 0; s < full_stripes; ++s)
      for (uint32_t p = 0; p < planes_; ++p) {
        const uint64_t b = take_block(p, true, true);
        cl.blocks[s * planes_ + p] = static_cast<uint32_t>(b);
        cl.stripe_of[b] = static_cast<uint32_t>(s);
        f_.blocks_[b].valid += ppb_;
        open_[p] = static_cast<int64_t>(b);
        fill_in_[p] = ppb_;
      }
    std::vector<uint32_t> buf;  // the cold lpns from rank cl.implicit on (the partial stripe)
    buf.reserve(stripe);
    size_t w = ColdLayout::word_of_rank(cl.rank, cl.implicit);
    uint64_t m = w < words_ ? cl.bits[w] : 0;
    for (uint64_t k = cl.implicit - cl.rank[w]; k; --k) m &= m - 1;
    for (; w < words_; m = ++w < words_ ? cl.bits[w] : 0)
      for (; m; m &= m - 1)
        buf.push_back(static_cast<uint32_t>(w * 64 + static_cast<uint64_t>(__builtin_ctzll(m))));
    assert(buf.size() < stripe);
    if (full_stripes > 0) f_.cold_ = std::move(layout_);
    place_partial_stripe(buf);
    layout_.reset();
  }
  void place_partial_stripe(const std::vector<uint32_t>& buf) {
    for (uint32_t p = 0; p < planes_ && p < buf.size(); ++p) {
      const uint32_t count = static_cast<uint32_t>((buf.size() - p + planes_ - 1) / planes_);
      const uint64_t b = take_block(p, count == ppb_);
      uint32_t* rev = f_.p2l_[b].get();
      const Ppn base = f_.geo_.ppn_of(b, 0);
      for (uint32_t j = 0; j < count; ++j) {
        const uint32_t l = buf[p + uint64_t(j) * planes_];
        rev[j] = l;
        f_.l2p_at(l) = base + j;
      }
      open_[p] = static_cast<int64_t>(b);
      fill_in_[p] = count;
      f_.blocks_[b].valid += count;
    }
  }

  // Hot: first into the free pages of the last cold block, then the steady-state blocks. Hot lpns
  // are taken in a scattered order: (a * i + c) mod n, a coprime with n.
  void place_hot(uint64_t a, uint64_t c) {
    pos_.resize(uint64_t(planes_) * ppb_);
    next_hot_block_.assign(planes_, 0);
    left_in_block_.assign(planes_, 0);
    hot_open_.assign(planes_, -1);
    const uint64_t n = n_;
    if (nhot_ < n / 8) {
      // Few hot lpns: in the same order, sorted by their index i in the sequence (a * i + c) mod
      // n, i = (lpn - c) * a^-1 mod n, instead of a walk over all n.
      int64_t t = 0, nt = 1, r = static_cast<int64_t>(n), nr = static_cast<int64_t>(a % n);
      while (nr) {
        const int64_t q = r / nr;
        t = std::exchange(nt, t - q * nt);
        r = std::exchange(nr, r - q * nr);
      }
      const uint64_t inv = static_cast<uint64_t>(t < 0 ? t + static_cast<int64_t>(n) : t);
      std::vector<std::pair<uint64_t, uint32_t>> order;
      order.reserve(nhot_);
      for (uint64_t w = 0; w < words_; ++w)
        for (uint64_t m = laid_word(w) & hot_word(w); m; m &= m - 1) {
          const uint64_t l = w * 64 + static_cast<uint64_t>(__builtin_ctzll(m));
          const uint64_t d = l >= c ? l - c : l + n - c;
          order.emplace_back(static_cast<uint64_t>((unsigned __int128)d * inv % n),
                             static_cast<uint32_t>(l));
        }
      std::sort(order.begin(), order.end());
      for (const auto& o : order) place_hot_lpn(o.second);
    } else {
      uint64_t lpn = c;
      for (uint64_t i = 0; i < n; ++i, lpn = lpn + a >= n ? lpn + a - n : lpn + a)
        if (laid(lpn) && is_hot(lpn)) place_hot_lpn(lpn);
    }
  }
  void place_hot_lpn(uint64_t lpn) {
    const uint32_t p = next_p_;
    if (++next_p_ == planes_) next_p_ = 0;
    uint64_t b;
    uint32_t page;
    if (open_[p] >= 0 && fill_in_[p] < ppb_) {
      b = static_cast<uint64_t>(open_[p]);
      page = fill_in_[p]++;
    } else {
      while (left_in_block_[p] == 0) {  // next hot block with room (counts may be 0)
        hot_open_[p] = static_cast<int64_t>(take_block(p));
        assert(next_hot_block_[p] < counts_[p].size());
        left_in_block_[p] = counts_[p][next_hot_block_[p]++];
        std::iota(pos_.begin() + uint64_t(p) * ppb_, pos_.begin() + uint64_t(p + 1) * ppb_, 0u);
      }
      // A random subset of the block's pages: a partial Fisher-Yates shuffle, one step per page.
      b = static_cast<uint64_t>(hot_open_[p]);
      uint32_t* ps = &pos_[uint64_t(p) * ppb_];
      const uint32_t j = counts_[p][next_hot_block_[p] - 1] - left_in_block_[p];
      const uint32_t r = j + static_cast<uint32_t>(rng_() % (ppb_ - j));
      std::swap(ps[j], ps[r]);
      page = ps[j];
      --left_in_block_[p];
    }
    f_.p2l_[b][page] = static_cast<Lpn>(lpn);
    f_.l2p_at(static_cast<uint32_t>(lpn)) = f_.geo_.ppn_of(b, page);
    ++f_.blocks_[b].valid;
  }

  // The hot blocks' load, the steady state's blocks left without valid pages, and the blocks
  // taken off each plane's free ring.
  void finish() {
    uint64_t hot_cap = 0, hot_valid = 0;
    for (uint32_t p = 0; p < planes_; ++p) {
      hot_cap += uint64_t(counts_[p].size()) * ppb_;
      for (uint32_t v : counts_[p]) hot_valid += v;
    }
    f_.steady_hot_alpha_ = hot_cap ? double(hot_valid) / double(hot_cap) : 0.0;
    // Blocks of the steady state left without valid pages (stale data only).
    for (uint32_t p = 0; p < planes_; ++p)
      while (next_hot_block_[p] < counts_[p].size()) {
        take_block(p);
        ++next_hot_block_[p];
      }
    for (uint32_t p = 0; p < planes_; ++p) {
      PlaneState& ps = f_.planes_[p];
      for (uint32_t i = 0; i < used_[p]; ++i) {
        const uint64_t b = uint64_t(p) * bpp_ + ps.free_ring[(ps.free_head + i) % bpp_];
        f_.mapped_ += f_.blocks_[b].valid;
        f_.bucket_insert(b);
      }
      ps.free_head = (ps.free_head + used_[p]) % bpp_;
      ps.free_count -= used_[p];
      f_.total_free_ -= used_[p];
    }
  }

  Ftl& f_;
  std::mt19937_64& rng_;
  const PagedArray<uint64_t>* hot_;
  const PagedArray<uint64_t>* extra_;
  const uint32_t planes_, bpp_, ppb_;
  uint64_t n0_ = 0, n_ = 0, words_ = 0, ncold_ = 0, nhot_ = 0;
  std::unique_ptr<ColdLayout> layout_;
  std::vector<std::vector<uint32_t>> counts_;  // per plane: valid pages of each hot block
  std::vector<uint32_t> used_;                 // blocks taken per plane
  std::vector<uint32_t> fill_in_;              // valid pages of the plane's open cold block
  std::vector<int64_t> open_;                  // the plane's open cold block
  std::vector<uint32_t> pos_;                  // per plane: shuffle of the open hot block
  std::vector<uint32_t> next_hot_block_, left_in_block_;
  std::vector<int64_t> hot_open_;
  uint32_t next_p_ = 0;  // the plane of the next hot lpn
};

uint64_t Ftl::precondition_steady(uint64_t n, uint32_t target_free, std::mt19937_64& rng,
                                  const PagedArray<uint64_t>* hot,
                                  const PagedArray<uint64_t>* extra, uint32_t min_gain,
                                  uint32_t min_free) {
  // A fresh Ftl: the implicit cold layout is only right for map chunks written after it exists.
  assert(mapped_ == 0 && !cold_);
  return SteadyBuilder(*this, rng, hot, extra).run(n, target_free, min_gain, min_free);
}

}  // namespace ssdtlm
