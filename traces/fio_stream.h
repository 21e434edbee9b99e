// One fio thread's requests (a job clone): directions (rwmix), offsets (sequential with holes or
// going back, random with the random map or without, fio's distributions), block sizes (bs,
// bsrange, bssplit, blockalign), as fio's io_u.c makes them. O(1) time and memory per request.
// Whether a request may go now (depth, rate, time, limits) is the engine's (fio_engine.h).
#pragma once

#include <cstdint>

#include "traces/fio_dist.h"
#include "traces/fio_job.h"
#include "traces/trace.h"

namespace ssdtlm::traces::fio {

// Where a thread does its I/O: fio's file_offset, io_size and real_file_size.
struct Region {
  uint64_t start = 0;  // the region's first byte on the drive
  uint64_t size = 0;   // bytes
  uint64_t file = 0;   // the drive's logical capacity (the file is the drive)
};

class Stream {
 public:
  // `thread` numbers the file's threads (clones) from 0; seeds derive from it and randseed.
  void init(const FioJob& job, const Region& region, uint32_t thread);
  // The direction of the next request (0 read, 1 write): fio's rwmix choice, kept until used.
  int direction();
  // The next request in direction d; false when the pass has no more (the region was covered
  // or the next offset lies outside it). The request is counted (direction() draws anew).
  bool next(int d, TraceRecord& r);
  // A new pass over the region (fio's next loop or a time_based wrap): positions and the random
  // map start over.
  void new_pass();
  // The verify pass: sequential reads of the region written (verify with do_verify).
  void start_verify();
  bool verifying() const { return verify_; }
  uint64_t pass_bytes() const { return pass_bytes_; }
  const Region& region() const { return reg_; }

 private:
  bool offset_of(int d, uint64_t& off, bool& is_random);
  bool seq_offset(int d, uint64_t& off);
  bool random_block(int d, uint64_t& b);
  bool zoned_block(int d, uint64_t& b);
  uint64_t last_block(int d) const;
  uint32_t block_size(int d, uint64_t off, bool is_random);
  bool fits(uint64_t off, uint64_t len) const { return off + len <= reg_.start + reg_.size; }

  const FioJob* job_ = nullptr;
  Region reg_;
  uint32_t ba_[2] = {1, 1};
  Rng off_rng_, bs_rng_, mix_rng_, zone_rng_, rand_rng_;
  Permutation perm_[2];
  uint64_t perm_pos_[2] = {0, 0};
  ZipfDist zipf_;
  NormalDist normal_;
  uint64_t nranges_ = 1;
  // Zoned: per direction and zone, the cumulative access percent and the zone's block range.
  struct Zone {
    uint32_t access_to = 0;
    uint64_t first = 0, blocks = 0;
    uint64_t pos = 0;
    Permutation perm;
  };
  std::vector<Zone> zones_[2];
  uint64_t last_pos_[2] = {0, 0}, last_start_[2] = {~0ull, ~0ull};
  uint64_t issues_[2] = {0, 0};
  uint32_t seq_left_ = 1;  // rw=randread:N: requests until the next random offset
  // fio's rwmix: a direction is kept until its issues reach mix_issues_
  int mix_dir_ = 0, next_dir_ = -1;
  uint64_t mix_issues_ = 0;
  uint64_t pass_bytes_ = 0;
  bool verify_ = false;
};

}  // namespace ssdtlm::traces::fio
