// Reads the language server protocol's framing from a byte stream: header lines
// (`Content-Length: N`, others ignored) up to an empty line, then N bytes of body. Damaged input
// is reported and skipped, never fatal: a block of header lines without a length, a length that
// is not a number or is above the limit (its body is read and thrown away, after the error is
// returned) are each one framing error. Text before a header (left over after a wrong, too short
// length, whose body then failed to parse) is dropped.
#pragma once

#include <cstddef>
#include <istream>
#include <string>

namespace star::lsp {

// The largest message body the server accepts: room for a document of several MB (its text, JSON
// escaped), while the parsed tree of the worst message of this size (`[{},{},...`, the nesting
// bounded by core/JsonNesting.h) stays near half a GB: about 27 bytes per byte.
inline constexpr std::size_t kMaxMessageBytes = std::size_t{16} << 20;

struct ReadResult {
  enum class Kind { Message, FramingError, EndOfInput };
  Kind kind = Kind::EndOfInput;
  std::string body;   // Message: the JSON text
  std::string error;  // FramingError: what was wrong
};

class MessageReader {
 public:
  explicit MessageReader(std::istream& in, std::size_t maxBody = kMaxMessageBytes)
      : in_(*in.rdbuf()), maxBody_(maxBody) {}

  // The next message, the next framing error, or the end of the input (also in the middle of a
  // message: a partial message is dropped).
  ReadResult next();

 private:
  // One header line without its line end; false at the end of the input. A very long line keeps
  // only its end (where a header glued to left-over text would be).
  bool readLine(std::string& line);
  // Reads `count` bytes; false when the input ends first.
  bool readExactly(char* into, std::size_t count);
  // Reads and drops `count` bytes; false when the input ends first.
  bool skip(std::size_t count);

  std::streambuf& in_;
  std::size_t maxBody_;
  std::size_t skipBeforeNext_ = 0;  // the body of a message over the limit
};

}  // namespace star::lsp
