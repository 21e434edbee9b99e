// fio's options: which are simulated (fio_values.cpp), which are accepted with a note (no
// meaning for a simulated drive), which are refused and why. Every name fio knows is here.
#include <algorithm>
#include <map>

#include "traces/fio_parse.h"

namespace ssdtlm::traces::fio {

bool apply_simulated(const OptionContext& ctx, const std::string& key, const std::string& value,
                     bool has_value);
bool is_simulated(const std::string& key);
bool is_flag(const std::string& key);
std::vector<std::string> simulated_option_names();

namespace {

struct Group {
  const char* names;  // space-separated
  const char* text;   // the note or the reason of the refusal
};

// Accepted with a note: they change nothing a simulated drive could show.
const Group kNoted[] = {
    {"filename directory filename_format unique_filename opendir lockfile filetype",
     "the job's file is the simulated drive (jobs share it; offset separates their regions)"},
    {"direct buffered", "no page cache is modelled: requests go to the drive as with direct=1"},
    {"thread", "jobs run as threads or processes alike (no host CPU is modelled)"},
    {"create_serialize create_fsync create_on_open allow_file_create allow_mounted_write unlink "
     "unlink_each_loop fallocate fadvise_hint overwrite pre_read invalidate file_append atomic",
     "file set-up and page-cache handling: the job's file is the simulated drive"},
    {"nice prio prioclass priohint cpumask cpus_allowed cpus_allowed_policy numa_cpu_nodes "
     "numa_mem_policy cgroup cgroup_nodelete cgroup_weight uid gid mem iomem iomem_align "
     "mem_align lockmem hugepage-size gpu_dev_id clocksource gtod_cpu gtod_reduce "
     "job_start_clock_id ioscheduler comm thinkcycles write_hint",
     "host-side: no host CPU, memory, OS scheduler or I/O priority is modelled"},
    {"iodepth_batch iodepth_batch_submit iodepth_batch_complete_max serialize_overlap",
     "submitting or reaping several requests at once takes no simulated time"},
    {"exec_prerun exec_postrun", "the command is not run (no host is modelled)"},
    {"write_bw_log write_lat_log write_iops_log write_hist_log log_entries log_avg_msec "
     "log_hist_msec log_hist_coarseness log_window_value log_max_value log_offset log_prio "
     "log_issue_time log_compression log_compression_cpus log_store_compressed "
     "log_alternate_epoch log_unix_epoch log_alternate_epoch_clock_id per_job_logs write_iolog",
     "fio's logs are not written (run --csv writes a time series, --log-requests a row per "
     "request)"},
    {"zero_buffers refill_buffers scramble_buffers buffer_pattern buffer_compress_percentage "
     "buffer_compress_chunk dedupe_percentage dedupe_global dedupe_mode "
     "dedupe_working_set_percentage",
     "the data's content is not modelled (the drive neither compresses nor deduplicates)"},
    {"verify_pattern verify_pattern_interval verify_interval verify_offset verify_fatal "
     "verify_dump verify_async verify_async_cpus verify_header_seed verify_write_sequence "
     "experimental_verify verify_policy verify_state_save verifysort verifysort_nr",
     "the data check compares versions written, not content (run --integrity)"},
    {"continue_on_error ignore_error error_dump exitall_on_error exit_what",
     "the simulated drive does not fail requests"},
    {"significant_figures unit_base disable_lat disable_clat disable_slat disable_bw_measurement "
     "disable_bw block_error_percentiles stats",
     "reporting detail: every statistic is kept and reported"},
    {"end_fsync fsync_on_close end_syncfs",
     "the flush at the job's end is not modelled (the drive's write cache drains on its own)"},
    {"random_generator",
     "offsets come from the model's own generator; with the random map every block is visited "
     "once per pass, as with fio's lfsr"},
    {"softrandommap", "the random map is a permutation: it never runs out of blocks"},
    {"rwmixcycle percentage_sequential flow_watermark", "deprecated in fio: no effect"},
    {"trim_verify_zero trim_backlog trim_backlog_batch", "no effect without trims"},
    // The I/O engines' own options (block-device engines).
    {"hipri hipri_percentage fixedbufs registerfiles sqthread_poll sqthread_poll_cpu nonvectored "
     "uncached nowait force_async userspace_reap cmd_type readfua writefua write_mode read_mode "
     "md_per_io_size pi_act pi_chk apptag apptag_mask deac sg_write_mode stream_id "
     "libaio_vectored cmdprio_percentage cmdprio_class cmdprio cmdprio_bssplit cmdprio_hint "
     "xnvme_be xnvme_async xnvme_sync xnvme_admin xnvme_dev_nsid xnvme_dev_subnqn xnvme_mem "
     "xnvme_iovec libblkio_driver libblkio_path libblkio_pre_connect_props "
     "libblkio_pre_start_props libblkio_num_entries libblkio_queue_size libblkio_vectored "
     "libblkio_write_zeroes_on_trim libblkio_wait_mode "
     "libblkio_force_enable_completion_eventfd no_completion_thread thp cpp_null verify_mode "
     "verify_bytchk",
     "an option of the I/O engine (no I/O engine is modelled)"},
};

// Refused: the simulated drive or host cannot do what they ask.
const Group kRefused[] = {
    {"trim_percentage num_range", "the drive model has no TRIM (deallocate) command"},
    {"fsync fdatasync sync_file_range write_barrier",
     "the drive model has no FLUSH command (a write completes when the drive's cache holds it)"},
    {"read_iolog read_iolog_chunked replay_no_stall replay_redirect replay_scale replay_align "
     "replay_time_scale replay_skip merge_blktrace_file merge_blktrace_scalars "
     "merge_blktrace_iters",
     "replaying an I/O log: use ssdtlm run --trace FILE (blkparse text, MSRC, SPC, ...)"},
    {"zonemode zonesize zonecapacity zonerange zoneskip read_beyond_wp max_open_zones "
     "job_max_open_zones ignore_zone_limits zone_reset_threshold zone_reset_frequency "
     "recover_zbd_write_error write_zone_remainder",
     "zoned I/O (zoned block devices, strided zones) is not modelled"},
    {"fdp dataplacement data_placement plid_select fdp_pli_select plids fdp_pli dp_scheme",
     "data placement (FDP, streams) is not modelled"},
    {"sprandom spr_num_regions spr_op spr_cs",
     "SPRandom preconditioning is not modelled (run --precondition F --precondition-random R "
     "builds a steady state)"},
    {"verify_only verify_state_load",
     "it needs data written and recorded by an earlier run of fio"},
    {"verify_backlog verify_backlog_batch", "verifying while writing is not modelled"},
    {"filesize openfiles file_service_type",
     "several files per job: give each file's region its own job (offset, size)"},
    {"profile", "fio's built-in profiles are not modelled: write their job file"},
    {"rate_min ratemin rate_iops_min rate_cycle ratecycle",
     "a minimum rate (the job fails below it) is not modelled"},
    {"create_only", "a job that only creates files does no I/O"},
};

// The engines that do block I/O; any other refused.
const char* const kBlockEngines[] = {
    "libaio",   "io_uring",   "io_uring_cmd", "sync",   "psync", "vsync", "pvsync",
    "pvsync2",  "posixaio",   "mmap",         "splice", "sg",    "null",  "xnvme",
    "libblkio", "windowsaio", "solarisaio",   "spdk",   "nvme"};
const char* const kSyncEngines[] = {"sync",    "psync", "vsync", "pvsync",
                                    "pvsync2", "mmap",  "splice"};

std::vector<std::string> words(const char* s) {
  std::vector<std::string> out;
  std::string w;
  for (const char* p = s;; ++p) {
    if (*p == ' ' || *p == '\0') {
      if (!w.empty()) out.push_back(w);
      w.clear();
      if (!*p) return out;
    } else {
      w += *p;
    }
  }
}

// name -> (refused?, text)
const std::map<std::string, std::pair<bool, std::string>>& table() {
  static const auto t = [] {
    std::map<std::string, std::pair<bool, std::string>> m;
    for (const Group& g : kNoted)
      for (const std::string& n : words(g.names)) m[n] = {false, g.text};
    for (const Group& g : kRefused)
      for (const std::string& n : words(g.names)) m[n] = {true, g.text};
    return m;
  }();
  return t;
}

// ioengine=NAME: a note, or a refusal when the engine does no block I/O.
void ioengine(const OptionContext& ctx, const std::string& value) {
  std::string e = lower(value);
  if (e.compare(0, 9, "external:") == 0) {
    ctx.bad("ioengine", value, "an external engine: its behaviour is unknown to the model");
    return;
  }
  if (std::find(std::begin(kBlockEngines), std::end(kBlockEngines), e) == std::end(kBlockEngines)) {
    ctx.bad("ioengine", value, "not an engine of block I/O to a drive");
    return;
  }
  ctx.job.ioengine = e;
  ctx.job.sync_engine =
      std::find(std::begin(kSyncEngines), std::end(kSyncEngines), e) != std::end(kSyncEngines);
  ctx.note("ioengine",
           "ioengine=" + e + ": the simulated host submits straight to the drive's NVMe queues" +
               (ctx.job.sync_engine ? " (a synchronous engine: one request in flight, as in fio)"
                                    : " (up to iodepth requests in flight)"));
}

// Refusals that depend on the value: zero or "none" asks for nothing.
bool harmless_value(const std::string& key, const std::string& value) {
  const std::string v = lower(trim(value));
  if (key == "zonemode") return v == "none";
  if (key == "trim_percentage" || key == "fsync" || key == "fdatasync" || key == "write_barrier" ||
      key == "num_range")
    return v == "0" || (key == "num_range" && v == "1");
  if (key == "openfiles" || key == "file_service_type") return true;  // with one file: nothing
  if (key == "fdp" || key == "sprandom" || key == "create_only" || key == "read_iolog_chunked" ||
      key == "replay_no_stall" || key == "verify_state_load")
    return v == "0" || v == "false";
  if (key == "rate_min" || key == "ratemin" || key == "rate_iops_min") return v == "0";
  return false;
}

}  // namespace

const std::vector<std::string>& fio_option_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v = simulated_option_names();
    for (const auto& e : table()) v.push_back(e.first);
    v.push_back("ioengine");
    v.push_back("sync");
    return v;
  }();
  return names;
}

