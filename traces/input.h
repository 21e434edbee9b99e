// Byte streams (plain file, .gz, .bz2, .zst, memory) and a line splitter over them.
// Compression is detected from the magic bytes, not from the file name.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ssdtlm::traces {

enum class Compression { kNone, kGzip, kBzip2, kZstd };
const char* compression_name(Compression c);

// A source of decompressed bytes. read() returns 0 at the end; throws TraceError on I/O or
// decompression errors (naming the file).
class ByteStream {
 public:
  virtual ~ByteStream() = default;
  virtual size_t read(char* buf, size_t n) = 0;
  virtual void rewind() = 0;
  virtual Compression compression() const = 0;
  // Bytes worth buffering at once (small for small in-memory inputs).
  virtual size_t size_hint() const { return size_t{1} << 20; }
};

// Opens `path` (throws TraceError naming the file if it cannot be opened).
std::unique_ptr<ByteStream> open_file_stream(const std::string& path);
// A stream over bytes held in memory (tests, fuzzing). Compressed data is decompressed too.
std::unique_ptr<ByteStream> open_memory_stream(std::string data, const std::string& name);
// Refuses, naming `name`, what is not a text trace (traces/content.cpp): another compression or
// an archive (by its first bytes), a binary blktrace, UTF-16 text, a tar archive of several
// files (each named), binary data (over 5% of the first 64 KiB control characters other than
// NUL, or not UTF-8). Leaves the stream rewound.
void check_content(ByteStream& s, const std::string& name);

// Splits a ByteStream into lines without allocating per line. A line is returned without its
// '\n' (and without a trailing '\r'). Lines longer than kMaxLine are cut: the rest is returned as
// part of the same logical line's `truncated` flag and skipped.
class LineReader {
 public:
  static constexpr size_t kMaxLine = 1 << 20;
  explicit LineReader(std::unique_ptr<ByteStream> in);
  // Next line; false at the end. `line` stays valid until the next call.
  bool next(std::string_view& line);
  bool last_truncated() const { return truncated_; }
  uint64_t line_number() const { return line_no_; }  // 1-based number of the last line returned
  void rewind();
  Compression compression() const { return in_->compression(); }

 private:
  bool fill();
  bool next_raw(std::string_view& line);
  std::unique_ptr<ByteStream> in_;
  std::vector<char> buf_;
  size_t begin_ = 0, end_ = 0;
  bool eof_ = false;
  bool truncated_ = false;
  uint64_t line_no_ = 0;
};

}  // namespace ssdtlm::traces
