#include "traces/fio_job.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <sstream>

namespace ssdtlm::traces {

namespace {

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Splits "digits" + "suffix"; false if there are no digits or they overflow.
bool split_number(const std::string& s, uint64_t& v, std::string& suffix) {
  const char* end = s.data() + s.size();
  auto r = std::from_chars(s.data(), end, v);
  if (r.ec != std::errc() || r.ptr == s.data()) return false;
  suffix = lower(std::string(r.ptr, end));
  return true;
}

bool mul_ok(uint64_t a, uint64_t b, uint64_t& out) {
  if (b != 0 && a > UINT64_MAX / b) return false;
  out = a * b;
  return true;
}

}  // namespace

bool parse_fio_size(const std::string& text, uint64_t& out) {
  uint64_t v = 0;
  std::string suf;
  if (!split_number(trim(text), v, suf)) return false;
  if (!suf.empty() && suf.back() == 'b') suf.pop_back();  // "kb" = "k", "kib" = "ki", "b" = ""
  if (suf.empty()) return mul_ok(v, 1, out);
  const std::string units = "kmgtp";
  const size_t pos = units.find(suf[0]);
  if (pos == std::string::npos) return false;
  bool decimal = false;  // fio's kb_base=1024: "Ki" is 1000, "K" is 1024
  if (suf.size() == 2 && suf[1] == 'i')
    decimal = true;
  else if (suf.size() != 1)
    return false;
  uint64_t mul = 1;
  for (size_t i = 0; i <= pos; ++i) mul *= decimal ? 1000 : 1024;
  return mul_ok(v, mul, out);
}

bool parse_fio_time(const std::string& text, uint64_t default_unit_ns, uint64_t& out_ns) {
  uint64_t v = 0;
  std::string suf;
  if (!split_number(trim(text), v, suf)) return false;
  uint64_t unit = default_unit_ns;
  if (suf == "us" || suf == "usec")
    unit = 1000;
  else if (suf == "ms" || suf == "msec")
    unit = 1000000;
  else if (suf == "s" || suf == "sec")
    unit = 1000000000ull;
  else if (suf == "m" || suf == "min")
    unit = 60000000000ull;
  else if (suf == "h")
    unit = 3600000000000ull;
  else if (suf == "d")
    unit = 86400000000000ull;
  else if (!suf.empty())
    return false;
  return mul_ok(v, unit, out_ns);
}

uint32_t FioJobFile::closed_loop_slots() const {
  if (open_loop()) return 0;
  uint64_t n = 0;
  for (const auto& j : jobs) n += uint64_t(j.numjobs) * j.iodepth;
  return static_cast<uint32_t>(std::min<uint64_t>(n, UINT32_MAX));
}

namespace {

class Parser {
 public:
  Parser(std::string name) : name_(std::move(name)) {}

  FioJobFile run(const std::string& text) {
    std::istringstream in(text);
    std::string raw;
    bool any_section = false;
    while (std::getline(in, raw)) {
      ++line_;
      const std::string l = trim(raw);
      if (l.empty() || l[0] == ';' || l[0] == '#') continue;
      if (l[0] == '[') {
        section(l);
        any_section = true;
        continue;
      }
      if (!any_section)
        fail(line_, "option '" + l + "' before the first section ([global] or [job name])");
      const size_t eq = l.find('=');
      const std::string key = lower(trim(l.substr(0, eq)));
      if (eq == std::string::npos)
        option(key, "", false);
      else
        option(key, trim(l.substr(eq + 1)), true);
    }
    finish_job();
    if (!any_section) fail(0, "empty job file: no [global] or job section");
    if (out_.jobs.empty()) fail(0, "no job section: only [global] (fio runs job sections)");
    check_loop_modes();
    return std::move(out_);
  }

 private:
  [[noreturn]] void fail(int line, const std::string& msg) const {
    throw TraceError(name_ + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": " + msg);
  }
  [[noreturn]] void bad_value(const std::string& key, const std::string& v,
                              const std::string& why) {
    fail(line_, key + "=" + v + ": " + why);
  }

  void section(const std::string& l) {
    if (l.back() != ']') fail(line_, "section header '" + l + "' lacks its closing ']'");
    const std::string name = trim(l.substr(1, l.size() - 2));
    if (name.empty()) fail(line_, "empty section name '[]'");
    finish_job();
    if (name == "global") {
      in_global_ = true;
      cur_ = &global_;
      return;
    }
    in_global_ = false;
    job_ = global_;
    job_.name = name;
    job_.line = line_;
    cur_ = &job_;
    have_job_ = true;
  }

