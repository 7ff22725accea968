// libFuzzer target: any byte string as the request stream of `star run-server`, through its line
// reader (in pieces of varying size, with a short line limit so that over-long lines happen), the
// nesting bound, the JSON parse, the request checks and the answers (cli/RunServerRequest.h).
// No program is run: a well-formed request could name any directory and output file. Crashes,
// leaks, UB and anything but exactly one JSON answer line per request line are bugs.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <string_view>

#include "cli/RunServerRequest.h"

namespace {

using nlohmann::json;
using namespace star::runserver;

constexpr std::size_t kFuzzLineLimit = 4096;  // above the nesting bound, below -max_len

// The answer the server gives a well-formed request, less the run.
json pretendToRun(const RunRequest& request) {
  if (namesStandardOutput(request.out) || namesStandardOutput(request.err))
    return {{"error", kStandardOutputRefused}};
  for (const std::string& arg : request.args)
    if (namesStandardInput(arg)) return {{"error", kStandardInputRefused}};
  return {{"status", 0}};
}

std::size_t countLines(std::string_view input) {
  std::size_t lines = 0;
  for (char c : input) lines += c == '\n';
  return lines + (!input.empty() && input.back() != '\n');
}

// Every answer is one line holding a JSON object with "status" or "error".
void checkAnswers(const std::string& output, std::size_t requests) {
  std::size_t answers = 0;
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line); ++answers) {
    const json answer = json::parse(line, nullptr, false);
    if (!answer.is_object() || (!answer.contains("status") && !answer.contains("error"))) abort();
  }
  if (answers != requests) abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  // Each read returns at most 1 to 64 bytes (chosen by the input's length), as a pipe may.
  const std::size_t piece = size % 64 + 1;
  std::size_t offset = 0;
  RequestLineReader lines(
      [&](char* into, std::size_t room) {
        const std::size_t n = std::min({room, piece, input.size() - offset});
        if (n > 0) std::memcpy(into, input.data() + offset, n);
        offset += n;
        return n;
      },
      kFuzzLineLimit);
  std::ostringstream out;
  serveRequests(lines, out, pretendToRun);
  checkAnswers(out.str(), countLines(input));
  return 0;
}
