// The trace reader under the transformation pipeline (traces/source.cpp): lines into records,
// with junk skipping and counting, header and comment lines and the time base.
#pragma once

#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "traces/drops.h"
#include "traces/formats.h"
#include "traces/input.h"
#include "traces/options.h"

namespace ssdtlm::traces::reader_detail {

constexpr size_t kJunkExamples = 5;
constexpr uint64_t kJunkWindow = 1000;  // "mostly junk" is judged on the first 1000 lines
constexpr size_t kSniffLines = 200;

struct Item {
  int64_t t = 0;  // ns relative to the first record of the file (may be negative before ordering)
  uint64_t offset = 0;
  uint64_t offset_hi = 0;  // bits 64..127 of the byte offset (RawRecord::offset_hi)
  uint32_t size = 0;
  uint32_t device = 0;
  bool is_read = false;
  uint64_t line = 0;
  // The request ends beyond 2^64 bytes: beyond any device (the fold rule applies).
  bool beyond_64() const { return offset_hi != 0 || offset + size < offset; }
};

std::string loc(const std::string& name, uint64_t line) {
  return name + ":" + std::to_string(line);
}

// Parses lines into Items: junk skipping and counting, header and comment lines, time base.
class Reader {
 public:
  Reader(std::unique_ptr<ByteStream> in, std::string name, const TraceOptions& opt)
      : lines_(std::move(in)), name_(std::move(name)), strict_(opt.strict) {
    ctx_.blkparse_event = opt.blkparse_event.empty() ? 'Q' : opt.blkparse_event[0];
    if (opt.format == "auto") {
      sniff();
      sniffed_ = true;
    } else if (!parse_format_name(opt.format, format_)) {
      throw TraceError("--format: unknown trace format '" + opt.format + "'");
    }
    ns_per_unit_ = format_info(format_).ns_per_unit;
  }

  Format format() const { return format_; }
  bool sniffed() const { return sniffed_; }
  const DropLog& log() const { return log_; }
  const std::string& name() const { return name_; }

  void rewind() {
    lines_.rewind();
    have_base_ = false;
    considered_ = junk_ = header_ = comment_ = skipped_ = zero_ = salvaged_ = records_ = 0;
    junk_examples_.clear();
    checked_window_ = false;
    binary_lines_ = 0;
    log_.clear();
  }

  bool next(Item& it) {
    std::string_view line;
    while (lines_.next(line)) {
      uint64_t ln = lines_.line_number();
      if (lines_.last_truncated()) {
        LineError e;
        e.field = "line";
        e.problem = "longer than 1 MiB";
        on_junk(ln, e);
        continue;
      }
      // Blank and comment lines.
      size_t b = 0;
      while (b < line.size() && (line[b] == ' ' || line[b] == '\t')) ++b;
      if (b == line.size()) continue;
      if (line[b] == '#') {
        ++comment_;
        continue;
      }
      ++considered_;
      bool salvaged = false;
      if (std::memchr(line.data(), '\0', line.size())) {
        // Binary padding (e.g. a tar header glued to the first record): keep what follows the
        // last NUL byte if it is a record.
        size_t last = line.rfind('\0');
        line = line.substr(last + 1);
        salvaged = true;
        ++binary_lines_;
      }
      RawRecord r;
      LineError e;
      LineStatus st = parse_line(format_, line, ctx_, r, e);
      if (st == LineStatus::kSkip) {
        ++skipped_;
        check_window();
        continue;
      }
      if (st == LineStatus::kJunk) {
        if (salvaged) {
          e.field = "line";
          e.problem = "binary data (NUL bytes)";
          e.value = {};
        }
        if (considered_ == 1 && records_ == 0 && !salvaged && is_alpha(line[b])) {
          ++header_;  // a header line such as "Timestamp,Response,IOType,LUN,Offset,Size"
          continue;
        }
        on_junk(ln, e);
        continue;
      }
      if (accept(r, ln, salvaged, e, it)) return true;
    }
    at_end();
    return false;
  }

 private:
  // A parsed record: checked (size, time) and counted; false when it is dropped.
  bool accept(const RawRecord& r, uint64_t ln, bool salvaged, LineError& e, Item& it) {
    if (r.size == 0) {
      const std::string where = loc(name_, ln) + ": field 'size': zero";
      if (strict_) throw TraceError(where + " (--strict)");
      ++zero_;
      log_.drop("size: zero", ln, where);
      check_window();
      return false;
    }
    if (r.size > UINT32_MAX) {
      e.field = "size";
      e.problem = "larger than 4 GiB";
      e.value = {};
      on_junk(ln, e);
      return false;
    }
    if (!have_base_) {
      base_ = r.time;
      have_base_ = true;
    }
    int64_t d, ns;
    if (__builtin_sub_overflow(r.time, base_, &d) || __builtin_mul_overflow(d, ns_per_unit_, &ns)) {
      e.field = "time";
      e.problem = "out of range (more than 292 years from the first record)";
      e.value = {};
      on_junk(ln, e);
      return false;
    }
    if (salvaged) {
      ++salvaged_;
      log_.alter("line: binary data (NUL bytes) before the record, cut", ln,
                 loc(name_, ln) + ": field 'line': binary data (NUL bytes) before the record, cut");
    }
    ++records_;
    check_window();
    it.t = ns;
    it.offset = r.offset;
    it.offset_hi = r.offset_hi;
    it.size = static_cast<uint32_t>(r.size);
    it.device = r.device;
    it.is_read = r.is_read;
    it.line = ln;
    return true;
  }