  uint32_t u32(const std::string& key, const std::string& v, uint64_t lo, uint64_t hi) {
    uint64_t n = 0;
    if (!parse_fio_size(v, n)) bad_value(key, v, "not an integer");
    if (n < lo || n > hi)
      bad_value(key, v, "must be in " + std::to_string(lo) + ".." + std::to_string(hi));
    return static_cast<uint32_t>(n);
  }

  uint64_t bytes(const std::string& key, const std::string& v) {
    uint64_t n = 0;
    if (!v.empty() && v.back() == '%')
      bad_value(key, v, "a percentage of a file or device is not supported: give bytes");
    if (!parse_fio_size(v, n)) bad_value(key, v, "not a size (e.g. 4096, 4k, 1m, 2g)");
    return n;
  }

  // "4k" or "4k,8k" (reads, writes): fills lo/hi of both directions from one or two ranges.
  void block_sizes(const std::string& key, const std::string& v, bool range) {
    std::vector<std::string> parts;
    size_t start = 0;
    for (;;) {
      const size_t c = v.find(',', start);
      parts.push_back(trim(v.substr(start, c == std::string::npos ? c : c - start)));
      if (c == std::string::npos) break;
      start = c + 1;
    }
    if (parts.size() > 2)
      bad_value(key, v, "at most two values (reads,writes): trims are not modelled");
    for (size_t d = 0; d < 2; ++d) {
      const std::string& p = parts[std::min(d, parts.size() - 1)];
      if (p.empty()) bad_value(key, v, "empty value");
      uint64_t lo = 0, hi = 0;
      const size_t sep = range ? p.find_first_of("-:") : std::string::npos;
      if (range && sep == std::string::npos) bad_value(key, v, "expected MIN-MAX");
      lo = bytes(key, sep == std::string::npos ? p : p.substr(0, sep));
      hi = sep == std::string::npos ? lo : bytes(key, p.substr(sep + 1));
      if (lo == 0 || hi > (1u << 30)) bad_value(key, v, "block sizes must be in 1 B .. 1 GiB");
      if (lo > hi) bad_value(key, v, "minimum above maximum");
      cur_->bs_min[d] = static_cast<uint32_t>(lo);
      cur_->bs_max[d] = static_cast<uint32_t>(hi);
    }
  }

  uint64_t time(const std::string& key, const std::string& v, uint64_t unit_ns) {
    uint64_t ns = 0;
    if (!parse_fio_time(v, unit_ns, ns))
      bad_value(key, v, "not a time (a number with us, ms, s, m, h or d)");
    return ns;
  }

  void option(const std::string& key, const std::string& v, bool has_value);
  void finish_job();
  void check_loop_modes() const;

