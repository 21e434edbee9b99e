// `gen --fio`: a fio job file's requests as a trace (MSRC CSV). The jobs' threads run on a drive
// that answers at once (traces/fio_engine.h): rate_iops/rate jobs arrive at their rate (linear
// or poisson), the others at time 0 in turn (a closed loop's order; run --closed-loop gives the
// depth). What only a drive's timing can decide is refused, all at once.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "traces/fio_job.h"

namespace ssdtlm::traces {

// Why the file cannot be written as a trace ("file:line: ..." each); empty when it can.
std::vector<std::string> fio_gen_refusals(const FioJobFile& job);

// Writes the file's requests as MSRC CSV (as traces::write_msrc_csv: .gz compresses, "-" is
// standard output). Returns the number of requests written. Throws TraceError.
uint64_t write_fio_msrc_csv(const FioJobFile& job, const std::string& path);

}  // namespace ssdtlm::traces
