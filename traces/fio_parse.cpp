// The fio job-file reader: lines, sections, comments, `include`, ${VAR}; value parsers. The
// options themselves are in fio_options.cpp, the checks of a job in fio_check.cpp.
#include "traces/fio_parse.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "controller/suggest.h"

namespace ssdtlm::traces {

namespace fio {

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

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    const size_t c = s.find(sep, start);
    out.push_back(trim(s.substr(start, c == std::string::npos ? c : c - start)));
    if (c == std::string::npos) return out;
    start = c + 1;
  }
}

bool parse_bool(const std::string& v, bool& out) {
  const std::string b = lower(trim(v));
  if (b == "1" || b == "true" || b == "on" || b == "yes") {
    out = true;
    return true;
  }
  if (b == "0" || b == "false" || b == "off" || b == "no") {
    out = false;
    return true;
  }
  return false;
}

bool parse_double(const std::string& v, double& out) {
  const std::string t = trim(v);
  if (t.empty()) return false;
  char* end = nullptr;
  out = std::strtod(t.c_str(), &end);
  return end == t.c_str() + t.size();
}

bool parse_u64(const std::string& v, uint64_t& out) {
  const std::string t = trim(v);
  const bool hex = t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
  const char* b = t.data() + (hex ? 2 : 0);
  const char* e = t.data() + t.size();
  auto r = std::from_chars(b, e, out, hex ? 16 : 10);
  return r.ec == std::errc() && r.ptr == e && b != e;
}

void OptionContext::error(const std::string& msg) const {
  const std::string e = file_ + ":" + std::to_string(line_) + ": " + msg;
  if (errors_.empty() || errors_.back() != e) errors_.push_back(e);  // (once for both directions)
}

void OptionContext::bad(const std::string& key, const std::string& value,
                        const std::string& why) const {
  error(key + "=" + value + ": " + why);
}

void OptionContext::note(const std::string& option, const std::string& text) const {
  for (const FioNote& n : notes_)
    if (n.option == option) return;
  notes_.push_back({line_, option, text});
}

}  // namespace fio

namespace {

// Splits "digits" + "suffix"; false if there are no digits or they overflow.
bool split_number(const std::string& s, uint64_t& v, std::string& suffix) {
  const char* end = s.data() + s.size();
  auto r = std::from_chars(s.data(), end, v);
  if (r.ec != std::errc() || r.ptr == s.data()) return false;
  suffix = fio::lower(std::string(r.ptr, end));
  return true;
}

bool mul_ok(uint64_t a, uint64_t b, uint64_t& out) {
  if (b != 0 && a > UINT64_MAX / b) return false;
  out = a * b;
  return true;
}

}  // namespace

bool parse_fio_size(const std::string& text, uint64_t& out, uint32_t kb_base) {
  uint64_t v = 0;
  std::string suf;
  if (!split_number(fio::trim(text), v, suf)) return false;
  if (!suf.empty() && suf.back() == 'b') suf.pop_back();  // "kb" = "k", "kib" = "ki", "b" = ""
  if (suf.empty()) return mul_ok(v, 1, out);
  const std::string units = "kmgtp";
  const size_t pos = units.find(suf[0]);
  if (pos == std::string::npos) return false;
  bool iec = false;  // "Ki": with fio's kb_base=1024, 1000 (the reverse of IEC); 1024 with 1000
  if (suf.size() == 2 && suf[1] == 'i')
    iec = true;
  else if (suf.size() != 1)
    return false;
  const uint64_t base = (kb_base == 1000) != iec ? 1000 : 1024;
  uint64_t mul = 1;
  for (size_t i = 0; i <= pos; ++i) mul *= base;
  return mul_ok(v, mul, out);
}

