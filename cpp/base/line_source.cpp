#include "base/line_source.h"

#include <algorithm>
#include <cstring>

#include "base/error.h"

namespace accelsim {

namespace {
constexpr size_t kChunk = 1 << 20;
// The first read is small: a reader of the header alone (a run's start reads
// every kernel's) then decompresses a few KiB of a trace, not a whole chunk.
constexpr size_t kFirstRead = 16 << 10;
constexpr size_t kMaxLine = 64u << 20;  // a longer "line" is not a trace
}  // namespace

LineSource::LineSource(std::string path) : path_(std::move(path)), buf_(kChunk) {
  try {
    src_ = open_byte_source(path_);
  } catch (const ByteSourceError& e) {
    throw TraceError(path_, 0, e.field, e.what());
  }
}

LineSource::~LineSource() = default;

// Moves the unread tail to the front and appends more bytes; false at end.
bool LineSource::fill() {
  if (eof_) return false;
  if (begin_ > 0) {
    std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == buf_.size()) {
    if (buf_.size() >= kMaxLine)
      throw TraceError(path_, line_ + 1, "line", "line longer than 64 MiB (not a text trace?)");
    buf_.resize(buf_.size() * 2);
  }
  size_t n;
  try {
    const size_t room = buf_.size() - end_;
    n = src_->read(buf_.data() + end_, filled_ == 0 ? std::min(room, kFirstRead) : room);
  } catch (const ByteSourceError& e) {
    throw TraceError(path_, line_ + 1, e.field, e.what());
  }
  if (n == 0) eof_ = true;
  end_ += n;
  filled_ += n;
  return n > 0;
}

bool LineSource::next(std::string_view& line) {
  size_t scanned = begin_;
  for (;;) {
    const char* nl = static_cast<const char*>(
        std::memchr(buf_.data() + scanned, '\n', end_ - scanned));
    if (nl) {
      size_t len = size_t(nl - (buf_.data() + begin_));
      line = std::string_view(buf_.data() + begin_, len);
      begin_ += len + 1;
      unterminated_ = false;
      break;
    }
    size_t consumed = begin_;
    scanned = end_;
    if (!fill()) {
      if (begin_ == end_) return false;
      line = std::string_view(buf_.data() + begin_, end_ - begin_);
      begin_ = end_;
      unterminated_ = true;
      break;
    }
    scanned -= consumed;  // fill() moved the data to the front
  }
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  ++line_;
  return true;
}

void LineSource::rewind() {
  try {
    src_->rewind();
  } catch (const ByteSourceError& e) {
    throw TraceError(path_, 0, e.field, e.what());
  }
  begin_ = end_ = 0;
  filled_ = 0;
  eof_ = unterminated_ = false;
  line_ = 0;
}

}  // namespace accelsim
