#include "lsp/LspServer.h"

#include "core/JsonNesting.h"
#include "lsp/CompletionFeature.h"
#include "lsp/DiagnosticsFeature.h"
#include "lsp/DocumentSymbolFeature.h"
#include "lsp/HoverFeature.h"
#include "lsp/NavigationFeature.h"
#include "lsp/RpcError.h"
#include "lsp/SemanticTokensFeature.h"
#include "lsp/TextChanges.h"

#ifndef STAR_VERSION
#define STAR_VERSION "0"
#endif

namespace star::lsp {

using nlohmann::json;

namespace {

// params[key1][key2]...: null when a key is missing or a step is not an object.
const json* find(const json& object, std::initializer_list<const char*> keys) {
  const json* at = &object;
  for (const char* key : keys) {
    if (!at->is_object()) return nullptr;
    auto it = at->find(key);
    if (it == at->end()) return nullptr;
    at = &*it;
  }
  return at;
}

// The client's preferred position encoding among those the server knows (UTF-16 by default).
PositionEncoding chooseEncoding(const json& params) {
  const json* offered = find(params, {"capabilities", "general", "positionEncodings"});
  if (!offered || !offered->is_array()) return PositionEncoding::Utf16;
  for (const json& name : *offered) {
    if (name == "utf-16") return PositionEncoding::Utf16;
    if (name == "utf-32") return PositionEncoding::Utf32;
    if (name == "utf-8") return PositionEncoding::Utf8;
  }
  return PositionEncoding::Utf16;
}

}  // namespace

LspServer::LspServer(std::istream& in, std::ostream& out, AnalysisOptions options)
    : reader_(in), writer_(out), workspace_(std::move(options)) {
  requests_["textDocument/hover"] = [this](const json& p) { return hover(context(), p); };
  requests_["textDocument/definition"] = [this](const json& p) { return definition(context(), p); };
  requests_["textDocument/references"] = [this](const json& p) { return references(context(), p); };
  requests_["textDocument/completion"] = [this](const json& p) { return completion(context(), p); };
  requests_["textDocument/documentSymbol"] = [this](const json& p) {
    return documentSymbols(context(), p, hierarchicalSymbols_);
  };
  requests_["textDocument/semanticTokens/full"] = [this](const json& p) {
    return semanticTokens(context(), p);
  };
}

int LspServer::run() {
  for (;;) {
    ReadResult read = reader_.next();
    if (read.kind == ReadResult::Kind::EndOfInput) break;
    try {
      if (read.kind == ReadResult::Kind::FramingError)
        sendError(nullptr, kParseError, read.error);
      else
        handleMessage(read.body);
    } catch (const std::exception& e) {  // out of memory, say: this message fails, not the server
      sendError(nullptr, kInternalError, e.what());
    }
    if (exitRequested_ || outputGone_) break;
  }
  return shutdownRequested_ && !outputGone_ ? 0 : 1;
}

void LspServer::handleMessage(const std::string& body) {
  // Refused before parsing: the parser's tree of `[[[[...` costs about 75 bytes per byte.
  if (jsonNestedDeeperThan(body, kMaxJsonNesting))
    return sendError(nullptr, kParseError,
                     "the message is nested deeper than " + std::to_string(kMaxJsonNesting) +
                         " levels of arrays and objects");
  json message = json::parse(body, nullptr, false);
  if (message.is_discarded())
    return sendError(nullptr, kParseError, "the message is not valid JSON");
  if (!message.is_object())
    return sendError(nullptr, kInvalidRequest, "a message must be a JSON object");
  bool hasId = message.contains("id");
  json id = hasId ? message["id"] : json();
  if (hasId && !id.is_number_integer() && !id.is_string() && !id.is_null())
    return sendError(nullptr, kInvalidRequest, "the id must be a number or a string");
  auto method = message.find("method");
  if (method == message.end()) {
    // A response to a request of the server's: it sends none, so there is nothing to match.
    if (message.contains("result") || message.contains("error")) return;
    return sendError(id, kInvalidRequest, "the message has no method");
  }
  if (!method->is_string()) return sendError(id, kInvalidRequest, "the method must be a string");
  json params = message.contains("params") ? message["params"] : json::object();
  if (hasId)
    handleRequest(id, method->get<std::string>(), params);
  else
    handleNotification(method->get<std::string>(), params);
}

void LspServer::handleRequest(const json& id, const std::string& method, const json& params) {
  if (method == "initialize") {
    if (initialized_) return sendError(id, kInvalidRequest, "the server is already initialized");
    initialized_ = true;
    return sendResult(id, initialize(params));
  }
  if (!initialized_) return sendError(id, kServerNotInitialized, "initialize comes first");
  if (shutdownRequested_) return sendError(id, kInvalidRequest, "the server is shutting down");
  if (method == "shutdown") {
    shutdownRequested_ = true;
    return sendResult(id, nullptr);
  }
  auto handler = requests_.find(method);
  if (handler == requests_.end()) return sendError(id, kMethodNotFound, "unknown method " + method);
  try {
    sendResult(id, handler->second(params));
  } catch (const RpcError& e) {
    sendError(id, e.code(), e.what());
  } catch (const json::exception& e) {
    // Without the library's "[json.exception.type_error.302] " tag: it names no part of the LSP.
    std::string why = e.what();
    if (const auto tag = why.find("] "); why.rfind("[json.exception.", 0) == 0 && tag != std::string::npos)
      why.erase(0, tag + 2);
    sendError(id, kInvalidParams, "invalid params for " + method + ": they do not have the shape the method takes (" +
                                      why + ")");
  } catch (const std::exception& e) {
    sendError(id, kInternalError, e.what());
  }
}

void LspServer::handleNotification(const std::string& method, const json& params) {
  if (method == "exit") {
    exitRequested_ = true;
    return;
  }
  if (!initialized_ || shutdownRequested_) return;  // dropped, as the protocol asks
  try {
    if (method == "textDocument/didOpen")
      didOpen(params);
    else if (method == "textDocument/didChange")
      didChange(params);
    else if (method == "textDocument/didClose")
      didClose(params);
    // Others (initialized, $/cancelRequest, didSave, ...) need nothing.
  } catch (const std::exception& e) {
    logWarning(method + ": " + e.what());
  }
}

json LspServer::initialize(const json& params) {
  encoding_ = chooseEncoding(params);
  const json* hierarchical = find(params, {"capabilities", "textDocument", "documentSymbol",
                                           "hierarchicalDocumentSymbolSupport"});
  hierarchicalSymbols_ = hierarchical && hierarchical->is_boolean() && hierarchical->get<bool>();
  json capabilities = {
      {"positionEncoding", encodingName(encoding_)},
      {"textDocumentSync", {{"openClose", true}, {"change", 1}}},  // the full text each time
      {"hoverProvider", true},
      {"definitionProvider", true},
      {"referencesProvider", true},
      {"completionProvider", {{"resolveProvider", false}}},
      {"documentSymbolProvider", true},
      {"semanticTokensProvider",
       {{"legend", semanticTokensLegend()}, {"full", true}, {"range", false}}},
  };
  return {{"capabilities", capabilities},
          {"serverInfo", {{"name", "star"}, {"version", STAR_VERSION}}}};
}

void LspServer::didOpen(const json& params) {
  const json& item = params.at("textDocument");
  publishDiagnostics(workspace_.open(item.at("uri").get<std::string>(),
                                     item.at("text").get<std::string>(),
                                     item.value("version", std::int64_t{0})));
}

void LspServer::didChange(const json& params) {
  const json& item = params.at("textDocument");
  std::string uri = item.at("uri").get<std::string>();
  const Document* document = workspace_.find(uri);
  if (!document) throw RpcError(kInvalidParams, "the document is not open: " + uri);
  std::string text = document->text;
  for (const json& change : params.at("contentChanges"))
    applyContentChange(text, change, encoding_);
  std::int64_t version = item.value("version", document->version + 1);
  publishDiagnostics(*workspace_.update(uri, std::move(text), version));
}

void LspServer::didClose(const json& params) {
  std::string uri = params.at("textDocument").at("uri").get<std::string>();
  workspace_.close(uri);
  sendNotification("textDocument/publishDiagnostics",
                   {{"uri", uri}, {"diagnostics", json::array()}});
}

void LspServer::publishDiagnostics(const Document& document) {
  sendNotification("textDocument/publishDiagnostics", diagnosticsParams(document, encoding_));
}

void LspServer::sendResult(const json& id, const json& result) {
  outputGone_ |= !writer_.send({{"jsonrpc", "2.0"}, {"id", id}, {"result", result}});
}

void LspServer::sendError(const json& id, int code, const std::string& message) {
  outputGone_ |= !writer_.send(
      {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}});
}

void LspServer::sendNotification(const std::string& method, const json& params) {
  outputGone_ |= !writer_.send({{"jsonrpc", "2.0"}, {"method", method}, {"params", params}});
}

void LspServer::logWarning(const std::string& message) {
  sendNotification("window/logMessage", {{"type", 2}, {"message", message}});
}

}  // namespace star::lsp
