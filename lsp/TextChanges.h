// textDocument/didChange's content changes: the whole new text, or (for clients that send them
// anyway) a range of the old text and its replacement.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "lsp/TextPositions.h"

namespace star::lsp {

// Applies one TextDocumentContentChangeEvent to `text`.
void applyContentChange(std::string& text, const nlohmann::json& change, PositionEncoding encoding);

}  // namespace star::lsp
