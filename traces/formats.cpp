#include "traces/formats.h"

#include <array>
#include <charconv>
#include <cstring>

namespace ssdtlm::traces {

const std::vector<FormatInfo>& all_formats() {
  // Order = sniffing priority on ties.
  static const std::vector<FormatInfo> v = {
      {Format::kMsrc, "msrc", 100,
       "MSR Cambridge CSV: Timestamp(FILETIME, 100 ns),Hostname,DiskNumber,Type(Read/Write),"
       "Offset(B),Size(B),ResponseTime"},
      {Format::kUmass, "umass", 1,
       "UMass/SPC CSV: ASU,LBA(512 B),Size(B),Opcode(r/w),Timestamp(s)"},
      {Format::kFiu, "fiu", 1,
       "FIU blkparse: ts(ns) pid process lba(512 B) nblocks(512 B) R/W major minor md5"},
      {Format::kAlibaba, "alibaba", 1000,
       "Alibaba block CSV: device_id,opcode(R/W),offset(B),length(B),timestamp(us)"},
      {Format::kTencent, "tencent", 1000000000,
       "Tencent CBS CSV: Timestamp(s),Offset(512 B),Size(512 B),IOType(0=read,1=write),VolumeID"},
      {Format::kSystor, "systor", 1,
       "SYSTOR'17 CSV: Timestamp(s),Response(s),IOType(R/W),LUN,Offset(B),Size(B)"},
      {Format::kBlkparse, "blkparse", 1,
       "blkparse text: dev cpu seq time(s) pid action rwbs sector + nsectors [process]"},
      {Format::kMqsim, "mqsim", 1,
       "MQSim ASCII: arrival(ns) device lba(512 B) size(512 B sectors) type(1=read,0=write)"},
      {Format::kSsdsim, "ssdsim", 1,
       "SSDsim ASCII: time(ns) device lsn(512 B) size(512 B sectors) ope(1=read,0=write)"},
      {Format::kMsrcMs, "msrc-ms", 1,
       "MSRC windows: time(ms) device offset(B) size(B) type(1=read,0=write)"},
      {Format::kDisksim, "disksim", 1,
       "DiskSim ASCII: time(ms) device blkno(512 B) bcount(512 B sectors) flags(bit 0: 1=read)"},
  };
  return v;
}

const FormatInfo& format_info(Format f) {
  for (const auto& i : all_formats())
    if (i.format == f) return i;
  return all_formats().front();
}

bool parse_format_name(std::string_view name, Format& out) {
  for (const auto& i : all_formats())
    if (name == i.name) {
      out = i.format;
      return true;
    }
  return false;
}

namespace {

constexpr size_t kMaxFields = 16;
using Fields = std::array<std::string_view, kMaxFields>;

inline bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

inline std::string_view trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && is_space(s[b])) ++b;
  while (e > b && is_space(s[e - 1])) --e;
  return s.substr(b, e - b);
}

// Splits on ','; returns the number of fields (kMaxFields + 1 if there are more).
size_t split_csv(std::string_view line, Fields& f) {
  size_t n = 0, start = 0;
  for (;;) {
    size_t p = line.find(',', start);
    if (n == kMaxFields) return kMaxFields + 1;
    if (p == std::string_view::npos) {
      f[n++] = trim(line.substr(start));
      return n;
    }
    f[n++] = trim(line.substr(start, p - start));
    start = p + 1;
  }
}

// Splits on runs of blanks; returns the number of fields (kMaxFields + 1 if there are more).
size_t split_ws(std::string_view line, Fields& f) {
  size_t n = 0, i = 0, len = line.size();
  for (;;) {
    while (i < len && is_space(line[i])) ++i;
    if (i >= len) return n;
    size_t b = i;
    while (i < len && !is_space(line[i])) ++i;
    if (n == kMaxFields) return kMaxFields + 1;
    f[n++] = line.substr(b, i - b);
  }
}