bool parse_fio_time(const std::string& text, uint64_t default_unit_ns, uint64_t& out_ns) {
  uint64_t v = 0;
  std::string suf;
  if (!split_number(fio::trim(text), v, suf)) return false;
  uint64_t unit = default_unit_ns;
  if (suf == "ns" || suf == "nsec")
    unit = 1;
  else if (suf == "us" || suf == "usec")
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

std::vector<std::string> FioJobFile::note_lines() const {
  std::vector<std::string> out;
  for (const FioNote& n : notes)
    out.push_back(path + ":" + std::to_string(n.line) + ": note: " + n.text);
  return out;
}

namespace {

using fio::lower;
using fio::trim;

class Reader {
 public:
  explicit Reader(std::string name) : name_(std::move(name)) {}

  FioJobFile run(const std::string& text) {
    lines(text, name_, 0);
    finish_job();
    if (!any_section_) fail("empty job file: no [global] or job section");
    if (out_.jobs.empty() && errors_.empty())
      fail("no job section: only [global] (fio runs job sections)");
    out_.path = name_;
    fio::check_file(out_, errors_);
    if (!errors_.empty()) throw_errors();
    return std::move(out_);
  }

 private:
  [[noreturn]] void fail(const std::string& msg) const { throw TraceError(name_ + ": " + msg); }

  [[noreturn]] void throw_errors() const {
    std::string msg = errors_.size() == 1 ? errors_[0]
                                          : name_ + ": " + std::to_string(errors_.size()) +
                                                " problems (each is refused):";
    if (errors_.size() > 1)
      for (const std::string& e : errors_) msg += "\n  " + e;
    throw TraceError(msg);
  }

  // The lines of `text` (the job file, or a file it includes at `depth`).
  void lines(const std::string& text, const std::string& file, int depth) {
    std::istringstream in(text);
    std::string raw;
    int line = 0;
    while (std::getline(in, raw)) {
      ++line;
      line_ = line;
      file_ = file;
      std::string l = raw;
      const size_t comment = l.find_first_of(";#");  // fio: the rest of a line is a comment
      if (comment != std::string::npos) l.erase(comment);
      l = trim(l);
      if (l.empty()) continue;
      if (l.compare(0, 8, "include ") == 0) {
        include(trim(l.substr(8)), file, depth);
        continue;
      }
      if (!expand_env(l)) continue;
      if (l[0] == '[') {
        section(l);
        continue;
      }
      if (!cur_) {
        error("option '" + l + "' before the first section ([global] or [job name])");
        continue;
      }
      const size_t eq = l.find('=');
      const std::string key = lower(trim(l.substr(0, eq)));
      const std::string value = eq == std::string::npos ? "" : trim(l.substr(eq + 1));
      option(key, value, eq != std::string::npos);
    }
  }

  void include(const std::string& path, const std::string& from, int depth) {
    namespace fs = std::filesystem;
    fs::path p(path);
    if (p.is_relative()) p = fs::path(from).parent_path() / p;
    std::ifstream f(p, std::ios::binary);
    if (depth > 8 || !f) {
      error("include " + path + ": " + (f ? "nested too deep" : "cannot read " + p.string()));
      return;
    }
    std::ostringstream ss;
    ss << f.rdbuf();
    const std::string saved = file_;
    const int saved_line = line_;
    lines(ss.str(), p.string(), depth + 1);
    file_ = saved;
    line_ = saved_line;
  }

  // ${VAR}: the environment's value, as fio substitutes it. False (after an error) when unset.
  bool expand_env(std::string& l) {
    size_t at;
    while ((at = l.find("${")) != std::string::npos) {
      const size_t end = l.find('}', at);
      if (end == std::string::npos) {
        error("'${' without its closing '}'");
        return false;
      }
      const std::string var = l.substr(at + 2, end - at - 2);
      const char* v = std::getenv(var.c_str());
      if (!v) {
        error("${" + var + "}: not set in the environment");
        return false;
      }
      l.replace(at, end - at + 1, v);
    }
    return true;
  }

  void section(const std::string& l) {
    any_section_ = true;
    if (l.back() != ']') {
      error("section header '" + l + "' lacks its closing ']'");
      cur_ = nullptr;
      return;
    }
    const std::string name = trim(l.substr(1, l.size() - 2));
    finish_job();
    if (name.empty()) {
      error("empty section name '[]'");
      cur_ = nullptr;
      return;
    }
    if (name == "global") {
      in_global_ = true;
      cur_ = &global_;
      return;
    }
    in_global_ = false;
    job_ = global_;
    job_.given.clear();
    job_.name = name;
    job_.line = line_;
    cur_ = &job_;
    have_job_ = true;
  }

  void option(const std::string& key, const std::string& value, bool has_value) {
    if (!fio::is_fio_option(key)) {
      error("'" + key + "' is not an option of fio" + did_you_mean(key, fio::fio_option_names()));
      return;
    }
    const fio::OptionContext ctx(*cur_, file_, line_, errors_, out_.notes);
    (in_global_ ? out_.global_given : cur_->given)
        .emplace_back(key, has_value ? value : std::string());
    fio::apply_option(ctx, key, value, has_value);
  }

  void finish_job() {
    if (!have_job_) return;
    have_job_ = false;
    fio::check_job(job_, name_, errors_, out_.notes);
    out_.jobs.push_back(job_);
  }

  void error(const std::string& msg) {
    errors_.push_back(file_ + ":" + std::to_string(line_) + ": " + msg);
  }

  std::string name_, file_;
  int line_ = 0;
  bool any_section_ = false, in_global_ = false, have_job_ = false;
  FioJob global_, job_;
  FioJob* cur_ = nullptr;
  FioJobFile out_;
  std::vector<std::string> errors_;
};

}  // namespace

FioJobFile parse_fio_job(const std::string& text, const std::string& name) {
  return Reader(name).run(text);
}

FioJobFile read_fio_job(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TraceError(path + ": cannot read the fio job file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_fio_job(ss.str(), path);
}

}  // namespace ssdtlm::traces
