#include "frontend/driver/UnitLoader.h"

#include <algorithm>
#include <filesystem>

#include "frontend/driver/Compilation.h"
#include "frontend/parse/Parser.h"
#include "frontend/sema/Checker.h"
#include "core/Spelling.h"

namespace star {

namespace fs = std::filesystem;

std::vector<std::string> UnitLoader::searchDirectories(std::uint32_t fromFile) const {
  std::vector<std::string> dirs{fs::path(sources_.path(fromFile)).parent_path().string()};
  for (auto& d : modulePath_) dirs.push_back(d);
  return dirs;
}

std::string UnitLoader::suggestUnit(const std::string& name, std::uint32_t fromFile) const {
  std::vector<std::string> names;
  for (const std::string& d : searchDirectories(fromFile)) {
    std::error_code ec;
    fs::directory_iterator it(d.empty() ? fs::path(".") : fs::path(d), ec), end;
    // A bounded look: a directory of thousands of files is not read to the end for a hint.
    for (std::size_t n = 0; !ec && it != end && n < 10000; it.increment(ec), ++n)
      if (it->path().extension() == ".star") names.push_back(it->path().stem().string());
  }
  const std::string key = lowerCase(name);
  std::string close = closestWord(key, names);
  if (!close.empty() || key.size() < 2) return close;
  // A name cut short ('gra' for graphs): the one unit it begins.
  for (const std::string& n : names) {
    if (n.rfind(key, 0) != 0) continue;
    if (!close.empty() && close != n) return "";
    close = n;
  }
  return close;
}

std::vector<Program*> checkableUnits(const std::vector<std::unique_ptr<Program>>& units) {
  std::vector<std::string> whole;
  std::vector<Program*> out;
  for (const auto& u : units) {
    bool ok = true;
    for (const auto& [used, loc] : u->uses)
      ok = ok && std::find(whole.begin(), whole.end(), lowerCase(used)) != whole.end();
    if (!ok) continue;
    whole.push_back(lowerCase(u->name));
    out.push_back(u.get());
  }
  return out;
}

std::string UnitLoader::find(const std::string& name, std::uint32_t fromFile) const {
  std::string file = lowerCase(name) + ".star";
  for (const fs::path d : searchDirectories(fromFile)) {
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
      diags_.error(loc, "unit '" + name + "' uses itself (a cycle of 'uses')");
      ok = false;
      continue;
    }
    if (std::find(loaded_.begin(), loaded_.end(), key) != loaded_.end()) continue;
    std::string path = find(name, loc.file);
    if (path.empty()) {
      std::string where;
      for (auto& d : modulePath_) where += " " + d;
      const std::string close = suggestUnit(name, loc.file);
      diags_.error(loc, "unit '" + name + "' not found (looked for " + key + ".star beside the program" +
                            (where.empty() ? "" : " and in" + where) + ")" +
                            (close.empty() ? "" : "; did you mean '" + close + "'?"));
      ok = false;
      continue;
    }
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) {
      diags_.error(loc, "unit '" + name + "': " + path +
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