inline bool parse_u64(std::string_view s, uint64_t& out) {
  if (s.empty()) return false;
  auto r = std::from_chars(s.data(), s.data() + s.size(), out, 10);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

inline bool parse_u32(std::string_view s, uint32_t& out) {
  uint64_t v;
  if (!parse_u64(s, v) || v > UINT32_MAX) return false;
  out = static_cast<uint32_t>(v);
  return true;
}

// Decimal number with up to `digits` fraction digits, scaled by 10^digits, into int64 (>= 0).
// Further fraction digits are truncated. "12.5" with digits=3 -> 12500.
inline bool parse_fixed(std::string_view s, int digits, int64_t& out) {
  if (s.empty()) return false;
  size_t i = 0;
  uint64_t ip = 0;
  bool any = false;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
    if (ip > (UINT64_MAX - 9) / 10) return false;
    ip = ip * 10 + static_cast<uint64_t>(s[i] - '0');
    ++i;
    any = true;
  }
  uint64_t frac = 0;
  int fd = 0;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
      if (fd < digits) {
        frac = frac * 10 + static_cast<uint64_t>(s[i] - '0');
        ++fd;
      }
      ++i;
      any = true;
    }
  }
  if (!any || i != s.size()) return false;
  for (; fd < digits; ++fd) frac *= 10;
  uint64_t scale = 1;
  for (int k = 0; k < digits; ++k) scale *= 10;
  uint64_t v;
  if (__builtin_mul_overflow(ip, scale, &v) || __builtin_add_overflow(v, frac, &v) ||
      v > static_cast<uint64_t>(INT64_MAX))
    return false;
  out = static_cast<int64_t>(v);
  return true;
}

inline bool parse_time_int(std::string_view s, int64_t& out) {
  uint64_t v;
  if (!parse_u64(s, v) || v > static_cast<uint64_t>(INT64_MAX)) return false;
  out = static_cast<int64_t>(v);
  return true;
}

inline bool ieq(std::string_view a, const char* b) {
  size_t n = std::strlen(b);
  if (a.size() != n) return false;
  for (size_t i = 0; i < n; ++i) {
    char c = a[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != b[i]) return false;
  }
  return true;
}

constexpr const char* kNaN = "not a number";
constexpr const char* kFields = "wrong number of fields";

inline LineStatus junk(LineError& err, const char* field, const char* problem,
                       std::string_view value = {}) {
  err.field = field;
  // A negative size or offset is said as such (a number, just not one a request can have).
  if (problem == kNaN && value.size() > 1 && value[0] == '-' && value[1] >= '0' && value[1] <= '9')
    problem = "negative";
  err.problem = problem;
  err.value = value;
  return LineStatus::kJunk;
}

inline bool sectors_to_bytes(uint64_t sectors, uint64_t& bytes) {
  return !__builtin_mul_overflow(sectors, uint64_t{512}, &bytes);
}

// The byte offset of a 512 B sector address, in 73 bits (beyond 2^64 bytes: offset_hi != 0).
inline void sector_offset(uint64_t sectors, RawRecord& r) {
  r.offset = sectors << 9;
  r.offset_hi = sectors >> 55;
}

// A decimal byte offset, in 128 bits (past 2^64: offset_hi != 0); false if not a number or past
// 2^128.
inline bool parse_offset(std::string_view s, RawRecord& r) {
  if (parse_u64(s, r.offset)) {
    r.offset_hi = 0;
    return true;
  }
  if (s.empty() || s.size() > 38) return false;
  uint64_t hi = 0, lo = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    // (hi:lo) = (hi:lo) * 10 + digit: lo * 10 by halves, carries into hi.
    const uint64_t d = static_cast<uint64_t>(c - '0');
    const uint64_t l0 = (lo & 0xffffffffu) * 10 + d, l1 = (lo >> 32) * 10 + (l0 >> 32);
    hi = hi * 10 + (l1 >> 32);
    lo = (l1 << 32) | (l0 & 0xffffffffu);
  }
  r.offset = lo;
  r.offset_hi = hi;
  return true;
}

