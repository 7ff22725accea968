#include "lsp/LspCommand.h"

#include <csignal>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>

#include "frontend/driver/LargeStack.h"
#include "lsp/LspServer.h"

#ifndef STAR_STDLIB_DIR
#define STAR_STDLIB_DIR ""
#endif

namespace star {
namespace {

const char* kLspUsage =
    "usage: star lsp [--stdio] [--stdlib-path=DIR]... [-Wno-unused]\n"
    "  the language server, on standard input and output (docs/CLI.md)\n";

std::string absoluteDirectory(const std::string& dir) {
  std::error_code ec;
  auto full = std::filesystem::absolute(dir, ec);
  return ec ? dir : full.lexically_normal().string();
}

}  // namespace

int commandLsp(int argc, char** argv) {
  lsp::AnalysisOptions options;
  // As for the other commands: the last --stdlib-path first, the built-in stdlib/ last.
  if (std::strlen(STAR_STDLIB_DIR))
    options.modulePath.push_back(absoluteDirectory(STAR_STDLIB_DIR));
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--stdio") continue;  // what language clients add; stdio is the only transport
    if (a.rfind("--stdlib-path=", 0) == 0) {
      options.modulePath.insert(options.modulePath.begin(), absoluteDirectory(a.substr(14)));
    } else if (a == "-Wno-unused") {
      options.warnUnused = false;
    } else if (a == "--help" || a == "-h") {
      std::cout << kLspUsage;
      return 0;
    } else {
      std::cerr << "star: error: unknown argument '" << a << "' for lsp\n\n" << kLspUsage;
      return 1;
    }
  }
  // A client that goes away must end the server with a failed write, not with SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  return runWithLargeStack([&] {
    lsp::LspServer server(std::cin, std::cout, options);
    return server.run();
  });
}

}  // namespace star
