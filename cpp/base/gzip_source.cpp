// gzip input through zlib's gz* API (handles concatenated members and reports
// a truncated stream as an error rather than a silent end of file).
#include "base/byte_source_impl.h"

#ifdef ACCELSIM_HAVE_ZLIB
#include <zlib.h>

#include <climits>
#endif

namespace accelsim {

#ifdef ACCELSIM_HAVE_ZLIB
namespace {

class GzipSource : public ByteSource {
 public:
  explicit GzipSource(gzFile gz) : gz_(gz) {}
  ~GzipSource() override { gzclose(gz_); }
  size_t read(char* dst, size_t cap) override {
    if (cap > INT_MAX) cap = INT_MAX;
    int n = gzread(gz_, dst, unsigned(cap));
    int err = Z_OK;
    const char* msg = gzerror(gz_, &err);
    if (n < 0 || (err != Z_OK && err != Z_STREAM_END))
      throw ByteSourceError("gzip", std::string("corrupt or truncated gzip data: ") + msg);
    return size_t(n);
  }
  void rewind() override {
    gzclearerr(gz_);
    if (gzrewind(gz_) != 0) throw ByteSourceError("gzip", "cannot rewind gzip stream");
  }

 private:
  gzFile gz_;
};

}  // namespace

std::unique_ptr<ByteSource> open_gzip_source(std::FILE* f, const std::string& path) {
  std::fclose(f);  // gzopen reopens by name: zlib then owns its own buffering
  gzFile gz = gzopen(path.c_str(), "rb");
  if (!gz) throw ByteSourceError("gzip", "cannot open gzip file");
  gzbuffer(gz, 1 << 18);
  return std::make_unique<GzipSource>(gz);
}
#else
std::unique_ptr<ByteSource> open_gzip_source(std::FILE* f, const std::string&) {
  std::fclose(f);
  throw ByteSourceError("gzip", "this build has no zlib: cannot read .gz traces");
}
#endif

}  // namespace accelsim