bool is_fio_option(const std::string& key) {
  return table().count(key) > 0 || is_simulated(key) || key == "ioengine" || key == "sync";
}

void apply_option(const OptionContext& ctx, const std::string& key, const std::string& value,
                  bool has_value) {
  if (!has_value && !is_flag(key)) {
    ctx.error(key + ": needs a value (" + key + "=...)");
    return;
  }
  if (has_value && value.empty()) {
    ctx.error(key + "=: empty value");
    return;
  }
  if (key == "ioengine") return ioengine(ctx, value);
  if (key == "sync") {  // O_SYNC/O_DSYNC writes: a FLUSH per write, which the drive lacks
    const std::string v = lower(value);
    if (v != "0" && v != "none" && v != "false")
      ctx.bad(key, value, "synchronous writes need a FLUSH command, which the drive model lacks");
    return;
  }
  if (apply_simulated(ctx, key, value, has_value)) return;
  if (key == "direct" || key == "buffered") {
    bool on = false;
    if (!parse_bool(value, on)) return ctx.bad(key, value, "expected 0 or 1");
    ctx.job.direct = key == "direct" ? on : !on;
  }
  const auto it = table().find(key);
  if (it == table().end()) return;  // (is_fio_option checked it)
  const bool refused = it->second.first && !harmless_value(key, value);
  if (refused) {
    ctx.error("option '" + key + "' is refused: " + it->second.second);
    return;
  }
  ctx.note(key, key + (has_value ? "=" + value : std::string()) + ": " + it->second.second);
}

}  // namespace ssdtlm::traces::fio
