// star run-server's requests (cli/RunServer.cpp runs them): reading request lines, bounded, from
// the server's input; checking each one; answering each with one line. Apart from the running so
// that tests/fuzz/RunServerFuzzer.cpp can drive everything but the programs.
#pragma once

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace star::runserver {

// The longest request line read (without its newline). A request is a few paths and words; the
// rest of a longer line is read and dropped, never kept.
inline constexpr std::size_t kMaxRequestLineBytes = std::size_t{1} << 20;

// One program to run, as a request line asks.
struct RunRequest {
  std::string dir, out, err;
  std::vector<std::string> args;  // the words after `star run`
};

// The request a line holds, or nullopt with `error` set to the answer's text: a line nested too
// deeply (refused before it is parsed), not JSON, not of a request's shape.
std::optional<RunRequest> parseRequest(std::string_view line, std::string& error);

// A line of the input, or the sign that it was too long (its text is then dropped).
struct RequestLine {
  std::string text;
  bool tooLong = false;
};

// Splits a byte stream into request lines of at most `maxLine` bytes, reading in chunks.
class RequestLineReader {
 public:
  // Reads up to `size` bytes into `into`; 0 at the end of the input (or on a read error).
  using ReadSome = std::function<std::size_t(char* into, std::size_t size)>;

  explicit RequestLineReader(ReadSome read, std::size_t maxLine = kMaxRequestLineBytes);

  // The next line; a last line without a newline counts. Nullopt at the end of the input.
  std::optional<RequestLine> next();
  std::size_t maxLine() const { return maxLine_; }

 private:
  bool fill();  // false at the end of the input

  ReadSome read_;
  std::size_t maxLine_;
  std::vector<char> buffer_;
  std::size_t begin_ = 0, end_ = 0;  // the unread bytes of buffer_
};

// Runs a well-formed request and gives its answer: {"status": N} or {"error": TEXT}.
using RunFunction = std::function<nlohmann::json(const RunRequest&)>;

// The answer to one line: an error for a line too long or not a request, else what `run` says.
nlohmann::json answerLine(const RequestLine& line, std::size_t maxLine, const RunFunction& run);

// Answers every line of `lines` with one line on `out`, until the end of the input.
void serveRequests(RequestLineReader& lines, std::ostream& out, const RunFunction& run);

// True when `path`, as the program to read, is the server's own standard input, which carries
// the requests that follow: "-", or a name of the same file (/dev/stdin, /proc/self/fd/0, the
// FIFO the server reads).
bool namesStandardInput(const std::string& path);
// True when `path`, as a program's output file, is the server's own standard output, which
// carries the answers (/dev/stdout, the file the answers go to).
bool namesStandardOutput(const std::string& path);
// True when `path` is a FIFO (opening it for writing waits for a reader).
bool namesFifo(const std::string& path);

// The answers' texts for such requests.
inline constexpr const char* kStandardInputRefused =
    "the program cannot be read from the server's standard input ('-', /dev/stdin): it carries "
    "the requests; name a file";
inline constexpr const char* kRequestsRefused =
    "a program's output cannot go to the server's standard input: it holds the requests; name a file";
inline constexpr const char* kFifoRefused =
    "a program's output cannot go to a FIFO (its open would wait for a reader); name a file";
inline constexpr const char* kStandardOutputRefused =
    "a program's output cannot go to the server's standard output (/dev/stdout): it carries the "
    "answers; name a file";

}  // namespace star::runserver
