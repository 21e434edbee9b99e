#include "traces/input.h"

#include <bzlib.h>
#include <sys/stat.h>
#include <zlib.h>
#include <zstd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "traces/trace.h"

namespace ssdtlm::traces {

const char* compression_name(Compression c) {
  switch (c) {
    case Compression::kNone:
      return "none";
    case Compression::kGzip:
      return "gzip";
    case Compression::kBzip2:
      return "bzip2";
    case Compression::kZstd:
      return "zstd";
  }
  return "?";
}

namespace {

constexpr size_t kChunk = 1 << 18;

// Raw (possibly compressed) bytes.
class RawInput {
 public:
  virtual ~RawInput() = default;
  virtual size_t read(char* buf, size_t n) = 0;
  virtual void rewind() = 0;
  virtual const std::string& name() const = 0;
};

class FileInput : public RawInput {
 public:
  explicit FileInput(const std::string& path) : path_(path) {
    f_ = std::fopen(path.c_str(), "rb");
    if (!f_) throw TraceError(path + ": cannot open: " + std::strerror(errno));
    struct stat st;
    if (::fstat(::fileno(f_), &st) == 0 && S_ISDIR(st.st_mode)) {
      std::fclose(f_);
      f_ = nullptr;
      throw TraceError(path + ": is a directory, not a trace file");
    }
  }
  ~FileInput() override {
    if (f_) std::fclose(f_);
  }
  size_t read(char* buf, size_t n) override {
    size_t got = std::fread(buf, 1, n, f_);
    if (got == 0 && std::ferror(f_)) throw TraceError(path_ + ": read error");
    return got;
  }
  void rewind() override {
    if (std::fseek(f_, 0, SEEK_SET) != 0) throw TraceError(path_ + ": cannot rewind");
    std::clearerr(f_);
  }
  const std::string& name() const override { return path_; }

 private:
  std::string path_;
  FILE* f_ = nullptr;
};

class MemoryInput : public RawInput {
 public:
  MemoryInput(std::string data, std::string name)
      : data_(std::move(data)), name_(std::move(name)) {}
  size_t read(char* buf, size_t n) override {
    size_t k = std::min(n, data_.size() - pos_);
    if (k) std::memcpy(buf, data_.data() + pos_, k);
    pos_ += k;
    return k;
  }
  void rewind() override { pos_ = 0; }
  const std::string& name() const override { return name_; }
  size_t size() const { return data_.size(); }

 private:
  std::string data_;
  std::string name_;
  size_t pos_ = 0;
};

class PlainStream : public ByteStream {
 public:
  explicit PlainStream(std::unique_ptr<RawInput> in, std::string head)
      : in_(std::move(in)), head_(std::move(head)) {}
  size_t read(char* buf, size_t n) override {
    if (head_pos_ < head_.size()) {
      size_t k = std::min(n, head_.size() - head_pos_);
      std::memcpy(buf, head_.data() + head_pos_, k);
      head_pos_ += k;
      return k;
    }
    return in_->read(buf, n);
  }
  void rewind() override {
    in_->rewind();
    head_.clear();
    head_pos_ = 0;
  }
  Compression compression() const override { return Compression::kNone; }
  size_t size_hint() const override { return hint_; }
  size_t hint_ = size_t{1} << 16;  // grows by doubling for longer lines

 private:
  std::unique_ptr<RawInput> in_;
  std::string head_;  // bytes read for sniffing the magic, replayed first
  size_t head_pos_ = 0;
};

// Common shape of the decompressors: refill an input buffer from RawInput, decode into `buf`.
class DecodeStream : public ByteStream {
 public:
  explicit DecodeStream(std::unique_ptr<RawInput> in) : in_(std::move(in)), ibuf_(kChunk) {}

 protected:
  bool refill() {
    if (ipos_ < ilen_) return true;
    ilen_ = in_->read(ibuf_.data(), ibuf_.size());
    ipos_ = 0;
    if (ilen_ == 0) in_eof_ = true;
    return ilen_ > 0;
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw TraceError(in_->name() + ": " + what);
  }
  void reset_input() {
    in_->rewind();
    ipos_ = ilen_ = 0;
    in_eof_ = false;
  }
  std::unique_ptr<RawInput> in_;
  std::vector<char> ibuf_;
  size_t ipos_ = 0, ilen_ = 0;
  bool in_eof_ = false;
};

class GzipStream : public DecodeStream {
 public:
  explicit GzipStream(std::unique_ptr<RawInput> in) : DecodeStream(std::move(in)) { init(); }
  ~GzipStream() override { inflateEnd(&z_); }
  size_t read(char* buf, size_t n) override {
    if (done_) return 0;
    z_.next_out = reinterpret_cast<Bytef*>(buf);
    z_.avail_out = static_cast<uInt>(n);
    while (z_.avail_out == n) {
      if (!refill()) {
        if (!member_started_) {
          done_ = true;  // clean end after a complete member
          break;
        }
        fail("gzip data truncated");
      }
      z_.next_in = reinterpret_cast<Bytef*>(ibuf_.data() + ipos_);
      z_.avail_in = static_cast<uInt>(ilen_ - ipos_);
      member_started_ = true;
      int rc = inflate(&z_, Z_NO_FLUSH);
      ipos_ = ilen_ - z_.avail_in;
      if (rc == Z_STREAM_END) {
        inflateReset(&z_);  // concatenated members
        member_started_ = false;
      } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
        fail(std::string("gzip error: ") + (z_.msg ? z_.msg : "corrupt data"));
      } else if (rc == Z_BUF_ERROR && z_.avail_in != 0) {
        fail("gzip error: no progress");
      }
    }
    return n - z_.avail_out;
  }
  void rewind() override {
    reset_input();
    inflateReset(&z_);
    done_ = false;
    member_started_ = false;
  }
  Compression compression() const override { return Compression::kGzip; }

