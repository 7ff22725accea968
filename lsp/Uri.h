// file: URIs <-> file system paths, for the documents a client names and the unit files the
// server points it to.
#pragma once

#include <optional>
#include <string>

namespace star::lsp {

// The path of a `file:` URI (percent-decoded); nullopt for other schemes (untitled:, ...).
std::optional<std::string> uriToPath(const std::string& uri);

// `file://` and the absolute path, percent-encoded where a URI needs it.
std::string pathToUri(const std::string& path);

// The name the front end gives a document: its path for a file: URI, else the URI itself (an
// unsaved buffer; its units are then found through the module path only).
std::string documentPath(const std::string& uri);

}  // namespace star::lsp
