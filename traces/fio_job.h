// fio job files (the common subset; docs/fio.md): parsed into one FioJob per job section, with
// the [global] options that precede it. Plain C++; every error is a TraceError naming
// "file:line: option".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "traces/trace.h"

namespace ssdtlm::traces {

struct FioJob {
  std::string name;         // the section name
  int line = 0;             // line of the section header
  std::string rw = "read";  // read|write|randread|randwrite|rw|randrw (readwrite = rw)
  uint32_t rwmixread = 50;  // percent of reads for rw/randrw
  // Block sizes [min, max] per direction (0 reads, 1 writes); min == max for a fixed bs.
  uint32_t bs_min[2] = {4096, 4096};
  uint32_t bs_max[2] = {4096, 4096};
  uint64_t size = 0;    // bytes of the job's region (required)
  uint64_t offset = 0;  // start of the region (bytes)
  uint32_t iodepth = 1;
  uint32_t numjobs = 1;
  uint64_t rate_iops = 0;     // 0: closed loop
  uint64_t runtime_ns = 0;    // 0: none
  uint64_t number_ios = 0;    // 0: the job ends after `size` bytes
  uint64_t thinktime_ns = 0;  // open loop: added to the gap between a thread's arrivals; closed
                              // loop: a slot's wait after each completion (the host's)
  bool randrepeat = true;
  bool randseed_set = false;
  uint64_t randseed = 0;
  // Lines of options checked after the section is read (0: not given), for error messages.
  int iodepth_line = 0, runtime_line = 0, thinktime_line = 0, randrepeat_line = 0;

  bool random() const { return rw.compare(0, 4, "rand") == 0; }
  bool mixed() const { return rw == "rw" || rw == "randrw"; }
  bool open_loop() const { return rate_iops > 0; }
};

struct FioJobFile {
  std::string path;
  std::vector<FioJob> jobs;
  bool open_loop() const { return !jobs.empty() && jobs[0].open_loop(); }
  // Closed loop: numjobs x iodepth summed over the jobs (the replay's queue depth); open: 0.
  uint32_t closed_loop_slots() const;
  // Closed loop: a slot's wait after each completion and the time no request enters after (0:
  // none), the same for every job (checked); open loop: 0.
  uint64_t closed_loop_think_ns() const { return open_loop() ? 0 : jobs[0].thinktime_ns; }
  uint64_t closed_loop_runtime_ns() const { return open_loop() ? 0 : jobs[0].runtime_ns; }
};

// Parses job-file text; `name` stands for the file in messages. Throws TraceError.
FioJobFile parse_fio_job(const std::string& text, const std::string& name);
// Reads and parses a job file. Throws TraceError (also when it cannot be read).
FioJobFile read_fio_job(const std::string& path);

// fio integer with a size suffix as fio reads it with its default kb_base=1024: k/m/g/t/p (any
// case, optional trailing b) are powers of 1024; ki/mi/gi/ti/pi (optional trailing b) are powers
// of 1000. Returns false on bad syntax or overflow.
bool parse_fio_size(const std::string& s, uint64_t& out);
// fio time value: a number with us/usec, ms/msec, s/sec, m/min, h, d; `default_unit_ns` applies
// without a suffix (seconds for runtime, microseconds for thinktime). false on bad syntax.
bool parse_fio_time(const std::string& s, uint64_t default_unit_ns, uint64_t& out_ns);

}  // namespace ssdtlm::traces
