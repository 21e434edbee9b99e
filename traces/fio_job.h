// fio job files as fio reads them (docs/fio.md): every option of fio is simulated, accepted
// with a one-line note (it has no meaning for a simulated drive), or refused; all refusals of a
// file are reported at once, each "file:line: ...". Parsed into one FioJob per job section, with
// the [global] options read before it. Plain C++.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "traces/trace.h"

namespace ssdtlm::traces {

// fio's random offset distributions (random_distribution).
enum class FioDist : uint8_t { Random, Zipf, Pareto, Normal, Zoned, ZonedAbs, Sequence };

struct FioBsSplit {
  uint32_t bs = 0;
  uint32_t perc = 0;  // percent of the requests of this direction
};

struct FioZone {
  uint32_t access_perc = 0;  // percent of the direction's requests
  uint64_t size = 0;         // zoned: percent of the region; zoned_abs: bytes
};

// Steady-state detection (fio's steadystate, SNIA PTS style).
struct FioSteadyState {
  enum Metric : uint8_t { None, Iops, Bw, Lat } metric = None;
  bool slope = false;                 // slope of a least-squares line, else the maximum deviation
  bool percent = false;               // the limit is a percentage of the window's mean
  double limit = 0;                   // IOPS, bytes/s, ns, or percent
  uint64_t dur_ns = 0;                // ss_dur: the window (required)
  uint64_t ramp_ns = 0;               // ss_ramp: no data before this time (+ one interval)
  uint64_t interval_ns = 1000000000;  // ss_interval
};

struct FioJob {
  std::string name;  // the section name
  int line = 0;      // line of the section header
  // Options as written (name, value), in order: the job's own (for fio's "job options").
  std::vector<std::pair<std::string, std::string>> given;

  // --- What is read or written where (rw, block sizes, region) ---
  std::string rw = "read";      // read|write|randread|randwrite|rw|randrw (readwrite = rw)
  bool dir[2] = {true, false};  // reads, writes
  bool random = false;
  uint32_t seq_nr = 1;  // rw=randread:N: a new random offset every N requests
  int64_t seq_add = 0;  // rw=read:N: N bytes skipped (or, negative, gone back) after each one
  bool rw_seq_identical = false;                                // rw_sequencer=identical
  uint32_t rwmix[2] = {50, 50};                                 // rwmixread, rwmixwrite
  uint32_t perc_random[2] = {100, 100};                         // percentage_random (reads, writes)
  uint32_t bs_min[2] = {4096, 4096}, bs_max[2] = {4096, 4096};  // bs, bsrange, bssplit
  std::vector<FioBsSplit> bssplit[2];
  uint32_t ba[2] = {0, 0};  // blockalign (0: the minimum block size)
  bool bs_unaligned = false, bs_is_seq_rand = false;
  // The region: size/offset in bytes, or percent of the drive (size_pct/offset_pct > 0); no size
  // is the drive from offset on (fio on a block device).
  uint64_t size = 0, offset = 0;
  double size_pct = 0, offset_pct = 0;
  bool size_set = false, fill_device = false;
  uint64_t offset_increment = 0, offset_align = 0;
  uint64_t io_size = 0;     // bytes to do (0: size x loops)
  uint64_t number_ios = 0;  // stop after this many requests (0: no limit)
  uint32_t loops = 1;

  // --- Random offsets ---
  bool norandommap = false;
  FioDist dist = FioDist::Random;
  double dist_param = 0;    // zipf theta, pareto h, normal deviation percent
  double dist_center = -1;  // :center, 0..1 (-1: none)
  std::vector<FioZone> zones[2];
  std::vector<uint32_t> sequence;  // random_distribution=sequence:a,b,c
  bool sequence_stride = false;
  uint64_t randseed = 0x89;  // fio's default seed
  bool randrepeat = true;

