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

// The steps of `star check` (frontend/driver/Compilation.cpp), keeping every tree. Where the
// compiler stops, the editor goes on: after a syntax error that the parser's recovery repaired (a
// missing ';') the repaired tree is checked, with its messages dropped (the syntax errors are the
// file's), so that hover and definitions keep working; after a unit that cannot be loaded, the
// units that did load are checked and report their own errors.
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
    bool recovered = false;
    program_ = parseForEditor(sources_, kDocumentFile, isUnit_ ? ParseMode::Unit : ParseMode::Program, diags,
                              &recovered);
    if (!program_) return;
    std::ostringstream dropped;
    Diagnostics quiet(sources_, dropped);
    UnitLoader loader(sources_, recovered ? quiet : diags, options.modulePath);
    const bool loaded = loader.load(*program_, units_);
    Checker::Options checkOptions;
    checkOptions.warnUnused = options.warnUnused;
    checkOptions.warnResult = options.warnResult;
    Checker checker(recovered ? quiet : diags, checkOptions);
    for (Program* unit : checkableUnits(units_)) checker.checkUnit(*unit);
    if (loaded) {
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
