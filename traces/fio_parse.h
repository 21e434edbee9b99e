// Internals of the fio job-file reader (traces/fio_job.h): what an option's handler sees, the
// value parsers, and the option table. Not a public interface.
#pragma once

#include <string>
#include <vector>

#include "traces/fio_job.h"

namespace ssdtlm::traces::fio {

// The reader's state as one option is applied: the job (or [global]) it goes into, where it is,
// and where problems and notes are collected.
class OptionContext {
 public:
  OptionContext(FioJob& job, const std::string& file, int line, std::vector<std::string>& errors,
                std::vector<FioNote>& notes)
      : job(job), file_(file), line_(line), errors_(errors), notes_(notes) {}
  FioJob& job;
  int line() const { return line_; }
  // A refusal or a bad value: "file:line: msg" (collected; the reader throws them together).
  void error(const std::string& msg) const;
  // "key=value: why" as an error.
  void bad(const std::string& key, const std::string& value, const std::string& why) const;
  // A note about `option` (kept once per option name).
  void note(const std::string& option, const std::string& text) const;

 private:
  const std::string& file_;
  int line_;
  std::vector<std::string>& errors_;
  std::vector<FioNote>& notes_;
};

// Applies `key` (=value) to ctx.job, or reports why it cannot be. has_value: the line had '='.
void apply_option(const OptionContext& ctx, const std::string& key, const std::string& value,
                  bool has_value);
// True for any option name fio knows (including the aliases and the I/O engines' options).
bool is_fio_option(const std::string& key);
// Every option name fio knows, for "did you mean".
const std::vector<std::string>& fio_option_names();
// Checks a finished job section, with `errors` for what cannot be run and `notes`.
void check_job(FioJob& job, const std::string& file, std::vector<std::string>& errors,
               std::vector<FioNote>& notes);
// Checks what spans jobs (wait_for names).
void check_file(const FioJobFile& f, std::vector<std::string>& errors);

// --- Value parsers (false on bad syntax) ---
std::string trim(const std::string& s);
std::string lower(std::string s);
std::vector<std::string> split(const std::string& s, char sep);
bool parse_bool(const std::string& v, bool& out);
bool parse_double(const std::string& v, double& out);
bool parse_u64(const std::string& v, uint64_t& out);  // plain decimal (or 0x hex)

// Option values, each reporting its own error (key=value: why) and returning false on one.
bool size_of(const OptionContext& ctx, const std::string& key, const std::string& v, uint64_t& out);
// A size, or a percentage of the drive ("50%"): pct > 0 then.
bool size_or_pct(const OptionContext& ctx, const std::string& key, const std::string& v,
                 uint64_t& out, double& pct);
bool u32_in(const OptionContext& ctx, const std::string& key, const std::string& v, uint64_t lo,
            uint64_t hi, uint32_t& out);
bool time_of(const OptionContext& ctx, const std::string& key, const std::string& v,
             uint64_t unit_ns, uint64_t& out);
bool flag_of(const OptionContext& ctx, const std::string& key, const std::string& v, bool& out);

constexpr uint64_t kSec = 1000000000ull, kUs = 1000;

// "R", "R,W" or ",W" (fio's per-direction values; a third, for trims, is ignored): calls
// set(direction, text) for the directions given.
template <class F>
void per_dir(const OptionContext& ctx, const std::string& key, const std::string& v, F set) {
  const std::vector<std::string> parts = split(v, ',');
  if (parts.size() > 3) {
    ctx.bad(key, v, "at most three values (reads, writes, trims)");
    return;
  }
  if (parts.size() == 1) {
    set(0, parts[0]);
    set(1, parts[0]);
    return;
  }
  if (!parts[0].empty()) set(0, parts[0]);
  if (!parts[1].empty()) set(1, parts[1]);
}

}  // namespace ssdtlm::traces::fio
