// The front-end pipeline for one program: read the source and the library units it uses, parse,
// check, generate bytecode. Stops after the first stage that reports errors.
#pragma once

#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frontend/ast/Ast.h"
#include "frontend/diag/Diagnostics.h"
#include "frontend/driver/UnitLoader.h"
#include "frontend/sema/ParallelLoops.h"
#include "vm/bytecode/Module.h"

namespace star {

struct CompileOptions {
  std::vector<std::string> modulePath;  // directories searched for `uses NAME` (NAME.star)
  bool warnUnused = true;
  bool warnResult = true;  // functions that never assign their result (-Wno-result)
};

class Compilation {
 public:
  Compilation(std::ostream& diagnostics, CompileOptions options);

  // Each returns false when errors were reported.
  bool parse(const std::string& path);        // the program and every unit it uses
  bool check();
  bool generate();
  // The whole pipeline, reading the main body one statement at a time (program() then holds the
  // declarations but not the main body's statements). checkFile stops before generating code.
  bool compileFile(const std::string& path) { return compileStreaming(path, true, std::nullopt); }
  bool checkFile(const std::string& path) { return compileStreaming(path, false, std::nullopt); }
  // The same for a source already read (standard input, a pipe), named `path` in messages.
  bool compileText(const std::string& path, std::string text) {
    return compileStreaming(path, true, std::move(text));
  }
  bool checkText(const std::string& path, std::string text) {
    return compileStreaming(path, false, std::move(text));
  }

  const Program* program() const { return program_.get(); }
  const Module& module() const { return module_; }
  Module takeModule() { return std::move(module_); }
  const SourceManager& sources() const { return sources_; }
  int errorCount() const { return diags_.errorCount(); }
  // Every loop of the program and its units, and whether it runs in parallel (after checking).
  const std::vector<LoopReport>& loopReports() const { return loopReports_; }

 private:
  bool loadUnits();
  bool withinModuleLimits();  // the module loader's limits, as located errors
  bool compileStreaming(const std::string& path, bool generateCode, std::optional<std::string> text);
  bool streamProgram(std::uint32_t file, bool generateCode);

  SourceManager sources_;
  Diagnostics diags_;
  CompileOptions options_;
  std::unique_ptr<Program> program_;
  UnitLoader loader_;
  std::vector<std::unique_ptr<Program>> units_;  // in dependency order
  Module module_;
  std::vector<LoopReport> loopReports_;
};

// The largest source file star reads (a bigger one is an error, not an endless read).
inline constexpr std::uint64_t kMaxSourceBytes = std::uint64_t{256} << 20;

// Reads a source file into `sources`; reports an unreadable file as an error. Returns the file
// index or -1.
std::int64_t loadSourceFile(const std::string& path, SourceManager& sources, Diagnostics& diags,
                            SourceLoc requestedAt);

}  // namespace star