 private:
  void init() {
    std::memset(&z_, 0, sizeof z_);
    if (inflateInit2(&z_, 15 + 16) != Z_OK) fail("zlib init failed");
  }
  z_stream z_;
  bool done_ = false;
  bool member_started_ = false;
};

class Bzip2Stream : public DecodeStream {
 public:
  explicit Bzip2Stream(std::unique_ptr<RawInput> in) : DecodeStream(std::move(in)) { init(); }
  ~Bzip2Stream() override {
    if (live_) BZ2_bzDecompressEnd(&s_);
  }
  size_t read(char* buf, size_t n) override {
    if (done_) return 0;
    s_.next_out = buf;
    s_.avail_out = static_cast<unsigned>(n);
    while (s_.avail_out == n) {
      if (!refill()) {
        if (!stream_started_) {
          done_ = true;
          break;
        }
        fail("bzip2 data truncated");
      }
      if (!live_) {
        char* out = s_.next_out;
        unsigned avail = s_.avail_out;
        init();
        s_.next_out = out;
        s_.avail_out = avail;
      }
      s_.next_in = ibuf_.data() + ipos_;
      s_.avail_in = static_cast<unsigned>(ilen_ - ipos_);
      stream_started_ = true;
      int rc = BZ2_bzDecompress(&s_);
      ipos_ = ilen_ - s_.avail_in;
      if (rc == BZ_STREAM_END) {
        BZ2_bzDecompressEnd(&s_);  // concatenated streams: start again on the next byte
        live_ = false;
        stream_started_ = false;
      } else if (rc != BZ_OK) {
        fail("bzip2 error: corrupt data (code " + std::to_string(rc) + ")");
      }
    }
    return n - s_.avail_out;
  }
  void rewind() override {
    reset_input();
    if (live_) BZ2_bzDecompressEnd(&s_);
    live_ = false;
    init();
    done_ = false;
    stream_started_ = false;
  }
  Compression compression() const override { return Compression::kBzip2; }

 private:
  void init() {
    std::memset(&s_, 0, sizeof s_);
    if (BZ2_bzDecompressInit(&s_, 0, 0) != BZ_OK) fail("bzip2 init failed");
    live_ = true;
  }
  bz_stream s_;
  bool live_ = false;
  bool done_ = false;
  bool stream_started_ = false;
};

class ZstdStream : public DecodeStream {
 public:
  explicit ZstdStream(std::unique_ptr<RawInput> in) : DecodeStream(std::move(in)) {
    d_ = ZSTD_createDStream();
    if (!d_) fail("zstd init failed");
    ZSTD_initDStream(d_);
  }
  ~ZstdStream() override { ZSTD_freeDStream(d_); }
  size_t read(char* buf, size_t n) override {
    if (done_) return 0;
    ZSTD_outBuffer out{buf, n, 0};
    while (out.pos == 0) {
      if (!refill()) {
        if (last_ret_ == 0) {
          done_ = true;
          break;
        }
        fail("zstd data truncated");
      }
      ZSTD_inBuffer inb{ibuf_.data() + ipos_, ilen_ - ipos_, 0};
      size_t rc = ZSTD_decompressStream(d_, &out, &inb);
      ipos_ += inb.pos;
      if (ZSTD_isError(rc)) fail(std::string("zstd error: ") + ZSTD_getErrorName(rc));
      last_ret_ = rc;
      // Drain buffered output even when no new input was consumed.
      if (out.pos == 0 && inb.pos == 0 && ipos_ >= ilen_ && rc != 0) continue;
    }
    return out.pos;
  }
  void rewind() override {
    reset_input();
    ZSTD_initDStream(d_);
    done_ = false;
    last_ret_ = 0;
  }
  Compression compression() const override { return Compression::kZstd; }

