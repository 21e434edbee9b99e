// run --fio: the job file's threads as the host's submission contexts (traces/fio_engine.h), the
// regions they read prefilled, and the results per job: the result JSON's "jobs", the summary's
// job lines, and fio's own JSON output (--output-format json).
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "controller/config.h"
#include "traces/fio_engine.h"
#include "traces/trace.h"

namespace ssdtlm {
class Core;
}

namespace ssdtlm::tb {

// The trace section of a fio run: no records (the contexts issue the requests); what the
// engine issued, and the jobs as read.
class FioTraceSource : public traces::TraceSource {
 public:
  FioTraceSource(const traces::FioEngine& engine, std::string path)
      : engine_(engine), path_(std::move(path)) {}
  bool next(traces::TraceRecord&) override { return false; }
  void rewind() override {}
  nlohmann::json describe() const override;

 private:
  const traces::FioEngine& engine_;
  std::string path_;
};

// Maps the pages of the regions the jobs read that hold no data yet (ftl.unmapped_reads
// prefill): a read finds data there, as on a drive written before. Returns the pages offered.
uint64_t fio_prefill(const traces::FioEngine& engine, Core& core, const SsdConfig& cfg);

// The result JSON's "jobs": per reporting unit (a thread, or a group with group_reporting) the
// requests, bytes, IOPS, bandwidth and latencies of each direction (null when it had none).
nlohmann::json fio_jobs_json(const traces::FioEngine& engine);

// The summary's lines for the jobs of a result.
std::string fio_jobs_summary(const nlohmann::json& jobs);

// fio's JSON output (fio --output-format=json+: jobs[].read|write with clat_ns percentiles and
// bins, disk_util), read by fio's own post-processing tools. `percentiles`: the command line's
// list (empty: each job's percentile_list, else fio's default list). `result`: the replay's
// result JSON (the drive's utilisation, the run's times).
nlohmann::json fio_output_json(const traces::FioEngine& engine, const nlohmann::json& result,
                               const std::vector<double>& percentiles);

}  // namespace ssdtlm::tb
