#include "frontend/driver/Compilation.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "frontend/codegen/CodeGen.h"
#include "frontend/parse/Parser.h"
#include "frontend/sema/Checker.h"

namespace star {

namespace fs = std::filesystem;

std::int64_t loadSourceFile(const std::string& path, SourceManager& sources, Diagnostics& diags,
                            SourceLoc requestedAt) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    std::uint32_t f = sources.add(path, "");
    diags.error(requestedAt.line ? requestedAt : SourceLoc{f, 0, 0}, path + " is a directory");
    return -1;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::string why = std::strerror(errno);
    std::uint32_t f = sources.add(path, "");
    diags.error(requestedAt.line ? requestedAt : SourceLoc{f, 0, 0},
                "cannot read " + path + ": " + why);
    return -1;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return sources.add(path, ss.str());
}

Compilation::Compilation(std::ostream& diagnostics, CompileOptions options)
    : diags_(sources_, diagnostics), options_(std::move(options)) {}

std::string Compilation::findModule(const std::string& name, std::uint32_t fromFile) const {
  std::string file = lowerCase(name) + ".star";
  std::vector<fs::path> dirs;
  dirs.push_back(fs::path(sources_.path(fromFile)).parent_path());
  for (auto& d : options_.modulePath) dirs.emplace_back(d);
  for (auto& d : dirs) {
    std::error_code ec;
    fs::path p = d.empty() ? fs::path(file) : d / file;
    if (fs::is_regular_file(p, ec)) return p.string();
  }
  return {};
}

// Loads the units `from` uses, depth first, so that units_ ends in dependency order.
bool Compilation::loadUnits(const Program& from, std::vector<std::string>& stack) {
  bool ok = true;
  for (auto& [name, loc] : from.uses) {
    std::string key = lowerCase(name);
    if (std::find(stack.begin(), stack.end(), key) != stack.end()) {
      diags_.error(loc, "module '" + name + "' uses itself (a cycle of 'uses')");
      ok = false;
      continue;
    }
    if (std::find(unitNames_.begin(), unitNames_.end(), key) != unitNames_.end()) continue;
    std::string path = findModule(name, loc.file);
    if (path.empty()) {
      std::string where;
      for (auto& d : options_.modulePath) where += " " + d;
      diags_.error(loc, "module '" + name + "' not found (looked for " + lowerCase(name) +
                            ".star beside the program" + (where.empty() ? "" : " and in" + where) + ")");
      ok = false;
      continue;
    }
    std::int64_t file = loadSourceFile(path, sources_, diags_, loc);
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
    ok &= loadUnits(*unit, stack);
    stack.pop_back();
    unitNames_.push_back(key);
    units_.push_back(std::move(unit));
  }
  return ok;
}

bool Compilation::parse(const std::string& path) {
  std::int64_t file = loadSourceFile(path, sources_, diags_, {});
  if (file < 0) return false;
  program_ = parseSource(sources_, static_cast<std::uint32_t>(file), ParseMode::Program, diags_);
  if (!program_) return false;
  std::vector<std::string> stack;
  return loadUnits(*program_, stack);
}

bool Compilation::check() {
  Checker::Options opts;
  opts.warnUnused = options_.warnUnused;
  Checker checker(diags_, opts);
  bool ok = true;
  for (auto& u : units_) ok &= checker.checkUnit(*u);
  ok &= checker.checkProgram(*program_);
  return ok && !diags_.hasErrors();
}

bool Compilation::generate() {
  module_ = Module{};
  for (std::size_t f = 0; f < sources_.size(); ++f) module_.files.push_back(sources_.path(f));
  CodeGen gen(module_);
  std::vector<Program*> units;
  for (auto& u : units_) units.push_back(u.get());
  gen.compile(units, *program_);
  return true;
}

}  // namespace star
