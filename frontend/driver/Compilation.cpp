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
    : diags_(sources_, diagnostics),
      options_(std::move(options)),
      loader_(sources_, diags_, options_.modulePath) {}

bool Compilation::parse(const std::string& path) {
  std::int64_t file = loadSourceFile(path, sources_, diags_, {});
  if (file < 0) return false;
  program_ = parseSource(sources_, static_cast<std::uint32_t>(file), ParseMode::Program, diags_);
  if (!program_) return false;
  return loader_.load(*program_, units_);
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
