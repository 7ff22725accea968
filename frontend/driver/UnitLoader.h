// Finds, reads and parses the library units a program names in `uses` (transitively), for the
// compiler driver and the REPL alike. A unit NAME lives in NAME.star (lower case), searched in the
// directory of the file that uses it, then in each directory of the module path.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "frontend/ast/Ast.h"
#include "frontend/diag/Diagnostics.h"

namespace star {

class UnitLoader {
 public:
  UnitLoader(SourceManager& sources, Diagnostics& diags, std::vector<std::string> modulePath)
      : sources_(sources), diags_(diags), modulePath_(std::move(modulePath)) {}

  // Parses the units `from` uses that are not loaded yet, depth first, and appends them to
  // `units` in dependency order. Returns false when an error was reported.
  bool load(const Program& from, std::vector<std::unique_ptr<Program>>& units);

  // Lower-case names of the units loaded so far (the REPL truncates it to undo an input).
  std::vector<std::string>& loadedNames() { return loaded_; }
  const std::vector<std::string>& loadedNames() const { return loaded_; }
  // Called after each source file is added to the SourceManager (the REPL mirrors the list).
  std::function<void()> onFileAdded;

 private:
  bool load(const Program& from, std::vector<std::string>& stack,
            std::vector<std::unique_ptr<Program>>& units);
  std::string find(const std::string& name, std::uint32_t fromFile) const;
  std::vector<std::string> searchDirectories(std::uint32_t fromFile) const;
  // The unit closest to a name not found, among the .star files of the search directories.
  std::string suggestUnit(const std::string& name, std::uint32_t fromFile) const;

  SourceManager& sources_;
  Diagnostics& diags_;
  std::vector<std::string> modulePath_;
  std::vector<std::string> loaded_;
};

// The units of `units` (in dependency order, as load leaves them) whose every used unit is
// among them, directly or not: the ones that can be checked when another failed to load.
std::vector<Program*> checkableUnits(const std::vector<std::unique_ptr<Program>>& units);

}  // namespace star
