// The language server: reads JSON-RPC messages, keeps the open documents, answers requests and
// publishes diagnostics, until `exit` or the end of the input. Whatever arrives (damaged framing,
// invalid JSON, unknown methods, bad params, requests about documents that are not open) gets an
// error reply or is ignored; nothing stops the server but `exit` and the end of its input.
#pragma once

#include <functional>
#include <istream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <unordered_map>

#include "lsp/FeatureContext.h"
#include "lsp/MessageReader.h"
#include "lsp/MessageWriter.h"
#include "lsp/Workspace.h"

namespace star::lsp {

class LspServer {
 public:
  LspServer(std::istream& in, std::ostream& out, AnalysisOptions options);

  // Serves until `exit` or the end of the input. Returns the exit status: 0 after `shutdown`,
  // 1 otherwise (as the protocol asks).
  int run();

 private:
  using Handler = std::function<nlohmann::json(const nlohmann::json& params)>;

  void handleMessage(const std::string& body);
  void handleRequest(const nlohmann::json& id, const std::string& method,
                     const nlohmann::json& params);
  void handleNotification(const std::string& method, const nlohmann::json& params);

  nlohmann::json initialize(const nlohmann::json& params);
  void didOpen(const nlohmann::json& params);
  void didChange(const nlohmann::json& params);
  void didClose(const nlohmann::json& params);
  void publishDiagnostics(const Document& document);

  void sendResult(const nlohmann::json& id, const nlohmann::json& result);
  void sendError(const nlohmann::json& id, int code, const std::string& message);
  void sendNotification(const std::string& method, const nlohmann::json& params);
  void logWarning(const std::string& message);

  FeatureContext context() const { return {workspace_, encoding_}; }

  MessageReader reader_;
  MessageWriter writer_;
  Workspace workspace_;
  std::unordered_map<std::string, Handler> requests_;
  PositionEncoding encoding_ = PositionEncoding::Utf16;
  bool hierarchicalSymbols_ = false;
  bool initialized_ = false;
  bool shutdownRequested_ = false;
  bool exitRequested_ = false;
  bool outputGone_ = false;
};

}  // namespace star::lsp
