// kernelslist.g: kernel trace paths (relative to the list's folder) and
// MemcpyHtoD lines; anything else is kept as an Other command.
#include <filesystem>

#include "base/error.h"
#include "base/line_source.h"
#include "base/tokenizer.h"
#include "trace/address_space.h"
#include "trace/trace_reader.h"

namespace accelsim::trace {

namespace fs = std::filesystem;

namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool looks_like_kernel(std::string_view s) {
  return s.starts_with("kernel") || ends_with(s, ".traceg") || ends_with(s, ".traceg.xz") ||
         ends_with(s, ".traceg.gz");
}

// The kernel file named in the list; a .xz / .gz next to a missing plain name
// is accepted (traces are often compressed after the list was written).
std::string resolve_kernel(const std::string& list, int64_t line, std::string_view name) {
  fs::path p(name);
  if (p.is_relative()) p = fs::path(list).parent_path() / p;
  std::error_code ec;
  if (fs::is_regular_file(p, ec)) return p.string();
  if (fs::is_directory(p, ec))
    throw TraceError(list, line, "kernel", "kernel trace '" + printable(name, 200) + "' is a directory (" +
                                               printable(p.string(), 400) + "), not a trace file");
  if (fs::exists(p, ec))  // a device, a named pipe, a socket: reading it could block or never end
    throw TraceError(list, line, "kernel", "kernel trace '" + printable(name, 200) + "' (" +
                                               printable(p.string(), 400) +
                                               ") is not a regular file (a device, pipe or socket)");
  for (const char* ext : {".xz", ".gz"}) {
    fs::path alt = p;
    alt += ext;
    if (fs::is_regular_file(alt, ec)) return alt.string();
  }
  throw TraceError(list, line, "kernel", "kernel trace '" + printable(name, 200) + "' not found (looked for " +
                                             printable(p.string(), 400) + ")");
}

// "MemcpyHtoD,<hex address>,<decimal bytes>".
void parse_memcpy(const std::string& list, int64_t line, std::string_view s, Command& c) {
  size_t c1 = s.find(','), c2 = c1 == std::string_view::npos ? c1 : s.find(',', c1 + 1);
  bool ok = c2 != std::string_view::npos && s.find(',', c2 + 1) == std::string_view::npos &&
            parse_hex(trim(s.substr(c1 + 1, c2 - c1 - 1)), c.address) && parse_u64(trim(s.substr(c2 + 1)), c.bytes);
  if (!ok)
    throw TraceError(list, line, "MemcpyHtoD",
                     "expected 'MemcpyHtoD,<hex address>,<decimal bytes>', got '" + printable(s, 80) + "'");
  if (!in_address_space(c.address, c.bytes))
    throw TraceError(list, line, "MemcpyHtoD",
                     "the copy's bytes must lie below 2^57 (the widest virtual address space), got '" +
                         printable(s, 80) + "'");
  c.kind = Command::Kind::MemcpyHtoD;
}

// A kernel trace given directly (its first non-blank line is a header line).
bool is_kernel_trace(LineSource& src) {
  std::string_view line;
  while (src.next(line)) {
    std::string_view s = trim(line);
    if (!s.empty()) return s.front() == '-' || s.front() == '#';
  }
  return false;
}

}  // namespace

std::vector<Command> read_command_list(const std::string& path) {
  std::vector<Command> out;
  LineSource src(path);
  std::string name = fs::path(path).filename().string();
  if (ends_with(name, ".traceg") || name.find(".traceg.") != std::string::npos || is_kernel_trace(src)) {
    Command c;
    c.kind = Command::Kind::Kernel;
    c.kernel_path = path;
    c.text = fs::path(path).filename().string();
    out.push_back(std::move(c));
    return out;
  }
  src.rewind();
  std::string_view line;
  while (src.next(line)) {
    std::string_view s = trim(line);
    if (s.empty()) continue;
    Command c;
    c.line = src.line_number();
    c.text = std::string(s);
    if (s.starts_with("MemcpyHtoD")) parse_memcpy(path, c.line, s, c);
    else if (looks_like_kernel(s)) {
      c.kind = Command::Kind::Kernel;
      c.kernel_path = resolve_kernel(path, c.line, s);
    }
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace accelsim::trace
