// Every name of a checked program and its units, with what it refers to: the occurrences that
// hover, go to definition, find references and semantic tokens are answered from.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "frontend/ast/Ast.h"

namespace star::lsp {

enum class NameKind : std::uint8_t { Symbol, Routine, Builtin, Unit };

// What a name refers to: a variable, constant or parameter; a procedure or function (also the
// result variable of a function, which is written with its name); a builtin; a unit.
struct NameTarget {
  NameKind kind = NameKind::Symbol;
  const Symbol* symbol = nullptr;
  const Routine* routine = nullptr;
  int builtin = -1;
  const Program* unit = nullptr;

  bool operator==(const NameTarget&) const = default;
};

struct NameOccurrence {
  SourceLoc loc;             // where the name starts
  std::uint32_t length = 0;  // in code points (identifiers are ASCII)
  NameTarget target;
  bool isDeclaration = false;
};

class NameIndex {
 public:
  // Indexes `program` (null: nothing) and the units it uses; the ASTs must outlive the index.
  void build(const Program* program, const std::vector<std::unique_ptr<Program>>& units);

  // Sorted by file, line and column.
  const std::vector<NameOccurrence>& occurrences() const { return occurrences_; }
  // The occurrence covering the 1-based line and code-point column, or null. A column just after
  // a name counts as on it (the cursor at the end of a word).
  const NameOccurrence* at(std::uint32_t file, std::uint32_t line, std::uint32_t column) const;

  // Where the target is declared (line 0 for a builtin, which has no declaration).
  static SourceLoc declarationOf(const NameTarget& target);

 private:
  std::vector<NameOccurrence> occurrences_;
};

}  // namespace star::lsp