LineStatus parse_msrc(std::string_view line, RawRecord& r, LineError& e) {
  Fields f;
  size_t n = split_csv(line, f);
  if (n < 6 || n > 7) return junk(e, "line", kFields, line.substr(0, 40));
  if (!parse_time_int(f[0], r.time)) return junk(e, "Timestamp", kNaN, f[0]);
  if (!parse_u32(f[2], r.device)) return junk(e, "DiskNumber", kNaN, f[2]);
  if (ieq(f[3], "read"))
    r.is_read = true;
  else if (ieq(f[3], "write"))
    r.is_read = false;
  else
    return junk(e, "Type", "not Read or Write", f[3]);
  if (!parse_offset(f[4], r)) return junk(e, "Offset", kNaN, f[4]);
  if (!parse_u64(f[5], r.size)) return junk(e, "Size", kNaN, f[5]);
  return LineStatus::kRecord;
}

LineStatus parse_01_type(std::string_view s, bool& is_read, LineError& e, const char* field) {
  if (s == "1")
    is_read = true;
  else if (s == "0")
    is_read = false;
  else
    return junk(e, field, "not 0 or 1", s);
  return LineStatus::kRecord;
}

// The line shape msrc-ms and disksim share: five blank-separated fields, the first two the time
// in decimal milliseconds and the device number.
LineStatus ms_device_fields(std::string_view line, Fields& f, RawRecord& r, LineError& e) {
  if (split_ws(line, f) != 5) return junk(e, "line", kFields, line.substr(0, 40));
  if (!parse_fixed(f[0], 6, r.time)) return junk(e, "time_ms", kNaN, f[0]);
  if (!parse_u32(f[1], r.device)) return junk(e, "device", kNaN, f[1]);
  return LineStatus::kRecord;
}

LineStatus parse_msrc_ms(std::string_view line, RawRecord& r, LineError& e) {
  Fields f;
  if (ms_device_fields(line, f, r, e) != LineStatus::kRecord) return LineStatus::kJunk;
  if (!parse_offset(f[2], r)) return junk(e, "offset", kNaN, f[2]);
  if (!parse_u64(f[3], r.size)) return junk(e, "size", kNaN, f[3]);
  // Bytes of a sector device: a size in sectors (DiskSim's layout, the same line shape) is not.
  if (r.size % 512) return junk(e, "size", "not a multiple of 512 bytes", f[3]);
  return parse_01_type(f[4], r.is_read, e, "type");
}

// DiskSim ASCII (the DiskSim manual's "ascii" input format): arrival time in ms (decimal), device
// number, block number and block count in 512 B sectors, flags (bit 0 set: a read; other bits,
// e.g. synchronous, ignored).
LineStatus parse_disksim(std::string_view line, RawRecord& r, LineError& e) {
  Fields f;
  if (ms_device_fields(line, f, r, e) != LineStatus::kRecord) return LineStatus::kJunk;
  uint64_t blk, cnt, flags;
  if (!parse_u64(f[2], blk)) return junk(e, "blkno", kNaN, f[2]);
  sector_offset(blk, r);
  if (!parse_u64(f[3], cnt)) return junk(e, "bcount", kNaN, f[3]);
  if (!sectors_to_bytes(cnt, r.size)) return junk(e, "bcount", "out of range", f[3]);
  if (!parse_u64(f[4], flags)) return junk(e, "flags", kNaN, f[4]);
  r.is_read = flags & 1;
  return LineStatus::kRecord;
}

LineStatus parse_ascii(std::string_view line, RawRecord& r, LineError& e, const char* tname,
                       const char* lname, const char* opname) {
  Fields f;
  size_t n = split_ws(line, f);
  if (n != 5) return junk(e, "line", kFields, line.substr(0, 40));
  if (!parse_time_int(f[0], r.time)) return junk(e, tname, kNaN, f[0]);
  if (!parse_u32(f[1], r.device)) return junk(e, "device", kNaN, f[1]);
  uint64_t lba, sz;
  if (!parse_u64(f[2], lba)) return junk(e, lname, kNaN, f[2]);
  sector_offset(lba, r);
  if (!parse_u64(f[3], sz)) return junk(e, "size", kNaN, f[3]);
  if (!sectors_to_bytes(sz, r.size)) return junk(e, "size", "out of range", f[3]);
  return parse_01_type(f[4], r.is_read, e, opname);
}

