#include "lsp/LspCommand.h"

#include <csignal>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "frontend/driver/LargeStack.h"
#include "frontend/driver/StdlibLocation.h"
#include "lsp/LspServer.h"

namespace star {
namespace {

const char* kLspUsage =
    "usage: star lsp [--stdio] [--stdlib-path=DIR]... [-Wno-unused] [-Wno-result]\n"
    "  the language server, on standard input and output (docs/CLI.md)\n";

std::string absoluteDirectory(const std::string& dir) {
  std::error_code ec;
  auto full = std::filesystem::absolute(dir, ec);
  return ec ? dir : full.lexically_normal().string();
}

}  // namespace

int commandLsp(int argc, char** argv) {
  lsp::AnalysisOptions options;
  std::vector<std::string> stdlibPaths;  // --stdlib-path, in the order given
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--stdio") continue;  // what language clients add; stdio is the only transport
    if (a.rfind("--stdlib-path=", 0) == 0) {
      stdlibPaths.push_back(a.substr(14));
    } else if (a == "-Wno-unused") {
      options.warnUnused = false;
    } else if (a == "-Wno-result") {
      options.warnResult = false;
    } else if (a == "--help" || a == "-h") {
      std::cout << kLspUsage;
      return 0;
    } else {
      std::cerr << "star: error: unknown argument '" << a << "' for lsp\n\n" << kLspUsage;
      return 1;
    }
  }
  // As for the other commands: the last --stdlib-path first, then $STAR_PATH, then the standard
  // library beside the executable; absolute, since the client may change the directory.
  for (const std::string& d : unitSearchPath(stdlibPaths))
    options.modulePath.push_back(absoluteDirectory(d));
  // A client that goes away must end the server with a failed write, not with SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  return runWithLargeStack([&] {
    lsp::LspServer server(std::cin, std::cout, options);
    return server.run();
  });
}

}  // namespace star
