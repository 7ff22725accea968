// Writes JSON-RPC messages with the language server protocol's framing
// (`Content-Length: N\r\n\r\n` and N bytes of JSON).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

namespace star::lsp {

class MessageWriter {
 public:
  explicit MessageWriter(std::ostream& out) : out_(out) {}

  // Sends one message; text that is not valid UTF-8 is replaced (U+FFFD), never an exception.
  // False once the output is gone (the client closed the pipe).
  bool send(const nlohmann::json& message);

 private:
  std::ostream& out_;
};

}  // namespace star::lsp
