// Compressors of the trace tests (the readers decompress gzip, bzip2 and zstd files): a whole
// string compressed in memory, as the command-line tools write it.
#pragma once

#include <bzlib.h>
#include <zlib.h>
#include <zstd.h>

#include <string>

namespace ssdtlm::traces::test {

inline std::string gzip(const std::string& s) {
  z_stream z{};
  deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, s.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(s.data()));
  z.avail_in = static_cast<uInt>(s.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

inline std::string bzip2(const std::string& s) {
  unsigned len = static_cast<unsigned>(s.size() * 2 + 1000);
  std::string out(len, '\0');
  BZ2_bzBuffToBuffCompress(out.data(), &len, const_cast<char*>(s.data()),
                           static_cast<unsigned>(s.size()), 9, 0, 0);
  out.resize(len);
  return out;
}

inline std::string zstd(const std::string& s) {
  std::string out(ZSTD_compressBound(s.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), s.data(), s.size(), 3));
  return out;
}

}  // namespace ssdtlm::traces::test