  // End of file: judge the whole (short) file.
  void at_end() {
    if (!checked_window_ && considered_ > 0 && junk_ * 2 > considered_) mostly_junk();
    if (records_ == 0) {
      if (considered_ > 0 && binary_lines_ * 2 > considered_) not_text();
      std::string msg = name_ + ": no " + format_info(format_).name + " records";
      if (!junk_examples_.empty()) msg += "; first bad line: " + junk_examples_[0].second;
      throw TraceError(msg);
    }
  }

 public:
  void describe(nlohmann::json& j) const {
    j["format"] = format_info(format_).name;
    j["format_sniffed"] = sniffed_;
    j["compression"] = compression_name(lines_.compression());
    j["lines"] = lines_.line_number();
    j["records_parsed"] = records_;
    j["junk_lines"] = junk_;
    nlohmann::json ex = nlohmann::json::array();
    for (const auto& e : junk_examples_) ex.push_back({{"line", e.first}, {"message", e.second}});
    j["junk_examples"] = ex;
    j["header_lines"] = header_;
    j["comment_lines"] = comment_;
    j["skipped_events"] = skipped_;
    j["zero_size_skipped"] = zero_;
    j["salvaged_lines"] = salvaged_;
  }

 private:
  static bool is_alpha(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

  void on_junk(uint64_t ln, const LineError& e) {
    std::string msg = loc(name_, ln) + ": " + describe_error(e);
    if (strict_) throw TraceError(msg + " (--strict)");
    ++junk_;
    if (junk_examples_.size() < kJunkExamples) junk_examples_.emplace_back(ln, msg);
    log_.drop(std::string(e.field) + ": " + e.problem, ln, msg);
    check_window();
  }
  void check_window() {
    if (!checked_window_ && considered_ >= kJunkWindow) {
      checked_window_ = true;
      if (junk_ * 2 > considered_) mostly_junk();
    }
  }
  // A binary file (an image, an archive, a compressed format we do not read): said as such.
  [[noreturn]] void not_text() const {
    throw TraceError(name_ + ": a binary file, not a text trace: " + std::to_string(binary_lines_) +
                     " of the first " + std::to_string(considered_) + " lines hold NUL bytes");
  }
  [[noreturn]] void mostly_junk() const {
    if (binary_lines_ * 2 > considered_) not_text();
    std::string msg = name_ + ": not a " + std::string(format_info(format_).name) +
                      " trace: " + std::to_string(junk_) + " of the first " +
                      std::to_string(considered_) + " lines are not valid records";
    if (!junk_examples_.empty()) msg += "; first: " + junk_examples_[0].second;
    throw TraceError(msg);
  }

  void sniff() {
    std::vector<std::string> sample;
    std::string_view line;
    uint64_t seen = 0, binary = 0, long_lines = 0;
    while (sample.size() < kSniffLines && lines_.next(line)) {
      ++seen;
      if (lines_.last_truncated()) {
        ++long_lines;
        continue;
      }
      size_t nul = line.rfind('\0');
      if (nul != std::string_view::npos) {
        line = line.substr(nul + 1);
        ++binary;
      }
      size_t b = 0;
      while (b < line.size() && (line[b] == ' ' || line[b] == '\t')) ++b;
      if (b == line.size() || line[b] == '#') continue;
      sample.emplace_back(line);
    }
    lines_.rewind();
    std::string why;
    const std::string not_text =
        name_ + ": a binary file, not a text trace: " + std::to_string(binary + long_lines) +
        " of the first " + std::to_string(seen) +
        " lines hold NUL bytes or are longer "
        "than 1 MiB";
    if (sample.empty() && binary + long_lines > 0) throw TraceError(not_text);
    if (sample.empty()) throw TraceError(name_ + ": empty trace (no non-blank lines)");
    if (!sniff_format(sample, ctx_, format_, why)) {
      if ((binary + long_lines) * 2 > seen) throw TraceError(not_text);
      throw TraceError(name_ + ": " + why);
    }
  }

  LineReader lines_;
  std::string name_;
  bool strict_;
  ParseContext ctx_;
  Format format_ = Format::kMsrc;
  bool sniffed_ = false;
  int64_t ns_per_unit_ = 1;
  bool have_base_ = false;
  int64_t base_ = 0;
  uint64_t considered_ = 0, junk_ = 0, header_ = 0, comment_ = 0, skipped_ = 0, zero_ = 0,
           salvaged_ = 0, records_ = 0;
  bool checked_window_ = false;
  uint64_t binary_lines_ = 0;  // lines holding NUL bytes
  std::vector<std::pair<uint64_t, std::string>> junk_examples_;
  DropLog log_;
};

}  // namespace ssdtlm::traces::reader_detail