 private:
  ZSTD_DStream* d_ = nullptr;
  size_t last_ret_ = 0;
  bool done_ = false;
};

std::unique_ptr<ByteStream> wrap(std::unique_ptr<RawInput> in) {
  unsigned char m[4] = {0, 0, 0, 0};
  size_t got = 0;
  while (got < 4) {
    size_t k = in->read(reinterpret_cast<char*>(m) + got, 4 - got);
    if (k == 0) break;
    got += k;
  }
  if (got >= 2 && m[0] == 0x1f && m[1] == 0x8b) {
    in->rewind();
    return std::make_unique<GzipStream>(std::move(in));
  }
  if (got >= 3 && m[0] == 'B' && m[1] == 'Z' && m[2] == 'h') {
    in->rewind();
    return std::make_unique<Bzip2Stream>(std::move(in));
  }
  if (got >= 4 && m[0] == 0x28 && m[1] == 0xb5 && m[2] == 0x2f && m[3] == 0xfd) {
    in->rewind();
    return std::make_unique<ZstdStream>(std::move(in));
  }
  return std::make_unique<PlainStream>(std::move(in), std::string(reinterpret_cast<char*>(m), got));
}

}  // namespace

std::unique_ptr<ByteStream> open_file_stream(const std::string& path) {
  auto s = wrap(std::make_unique<FileInput>(path));
  check_content(*s, path);
  return s;
}

std::unique_ptr<ByteStream> open_memory_stream(std::string data, const std::string& name) {
  auto s = wrap(std::make_unique<MemoryInput>(std::move(data), name));
  check_content(*s, name);
  return s;
}

LineReader::LineReader(std::unique_ptr<ByteStream> in)
    : in_(std::move(in)), buf_(in_->size_hint()) {}

bool LineReader::fill() {
  if (eof_) return false;
  if (begin_ > 0) {
    std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == buf_.size()) buf_.resize(buf_.size() * 2);
  size_t k = in_->read(buf_.data() + end_, buf_.size() - end_);
  if (k == 0) {
    eof_ = true;
    return false;
  }
  end_ += k;
  return true;
}

// A UTF-8 byte-order mark before the first line (CSV files saved by Windows tools) is not part of
// the line: without this, a file's first record was a junk line.
bool LineReader::next(std::string_view& line) {
  if (!next_raw(line)) return false;
  if (line_no_ == 1 && line.substr(0, 3) == "\xEF\xBB\xBF") line.remove_prefix(3);
  return true;
}

bool LineReader::next_raw(std::string_view& line) {
  truncated_ = false;
  size_t scan = begin_;
  for (;;) {
    const char* p = static_cast<const char*>(std::memchr(buf_.data() + scan, '\n', end_ - scan));
    if (p) {
      size_t len = static_cast<size_t>(p - (buf_.data() + begin_));
      const char* s = buf_.data() + begin_;
      begin_ += len + 1;
      if (len > 0 && s[len - 1] == '\r') --len;
      if (len > kMaxLine) {
        len = kMaxLine;
        truncated_ = true;
      }
      line = std::string_view(s, len);
      ++line_no_;
      return true;
    }
    if (end_ - begin_ > kMaxLine) {
      // Overlong line: keep its first kMaxLine bytes, discard the rest up to the newline.
      std::memmove(buf_.data(), buf_.data() + begin_, kMaxLine);
      begin_ = 0;
      end_ = kMaxLine;
      if (buf_.size() < kMaxLine + kChunk) buf_.resize(kMaxLine + kChunk);
      truncated_ = true;
      ++line_no_;
      line = std::string_view(buf_.data(), kMaxLine);
      for (;;) {
        size_t k = in_->read(buf_.data() + kMaxLine, kChunk);
        if (k == 0) {
          eof_ = true;
          begin_ = end_;
          return true;
        }
        const char* nl = static_cast<const char*>(std::memchr(buf_.data() + kMaxLine, '\n', k));
        if (nl) {
          size_t tail = static_cast<size_t>((buf_.data() + kMaxLine + k) - (nl + 1));
          std::memmove(buf_.data() + kMaxLine, nl + 1, tail);
          begin_ = kMaxLine;
          end_ = kMaxLine + tail;
          return true;
        }
      }
    }
    scan = end_;
    size_t off = scan - begin_;
    if (!fill()) {
      if (end_ > begin_) {  // last line without '\n'
        size_t len = end_ - begin_;
        const char* s = buf_.data() + begin_;
        begin_ = end_;
        if (len > 0 && s[len - 1] == '\r') --len;
        line = std::string_view(s, len);
        ++line_no_;
        return true;
      }
      return false;
    }
    scan = begin_ + off;
  }
}

void LineReader::rewind() {
  in_->rewind();
  begin_ = end_ = 0;
  eof_ = false;
  truncated_ = false;
  line_no_ = 0;
}

}  // namespace ssdtlm::traces
