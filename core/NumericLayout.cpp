#include "core/NumericLayout.h"

#include <cctype>

#include "core/Printable.h"

namespace star {

namespace {
// A layout as quoted in messages: at most 40 characters, control bytes escaped.
std::string quoted(std::string_view text) {
  return "'" + printable(text.size() > 40 ? std::string(text.substr(0, 40)) + "..." : std::string(text)) + "'";
}
}  // namespace

std::optional<NumLayout> parseLayout(std::string_view text, std::string& error) {
  NumLayout layout;
  std::size_t pos = 0;
  auto bad = [&](std::string_view token) {
    error = "bad layout " + quoted(text) + ": field " + std::to_string(layout.fields.size() + 1) + " " +
            quoted(token) + " is not u1..u64, i1..i64, f32 or f64";
    return std::nullopt;
  };
  while (true) {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
    if (pos == text.size()) break;
    std::size_t end = pos;
    while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end]))) ++end;
    std::string_view token = text.substr(pos, end - pos);
    pos = end;
    char kind = static_cast<char>(std::tolower(static_cast<unsigned char>(token[0])));
    std::string_view digits = token.substr(1);
    unsigned width = 0;
    bool digitsOk = !digits.empty() && digits.size() <= 2 && digits[0] != '0';
    for (char c : digits) {
      digitsOk = digitsOk && c >= '0' && c <= '9';
      width = width * 10 + static_cast<unsigned>(c - '0');
    }
    if (!digitsOk) return bad(token);
    NumField f;
    f.width = width;
    if (kind == 'u' && width <= 64) f.kind = FieldKind::Unsigned;
    else if (kind == 'i' && width <= 64) f.kind = FieldKind::Signed;
    else if (kind == 'f' && (width == 32 || width == 64)) f.kind = width == 32 ? FieldKind::F32 : FieldKind::F64;
    else return bad(token);
    layout.fields.push_back(f);
    layout.width += width;
  }
  if (layout.fields.empty()) {
    error = "bad layout " + quoted(text) + ": it names no fields (e.g. 'u8 i16 f32 f64')";
    return std::nullopt;
  }
  return layout;
}

std::string fieldName(const NumField& f) {
  switch (f.kind) {
    case FieldKind::Unsigned: return "u" + std::to_string(f.width);
    case FieldKind::Signed: return "i" + std::to_string(f.width);
    case FieldKind::F32: return "f32";
    case FieldKind::F64: return "f64";
  }
  return "?";
}

}  // namespace star
