// The workload of a fio job file (traces/fio_job.h) as a trace source: one thread per job
// clone (numjobs), interleaved round-robin (closed loop) or by arrival time (rate_iops, open
// loop). The mapping onto the model is in docs/fio.md.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "traces/fio_job.h"
#include "traces/trace.h"

namespace ssdtlm::traces {

// The job file's requests, deterministic by randseed. capacity_bytes > 0: a job whose region
// (offset + size) lies beyond it is refused (TraceError naming the file, line and job).
std::unique_ptr<TraceSource> make_fio_source(const FioJobFile& job, uint64_t capacity_bytes);

// Writes the job file's requests as MSRC CSV (as traces::write_msrc_csv: .gz compresses, "-" is
// standard output). Returns the number of requests written.
uint64_t write_fio_msrc_csv(const FioJobFile& job, const std::string& path);

}  // namespace ssdtlm::traces
