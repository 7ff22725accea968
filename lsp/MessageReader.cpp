#include "lsp/MessageReader.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>

namespace star::lsp {
namespace {

constexpr std::size_t kMaxKeptLine = 4096;
constexpr std::string_view kLengthHeader = "content-length:";

std::string lowerCase(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// What a header line says about the length.
struct LengthHeader {
  bool present = false;              // the line has a Content-Length header
  std::optional<std::size_t> value;  // its value, when it is a number
};

LengthHeader parseLengthHeader(const std::string& line) {
  LengthHeader h;
  std::string lower = lowerCase(line);
  std::size_t at = lower.rfind(kLengthHeader);
  if (at == std::string::npos) return h;
  h.present = true;
  std::string_view digits = trim(std::string_view(line).substr(at + kLengthHeader.size()));
  std::size_t value = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec == std::errc{} && end == digits.data() + digits.size() && !digits.empty()) h.value = value;
  return h;
}

}  // namespace

bool MessageReader::readLine(std::string& line) {
  line.clear();
  for (;;) {
    int c = in_.sbumpc();
    if (c == std::char_traits<char>::eof()) return !line.empty();
    if (c == '\n') break;
    line += static_cast<char>(c);
    if (line.size() > 2 * kMaxKeptLine) line.erase(0, line.size() - kMaxKeptLine);
  }
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return true;
}

bool MessageReader::readExactly(char* into, std::size_t count) {
  while (count > 0) {
    std::streamsize got = in_.sgetn(into, static_cast<std::streamsize>(count));
    if (got <= 0) return false;
    into += got;
    count -= static_cast<std::size_t>(got);
  }
  return true;
}

bool MessageReader::skip(std::size_t count) {
  char buffer[65536];
  while (count > 0) {
    std::size_t chunk = std::min(count, sizeof buffer);
    if (!readExactly(buffer, chunk)) return false;
    count -= chunk;
  }
  return true;
}

ReadResult MessageReader::next() {
  ReadResult result;
  if (skipBeforeNext_ > 0) {
    std::size_t count = skipBeforeNext_;
    skipBeforeNext_ = 0;
    if (!skip(count)) return result;
  }
  bool sawHeaderLine = false;  // any non-blank line of this block
  bool sawLength = false;
  std::optional<std::size_t> length;
  std::string line;
  for (;;) {
    if (!readLine(line)) return result;  // end of input, perhaps inside a header block
    if (line.empty()) {
      if (sawHeaderLine) break;
      continue;  // blank lines between messages
    }
    sawHeaderLine = true;
    // Text glued before the header (left over from a message framed too short) is dropped:
    // the JSON of that message has already failed to parse.
    if (LengthHeader h = parseLengthHeader(line); h.present) {
      sawLength = true;
      length = h.value;
    }
  }
  result.kind = ReadResult::Kind::FramingError;
  if (!sawLength) {
    result.error = "a message header without Content-Length; skipped";
    return result;
  }
  if (!length) {
    result.error = "Content-Length is not a number; the message is skipped";
    return result;
  }
  if (*length > maxBody_) {
    result.error = "a message of " + std::to_string(*length) + " bytes is over the limit of " +
                   std::to_string(maxBody_) + " bytes; skipped";
    skipBeforeNext_ = *length;  // after the error is answered: the client may wait for it
    return result;
  }
  std::string body(*length, '\0');
  if (!readExactly(body.data(), body.size())) return ReadResult{};  // cut short by the end
  result.kind = ReadResult::Kind::Message;
  result.body = std::move(body);
  return result;
}

}  // namespace star::lsp
