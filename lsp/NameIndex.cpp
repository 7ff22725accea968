#include "lsp/NameIndex.h"

#include <algorithm>
#include <tuple>
#include <unordered_map>

#include "frontend/ast/AstWalk.h"
#include "frontend/sema/Checker.h"

namespace star::lsp {
namespace {

// Walks declarations, statements and expressions, recording each resolved name.
class NameCollector : public AstWalk {
 public:
  NameCollector(std::vector<NameOccurrence>& out,
                const std::vector<std::unique_ptr<Program>>& units)
      : out_(out), units_(units) {}

  void program(const Program& p) {
    for (auto& [name, loc] : p.uses)
      if (const Program* unit = findUnit(name)) add(loc, name, unitTarget(unit), false);
    if (!p.body && !p.value) add(p.loc, p.name, unitTarget(&p), true);  // `unit NAME;`
    for (auto& r : p.routines)
      if (r->resultSymbol) resultOwners_[r->resultSymbol] = r.get();
    decls(p.decls);
    for (auto& r : p.routines) routine(*r);
    if (p.body) stmt(p.body.get());
  }

 private:
  static NameTarget unitTarget(const Program* unit) {
    NameTarget t;
    t.kind = NameKind::Unit;
    t.unit = unit;
    return t;
  }
  static NameTarget routineTarget(const Routine* r) {
    NameTarget t;
    t.kind = NameKind::Routine;
    t.routine = r;
    return t;
  }
  static NameTarget builtinTarget(int builtin) {
    NameTarget t;
    t.kind = NameKind::Builtin;
    t.builtin = builtin;
    return t;
  }
  // A function's result variable stands for the function.
  NameTarget symbolTarget(const Symbol* s) const {
    if (auto it = resultOwners_.find(s); it != resultOwners_.end())
      return routineTarget(it->second);
    NameTarget t;
    t.symbol = s;
    return t;
  }

  const Program* findUnit(const std::string& name) const {
    for (auto& u : units_)
      if (lowerCase(u->name) == lowerCase(name)) return u.get();
    return nullptr;
  }

  void add(SourceLoc loc, const std::string& name, NameTarget target, bool isDeclaration) {
    if (!loc.line) return;
    out_.push_back({loc, static_cast<std::uint32_t>(name.size()), target, isDeclaration});
  }
  void addSymbol(SourceLoc loc, const std::string& name, const Symbol* s, bool isDeclaration) {
    if (s) add(loc, name, symbolTarget(s), isDeclaration);
  }

  void spec(const TypeSpec* t) {
    if (!t) return;
    expr(t->size1.get());
    expr(t->size2.get());
  }

  void decls(const DeclList& d) {
    for (auto& s : d.specs) spec(s.get());
    for (auto& c : d.consts) {
      addSymbol(c.loc, c.name, c.symbol, true);
      expr(c.value.get());
    }
    for (auto& v : d.vars) addSymbol(v.loc, v.name, v.symbol, true);
  }

  void routine(const Routine& r) {
    add(r.loc, r.name, routineTarget(&r), true);
    for (auto& s : r.paramSpecs) spec(s.get());
    for (auto& p : r.params) addSymbol(p.loc, p.name, p.symbol, true);
    spec(r.result.get());
    decls(r.decls);
    if (r.body) stmt(r.body.get());
  }

  void loopVariable(SourceLoc loc, const std::string& name, const Symbol* s) override {
    addSymbol(loc, name, s, false);
  }
  void name(const NameExpr& n) override {
    if (n.symbol)
      addSymbol(n.loc, n.name, n.symbol, false);
    else if (n.routine)
      add(n.loc, n.name, routineTarget(n.routine), false);
    else if (n.builtin >= 0)
      add(n.loc, n.name, builtinTarget(n.builtin), false);
  }
  void call(const CallExpr& c) override {
    if (c.target == CallTarget::Builtin && c.builtin >= 0)
      add(c.loc, c.name, builtinTarget(c.builtin), false);
    else if (c.target == CallTarget::Routine && c.routine)
      add(c.loc, c.name, routineTarget(c.routine), false);
    else if (c.target == CallTarget::Component)
      addSymbol(c.loc, c.name, c.symbol, false);
  }

  std::vector<NameOccurrence>& out_;
  const std::vector<std::unique_ptr<Program>>& units_;
  std::unordered_map<const Symbol*, const Routine*> resultOwners_;
};

auto position(const NameOccurrence& o) {
  return std::tie(o.loc.file, o.loc.line, o.loc.col);
}

}  // namespace

void NameIndex::build(const Program* program, const std::vector<std::unique_ptr<Program>>& units) {
  occurrences_.clear();
  if (!program) return;
  NameCollector collector(occurrences_, units);
  for (auto& u : units) collector.program(*u);
  collector.program(*program);
  std::stable_sort(
      occurrences_.begin(), occurrences_.end(),
      [](const NameOccurrence& a, const NameOccurrence& b) { return position(a) < position(b); });
}

const NameOccurrence* NameIndex::at(std::uint32_t file, std::uint32_t line,
                                    std::uint32_t column) const {
  // The last occurrence starting at or before the column, on that line.
  auto it = std::upper_bound(
      occurrences_.begin(), occurrences_.end(), std::make_tuple(file, line, column),
      [](const auto& key, const NameOccurrence& o) { return key < position(o); });
  if (it == occurrences_.begin()) return nullptr;
  const NameOccurrence& o = *std::prev(it);
  if (o.loc.file != file || o.loc.line != line) return nullptr;
  return column <= o.loc.col + o.length ? &o : nullptr;
}

SourceLoc NameIndex::declarationOf(const NameTarget& target) {
  switch (target.kind) {
    case NameKind::Symbol:
      return target.symbol ? target.symbol->loc : SourceLoc{};
    case NameKind::Routine:
      return target.routine ? target.routine->loc : SourceLoc{};
    case NameKind::Unit:
      return target.unit ? target.unit->loc : SourceLoc{};
    case NameKind::Builtin:
      return {};
  }
  return {};
}

}  // namespace star::lsp
