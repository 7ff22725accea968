// libFuzzer target: module files through the loader, the verifier and the interpreter (on the CPU
// backend, with a budget of loop iterations and calls and a small memory limit). The first byte
// picks the form: odd, the rest is a whole file (envelope and checksum included); even, the rest is
// a payload that the target seals itself, so that mutations get past the checksum and reach the
// verifier and the interpreter. A crash, a hang, a leak, UB or an exception other than the
// documented ones is a bug.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "core/MemoryLimit.h"
#include "runtime-cpu/CpuBackend.h"
#include "vm/bytecode/ModuleFile.h"
#include "vm/interp/Interpreter.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  star::setMemoryLimit(std::uint64_t{64} << 20);
  std::string rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::string file = (data[0] & 1) ? rest : star::sealModulePayload(rest);
  star::Module m;
  try {
    m = star::deserializeModule(file);
  } catch (const star::ModuleFormatError&) {
    return 0;
  }
  auto backend = star::makeCpuBackend();
  std::ostringstream out;
  star::Interpreter vm(*backend, out);
  vm.setBudget(20000);
  vm.setArguments({"1", "fuzz"});
  try {
    vm.run(m, m.entry);
  } catch (const star::RuntimeError&) {
  }
  return 0;
}
