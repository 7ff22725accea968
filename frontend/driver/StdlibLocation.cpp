#include "frontend/driver/StdlibLocation.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace star {

namespace fs = std::filesystem;

std::string executablePath() {
  std::error_code ec;
  fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : p.string();
}

StdlibLocation findStdlibBeside(const std::string& exe) {
  StdlibLocation where;
  if (exe.empty()) return where;
  fs::path dir =
      (fs::path(exe).parent_path() / ".." / "share" / "star" / "stdlib").lexically_normal();
  where.looked = dir.string();
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return where;
  fs::path real = fs::canonical(dir, ec);  // the build tree's link: the source tree's stdlib/
  where.dir = ec ? where.looked : real.string();
  return where;
}

StdlibLocation findStdlib() {
  return findStdlibBeside(executablePath());
}

std::vector<std::string> splitSearchPath(const char* value) {
  std::vector<std::string> dirs;
  if (!value) return dirs;
  std::string s = value;
  std::size_t begin = 0;
  while (begin <= s.size()) {
    std::size_t end = s.find(':', begin);
    if (end == std::string::npos) end = s.size();
    if (end > begin) dirs.push_back(s.substr(begin, end - begin));
    begin = end + 1;
  }
  return dirs;
}

std::vector<std::string> unitSearchPath(const std::vector<std::string>& stdlibPaths) {
  std::vector<std::string> path(stdlibPaths.rbegin(), stdlibPaths.rend());
  for (std::string& d : splitSearchPath(std::getenv("STAR_PATH"))) path.push_back(std::move(d));
  StdlibLocation std = findStdlib();
  if (!std.dir.empty()) path.push_back(std.dir);
  return path;
}

}  // namespace star