LineStatus parse_umass(std::string_view line, RawRecord& r, LineError& e) {
  Fields f;
  size_t n = split_csv(line, f);
  if (n < 5 || n > kMaxFields) return junk(e, "line", kFields, line.substr(0, 40));
  if (!parse_u32(f[0], r.device)) return junk(e, "ASU", kNaN, f[0]);
  uint64_t lba;
  if (!parse_u64(f[1], lba)) return junk(e, "LBA", kNaN, f[1]);
  sector_offset(lba, r);
  if (!parse_u64(f[2], r.size)) return junk(e, "Size", kNaN, f[2]);
  if (ieq(f[3], "r"))
    r.is_read = true;
  else if (ieq(f[3], "w"))
    r.is_read = false;
  else
    return junk(e, "Opcode", "not r or w", f[3]);
  if (!parse_fixed(f[4], 9, r.time)) return junk(e, "Timestamp", kNaN, f[4]);
  return LineStatus::kRecord;
}

LineStatus parse_fiu(std::string_view line, RawRecord& r, LineError& e) {
  Fields f;
  size_t n = split_ws(line, f);
  if (n < 9 || n > kMaxFields) return junk(e, "line", kFields, line.substr(0, 40));
  // ts pid process... lba nblocks op major minor md5 (the process name may contain blanks)
  if (!parse_time_int(f[0], r.time)) return junk(e, "ts", kNaN, f[0]);
  uint64_t pid;
  if (!parse_u64(f[1], pid)) return junk(e, "pid", kNaN, f[1]);
  std::string_view lba_s = f[n - 6], nb_s = f[n - 5], op = f[n - 4], maj_s = f[n - 3],
                   min_s = f[n - 2];
  uint64_t lba, nb;
  if (!parse_u64(lba_s, lba)) return junk(e, "lba", kNaN, lba_s);
  sector_offset(lba, r);
  if (!parse_u64(nb_s, nb)) return junk(e, "nblocks", kNaN, nb_s);
  if (!sectors_to_bytes(nb, r.size)) return junk(e, "nblocks", "out of range", nb_s);
  if (op == "R" || op == "r")
    r.is_read = true;
  else if (op == "W" || op == "w")
    r.is_read = false;
  else
    return junk(e, "R/W", "not R or W", op);
  uint32_t maj, mn;
  if (!parse_u32(maj_s, maj) || maj > 0xffffff) return junk(e, "major", kNaN, maj_s);
  if (!parse_u32(min_s, mn) || mn > 255) return junk(e, "minor", "not a number in 0..255", min_s);
  r.device = maj * 256 + mn;
  return LineStatus::kRecord;
}

LineStatus parse_rw_letter(std::string_view s, bool& is_read, LineError& e, const char* field) {
  if (s == "R" || s == "r")
    is_read = true;
  else if (s == "W" || s == "w")
    is_read = false;
  else
    return junk(e, field, "not R or W", s);
  return LineStatus::kRecord;
}

LineStatus parse_alibaba(std::string_view line, RawRecord& r, LineError& e) {
  Fields f;
  size_t n = split_csv(line, f);
  if (n != 5) return junk(e, "line", kFields, line.substr(0, 40));
  if (!parse_u32(f[0], r.device)) return junk(e, "device_id", kNaN, f[0]);
  if (parse_rw_letter(f[1], r.is_read, e, "opcode") != LineStatus::kRecord)
    return LineStatus::kJunk;
  if (!parse_offset(f[2], r)) return junk(e, "offset", kNaN, f[2]);
  if (!parse_u64(f[3], r.size)) return junk(e, "length", kNaN, f[3]);
  if (!parse_time_int(f[4], r.time)) return junk(e, "timestamp", kNaN, f[4]);
  return LineStatus::kRecord;
}

LineStatus parse_tencent(std::string_view line, RawRecord& r, LineError& e) {
  Fields f;
  size_t n = split_csv(line, f);
  if (n != 5) return junk(e, "line", kFields, line.substr(0, 40));
  if (!parse_time_int(f[0], r.time)) return junk(e, "Timestamp", kNaN, f[0]);
  uint64_t off, sz;
  if (!parse_u64(f[1], off)) return junk(e, "Offset", kNaN, f[1]);
  sector_offset(off, r);
  if (!parse_u64(f[2], sz)) return junk(e, "Size", kNaN, f[2]);
  if (!sectors_to_bytes(sz, r.size)) return junk(e, "Size", "out of range", f[2]);
  if (f[3] == "0")
    r.is_read = true;
  else if (f[3] == "1")
    r.is_read = false;
  else
    return junk(e, "IOType", "not 0 (read) or 1 (write)", f[3]);
  if (!parse_u32(f[4], r.device)) return junk(e, "VolumeID", kNaN, f[4]);
  return LineStatus::kRecord;
}

