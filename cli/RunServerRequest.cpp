#include "cli/RunServerRequest.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "core/JsonNesting.h"

namespace star::runserver {

using nlohmann::json;

namespace {

constexpr std::size_t kReadChunk = std::size_t{64} << 10;
constexpr const char* kShape =
    "a request is {\"dir\": D, \"out\": FILE, \"err\": FILE, \"args\": [...]}";

bool isString(const json& request, const char* key) {
  auto it = request.find(key);
  return it != request.end() && it->is_string();
}

// A string with a NUL byte would name another path than it says (the system stops at the NUL).
bool hasNul(const std::string& s) {
  return s.find('\0') != std::string::npos;
}

// True when `path` is the file open as the server's descriptor `fd`. A character device that is
// not a terminal (/dev/null) carries nothing, and may be shared.
bool namesServerStream(const std::string& path, int fd) {
  struct stat stream {};
  struct stat named {};
  if (fstat(fd, &stream) != 0 || stat(path.c_str(), &named) != 0) return false;
  if (stream.st_dev != named.st_dev || stream.st_ino != named.st_ino) return false;
  return !S_ISCHR(stream.st_mode) || isatty(fd);
}

}  // namespace

std::optional<RunRequest> parseRequest(std::string_view line, std::string& error) {
  if (jsonNestedDeeperThan(line, kMaxJsonNesting)) {
    error = "the request is nested deeper than " + std::to_string(kMaxJsonNesting) +
            " levels of arrays and objects";
    return std::nullopt;
  }
  const json request = json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (!request.is_object() || !isString(request, "dir") || !isString(request, "out") ||
      !isString(request, "err") || !request.contains("args") || !request["args"].is_array()) {
    error = kShape;
    return std::nullopt;
  }
  RunRequest r{request["dir"].get<std::string>(),
               request["out"].get<std::string>(),
               request["err"].get<std::string>(),
               {}};
  for (const auto& a : request["args"]) {
    if (!a.is_string()) {
      error = "every argument is a string";
      return std::nullopt;
    }
    r.args.push_back(a.get<std::string>());
  }
  if (hasNul(r.dir) || hasNul(r.out) || hasNul(r.err) ||
      std::any_of(r.args.begin(), r.args.end(), hasNul)) {
    error = "a path or an argument holds a NUL character";
    return std::nullopt;
  }
  return r;
}

RequestLineReader::RequestLineReader(ReadSome read, std::size_t maxLine)
    : read_(std::move(read)), maxLine_(maxLine), buffer_(kReadChunk) {}

bool RequestLineReader::fill() {
  begin_ = 0;
  end_ = read_(buffer_.data(), buffer_.size());
  return end_ > 0;
}

std::optional<RequestLine> RequestLineReader::next() {
  RequestLine line;
  bool any = false;  // a byte of this line (or its newline) was read
  for (;;) {
    if (begin_ == end_ && !fill()) return any ? std::optional(std::move(line)) : std::nullopt;
    any = true;
    const char* from = buffer_.data() + begin_;
    const char* newline = static_cast<const char*>(std::memchr(from, '\n', end_ - begin_));
    const std::size_t count = newline ? static_cast<std::size_t>(newline - from) : end_ - begin_;
    begin_ += count + (newline ? 1 : 0);
    if (!line.tooLong && line.text.size() + count > maxLine_) {
      line.tooLong = true;
      line.text = std::string();  // frees what was kept; the rest of the line is only skipped
    }
    if (!line.tooLong) line.text.append(from, count);
    if (newline) return line;
  }
}

json answerLine(const RequestLine& line, std::size_t maxLine, const RunFunction& run) {
  if (line.tooLong)
    return {{"error", "the request line is longer than " + std::to_string(maxLine) +
                          " bytes; it is skipped"}};
  std::string error;
  std::optional<RunRequest> request = parseRequest(line.text, error);
  if (!request) return {{"error", error}};
  return run(*request);
}

void serveRequests(RequestLineReader& lines, std::ostream& out, const RunFunction& run) {
  while (std::optional<RequestLine> line = lines.next()) {
    const json answer = answerLine(*line, lines.maxLine(), run);
    // Text that is not UTF-8 (from a file name, say) is replaced: the answer is always written.
    out << answer.dump(-1, ' ', false, json::error_handler_t::replace) << "\n";
    out.flush();
  }
}

bool namesStandardInput(const std::string& path) {
  return path == "-" || namesServerStream(path, STDIN_FILENO);
}

bool namesStandardOutput(const std::string& path) {
  return namesServerStream(path, STDOUT_FILENO);
}

bool namesFifo(const std::string& path) {
  struct stat named {};
  return stat(path.c_str(), &named) == 0 && S_ISFIFO(named.st_mode);
}

}  // namespace star::runserver
