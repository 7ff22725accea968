#include "frontend/driver/UnitLoader.h"

#include <algorithm>
#include <filesystem>

#include "frontend/driver/Compilation.h"
#include "frontend/parse/Parser.h"
#include "frontend/sema/Checker.h"

namespace star {

namespace fs = std::filesystem;

std::string UnitLoader::find(const std::string& name, std::uint32_t fromFile) const {
  std::string file = lowerCase(name) + ".star";
  std::vector<fs::path> dirs{fs::path(sources_.path(fromFile)).parent_path()};
  for (auto& d : modulePath_) dirs.emplace_back(d);
  for (auto& d : dirs) {
    std::error_code ec;
    fs::path p = d.empty() ? fs::path(file) : d / file;
    // The first that exists, file or not: a directory or a FIFO of that name is reported as
    // what it is (never "not found", never an endless read).
    if (fs::exists(p, ec)) return p.string();
  }
  return {};
}

bool UnitLoader::load(const Program& from, std::vector<std::unique_ptr<Program>>& units) {
  std::vector<std::string> stack;
  return load(from, stack, units);
}

bool UnitLoader::load(const Program& from, std::vector<std::string>& stack,
                      std::vector<std::unique_ptr<Program>>& units) {
  bool ok = true;
  for (auto& [name, loc] : from.uses) {
    std::string key = lowerCase(name);
    if (std::find(stack.begin(), stack.end(), key) != stack.end()) {
      diags_.error(loc, "module '" + name + "' uses itself (a cycle of 'uses')");
      ok = false;
      continue;
    }
    if (std::find(loaded_.begin(), loaded_.end(), key) != loaded_.end()) continue;
    std::string path = find(name, loc.file);
    if (path.empty()) {
      std::string where;
      for (auto& d : modulePath_) where += " " + d;
      diags_.error(loc, "module '" + name + "' not found (looked for " + key +
                            ".star beside the program" + (where.empty() ? "" : " and in" + where) +
                            ")");
      ok = false;
      continue;
    }
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) {
      diags_.error(loc, "module '" + name + "': " + path +
                            (fs::is_directory(path, ec) ? " is a directory" : " is not a regular file") +
                            ", not the unit's source");
      ok = false;
      continue;
    }
    std::int64_t file = loadSourceFile(path, sources_, diags_, loc);
    if (onFileAdded) onFileAdded();
    if (file < 0) {
      ok = false;
      continue;
    }
    auto unit = parseSource(sources_, static_cast<std::uint32_t>(file), ParseMode::Unit, diags_);
    if (!unit) {
      ok = false;
      continue;
    }
    if (lowerCase(unit->name) != key)
      diags_.error(unit->loc, "file " + path + " holds unit '" + unit->name + "', not '" + name + "'");
    stack.push_back(key);
    ok &= load(*unit, stack, units);
    stack.pop_back();
    loaded_.push_back(key);
    units.push_back(std::move(unit));
  }
  return ok;
}

}  // namespace star
