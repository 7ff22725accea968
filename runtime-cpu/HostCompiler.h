// The compiled tier's host build: generated C++ (vm/compile/EmitCpp.h) compiled into a shared
// object by the host's C++ compiler ($STAR_CXX, else `c++` on the PATH) and loaded with dlopen.
// The object is cached (core/DiskCache.h) under a key of the source, the embedded headers, star's
// version and the compiler's own version line, so a program compiles once per machine.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/EmbeddedFile.h"

namespace star::cpu {

// runtime-cpu/ThreadTeam.h, embedded (cmake/EmbedFiles.cmake): the host build's team.
std::span<const EmbeddedFile> threadTeamHeaders();

struct HostCompileStats {
  double seconds = 0;  // spent compiling (misses) and loading
  std::uint64_t hits = 0, misses = 0;
};

class HostCompiler {
 public:
  HostCompiler();
  ~HostCompiler();
  HostCompiler(const HostCompiler&) = delete;
  HostCompiler& operator=(const HostCompiler&) = delete;

  // Compiles `source` (which includes `headers` by their paths) and returns the address of the
  // extern "C" `symbol` in it, or null with `error` set. Objects stay loaded while this lives.
  void* compile(const std::string& source, std::span<const EmbeddedFile> headers,
                const char* symbol, bool useCache, std::string& error);
  const HostCompileStats& stats() const { return stats_; }

 private:
  std::string compilerIdentity(std::string& error);
  std::string build(const std::string& source, std::span<const EmbeddedFile> headers,
                    std::string& error);

  std::string compiler_, identity_;
  std::vector<void*> libraries_;
  HostCompileStats stats_;
};

}  // namespace star::cpu
