// One run of the front end over an open document: parse it (a program or a unit), load and parse
// the units it uses, check everything, and keep the checked syntax trees, the compiler's messages
// and the index of names for the requests that follow.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "frontend/ast/Ast.h"
#include "frontend/diag/Diagnostics.h"
#include "lsp/NameIndex.h"

namespace star::lsp {

struct AnalysisOptions {
  std::vector<std::string> modulePath;  // where `uses NAME` looks after the document's directory
  bool warnUnused = true;
  bool warnResult = true;
};

// A message of the compiler, with the notes that follow it ("previous declaration is here").
struct CompilerMessage {
  Severity severity = Severity::Error;
  SourceLoc loc;
  std::string text;
  std::vector<std::pair<SourceLoc, std::string>> notes;
};

class DocumentAnalysis {
 public:
  // `path` names the document in messages and locates the units beside it.
  DocumentAnalysis(const std::string& path, std::string text, const AnalysisOptions& options);
  DocumentAnalysis(const DocumentAnalysis&) = delete;
  DocumentAnalysis& operator=(const DocumentAnalysis&) = delete;

  // The document is file 0; the units follow.
  static constexpr std::uint32_t kDocumentFile = 0;
  const SourceManager& sources() const { return sources_; }
  // The syntax tree of the document; null when it has syntax errors.
  const Program* program() const { return program_.get(); }
  bool isUnit() const { return isUnit_; }
  // The units the document uses, directly or not, in dependency order.
  const std::vector<std::unique_ptr<Program>>& units() const { return units_; }
  const std::vector<CompilerMessage>& messages() const { return messages_; }
  const NameIndex& names() const { return names_; }

 private:
  void run(const AnalysisOptions& options);
  void collect(Severity severity, SourceLoc loc, const std::string& text);

  SourceManager sources_;
  std::unique_ptr<Program> program_;
  bool isUnit_ = false;
  std::vector<std::unique_ptr<Program>> units_;
  std::vector<CompilerMessage> messages_;
  NameIndex names_;
};

}  // namespace star::lsp
