#include "frontend/driver/Compilation.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/FileText.h"
#include "frontend/codegen/CodeGen.h"
#include "frontend/parse/Parser.h"
#include "frontend/sema/Checker.h"

namespace star {

namespace fs = std::filesystem;

std::int64_t loadSourceFile(const std::string& path, SourceManager& sources, Diagnostics& diags,
                            SourceLoc requestedAt) {
  std::string error;
  auto text = readBoundedFile(path, kMaxSourceBytes, error);
  if (!text) {
    std::uint32_t f = sources.add(path, "");
    diags.error(requestedAt.line ? requestedAt : SourceLoc{f, 0, 0}, fileErrorMessage(path, error));
    return -1;
  }
  return sources.add(path, std::move(*text));
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
  return loadUnits();
}

// The main body is read, checked and compiled one statement at a time, so a long program costs
// the memory of its bytecode, not of its syntax tree. Messages are held back until the whole file
// has parsed: on a syntax error the file is parsed again the usual way (parse(), check(),
// generate()), which reports exactly what it always reports.
bool Compilation::compileStreaming(const std::string& path, bool generateCode,
                                   std::optional<std::string> text) {
  std::int64_t loaded = text ? static_cast<std::int64_t>(sources_.add(path, std::move(*text)))
                             : loadSourceFile(path, sources_, diags_, {});
  if (loaded < 0) return false;
  auto file = static_cast<std::uint32_t>(loaded);
  if (!validSourceText(sources_, file, diags_)) return false;

  std::ostringstream held;
  std::ostream& out = diags_.output();
  diags_.setOutput(held);
  bool ok = false;
  try {
    ok = streamProgram(file, generateCode);
  } catch (const ProgramReader::NeedsWholeParse&) {
    diags_.setOutput(out);
    diags_.resetCounts();
    module_ = Module{};
    program_ = parseSource(sources_, file, ParseMode::Program, diags_);
    if (!program_ || !loadUnits()) return false;
    return check() && (!generateCode || generate());
  } catch (const ParseInterrupted&) {
    diags_.setOutput(out);
    diags_.error({file, 0, 0}, "interrupted");
    return false;
  } catch (const ProgramReader::TooDeepAt& deep) {
    diags_.setOutput(out);
    diags_.resetCounts();
    diags_.error({file, deep.line, deep.col}, "program nested too deeply (more than " +
                                                  std::to_string(kMaxParseDepth) +
                                                  " levels of syntax)");
    return false;
  }
  diags_.setOutput(out);
  out << held.str();
  return ok;
}

bool Compilation::streamProgram(std::uint32_t file, bool generateCode) {
  ProgramReader reader(sources_, file);
  program_ = reader.declarations(ParseMode::Program);
  // Literals out of range are reported after the whole parse: let the usual path report them.
  if (reader.hasErrors()) throw ProgramReader::NeedsWholeParse{};
  if (!loadUnits()) return false;

  Checker::Options opts;
  opts.warnUnused = options_.warnUnused;
  opts.warnResult = options_.warnResult;
  Checker checker(diags_, opts);
  for (auto& u : units_) checker.checkUnit(*u);
  checker.beginProgram(*program_);

  module_ = Module{};
  CodeGen gen(module_);
  bool generating = generateCode && !diags_.hasErrors();
  std::vector<Program*> units;
  for (auto& u : units_) units.push_back(u.get());
  if (generating) gen.beginProgram(units, *program_);
  // Code generation lags one statement behind: a loop may need code before the statement that
  // precedes it (the STEP-while idiom's head).
  StmtPtr pending;
  while (StmtPtr s = reader.nextStatement()) {
    if (reader.hasErrors()) throw ProgramReader::NeedsWholeParse{};
    checker.checkMainStatement(s.get(), pending.get());
    generating = generating && !diags_.hasErrors();
    if (generating && pending) gen.mainStatement(pending.get(), s.get());
    pending = std::move(s);
  }
  if (generating && pending) gen.mainStatement(pending.get(), nullptr);
  checker.endProgram(*program_);
  loopReports_ = checker.loopReports();
  if (diags_.hasErrors()) return false;
  if (generating) {
    gen.endProgram(*program_);
    for (std::size_t f = 0; f < sources_.size(); ++f) module_.files.push_back(sources_.path(f));
    return withinModuleLimits();
  }
  return true;
}

// The limits the module loader enforces (vm/bytecode/Module.h), reported here with a location, so
// that a program that runs from source also runs from its compiled module.
bool Compilation::withinModuleLimits() {
  // Each routine's heading, by function index, to locate the error there.
  std::vector<SourceLoc> headings(module_.functions.size());
  auto note = [&](const Program& p) {
    for (const auto& r : p.routines)
      if (r->index < headings.size()) headings[r->index] = r->loc;
  };
  for (const auto& u : units_) note(*u);
  if (program_) note(*program_);
  bool ok = true;
  for (std::size_t i = 0; i < module_.functions.size(); ++i) {
    const Function& f = module_.functions[i];
    if (f.numRegs <= kMaxRegisters) continue;
    diags_.error(headings[i].line ? headings[i] : f.locs.empty() ? SourceLoc{} : f.locs.front(),
                 "'" + f.name + "' needs " + std::to_string(f.numRegs) +
                     " registers (its parameters, variables and temporaries); a routine may have at most " +
                     std::to_string(kMaxRegisters));
    ok = false;
  }
  return ok;
}

// The units the program uses. When one cannot be loaded, the ones that did (and use none that
// failed) are still checked, so that their own errors are reported with the missing one's.
bool Compilation::loadUnits() {
  if (loader_.load(*program_, units_)) return true;
  Checker::Options opts;
  opts.warnUnused = options_.warnUnused;
  opts.warnResult = options_.warnResult;
  Checker checker(diags_, opts);
  for (Program* u : checkableUnits(units_)) checker.checkUnit(*u);
  return false;
}

bool Compilation::check() {
  Checker::Options opts;
  opts.warnUnused = options_.warnUnused;
  opts.warnResult = options_.warnResult;
  Checker checker(diags_, opts);
  bool ok = true;
  for (auto& u : units_) ok &= checker.checkUnit(*u);
  ok &= checker.checkProgram(*program_);
  loopReports_ = checker.loopReports();
  return ok && !diags_.hasErrors();
}

bool Compilation::generate() {
  module_ = Module{};
  for (std::size_t f = 0; f < sources_.size(); ++f) module_.files.push_back(sources_.path(f));
  CodeGen gen(module_);
  std::vector<Program*> units;
  for (auto& u : units_) units.push_back(u.get());
  gen.compile(units, *program_);
  return withinModuleLimits();
}

}  // namespace star
