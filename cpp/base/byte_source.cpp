#include "base/byte_source.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "base/byte_source_impl.h"

namespace accelsim {

namespace {

enum class Format { Plain, Gzip, Xz };

bool ends_with(const std::string& s, const char* suffix) {
  size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

Format sniff(std::FILE* f) {
  unsigned char magic[6] = {0};
  size_t n = std::fread(magic, 1, sizeof magic, f);
  std::rewind(f);
  if (n >= 2 && magic[0] == 0x1f && magic[1] == 0x8b) return Format::Gzip;
  static const unsigned char xz[6] = {0xFD, '7', 'z', 'X', 'Z', 0x00};
  if (n == 6 && std::memcmp(magic, xz, 6) == 0) return Format::Xz;
  return Format::Plain;
}

class PlainSource : public ByteSource {
 public:
  explicit PlainSource(std::FILE* f) : f_(f) {}
  ~PlainSource() override { std::fclose(f_); }
  size_t read(char* dst, size_t cap) override {
    size_t n = std::fread(dst, 1, cap, f_);
    if (n == 0 && std::ferror(f_)) throw ByteSourceError("file", std::strerror(errno));
    return n;
  }
  void rewind() override { std::rewind(f_); }

 private:
  std::FILE* f_;
};

}  // namespace

std::unique_ptr<ByteSource> open_byte_source(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw ByteSourceError("file", "cannot open: " + std::string(std::strerror(errno)));
  Format fmt = sniff(f);
  if (ends_with(path, ".gz") && fmt != Format::Gzip) {
    std::fclose(f);
    throw ByteSourceError("gzip", "file name ends in .gz but the content is not gzip data");
  }
  if (ends_with(path, ".xz") && fmt != Format::Xz) {
    std::fclose(f);
    throw ByteSourceError("xz", "file name ends in .xz but the content is not xz data");
  }
  if (fmt == Format::Gzip) return open_gzip_source(f, path);
  if (fmt == Format::Xz) return open_xz_source(f);
  return std::make_unique<PlainSource>(f);
}

}  // namespace accelsim
