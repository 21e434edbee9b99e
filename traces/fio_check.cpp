// The checks of a job section once read, and of the file's jobs together: what fio itself
// refuses (time_based without runtime, ramp_time with ramp_size, ...), what the model cannot run,
// and notes about how an option is read.
#include <algorithm>

#include "traces/fio_parse.h"

namespace ssdtlm::traces::fio {

namespace {

void check_steadystate(FioJob& j, const std::string& where, std::vector<std::string>& errors) {
  FioSteadyState& ss = j.ss;
  if (ss.metric == FioSteadyState::None) return;
  if (ss.dur_ns == 0) {
    ss.metric = FioSteadyState::None;  // fio: steady-state detection needs ss_dur
    return;
  }
  if (ss.dur_ns < ss.interval_ns || ss.dur_ns % ss.interval_ns != 0)
    errors.push_back(where + "ss_dur must be a multiple of ss_interval (" +
                     std::to_string(ss.interval_ns / 1000000) + " ms)");
  else if (ss.dur_ns / ss.interval_ns > 100000)
    errors.push_back(where + "ss_dur / ss_interval above 100000 intervals");
}

// O_DIRECT I/O comes in whole 512-byte blocks: fio's requests otherwise fail (EINVAL).
void check_direct(const FioJob& j, const std::string& where, std::vector<std::string>& errors) {
  if (!j.direct) return;
  std::vector<uint64_t> sizes = {j.bs_min[0], j.bs_max[0], j.bs_min[1], j.bs_max[1],
                                 j.ba[0],     j.ba[1],     j.offset,    j.offset_increment};
  for (int d = 0; d < 2; ++d)
    for (const FioBsSplit& e : j.bssplit[d]) sizes.push_back(e.bs);
  for (uint64_t s : sizes)
    if (s % 512) {
      errors.push_back(where + "direct=1 with " + std::to_string(s) +
                       " bytes (a block size, alignment or offset): O_DIRECT I/O needs multiples "
                       "of the 512-byte logical block (fio's requests fail with EINVAL)");
      return;
    }
}

}  // namespace

void check_job(FioJob& j, const std::string& file, std::vector<std::string>& errors,
               std::vector<FioNote>& notes) {
  const std::string where = file + ":" + std::to_string(j.line) + ": [" + j.name + "]: ";
  const auto note = [&](const std::string& key, const std::string& text) {
    if (std::none_of(notes.begin(), notes.end(), [&](const FioNote& n) { return n.option == key; }))
      notes.push_back({j.line, key, "[" + j.name + "]: " + text});
  };
  if (j.time_based && j.runtime_ns == 0) {  // fio warns and runs it as not time_based
    j.time_based = false;
    note("time_based-runtime", "time_based without runtime: not time based (as fio does)");
  }
  for (int d = 0; d < 2; ++d) {
    if (!j.random || j.ba[d] == 0) j.ba[d] = j.bs_min[d];  // fio: blockalign is for random I/O
    if (j.ba[d] != j.bs_min[d] && !j.norandommap) {
      j.norandommap = true;
      note("blockalign-map", "blockalign turns the random map off (as fio does)");
    }
  }
  if (j.ramp_ns > 0 && j.ramp_size > 0)
    errors.push_back(where + "ramp_time and ramp_size together (fio refuses them)");
  for (int d = 0; d < 2; ++d)
    if (j.rate_bps[d] && j.rate_iops[d])
      errors.push_back(where + "rate and rate_iops together for " + (d ? "writes" : "reads") +
                       " (fio refuses them)");
  if (j.flow_sleep_ns > 0 && j.flow == 0)
    notes.push_back({j.line, "flow_sleep", "[" + j.name + "]: flow_sleep without flow: no effect"});
  check_steadystate(j, where, errors);
  if (j.sync_engine && j.iodepth > 1)
    note("iodepth-sync", "iodepth=" + std::to_string(j.iodepth) + " with ioengine " + j.ioengine +
                             (j.ioengine == "psync" ? " (fio's default)" : "") +
                             ": a synchronous engine keeps one request in flight, as in fio (set "
                             "ioengine=libaio or io_uring for a queue)");
  if (j.iodepth_low > j.iodepth) j.iodepth_low = 0;
  check_direct(j, where, errors);
}

void check_file(const FioJobFile& f, std::vector<std::string>& errors) {
  uint64_t threads = 0;
  for (const FioJob& j : f.jobs) threads += j.numjobs;
  if (threads > 4096)
    errors.push_back(f.path + ": " + std::to_string(threads) +
                     " threads (numjobs summed over the jobs): fio runs at most 4096");
  for (size_t i = 0; i < f.jobs.size(); ++i) {
    const FioJob& j = f.jobs[i];
    if (j.wait_for.empty()) continue;
    bool before = false;
    for (size_t k = 0; k < i; ++k) before |= f.jobs[k].name == j.wait_for;
    if (!before)
      errors.push_back(f.path + ":" + std::to_string(j.wait_for_line) + ": [" + j.name +
                       "]: wait_for=" + j.wait_for + ": no job of that name before this one");
  }
}

}  // namespace ssdtlm::traces::fio
