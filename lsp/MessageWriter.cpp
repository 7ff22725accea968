#include "lsp/MessageWriter.h"

namespace star::lsp {

bool MessageWriter::send(const nlohmann::json& message) {
  std::string body = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  out_ << "Content-Length: " << body.size() << "\r\n\r\n" << body;
  out_.flush();
  return static_cast<bool>(out_);
}

}  // namespace star::lsp
