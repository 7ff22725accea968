// Parallel loops (docs/LANGUAGE.md, "Parallel loops"): the proof that a loop's iterations are
// independent, for `forall` (an error when it fails) and for the papers' loop idioms written the
// old way (the loop then stays sequential, and --explain-loops says why).
//
// A body is independent when each iteration writes only (a) variables local to the iteration:
// assigned before they are read, on every path through the body, or (b) locations selected by its
// own index: COL(i, T) := ..., ROW(i, T) := ..., Y(i) := ...; and reads nothing another iteration
// writes (a table written at COL(i, T) may be read only as COL(i, T)). Bodies contain assignments,
// `if`, blocks, the builtin procedures SET, CLR, REP on local variables, and ERROR; no loops, no
// calls of procedures or functions, no input or output.
#pragma once

#include <string>
#include <vector>

#include "frontend/ast/Ast.h"
#include "frontend/diag/Diagnostics.h"

namespace star {

// One loop, for `star check --explain-loops`.
struct LoopReport {
  SourceLoc loc;
  std::string kind;     // "forall", "while", "for", "repeat"
  ParallelForm form = ParallelForm::None;
  std::string whyNot;   // empty when parallel
};

class ParallelLoops {
 public:
  ParallelLoops(Diagnostics& diags, std::vector<LoopReport>& reports)
      : diags_(diags), reports_(reports) {}

  // Every loop of a statement (and the statements nested in it). `previous` is the statement
  // before s in its block, if any (a STEP-while loop's head).
  void analyse(Stmt* s, Stmt* previous = nullptr);

 private:
  void block(std::vector<StmtPtr>& body);
  void loop(Stmt* s, Stmt* previous);
  void forall(ForallStmt& f);
  bool stepWhile(WhileStmt& w, Stmt* previous);
  bool someStep(WhileStmt& w);
  bool forIf(ForStmt& f);
  void report(const Stmt& s, const char* kind, const LoopParallelism& p);

  Diagnostics& diags_;
  std::vector<LoopReport>& reports_;
};

}  // namespace star