LineStatus parse_systor(std::string_view line, RawRecord& r, LineError& e) {
  Fields f;
  size_t n = split_csv(line, f);
  if (n != 6) return junk(e, "line", kFields, line.substr(0, 40));
  if (!parse_fixed(f[0], 9, r.time)) return junk(e, "Timestamp", kNaN, f[0]);
  int64_t resp;
  if (!f[1].empty() && !parse_fixed(f[1], 9, resp)) return junk(e, "Response", kNaN, f[1]);
  if (parse_rw_letter(f[2], r.is_read, e, "IOType") != LineStatus::kRecord)
    return LineStatus::kJunk;
  if (!parse_u32(f[3], r.device)) return junk(e, "LUN", kNaN, f[3]);
  if (!parse_offset(f[4], r)) return junk(e, "Offset", kNaN, f[4]);
  if (!parse_u64(f[5], r.size)) return junk(e, "Size", kNaN, f[5]);
  return LineStatus::kRecord;
}

// The statistics blkparse prints after the events (per CPU and in total, then throughput, event
// count and skips; newer versions also a priority-mask banner between rules of dashes), as in
// blkparse.c: they are part of every blkparse output, not junk (a short trace was mostly junk
// with them, and --strict refused any blkparse output).
bool blkparse_summary(std::string_view line) {
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r'))
    line.remove_suffix(1);
  auto starts = [&](std::string_view p) { return line.substr(0, p.size()) == p; };
  auto ends = [&](std::string_view p) {
    return line.size() >= p.size() && line.substr(line.size() - p.size()) == p;
  };
  if (line.size() >= 10 && line.find_first_not_of('-') == std::string_view::npos) return true;
  if (starts("CPU") && line.size() > 3 && line[3] >= '0' && line[3] <= '9' && ends("):"))
    return true;
  static constexpr std::string_view kLabels[] = {
      "Total (",           "Reads Queued:",  "Read Dispatches:", "Reads Requeued:",
      "Reads Completed:",  "Read Merges:",   "Read depth:",      "PC Reads Queued:",
      "PC Read Disp.:",    "PC Reads Req.:", "PC Reads Compl.:", "IO unplugs:",
      "Throughput (R/W):", "Events (",       "Skips:",           "Using Priority mask"};
  for (std::string_view l : kLabels)
    if (starts(l)) return true;
  return false;
}

