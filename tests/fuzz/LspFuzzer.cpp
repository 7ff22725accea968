// libFuzzer target: any byte string as the input stream of `star lsp`, through the server's whole
// loop (as `star lsp` runs it): the Content-Length framing, the nesting bound, the JSON
// parse, the dispatch, and the front end on the documents opened. Crashes, hangs, leaks and UB are
// bugs; error replies are fine.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "frontend/driver/LargeStack.h"
#include "lsp/LspServer.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::ostringstream out;
  star::lsp::AnalysisOptions options;  // no unit directories
  // The same large stack as `star lsp`, so the parser's depth limit is what stops deep documents.
  return star::runWithLargeStack([&] {
    star::lsp::LspServer server(in, out, options);
    server.run();
    return 0;
  });
}
