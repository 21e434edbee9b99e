// Line parsers of every supported trace format, and format sniffing.
// A parser turns one text line into a RawRecord without allocating. Times are in the format's
// native unit (see FormatInfo::ns_per_unit); the source turns them into ns relative to the first
// record.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ssdtlm::traces {

enum class Format {
  kMsrc,      // Timestamp(FILETIME 100 ns),Hostname,DiskNumber,Type,Offset(B),Size(B),ResponseTime
  kMsrcMs,    // time_ms device offset_B size_B type(1=read,0=write)   (whitespace)
  kUmass,     // ASU,LBA(512 B),Size(B),Opcode(r/w),Timestamp(s)
  kFiu,       // ts_ns pid process lba(512 B) nblocks(512 B) R/W major minor md5
  kAlibaba,   // device_id,opcode(R/W),offset(B),length(B),timestamp(us)
  kTencent,   // Timestamp(s),Offset(512 B),Size(512 B),IOType(0=read,1=write),VolumeID
  kSystor,    // Timestamp(s),Response,IOType(R/W),LUN,Offset(B),Size(B)
  kBlkparse,  // blkparse default text output (one event type, Q by default)
  kMqsim,     // arrival_ns device lba(512 B) size(512 B sectors) type(1=read,0=write)
  kSsdsim,    // time_ns device lsn(512 B) size(512 B sectors) ope(1=read,0=write)
  kDisksim,   // time_ms device blkno(512 B) bcount(512 B sectors) flags(bit 0: 1=read)
};

struct FormatInfo {
  Format format;
  const char* name;     // as given to --format
  int64_t ns_per_unit;  // native time unit of RawRecord::time
  const char* description;
};

const std::vector<FormatInfo>& all_formats();
const FormatInfo& format_info(Format f);
// Parses a --format name (not "auto"); false if unknown.
bool parse_format_name(std::string_view name, Format& out);

struct RawRecord {
  int64_t time = 0;     // native unit
  uint64_t offset = 0;  // bytes: the low 64 bits
  // Bits 64..127 of the byte offset: non-zero for an address beyond 2^64 bytes (an LBA of 2^55
  // sectors or more, a byte offset past 2^64). Such a record is not junk: the fold rule
  // (--fold) refuses, drops or folds it like any address beyond the device.
  uint64_t offset_hi = 0;
  uint64_t size = 0;  // bytes
  uint32_t device = 0;
  bool is_read = false;
};

enum class LineStatus {
  kRecord,  // `rec` is filled
  kSkip,    // a valid line of this format that is not a data request (blkparse non-Q event, ...)
  kJunk,    // not a record of this format: `err` says which field and why
};

struct LineError {
  const char* field = "";    // field name as in the format description
  const char* problem = "";  // "not a number", "missing", ...
  std::string_view value;    // offending text (points into the line)
};

struct ParseContext {
  char blkparse_event = 'Q';  // blkparse action to take as the request arrival
};

LineStatus parse_line(Format f, std::string_view line, const ParseContext& ctx, RawRecord& rec,
                      LineError& err);

// "field 'Size': not a number: 'abc'"
std::string describe_error(const LineError& err);

// Sniffs the format from sample lines (blank, comment and NUL-bearing lines already removed).
// Returns false if no format parses any line; `why` then explains.
bool sniff_format(const std::vector<std::string>& lines, const ParseContext& ctx, Format& out,
                  std::string& why);

}  // namespace ssdtlm::traces
