// What every request handler gets: the open documents and the negotiated position encoding.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "lsp/LspConversions.h"
#include "lsp/RpcError.h"
#include "lsp/Workspace.h"

namespace star::lsp {

struct FeatureContext {
  const Workspace& workspace;
  PositionEncoding encoding = PositionEncoding::Utf16;

  // The open document the request's params name (params.textDocument.uri), with its analysis;
  // an error when it is not open.
  const Document& document(const nlohmann::json& params) const {
    std::string uri = params.at("textDocument").at("uri").get<std::string>();
    const Document* d = workspace.find(uri);
    if (!d) throw RpcError(kInvalidParams, "the document is not open: " + uri);
    if (!d->analysis) throw RpcError(kInternalError, "the document could not be analysed: " + uri);
    return *d;
  }
};

}  // namespace star::lsp
