#include "lsp/Workspace.h"

#include "lsp/Uri.h"

namespace star::lsp {

void Workspace::analyse(Document& document) {
  document.analysis =
      std::make_shared<const DocumentAnalysis>(document.path, document.text, options_);
  if (document.analysis->program()) document.lastParsed = document.analysis;
}

const Document& Workspace::open(const std::string& uri, std::string text, std::int64_t version) {
  Document& document = documents_[uri];
  document = Document{};
  document.uri = uri;
  document.path = documentPath(uri);
  document.text = std::move(text);
  document.version = version;
  analyse(document);
  return document;
}

const Document* Workspace::update(const std::string& uri, std::string text, std::int64_t version) {
  auto it = documents_.find(uri);
  if (it == documents_.end()) return nullptr;
  it->second.text = std::move(text);
  it->second.version = version;
  analyse(it->second);
  return &it->second;
}

const Document* Workspace::find(const std::string& uri) const {
  auto it = documents_.find(uri);
  return it == documents_.end() ? nullptr : &it->second;
}

std::vector<const Document*> Workspace::all() const {
  std::vector<const Document*> out;
  for (auto& [uri, document] : documents_) out.push_back(&document);
  return out;
}

}  // namespace star::lsp
