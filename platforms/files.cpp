// SPDX-License-Identifier: BSD-3-Clause
#include "platforms/files.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>

#include <sys/stat.h>

namespace ptosim::platforms {

namespace {

std::string reason() { return errno != 0 ? std::strerror(errno) : "input/output error"; }

}  // namespace

std::optional<std::string> read_file(const std::string& path, std::string& error) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    error = "cannot read '" + path + "': is a directory";
    return std::nullopt;
  }
  errno = 0;
  // stdio, not a stream: a stream buffer reports a failed read as the end of the file.
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  std::string contents;
  const std::string too_large = "cannot read '" + path + "': larger than " + std::to_string(kMaxInputBytes >> 20) + " MiB";
  if (struct stat st {}; file && fstat(fileno(file.get()), &st) == 0 && S_ISREG(st.st_mode)) {
    // A regular file's size is known: refused before it is read, else read into one allocation.
    if (static_cast<std::uint64_t>(st.st_size) > kMaxInputBytes) {
      error = too_large;
      return std::nullopt;
    }
    contents.reserve(static_cast<std::size_t>(st.st_size));
  }
  if (file) {
    char block[1 << 16];
    std::size_t n;
    while ((n = std::fread(block, 1, sizeof block, file.get())) > 0) {
      contents.append(block, n);
      if (contents.size() > kMaxInputBytes) {  // an endless device (/dev/zero) ends here, not in memory
        error = too_large;
        return std::nullopt;
      }
    }
  }
  if (!file || std::ferror(file.get())) {
    error = "cannot read '" + path + "': " + reason();
    return std::nullopt;
  }
  return contents;
}

bool same_file(const std::string& a, const std::string& b) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::equivalent(a, b, ec)) return true;
  const auto normal = [](const std::string& p) {
    std::error_code e;
    const fs::path absolute = fs::absolute(p, e);
    if (e) return fs::path(p).lexically_normal();
    const fs::path canonical = fs::weakly_canonical(absolute, e);
    return e ? absolute.lexically_normal() : canonical;
  };
  return normal(a) == normal(b);
}

bool write_file(const std::string& path, const std::string& contents, std::string& error) {
  errno = 0;
  std::ofstream out(path, std::ios::binary);
  if (out) out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
  if (out) out.close();  // flushes: a full disk shows here
  if (!out) {
    error = "cannot write '" + path + "': " + reason();
    return false;
  }
  return true;
}

}  // namespace ptosim::platforms
