#include "traces/fio_stream.h"

#include <algorithm>

namespace ssdtlm::traces::fio {

namespace {

uint64_t seed_of(const FioJob& j, uint32_t thread, uint64_t purpose) {
  return mix64(mix64(j.randseed) ^ (uint64_t(thread) << 20) ^ purpose);
}

bool is_pow2(uint64_t x) {
  return x && !(x & (x - 1));
}

}  // namespace

void Stream::init(const FioJob& job, const Region& region, uint32_t thread) {
  job_ = &job;
  reg_ = region;
  for (int d = 0; d < 2; ++d) ba_[d] = job.ba[d] ? job.ba[d] : job.bs_min[d];
  off_rng_.s = seed_of(job, thread, 1);
  bs_rng_.s = seed_of(job, thread, 2);
  mix_rng_.s = seed_of(job, thread, 3);
  zone_rng_.s = seed_of(job, thread, 4);
  rand_rng_.s = seed_of(job, thread, 5);
  const uint64_t range = std::min(job.bs_min[0], job.bs_min[1]);
  const uint64_t fsize = std::min(reg_.file, reg_.size);
  nranges_ = std::max<uint64_t>((fsize + range - 1) / range, 1);
  if (job.dist == FioDist::Zipf)
    zipf_.init_zipf(nranges_, job.dist_param, job.dist_center, seed_of(job, thread, 6));
  else if (job.dist == FioDist::Pareto)
    zipf_.init_pareto(nranges_, job.dist_param, job.dist_center, seed_of(job, thread, 6));
  else if (job.dist == FioDist::Normal)
    normal_.init(nranges_, job.dist_param, job.dist_center);
  for (int d = 0; d < 2; ++d) {
    perm_[d].init(last_block(d), seed_of(job, thread, 10 + d));
    zones_[d].clear();
    const uint64_t lastb = last_block(d);
    uint32_t access = 0;
    uint64_t perc_prev = 0, bytes_prev = 0;
    for (size_t i = 0; i < job.zones[d].size(); ++i) {
      const FioZone& z = job.zones[d][i];
      Zone zone;
      access += z.access_perc;
      zone.access_to = access;
      if (job.dist == FioDist::ZonedAbs) {
        zone.first = std::min(bytes_prev / ba_[d], lastb);
        bytes_prev += z.size;
        zone.blocks = std::min(bytes_prev / ba_[d], lastb) - zone.first;
      } else {
        zone.first = perc_prev * lastb / 100;
        zone.blocks = lastb * z.size / 100;
        perc_prev += z.size;
      }
      zone.perm.init(zone.blocks, seed_of(job, thread, 100 + 2 * i + d));
      zones_[d].push_back(zone);
    }
  }
  issues_[0] = issues_[1] = 0;
  mix_dir_ = 0;
  mix_issues_ = 0;
  next_dir_ = -1;
  seq_left_ = 1;  // fio: the first request takes a new random offset
  verify_ = false;
  new_pass();
}

void Stream::new_pass() {
  for (int d = 0; d < 2; ++d) {
    last_pos_[d] = reg_.start;
    last_start_[d] = ~0ull;
    perm_pos_[d] = 0;
    for (Zone& z : zones_[d]) z.pos = 0;
  }
  mix_issues_ = 0;  // fio's reset_io_counters
  pass_bytes_ = 0;
}

void Stream::start_verify() {
  verify_ = true;
  last_pos_[0] = reg_.start;
  pass_bytes_ = 0;
}

int Stream::direction() {
  if (next_dir_ >= 0) return next_dir_;
  const FioJob& j = *job_;
  int d = j.dir[0] ? 0 : 1;
  if (verify_) {
    d = 0;
  } else if (j.mixed()) {
    d = mix_dir_;
    if (issues_[mix_dir_] >= mix_issues_) {  // fio's get_rw_ddir: a new direction is drawn
      d = mix_rng_.percent() <= j.rwmix[0] ? 0 : 1;
      if (d != mix_dir_) mix_issues_ = issues_[mix_dir_] * j.rwmix[d] / 100;
      mix_dir_ = d;
    }
  }
  next_dir_ = d;
  return d;
}

uint64_t Stream::last_block(int d) const {
  uint64_t max_size = std::min(reg_.size, reg_.file);
  const uint32_t minbs = job_->bs_min[d];
  if (minbs > ba_[d]) max_size -= std::min<uint64_t>(max_size, minbs - ba_[d]);
  return max_size / ba_[d];
}

// fio's get_next_seq_offset: `off` relative to the region's start.
bool Stream::seq_offset(int d, uint64_t& off) {
  const FioJob& j = *job_;
  const uint64_t end = reg_.start + reg_.size;
  if (last_pos_[d] >= end && (j.time_based || (d == 1 && j.io_size > reg_.size)))
    last_pos_[d] = reg_.start;  // a time_based wrap, or writes of io_size beyond size
  if (last_pos_[d] >= reg_.file) return false;
  if (last_pos_[d] == reg_.start && reg_.start && j.seq_add < 0) last_pos_[d] = end;
  uint64_t pos = last_pos_[d] - reg_.start;
  if (pos && j.seq_add) {
    pos += static_cast<uint64_t>(j.seq_add);  // (a negative step wraps below zero ...)
    if (pos >= reg_.file) {                   // ... and is caught here, as in fio
      if (j.seq_add > 0)
        pos = 0;
      else
        pos = std::min(reg_.size, reg_.file) + static_cast<uint64_t>(j.seq_add);
    }
  }
  off = pos;
  return true;
}

bool Stream::zoned_block(int d, uint64_t& b) {
  const uint32_t v = zone_rng_.percent();
  for (Zone& z : zones_[d]) {
    if (z.access_to < v) continue;
    if (z.blocks == 0) return false;
    if (job_->norandommap) {
      b = z.first + off_rng_.below(z.blocks);
    } else {
      if (z.pos >= z.blocks) z.pos = 0;  // the zone was covered: it starts over
      b = z.first + z.perm.at(z.pos++);
    }
    return true;
  }
  return false;
}

bool Stream::random_block(int d, uint64_t& b) {
  const FioJob& j = *job_;
  const uint64_t lastb = last_block(d);
  if (!lastb) return false;
  switch (j.dist) {
    case FioDist::Zipf:
    case FioDist::Pareto:
      b = zipf_.next(off_rng_) % lastb;
      return true;
    case FioDist::Normal:
      b = normal_.next(off_rng_) % lastb;
      return true;
    case FioDist::Zoned:
    case FioDist::ZonedAbs:
      if (!zones_[d].empty()) return zoned_block(d, b);
      break;
    case FioDist::Sequence: {
      const uint64_t n = j.sequence.size();
      const uint64_t i = issues_[d];
      b = j.sequence[i % n] + (j.sequence_stride ? (i / n) * n : 0);
      return b < reg_.size / j.bs_min[d];
    }
    case FioDist::Random:
      break;
  }
  if (j.norandommap) {
    b = off_rng_.below(lastb);
    return true;
  }
  if (perm_pos_[d] >= lastb) return false;  // the random map is full: the pass is over
  b = perm_[d].at(perm_pos_[d]++);
  return true;
}

// fio's get_next_block and get_next_offset: the request's offset, or false at the pass's end.
bool Stream::offset_of(int d, uint64_t& off, bool& is_random) {
  const FioJob& j = *job_;
  is_random = false;
  uint64_t rel = 0, b = 0;
  bool ok;
  bool hit = true;  // rw=randread:N: a new random offset every N requests
  if (j.seq_nr > 1 && !verify_) {
    hit = --seq_left_ == 0;
    if (hit) seq_left_ = j.seq_nr;
  }
  if (verify_ || !j.random) {
    ok = seq_offset(d, rel);
  } else if (hit) {
    if (j.perc_random[d] == 100 || rand_rng_.percent() <= j.perc_random[d]) {
      ok = random_block(d, b);
      rel = b * ba_[d];
      is_random = true;
    } else if (!(ok = seq_offset(d, rel))) {
      ok = random_block(d, b);
      rel = b * ba_[d];
    }
  } else if (j.rw_seq_identical) {
    rel = last_start_[d] != ~0ull ? last_start_[d] - reg_.start : 0;
    ok = true;
  } else if (!(ok = seq_offset(d, rel))) {
    ok = random_block(d, b);
    rel = b * ba_[d];
  }
  if (!ok || rel >= reg_.size) return false;
  off = reg_.start + rel;
  return off < reg_.file;
}

// fio's get_next_buflen: 0 when not even the smallest fits.
uint32_t Stream::block_size(int d, uint64_t off, bool is_random) {
  const FioJob& j = *job_;
  if (verify_) return j.bs_min[1];
  const int dd = j.bs_is_seq_rand ? (is_random ? 1 : 0) : d;
  const uint64_t minbs = j.bs_min[dd], maxbs = j.bs_max[dd];
  if (minbs == maxbs) return static_cast<uint32_t>(minbs);
  if (!fits(off, minbs)) return 0;
  for (int tries = 0; tries < 64; ++tries) {
    const double u = bs_rng_.uniform();
    uint64_t len = 0;
    if (j.bssplit[dd].empty()) {
      len = minbs + static_cast<uint64_t>(double(maxbs) * u);
    } else {
      uint32_t perc = 0;
      for (const FioBsSplit& e : j.bssplit[dd]) {
        if (!e.perc) continue;
        len = e.bs;
        perc += e.perc;
        if (u * 100.0 < double(perc) && fits(off, len)) break;
      }
    }
    if (!j.bs_unaligned) len = is_pow2(minbs) ? len & ~(minbs - 1) : len - len % minbs;
    len = std::min(len, maxbs);
    if (len && fits(off, len)) return static_cast<uint32_t>(len);
  }
  return static_cast<uint32_t>(minbs);
}

bool Stream::next(int d, TraceRecord& r) {
  uint64_t off = 0;
  bool is_random = false;
  if (verify_) {
    off = last_pos_[0];
    if (off - reg_.start >= reg_.size) return false;
  } else if (!offset_of(d, off, is_random)) {
    return false;
  }
  const uint32_t bs = block_size(d, off, is_random);
  if (bs == 0 || off + bs > reg_.file) return false;
  r.time_ns = 0;
  r.offset = off;
  r.size = bs;
  r.device = 0;
  r.is_read = d == 0;
  last_start_[d] = off;
  last_pos_[d] = off + bs;
  ++issues_[d];
  pass_bytes_ += bs;
  next_dir_ = -1;
  if (job_->mixed() && !verify_) mix_dir_ = d;
  return true;
}

}  // namespace ssdtlm::traces::fio
