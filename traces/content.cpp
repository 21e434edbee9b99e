// What a trace file holds before it is read as lines: a format ssdtlm does not read (another
// compression, an archive, a binary blktrace, UTF-16 text) or binary data is named as such; a tar
// archive of several files is refused, naming each (docs/traces.md "Compression").
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "traces/input.h"
#include "traces/trace.h"

namespace ssdtlm::traces {
namespace {

constexpr size_t kHead = 1 << 16;       // bytes looked at
constexpr double kNonTextShare = 0.05;  // bytes not text above which a file is binary

struct Magic {
  const char* bytes;
  size_t n;
  const char* what;
};

// Formats recognised by their first bytes, each with what ssdtlm cannot do with it.
const Magic kMagic[] = {
    {"\xFD"
     "7zXZ\0",
     6, "an xz-compressed file"},
    {"\x04\x22\x4D\x18", 4, "an lz4-compressed file"},
    {"\x02\x21\x4C\x18", 4, "an lz4-compressed file (legacy format)"},
    {"LZIP", 4, "an lzip-compressed file"},
    {"\x1F\x9D", 2, "a file compressed by compress (.Z)"},
    {"\xFF\x06\x00\x00sNaPpY", 10, "a snappy-compressed file"},
    {"PK\x03\x04", 4, "a zip archive"},
    {"7z\xBC\xAF\x27\x1C", 6, "a 7z archive"},
    {"Rar!\x1A\x07", 6, "a rar archive"},
};

uint64_t octal(const char* p, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n && p[i]; ++i)
    if (p[i] >= '0' && p[i] <= '7') v = v * 8 + static_cast<uint64_t>(p[i] - '0');
  return v;
}

// Reads exactly n bytes (fewer only at the end of the stream).
size_t read_full(ByteStream& s, char* buf, size_t n) {
  size_t got = 0;
  while (got < n) {
    const size_t k = s.read(buf + got, n - got);
    if (k == 0) break;
    got += k;
  }
  return got;
}

// The regular files of a tar archive (from its start), in order.
std::vector<std::string> tar_members(ByteStream& s) {
  std::vector<std::string> names;
  std::vector<char> skip(1 << 16);
  char h[512];
  std::string long_name;
  while (read_full(s, h, 512) == 512) {
    if (std::all_of(h, h + 512, [](char c) { return c == 0; })) break;
    if (std::memcmp(h + 257, "ustar", 5) != 0) break;  // not a header: stop
    const uint64_t size = octal(h + 124, 12);
    const char type = h[156];
    std::string name(h, strnlen(h, 100));
    if (h[345]) name = std::string(h + 345, strnlen(h + 345, 155)) + "/" + name;
    uint64_t left = (size + 511) / 512 * 512;
    if (type == 'L') {  // GNU long name: the data is the next member's name
      long_name.clear();
      while (left > 0) {
        const size_t k = read_full(s, skip.data(), std::min<uint64_t>(left, skip.size()));
        if (k == 0) return names;
        long_name.append(skip.data(), strnlen(skip.data(), k));
        left -= k;
      }
      continue;
    }
    if (type == '0' || type == '\0' || type == '7') {
      names.push_back(long_name.empty() ? name : long_name);
    }
    long_name.clear();
    while (left > 0) {
      const size_t k = read_full(s, skip.data(), std::min<uint64_t>(left, skip.size()));
      if (k == 0) return names;
      left -= k;
    }
  }
  return names;
}

// Control characters (other than tab, line and page breaks, and NUL: lines holding NUL bytes are
// judged line by line, as tar padding is) and bytes that are not part of a well-formed UTF-8
// sequence.
size_t non_text_bytes(const char* p, size_t n) {
  size_t odd = 0;
  for (size_t i = 0; i < n;) {
    const unsigned char c = static_cast<unsigned char>(p[i]);
    if (c < 0x80) {
      odd += (c > 0 && c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v') ||
             c == 0x7f;
      ++i;
      continue;
    }
    const size_t len = c >= 0xC2 && c <= 0xDF   ? 2
                       : c >= 0xE0 && c <= 0xEF ? 3
                       : c >= 0xF0 && c <= 0xF4 ? 4
                                                : 0;
    size_t k = 1;
    while (len && k < len && i + k < n && (static_cast<unsigned char>(p[i + k]) & 0xC0) == 0x80)
      ++k;
    if (len == 0 || (k < len && i + k < n)) {  // (a sequence cut by the end of the head is not)
      ++odd;
      ++i;
      continue;
    }
    i += k;
  }
  return odd;
}

std::string list(const std::vector<std::string>& names) {
  std::string s;
  for (size_t i = 0; i < names.size() && i < 10; ++i) s += (i ? ", " : "") + names[i];
  if (names.size() > 10) s += " and " + std::to_string(names.size() - 10) + " more";
  return s;
}

}  // namespace

void check_content(ByteStream& s, const std::string& name) {
  std::vector<char> head(kHead);
  const size_t n = read_full(s, head.data(), head.size());
  const auto starts = [&](const char* b, size_t k) {
    return n >= k && std::memcmp(head.data(), b, k) == 0;
  };
  const std::string cure = ": ssdtlm reads text traces, plain or compressed by gzip, bzip2 or zstd";
  for (const Magic& m : kMagic)
    if (starts(m.bytes, m.n))
      throw TraceError(name + ": " + m.what + cure +
                       " (decompress it first, or recompress it with gzip, bzip2 or zstd)");
  if (n >= 4 && static_cast<unsigned char>(head[0]) < 0x20 && head[1] == 't' && head[2] == 'a' &&
      head[3] == 'e')  // BLK_IO_TRACE_MAGIC 0x65617400 | version, little-endian
    throw TraceError(name + ": a binary blktrace file" + cure +
                     " (blkparse -i turns it into text, which --format blkparse reads)");
  if (starts("\xFF\xFE", 2) || starts("\xFE\xFF", 2))
    throw TraceError(name + ": UTF-16 text" + cure + " (save it as UTF-8 or ASCII)");
  if (n >= 262 && std::memcmp(head.data() + 257, "ustar", 5) == 0) {
    s.rewind();
    const std::vector<std::string> files = tar_members(s);
    if (files.size() > 1)
      throw TraceError(name + ": a tar archive of " + std::to_string(files.size()) + " files (" +
                       list(files) +
                       "): ssdtlm replays one trace at a time, it does not merge them; extract "
                       "them (tar -xf) and replay each with --trace");
    s.rewind();  // one file: read as text (its header is junk, docs/traces.md)
    return;
  }
  const size_t odd = non_text_bytes(head.data(), n);
  if (n > 0 && double(odd) > kNonTextShare * double(n)) {
    char pct[32];
    std::snprintf(pct, sizeof pct, "%.0f%%", 100.0 * double(odd) / double(n));
    throw TraceError(name + ": a binary file, not a text trace: " + pct + " of its first " +
                     std::to_string(n) +
                     " bytes are control characters or not UTF-8 (it may be another format)");
  }
  s.rewind();
}

}  // namespace ssdtlm::traces
