#include "lsp/TextChanges.h"

#include <algorithm>

namespace star::lsp {

void applyContentChange(std::string& text, const nlohmann::json& change,
                        PositionEncoding encoding) {
  std::string replacement = change.at("text").get<std::string>();
  if (!change.contains("range")) {
    text = std::move(replacement);
    return;
  }
  const nlohmann::json& range = change.at("range");
  auto offsetOf = [&](const nlohmann::json& position) {
    return byteOffset(text, position.at("line").get<std::uint32_t>(),
                      position.at("character").get<std::uint32_t>(), encoding);
  };
  std::size_t start = offsetOf(range.at("start"));
  std::size_t end = offsetOf(range.at("end"));
  if (end < start) std::swap(start, end);
  text.replace(start, end - start, replacement);
}

}  // namespace star::lsp