LineStatus parse_blkparse(std::string_view line, const ParseContext& ctx, RawRecord& r,
                          LineError& e) {
  Fields f;
  size_t n = split_ws(line, f);
  // dev "maj,min"
  size_t comma = n ? f[0].find(',') : std::string_view::npos;
  if (comma == std::string_view::npos && blkparse_summary(line)) return LineStatus::kSkip;
  if (n < 7) return junk(e, "line", kFields, line.substr(0, 40));
  if (comma == std::string_view::npos) return junk(e, "dev", "not major,minor", f[0]);
  uint32_t maj, mn;
  if (!parse_u32(f[0].substr(0, comma), maj) || maj > 0xffffff ||
      !parse_u32(f[0].substr(comma + 1), mn) || mn > 255)
    return junk(e, "dev", "not major,minor", f[0]);
  uint64_t tmp;
  if (!parse_u64(f[1], tmp)) return junk(e, "cpu", kNaN, f[1]);
  if (!parse_u64(f[2], tmp)) return junk(e, "sequence", kNaN, f[2]);
  if (!parse_fixed(f[3], 9, r.time)) return junk(e, "time", kNaN, f[3]);
  if (!parse_u64(f[4], tmp)) return junk(e, "pid", kNaN, f[4]);
  std::string_view act = f[5];
  if (act.empty() || act.size() > 2) return junk(e, "action", "not an action", act);
  if (act.size() != 1 || act[0] != ctx.blkparse_event) return LineStatus::kSkip;
  std::string_view rwbs = f[6];
  bool has_r = rwbs.find('R') != std::string_view::npos;
  bool has_w = rwbs.find('W') != std::string_view::npos;
  bool discard = rwbs.find('D') != std::string_view::npos;
  if (discard || has_r == has_w) return LineStatus::kSkip;  // flush, discard, barrier: no data
  // An event with a sector and no size (the completion of a flush: "C WS 7929752 [0]"): no data.
  if ((n == 8 || (n == 9 && f[8].substr(0, 1) == "[")) && parse_u64(f[7], tmp))
    return LineStatus::kSkip;
  if (n < 10) return junk(e, "line", kFields, line.substr(0, 40));
  uint64_t sector, nsec;
  if (!parse_u64(f[7], sector)) return junk(e, "sector", kNaN, f[7]);
  if (f[8] != "+") return junk(e, "+", "missing", f[8]);
  if (!parse_u64(f[9], nsec)) return junk(e, "nsectors", kNaN, f[9]);
  sector_offset(sector, r);
  if (!sectors_to_bytes(nsec, r.size)) return junk(e, "nsectors", "out of range", f[9]);
  r.is_read = has_r;
  r.device = maj * 256 + mn;
  return LineStatus::kRecord;
}

}  // namespace

LineStatus parse_line(Format fmt, std::string_view line, const ParseContext& ctx, RawRecord& rec,
                      LineError& err) {
  switch (fmt) {
    case Format::kMsrc:
      return parse_msrc(line, rec, err);
    case Format::kMsrcMs:
      return parse_msrc_ms(line, rec, err);
    case Format::kUmass:
      return parse_umass(line, rec, err);
    case Format::kFiu:
      return parse_fiu(line, rec, err);
    case Format::kAlibaba:
      return parse_alibaba(line, rec, err);
    case Format::kTencent:
      return parse_tencent(line, rec, err);
    case Format::kSystor:
      return parse_systor(line, rec, err);
    case Format::kBlkparse:
      return parse_blkparse(line, ctx, rec, err);
    case Format::kMqsim:
      return parse_ascii(line, rec, err, "arrival_ns", "lba", "type");
    case Format::kSsdsim:
      return parse_ascii(line, rec, err, "time_ns", "lsn", "ope");
    case Format::kDisksim:
      return parse_disksim(line, rec, err);
  }
  return junk(err, "line", "unknown format");
}

std::string describe_error(const LineError& err) {
  std::string s = "field '";
  s += err.field;
  s += "': ";
  s += err.problem;
  if (!err.value.empty() || std::strcmp(err.problem, kNaN) == 0) {
    s += ": '";
    size_t n = 0;
    for (char c : err.value) {
      if (++n > 40) {
        s += "...";
        break;
      }
      unsigned char u = static_cast<unsigned char>(c);
      if (u < 0x20 || u >= 0x7f) {
        static const char* hex = "0123456789abcdef";
        s += "\\x";
        s += hex[u >> 4];
        s += hex[u & 15];
      } else {
        s += c;
      }
    }
    s += "'";
  }
  return s;
}

bool sniff_format(const std::vector<std::string>& lines, const ParseContext& ctx, Format& out,
                  std::string& why) {
  size_t best = 0;
  const FormatInfo* best_f = nullptr;
  for (const auto& fi : all_formats()) {
    size_t ok = 0, records = 0;
    for (const auto& l : lines) {
      RawRecord r;
      LineError e;
      LineStatus st = parse_line(fi.format, l, ctx, r, e);
      if (st != LineStatus::kJunk) ++ok;
      if (st == LineStatus::kRecord) ++records;
    }
    if (records > 0 && ok > best) {
      best = ok;
      best_f = &fi;
    }
  }
  if (!best_f) {
    why = "no known trace format matches the first " + std::to_string(lines.size()) +
          " non-blank lines (use --format)";
    return false;
  }
  out = best_f->format;
  return true;
}

}  // namespace ssdtlm::traces
