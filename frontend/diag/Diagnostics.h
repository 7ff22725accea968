// Diagnostics: `file:line:col: error: message`, then the source line and a caret under the
// column. Every front-end pass reports here and keeps going, so one run reports every error.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "core/SourceLoc.h"

namespace star {

// Owns the text of every source file of a compilation (the program and the modules it uses).
class SourceManager {
 public:
  std::uint32_t add(std::string path, std::string text);
  const std::string& path(std::uint32_t file) const { return files_.at(file).path; }
  const std::string& text(std::uint32_t file) const { return files_.at(file).text; }
  // The text of a 1-based line, without its line terminator ("" when out of range).
  std::string line(std::uint32_t file, std::uint32_t line) const;
  std::size_t size() const { return files_.size(); }

 private:
  struct File {
    std::string path;
    std::string text;
    std::vector<std::size_t> lineStarts;
  };
  std::vector<File> files_;
};

enum class Severity { Error, Warning, Note };

class Diagnostics {
 public:
  Diagnostics(const SourceManager& sources, std::ostream& out) : sources_(sources), out_(&out) {}
  // Where messages go from now on (a driver may hold them back until it knows they stand).
  void setOutput(std::ostream& out) { out_ = &out; }
  std::ostream& output() const { return *out_; }
  // The source text messages quote (a fix-it note that repeats what the program wrote).
  const SourceManager& sources() const { return sources_; }
  // Also hands each message, unformatted, to `listener` (the language server keeps them as data).
  using Listener = std::function<void(Severity, SourceLoc, const std::string& message)>;
  void setListener(Listener listener) { listener_ = std::move(listener); }

  void error(SourceLoc loc, const std::string& message) { report(Severity::Error, loc, message); }
  void warning(SourceLoc loc, const std::string& message) {
    report(Severity::Warning, loc, message);
  }
  void note(SourceLoc loc, const std::string& message) { report(Severity::Note, loc, message); }
  void report(Severity severity, SourceLoc loc, const std::string& message);

  // "runtime error" lines share the format.
  static std::string format(const SourceManager& sources, SourceLoc loc, const std::string& kind,
                            const std::string& message, bool withCaret = true);

  int errorCount() const { return errors_; }
  int warningCount() const { return warnings_; }
  bool hasErrors() const { return errors_ > 0; }
  // Where the first error since the last resetCounts() was reported.
  SourceLoc firstErrorLoc() const { return firstError_; }
  // The REPL counts (and caps) errors per input.
  void resetCounts() {
    errors_ = warnings_ = 0;
    firstError_ = {};
  }
  // A cap so that garbage input cannot print megabytes of diagnostics.
  static constexpr int kMaxErrors = 100;

 private:
  const SourceManager& sources_;
  std::ostream* out_;
  Listener listener_;
  int errors_ = 0;
  int warnings_ = 0;
  SourceLoc firstError_;
};

}  // namespace star