  // --- Submission: depth, rate, think time ---
  std::string ioengine = "psync";  // fio's default on Linux
  bool direct = false;             // direct=1: O_DIRECT, sizes and offsets in 512-byte blocks
  bool sync_engine = true;         // one request in flight whatever iodepth says (fio)
  uint32_t iodepth = 1, iodepth_low = 0, batch_complete_min = 1;
  uint32_t numjobs = 1;
  uint64_t rate_bps[2] = {0, 0};   // rate= (bytes/s per direction)
  uint64_t rate_iops[2] = {0, 0};  // rate_iops=
  bool poisson = false;            // rate_process=poisson
  bool offload = false;            // io_submit_mode=offload: no quiesce before a rate wait
  bool rate_ignore_think = false;
  uint64_t thinktime_ns = 0, thinktime_spin_ns = 0, thinktime_iotime_ns = 0;
  uint32_t thinktime_blocks = 1;
  bool thinktime_complete = false;  // thinktime_blocks_type=complete

  // --- Time and phases ---
  uint64_t runtime_ns = 0;  // 0: none
  bool time_based = false;
  uint64_t ramp_ns = 0, ramp_size = 0;
  uint64_t startdelay_ns[2] = {0, 0};  // a range draws the delay in [lo, hi]
  bool stonewall = false, new_group = false, exitall = false;
  std::string wait_for;
  int wait_for_line = 0;
  uint32_t flow_id = 0, flow = 0;  // flow=0: not in a flow
  uint64_t flow_sleep_ns = 0;

  // --- Latency target (fio's queue-depth search), limits ---
  uint64_t latency_target_ns = 0, latency_window_ns = 0;
  double latency_percentile = 100;
  bool latency_run = false;
  uint64_t max_latency_ns[2] = {0, 0};

  FioSteadyState ss;

  // --- Data checking and reporting ---
  bool verify = false, do_verify = true;  // verify != none: the drive's data-integrity check
  bool group_reporting = false, stats = true, disk_util = true;
  bool clat_percentiles = true, lat_percentiles = false, slat_percentiles = false;
  std::vector<double> percentile_list;  // empty: fio's default list
  int unified_rw = 0;                   // unified_rw_reporting: 0 none, 1 mixed, 2 both
  uint64_t bwavgtime_ms = 500, iopsavgtime_ms = 500;
  std::string description;
  uint32_t kb_base = 1024;

  bool mixed() const { return dir[0] && dir[1]; }
  bool rate_limited() const { return rate_bps[0] || rate_bps[1] || rate_iops[0] || rate_iops[1]; }
  // In flight at most: iodepth, or 1 for a synchronous I/O engine.
  uint32_t depth() const { return sync_engine ? 1 : iodepth; }
};

// A note about an option accepted without effect, or about how one is read.
struct FioNote {
  int line = 0;
  std::string option;
  std::string text;
};

struct FioJobFile {
  std::string path;
  std::vector<FioJob> jobs;
  std::vector<FioNote> notes;  // one per option name (its first line)
  std::vector<std::pair<std::string, std::string>> global_given;  // [global] as written
  // "file:line: note: ..." lines, one per note.
  std::vector<std::string> note_lines() const;
};

// Parses job-file text; `name` stands for the file in messages (and `include` paths are read
// relative to it). Throws TraceError listing every problem of the file, one per line.
FioJobFile parse_fio_job(const std::string& text, const std::string& name);
// Reads and parses a job file. Throws TraceError (also when it cannot be read).
FioJobFile read_fio_job(const std::string& path);

// fio integer with a size suffix as fio reads it with kb_base=1024 (its default): k/m/g/t/p (any
// case, optional trailing b) are powers of 1024; ki/mi/gi/ti/pi (optional trailing b) are powers
// of 1000. kb_base=1000 swaps the two. Returns false on bad syntax or overflow.
bool parse_fio_size(const std::string& s, uint64_t& out, uint32_t kb_base = 1024);
// fio time value: a number with ns/nsec, us/usec, ms/msec, s/sec, m/min, h, d; `default_unit_ns`
// applies without a suffix (seconds for runtime, microseconds for thinktime). false on bad syntax.
bool parse_fio_time(const std::string& s, uint64_t default_unit_ns, uint64_t& out_ns);

}  // namespace ssdtlm::traces