  std::string name_;
  int line_ = 0;
  FioJob global_;
  FioJob job_;
  FioJob* cur_ = nullptr;
  bool in_global_ = false;
  bool have_job_ = false;
  FioJobFile out_;
};

void Parser::option(const std::string& key, const std::string& v, bool has_value) {
  static const char* const kKnown[] = {
      "rw",         "readwrite", "rwmixread", "bs",        "bsrange",        "size",
      "offset",     "iodepth",   "numjobs",   "rate_iops", "runtime",        "number_ios",
      "randrepeat", "randseed",  "thinktime", "blocksize", "blocksize_range"};
  if (key == "time_based")
    fail(line_,
         "option 'time_based' is not supported: a job ends after size bytes or "
         "number_ios requests (or at runtime, whichever comes first); it does not wrap "
         "around its region to fill runtime");
  if (std::find(std::begin(kKnown), std::end(kKnown), key) == std::end(kKnown))
    fail(line_, "option '" + key +
                    "' is not in the supported subset of fio (docs/fio.md lists it: rw, "
                    "rwmixread, bs, bsrange, size, offset, iodepth, numjobs, rate_iops, runtime, "
                    "number_ios, randrepeat, randseed, thinktime)");
  if (!has_value && key != "randrepeat") fail(line_, key + ": needs a value (" + key + "=...)");
  if (has_value && v.empty()) fail(line_, key + "=: empty value");
  FioJob& j = *cur_;
  if (key == "rw" || key == "readwrite") {
    static const char* const kRw[] = {"read", "write",  "randread", "randwrite",
                                      "rw",   "randrw", "readwrite"};
    const std::string m = lower(v);
    if (std::find(std::begin(kRw), std::end(kRw), m) == std::end(kRw))
      bad_value(key, v, "expected read, write, randread, randwrite, rw (readwrite) or randrw");
    j.rw = m == "readwrite" ? "rw" : m;
  } else if (key == "rwmixread") {
    j.rwmixread = u32(key, v, 0, 100);
  } else if (key == "bs" || key == "blocksize") {
    block_sizes(key, v, false);
  } else if (key == "bsrange" || key == "blocksize_range") {
    block_sizes(key, v, true);
  } else if (key == "size") {
    j.size = bytes(key, v);
    if (j.size == 0) bad_value(key, v, "must be positive");
  } else if (key == "offset") {
    j.offset = bytes(key, v);
  } else if (key == "iodepth") {
    j.iodepth = u32(key, v, 1, 65535);
    j.iodepth_line = line_;
  } else if (key == "numjobs") {
    j.numjobs = u32(key, v, 1, 4096);
  } else if (key == "rate_iops") {
    if (v.find(',') != std::string::npos)
      bad_value(key, v, "one rate for reads and writes together (no per-direction rates)");
    j.rate_iops = u32(key, v, 1, 1000000000);
  } else if (key == "runtime") {
    j.runtime_ns = time(key, v, 1000000000ull);
    j.runtime_line = line_;
  } else if (key == "number_ios") {
    uint64_t n = 0;
    if (!parse_fio_size(v, n) || n == 0) bad_value(key, v, "must be a positive integer");
    j.number_ios = n;
  } else if (key == "randrepeat") {
    const std::string b = lower(v);
    if (has_value && b != "0" && b != "1" && b != "true" && b != "false")
      bad_value(key, v, "expected 0 or 1");
    j.randrepeat = !has_value || b == "1" || b == "true";
    j.randrepeat_line = line_;
  } else if (key == "randseed") {
    uint64_t n = 0;
    if (!parse_fio_size(v, n)) bad_value(key, v, "not an integer");
    j.randseed = n;
    j.randseed_set = true;
  } else if (key == "thinktime") {
    j.thinktime_ns = time(key, v, 1000);
    j.thinktime_line = line_;
  }
}

// Checks the job just read and appends it.
void Parser::finish_job() {
  if (!have_job_) return;
  have_job_ = false;
  FioJob& j = job_;
  const std::string where = "[" + j.name + "]: ";
  if (j.size == 0)
    fail(j.line, where + "size is required (the bytes of the job's region, e.g. size=1g)");
  if (j.offset > UINT64_MAX - j.size) fail(j.line, where + "offset + size overflows");
  for (int d = 0; d < 2; ++d)
    if (j.bs_max[d] > j.size)
      fail(j.line, where + "block size " + std::to_string(j.bs_max[d]) + " exceeds size " +
                       std::to_string(j.size));
  if (j.open_loop() && j.iodepth_line) {
    fail(j.iodepth_line, where +
                             "iodepth with rate_iops: an open-loop job's requests queue in "
                             "the host's submission queues (host.queues x host.queue_depth)");
  }
  if (!j.randrepeat && !j.randseed_set)
    fail(j.randrepeat_line, where +
                                "randrepeat=0 asks for a different stream each run: the "
                                "model is repeatable, set randseed=N to choose the stream");
  out_.jobs.push_back(j);
}

void Parser::check_loop_modes() const {
  const FioJob& first = out_.jobs[0];
  for (const auto& j : out_.jobs) {
    if (j.open_loop() != first.open_loop())
      fail(j.line, "[" + j.name +
                       "]: mixes a closed-loop job (no rate_iops) with an open-loop one "
                       "(rate_iops): give every job rate_iops or none");
    // Closed-loop jobs share the host's slots, and the host's think time and stop time.
    if (!j.open_loop() && j.thinktime_ns != first.thinktime_ns)
      fail(j.thinktime_line ? j.thinktime_line : j.line,
           "[" + j.name + "]: thinktime differs from [" + first.name +
               "]'s: closed-loop jobs share the host's slots, give them the same thinktime");
    if (!j.open_loop() && j.runtime_ns != first.runtime_ns)
      fail(j.runtime_line ? j.runtime_line : j.line,
           "[" + j.name + "]: runtime differs from [" + first.name +
               "]'s: closed-loop jobs share the host's slots, give them the same runtime");
  }
}

}  // namespace

FioJobFile parse_fio_job(const std::string& text, const std::string& name) {
  FioJobFile f = Parser(name).run(text);
  f.path = name;
  return f;
}

FioJobFile read_fio_job(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TraceError(path + ": cannot read the fio job file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_fio_job(ss.str(), path);
}

}  // namespace ssdtlm::traces
