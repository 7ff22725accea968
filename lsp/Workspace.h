// The documents the client has opened, each with its text and the analysis of that text.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lsp/DocumentAnalysis.h"

namespace star::lsp {

struct Document {
  std::string uri;
  std::string path;  // what the front end calls it (documentPath)
  std::string text;
  std::int64_t version = 0;
  std::shared_ptr<const DocumentAnalysis> analysis;    // of `text`
  std::shared_ptr<const DocumentAnalysis> lastParsed;  // the newest one with a syntax tree
};

class Workspace {
 public:
  explicit Workspace(AnalysisOptions options) : options_(std::move(options)) {}

  // Opens (or reopens) a document and analyses it.
  const Document& open(const std::string& uri, std::string text, std::int64_t version);
  // Replaces the text of an open document and analyses it again; null when it is not open.
  const Document* update(const std::string& uri, std::string text, std::int64_t version);
  void close(const std::string& uri) { documents_.erase(uri); }

  const Document* find(const std::string& uri) const;
  std::vector<const Document*> all() const;
  const AnalysisOptions& options() const { return options_; }

 private:
  void analyse(Document& document);

  AnalysisOptions options_;
  std::map<std::string, Document> documents_;
};

}  // namespace star::lsp
