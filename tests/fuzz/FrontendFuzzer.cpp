// libFuzzer target: any byte string through the whole front end (parse, check, generate code,
// serialize and reload the module). Crashes, hangs, leaks and UB are bugs; diagnostics are fine.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "frontend/codegen/CodeGen.h"
#include "frontend/diag/Diagnostics.h"
#include "frontend/driver/LargeStack.h"
#include "frontend/parse/Parser.h"
#include "frontend/sema/Checker.h"
#include "vm/bytecode/ModuleFile.h"

namespace {

int compileOnce(const std::string& text) {
  star::SourceManager sources;
  std::ostringstream sink;
  star::Diagnostics diags(sources, sink);
  std::uint32_t file = sources.add("fuzz.star", text);
  auto program = star::parseSource(sources, file, star::ParseMode::Program, diags);
  if (!program) return 0;
  star::Checker checker(diags);
  if (!checker.checkProgram(*program)) return 0;
  star::Module module;
  module.files.push_back("fuzz.star");
  star::CodeGen(module).compile({}, *program);
  star::Module again = star::deserializeModule(star::serializeModule(module));
  (void)again;
  return 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  // The same large stack as the star driver, so the parser's depth limit is what stops us.
  return star::runWithLargeStack([&] { return compileOnce(text); });
}
