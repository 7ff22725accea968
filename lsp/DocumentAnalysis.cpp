#include "lsp/DocumentAnalysis.h"

#include <sstream>

#include "frontend/driver/UnitLoader.h"
#include "frontend/parse/Parser.h"
#include "frontend/sema/Checker.h"

namespace star::lsp {

DocumentAnalysis::DocumentAnalysis(const std::string& path, std::string text,
                                   const AnalysisOptions& options) {
  sources_.add(path, std::move(text));
  run(options);
}

void DocumentAnalysis::collect(Severity severity, SourceLoc loc, const std::string& text) {
  if (severity == Severity::Note && !messages_.empty()) {
    messages_.back().notes.emplace_back(loc, text);
    return;
  }
  messages_.push_back({severity, loc, text, {}});
}

// The steps of `star check` (frontend/driver/Compilation.cpp), keeping every tree: checking
// stops where the compiler stops, after syntax errors or a unit that cannot be loaded.
void DocumentAnalysis::run(const AnalysisOptions& options) {
  std::ostringstream formatted;  // the text form of the messages is not needed
  Diagnostics diags(sources_, formatted);
  diags.setListener([this](Severity severity, SourceLoc loc, const std::string& text) {
    collect(severity, loc, text);
  });
  try {
    const std::string& text = sources_.text(kDocumentFile);
    // A file that starts with neither `program` nor `unit` is parsed as a program, which says
    // what is missing.
    isUnit_ = fileParseMode(text) == ParseMode::Unit;
    program_ =
        parseSource(sources_, kDocumentFile, isUnit_ ? ParseMode::Unit : ParseMode::Program, diags);
    if (!program_) return;
    UnitLoader loader(sources_, diags, options.modulePath);
    if (loader.load(*program_, units_)) {
      Checker::Options checkOptions;
      checkOptions.warnUnused = options.warnUnused;
      Checker checker(diags, checkOptions);
      for (auto& unit : units_) checker.checkUnit(*unit);
      if (isUnit_)
        checker.checkUnit(*program_);
      else
        checker.checkProgram(*program_);
    }
    names_.build(program_.get(), units_);
  } catch (const std::exception& e) {
    names_ = NameIndex{};
    messages_.push_back({Severity::Error,
                         SourceLoc{kDocumentFile, 1, 1},
                         std::string("the language server could not check this file: ") + e.what(),
                         {}});
  }
}

}  // namespace star::lsp
