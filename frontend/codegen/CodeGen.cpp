#include "frontend/codegen/CodeGen.h"

#include <bit>
#include <cassert>
#include <cstring>
#include <limits>

#include "core/NativeTable.h"
#include "frontend/sema/Builtins.h"

namespace star {

namespace {
// Operands in the argument area are emitted as offsets with this bit and patched when the
// function is finished and the area's base register is known.
constexpr std::uint32_t kArgBit = 0x40000000u;
}  // namespace

SlotKind slotKindOf(Type t) {
  if (isBits(t)) return SlotKind::Bits;
  if (t == Type::Table) return SlotKind::Table;
  return SlotKind::Scalar;
}

ValueTag valueTagOf(Type t) {
  switch (t) {
    case Type::Boolean: return ValueTag::Boolean;
    case Type::String: return ValueTag::String;
    case Type::Real: return ValueTag::Real;
    case Type::Slice:
    case Type::Word: return ValueTag::Bits;
    case Type::Table: return ValueTag::Table;
    default: return ValueTag::Integer;
  }
}

namespace {
bool isPlainMove(std::uint32_t opcode) {
  Op op = static_cast<Op>(opcode);
  return op == Op::BCONST || op == Op::BCOPY || op == Op::TCOPY;
}
}  // namespace

// ======================================================================= module level

std::uint32_t CodeGen::compile(const std::vector<Program*>& units, Program& main) {
  beginProgram(units, main);
  if (main.body) stmt(main.body.get());
  return endProgram(main);
}

void CodeGen::beginProgram(const std::vector<Program*>& units, Program& main) {
  std::vector<Program*> all(units);
  all.push_back(&main);
  for (Program* p : all) declareGlobals(*p);
  for (Program* p : all)
    for (auto& r : p->routines) {
      r->index = static_cast<std::uint32_t>(m_.functions.size());
      m_.functions.emplace_back();
      m_.functions.back().name = r->name;
    }
  for (Program* p : all)
    for (auto& r : p->routines) compileRoutine(*r);

  entry_ = static_cast<std::uint32_t>(m_.functions.size());
  m_.functions.emplace_back();
  fs_ = FnState{};
  fs_.fn = &m_.functions.back();
  fs_.fn->name = main.body ? "<main>" : "<init>";
  for (Program* p : all) initDecls(p->decls);
}

void CodeGen::mainStatement(Stmt* s, Stmt* next) {
  beforeStatement(next);
  stmt(s);
}

// Before the statement that precedes `next`: a STEP-while loop's PFOR goes before its head
// `i := STEP(x)`, so that run in parallel the loop needs no STEP (a host round trip on a GPU).
void CodeGen::beforeStatement(Stmt* next) {
  if (!next || next->kind != StmtKind::While) return;
  auto& w = static_cast<WhileStmt&>(*next);
  if (w.parallel.form == ParallelForm::StepWhile)
    pendingParallel_[&w] = beginParallelLoop(LoopForm::StepWhile, operand(*w.parallel.selector),
                                             operand(*w.parallel.index), w.loc);
}

std::uint32_t CodeGen::endProgram(Program& main) {
  emit(Op::HALT, {}, main.body ? main.body->loc : main.loc);
  finishFunction();
  m_.entry = entry_;
  return entry_;
}

void CodeGen::declareGlobals(Program& p) {
  for (auto& v : p.decls.vars) {
    if (!v.symbol) continue;
    v.symbol->slot = static_cast<std::uint32_t>(m_.globals.size());
    m_.globals.push_back({v.name, slotKindOf(v.symbol->type)});
  }
}

void CodeGen::compileRoutine(Routine& r) {
  fs_ = FnState{};
  fs_.fn = &m_.functions[r.index];
  fs_.routine = &r;
  fs_.fn->native = r.nativeName;
  fs_.fn->nativeId = r.nativeName.empty() ? -1 : findNative(r.nativeName);
  for (auto& p : r.params) {
    SlotKind kind = slotKindOf(p.symbol->type);
    ParamInfo info;
    info.byRef = p.byRef;
    info.kind = (p.byRef && kind == SlotKind::Scalar) ? SlotKind::Ref : kind;
    fs_.fn->params.push_back(info);
    p.symbol->slot = fs_.nextReg++;
  }
  if (r.resultSymbol) {
    SlotKind kind = slotKindOf(r.resultSymbol->type);
    r.resultSymbol->slot = newReg(kind);
    fs_.fn->resultReg = static_cast<std::int32_t>(r.resultSymbol->slot);
    fs_.fn->resultKind = kind;
  }
  for (auto& v : r.decls.vars)
    if (v.symbol) v.symbol->slot = newReg(slotKindOf(v.symbol->type));
  initDecls(r.decls);
  stmt(r.body.get());
  emit(Op::RET, {}, r.body->loc);
  finishFunction();
}

// Sized declarations get their shape when the scope is entered.
void CodeGen::initDecls(DeclList& decls) {
  for (auto& v : decls.vars) {
    if (!v.symbol || !v.spec->size1) continue;
    std::size_t mark = tempMark();
    std::uint32_t target = operand(*v.symbol);
    TypeSpec& spec = *v.spec;
    if (spec.type == Type::Table) {
      std::uint32_t rows = expr(spec.size1.get());
      std::uint32_t cols = expr(spec.size2.get());
      emit(Op::TNEW, {target, rows, cols, 1}, v.loc);
    } else {
      std::uint32_t size;
      if (spec.size1->type == Type::Table) {
        std::uint32_t table = expr(spec.size1.get());
        size = temp(SlotKind::Scalar);
        emit(spec.type == Type::Slice ? Op::TROWS : Op::TCOLS, {size, table}, v.loc);
      } else {
        size = expr(spec.size1.get());
      }
      emit(Op::BNEW, {target, size, 1}, v.loc);
    }
    releaseTemps(mark);
  }
}

void CodeGen::finishFunction() {
  Function& fn = *fs_.fn;
  std::uint32_t argBase = fs_.nextReg;
  for (std::uint32_t at : fs_.argPatches) fn.code[at] = argBase + (fn.code[at] & ~kArgBit);
  fn.numRegs = argBase + fs_.argMax;
}

// ======================================================================= emission, registers

std::uint32_t CodeGen::emit(Op op, std::initializer_list<std::uint32_t> operands, SourceLoc loc) {
  return emitOperands(op, std::span<const std::uint32_t>(operands.begin(), operands.size()), loc);
}

std::uint32_t CodeGen::emitOperands(Op op, std::span<const std::uint32_t> operands,
                                    SourceLoc loc) {
  assert(operands.size() == opInfo(op).shape.size());
  std::uint32_t at = here();
  lastInstr_ = at;
  fs_.fn->code.push_back(static_cast<std::uint32_t>(op));
  fs_.fn->locs.push_back(loc);
  for (std::size_t i = 0; i < operands.size(); ++i) {
    std::uint32_t o = operands[i];
    if (isRegisterShape(opInfo(op).shape[i]) && (o & kArgBit) && !(o & kGlobalBit)) fs_.argPatches.push_back(here());
    fs_.fn->code.push_back(o);
    fs_.fn->locs.push_back(loc);
  }
  return at;
}

void CodeGen::patchJump(std::uint32_t instr, std::uint32_t target) {
  Op op = static_cast<Op>(fs_.fn->code[instr]);
  fs_.fn->code[instr + instrSize(op) - 1] = target;
}

namespace {
// A constant's identity, bit for bit (so -0.0 and 0.0 stay two constants).
std::string constantKey(const Constant& c) {
  std::string key(1 + 8 + 8, '\0');
  key[0] = static_cast<char>(c.tag);
  std::uint64_t real = std::bit_cast<std::uint64_t>(c.realValue);
  std::memcpy(key.data() + 1, &c.intValue, 8);
  std::memcpy(key.data() + 9, &real, 8);
  return key + c.text;
}
}  // namespace

std::uint32_t CodeGen::constant(Constant c) {
  for (; constantsIndexed_ < m_.constants.size(); ++constantsIndexed_)
    constantIndex_.emplace(constantKey(m_.constants[constantsIndexed_]),
                           static_cast<std::uint32_t>(constantsIndexed_));
  auto [it, added] = constantIndex_.emplace(constantKey(c), static_cast<std::uint32_t>(m_.constants.size()));
  if (added) {
    m_.constants.push_back(std::move(c));
    constantsIndexed_ = m_.constants.size();
  }
  return it->second;
}

std::uint32_t CodeGen::newReg(SlotKind kind) {
  std::uint32_t r = fs_.nextReg++;
  if (kind == SlotKind::Bits || kind == SlotKind::Table) fs_.fn->ownedRegs.emplace_back(r, kind);
  return r;
}

namespace {
constexpr std::uint8_t kNotTemp = 0, kTempFree = 1, kTempInUse = 2;
}  // namespace

std::uint32_t CodeGen::temp(SlotKind kind) {
  auto& freeList = fs_.freeTemps[static_cast<std::size_t>(kind)];
  std::uint32_t r;
  if (!freeList.empty()) {
    r = freeList.back();
    freeList.pop_back();
  } else {
    r = newReg(kind);
    if (fs_.tempState.size() <= r) {
      fs_.tempState.resize(r + 1, kNotTemp);
      fs_.tempKind.resize(r + 1, SlotKind::Scalar);
    }
    fs_.tempKind[r] = kind;
    fs_.allTemps.push_back(r);
  }
  fs_.tempState[r] = kTempInUse;
  ++fs_.tempsInUse;
  return r;
}

void CodeGen::releaseTemp(std::uint32_t reg) {
  if (reg >= fs_.tempState.size() || fs_.tempState[reg] != kTempInUse) return;
  fs_.tempState[reg] = kTempFree;
  --fs_.tempsInUse;
  fs_.freeTemps[static_cast<std::size_t>(fs_.tempKind[reg])].push_back(reg);
}

std::size_t CodeGen::tempMark() const { return fs_.tempsInUse; }

// Temporaries still in use are released in bulk at the end of an outermost statement (their
// values are dead then); most are released as soon as their value is consumed (releaseTemp).
void CodeGen::releaseTemps(std::size_t mark) {
  if (mark != 0 || fs_.tempsInUse == 0) return;
  for (std::uint32_t r : fs_.allTemps)
    if (fs_.tempState[r] == kTempInUse) releaseTemp(r);
}

std::uint32_t CodeGen::argReg(std::uint32_t index) { return kArgBit | index; }

std::uint32_t CodeGen::operand(const Symbol& s) const {
  return s.kind == SymbolKind::Global ? (s.slot | kGlobalBit) : s.slot;
}

// ======================================================================= statements

void CodeGen::stmt(Stmt* s) {
  if (!s) return;
  std::size_t mark = tempMark();
  switch (s->kind) {
    case StmtKind::Assign: assign(static_cast<AssignStmt&>(*s)); break;
    case StmtKind::Call: callStmt(static_cast<CallStmt&>(*s)); break;
    case StmtKind::If: {
      auto& i = static_cast<IfStmt&>(*s);
      std::uint32_t c = expr(i.cond.get());
      std::uint32_t jf = emit(Op::JMPF, {c, 0}, i.cond->loc);
      releaseTemps(mark);
      stmt(i.thenS.get());
      if (i.elseS) {
        std::uint32_t j = emit(Op::JMP, {0}, s->loc);
        patchJump(jf, here());
        stmt(i.elseS.get());
        patchJump(j, here());
      } else {
        patchJump(jf, here());
      }
      break;
    }
    case StmtKind::While: {
      // Rotated: the condition sits at the bottom, so an iteration costs one jump.
      auto& w = static_cast<WhileStmt&>(*s);
      std::int64_t parallel = -1;
      if (w.parallel.form == ParallelForm::SomeStep)
        parallel = beginParallelLoop(LoopForm::SomeStep, operand(*w.parallel.selector),
                                     operand(*w.parallel.index), s->loc);
      if (auto pending = pendingParallel_.find(&w); pending != pendingParallel_.end()) {
        parallel = pending->second;
        pendingParallel_.erase(pending);
      }
      std::uint32_t toCond = emit(Op::JMP, {0}, s->loc);
      std::uint32_t top = here();
      fs_.loops.emplace_back();
      if (parallel >= 0) {
        // The body without the STEP that the idiom puts at its end (StepWhile) or start (SomeStep).
        auto& body = static_cast<BlockStmt&>(*w.body).body;
        bool stepFirst = w.parallel.form == ParallelForm::SomeStep;
        if (stepFirst) stmt(body.front().get());
        ParallelLoop& loop = fs_.fn->parallelLoops[static_cast<std::size_t>(parallel)];
        loop.bodyBegin = here();
        for (std::size_t k = stepFirst ? 1 : 0; k + (stepFirst ? 0 : 1) < body.size(); ++k) stmt(body[k].get());
        fs_.fn->parallelLoops[static_cast<std::size_t>(parallel)].bodyEnd = here();
        if (!stepFirst) stmt(body.back().get());
      } else {
        stmt(w.body.get());
      }
      for (auto at : fs_.loops.back().continues) patchJump(at, here());
      patchJump(toCond, here());
      std::uint32_t c = expr(w.cond.get());
      emit(Op::JMPT, {c, top}, w.cond->loc);
      for (auto at : fs_.loops.back().breaks) patchJump(at, here());
      fs_.loops.pop_back();
      if (parallel >= 0) fs_.fn->parallelLoops[static_cast<std::size_t>(parallel)].exit = here();
      break;
    }
    case StmtKind::Forall: forallStmt(static_cast<ForallStmt&>(*s)); break;
    case StmtKind::Repeat: {
      auto& r = static_cast<RepeatStmt&>(*s);
      std::uint32_t top = here();
      fs_.loops.emplace_back();
      for (auto& b : r.body) stmt(b.get());
      for (auto at : fs_.loops.back().continues) patchJump(at, here());
      std::uint32_t c = expr(r.cond.get());
      emit(Op::JMPF, {c, top}, r.cond->loc);
      for (auto at : fs_.loops.back().breaks) patchJump(at, here());
      fs_.loops.pop_back();
      break;
    }
    case StmtKind::For: forStmt(static_cast<ForStmt&>(*s)); break;
    case StmtKind::Block: {
      auto& body = static_cast<BlockStmt&>(*s).body;
      for (std::size_t k = 0; k < body.size(); ++k) {
        beforeStatement(k + 1 < body.size() ? body[k + 1].get() : nullptr);
        stmt(body[k].get());
      }
      break;
    }
    case StmtKind::Break:
      fs_.loops.back().breaks.push_back(emit(Op::JMP, {0}, s->loc));
      break;
    case StmtKind::Continue:
      fs_.loops.back().continues.push_back(emit(Op::JMP, {0}, s->loc));
      break;
    case StmtKind::Exit:
      emit(fs_.routine ? Op::RET : Op::HALT, {}, s->loc);
      break;
  }
  releaseTemps(mark);
}

void CodeGen::forStmt(ForStmt& f) {
  Symbol& var = *f.symbol;
  std::uint32_t from = temp(SlotKind::Scalar);
  scalarInto(f.from.get(), from);
  std::uint32_t limit = temp(SlotKind::Scalar);
  scalarInto(f.to.get(), limit);
  std::uint32_t cond = temp(SlotKind::Scalar);
  // Empty range: skip. The limit is evaluated once (Pascal).
  emit(f.down ? Op::ILT : Op::IGT, {cond, from, limit}, f.loc);
  std::uint32_t skip = emit(Op::JMPT, {cond, 0}, f.loc);
  bool viaRef = var.byRef;
  std::uint32_t counter = viaRef ? temp(SlotKind::Scalar) : operand(var);
  emit(Op::MOVE, {counter, from}, f.loc);
  if (viaRef) emit(Op::STREF, {operand(var), counter}, f.loc);
  std::int64_t parallel = -1;
  if (f.parallel.form == ParallelForm::ForIf && !viaRef) {
    parallel = beginParallelLoop(LoopForm::ForIf, operand(*f.parallel.selector), counter, f.loc);
    fs_.fn->parallelLoops[static_cast<std::size_t>(parallel)].first = from;
    fs_.fn->parallelLoops[static_cast<std::size_t>(parallel)].last = limit;
  }
  std::uint32_t top = here();
  fs_.loops.emplace_back();
  if (parallel >= 0) {
    // `if X(i) = 1 then BODY`: the body is the then-part.
    Stmt* body = f.body.get();
    if (body->kind == StmtKind::Block) body = static_cast<BlockStmt*>(body)->body[0].get();
    auto& cond = static_cast<IfStmt&>(*body);
    std::size_t mark = tempMark();
    std::uint32_t c = expr(cond.cond.get());
    std::uint32_t jf = emit(Op::JMPF, {c, 0}, cond.cond->loc);
    releaseTemps(mark);
    fs_.fn->parallelLoops[static_cast<std::size_t>(parallel)].bodyBegin = here();
    stmt(cond.thenS.get());
    fs_.fn->parallelLoops[static_cast<std::size_t>(parallel)].bodyEnd = here();
    patchJump(jf, here());
  } else {
    stmt(f.body.get());
  }
  for (auto at : fs_.loops.back().continues) patchJump(at, here());
  if (viaRef) emit(Op::LDREF, {counter, operand(var)}, f.loc);
  // Stop at the limit before stepping, so a limit of maxint cannot overflow.
  emit(f.down ? Op::ILE : Op::IGE, {cond, counter, limit}, f.loc);
  std::uint32_t done = emit(Op::JMPT, {cond, 0}, f.loc);
  std::uint32_t one = temp(SlotKind::Scalar);
  emit(Op::LOADI, {one, 1}, f.loc);
  emit(f.down ? Op::ISUB : Op::IADD, {counter, counter, one}, f.loc);
  if (viaRef) emit(Op::STREF, {operand(var), counter}, f.loc);
  emit(Op::JMP, {top}, f.loc);
  patchJump(skip, here());
  patchJump(done, here());
  for (auto at : fs_.loops.back().breaks) patchJump(at, here());
  fs_.loops.pop_back();
  if (parallel >= 0) fs_.fn->parallelLoops[static_cast<std::size_t>(parallel)].exit = here();
}

// forall i in x do BODY, as the sequential loop `S := x; i := STEP(S); while i > 0 do begin BODY;
// i := STEP(S) end` (S hidden) behind a PFOR: i is 0 afterwards.
void CodeGen::forallStmt(ForallStmt& f) {
  std::uint32_t set = temp(SlotKind::Bits);
  std::uint32_t v = expr(f.set.get(), set);
  if (v != set) emit(Op::BCOPY, {set, v}, f.set->loc);
  std::uint32_t index = operand(*f.symbol);
  bool viaRef = f.symbol->byRef;
  std::uint32_t counter = viaRef ? temp(SlotKind::Scalar) : index;
  std::int64_t parallel = viaRef ? -1 : beginParallelLoop(LoopForm::Forall, set, counter, f.loc);
  emit(Op::BSTEP, {counter, set}, f.loc);
  std::uint32_t toCond = emit(Op::JMP, {0}, f.loc);
  std::uint32_t top = here();
  if (viaRef) emit(Op::STREF, {index, counter}, f.loc);
  if (parallel >= 0) fs_.fn->parallelLoops[static_cast<std::size_t>(parallel)].bodyBegin = here();
  stmt(f.body.get());
  if (parallel >= 0) fs_.fn->parallelLoops[static_cast<std::size_t>(parallel)].bodyEnd = here();
  emit(Op::BSTEP, {counter, set}, f.loc);
  patchJump(toCond, here());
  std::uint32_t zero = temp(SlotKind::Scalar), more = temp(SlotKind::Scalar);
  emit(Op::LOADI, {zero, 0}, f.loc);
  emit(Op::IGT, {more, counter, zero}, f.loc);
  emit(Op::JMPT, {more, top}, f.loc);
  if (viaRef) emit(Op::STREF, {index, counter}, f.loc);
  if (parallel >= 0) fs_.fn->parallelLoops[static_cast<std::size_t>(parallel)].exit = here();
}

// A PFOR naming a new parallel loop of the function; the caller fills in its code ranges.
std::int64_t CodeGen::beginParallelLoop(LoopForm form, std::uint32_t selector, std::uint32_t index,
                                        SourceLoc loc) {
  auto at = static_cast<std::uint32_t>(fs_.fn->parallelLoops.size());
  ParallelLoop l;
  l.form = form;
  l.selector = selector;
  l.index = index;
  fs_.fn->parallelLoops.push_back(l);
  emit(Op::PFOR, {at}, loc);
  return at;
}

void CodeGen::writeVariable(Symbol& sym, Expr* value, SourceLoc loc) {
  std::uint32_t target = operand(sym);
  SlotKind kind = slotKindOf(sym.type);
  if (kind == SlotKind::Scalar) {
    if (sym.byRef) {
      std::uint32_t v = sym.type == Type::Real && value->type == Type::Integer
                            ? toReal(value)
                            : expr(value);
      emit(Op::STREF, {target, v}, loc);
      return;
    }
    if (sym.type == Type::Real && value->type == Type::Integer) {
      emit(Op::ITOF, {target, expr(value)}, loc);
      return;
    }
    scalarInto(value, target);
    return;
  }
  // Vectors: compute straight into the variable; the VM checks fixed sizes before writing. When
  // the writing instruction only moves a value (a constant, a copy), its one possible error is
  // that size check, so it is located at the assignment.
  std::uint32_t before = here();
  std::uint32_t r = expr(value, target);
  if (r != target) {
    emit(kind == SlotKind::Table ? Op::TCOPY : Op::BCOPY, {target, r}, loc);
  } else if (here() > before && lastInstr_ >= before && isPlainMove(fs_.fn->code[lastInstr_])) {
    for (std::uint32_t pc = lastInstr_; pc < here(); ++pc) fs_.fn->locs[pc] = loc;
  }
}

void CodeGen::assign(AssignStmt& s) {
  Expr* t = s.target.get();
  if (t->kind == ExprKind::Name) {
    writeVariable(*static_cast<NameExpr*>(t)->symbol, s.value.get(), s.loc);
    return;
  }
  auto& c = static_cast<CallExpr&>(*t);
  if (c.target == CallTarget::Component) {
    std::uint32_t vec = operand(*c.symbol);
    std::uint32_t index = expr(c.args[0].get());
    std::uint32_t bit = expr(s.value.get());
    emit(Op::BSET, {vec, index, bit}, s.loc);
    return;
  }
  // COL(i, T) := V  /  ROW(i, T) := w
  auto b = static_cast<Builtin>(c.builtin);
  std::uint32_t index = expr(c.args[0].get());
  std::uint32_t table = operand(*static_cast<NameExpr*>(c.args[1].get())->symbol);
  std::uint32_t value = expr(s.value.get());
  emit(b == Builtin::Col ? Op::TSETCOL : Op::TSETROW, {table, index, value}, s.loc);
}

void CodeGen::callStmt(CallStmt& s) {
  Expr* e = s.call.get();
  if (e->kind == ExprKind::Name) {
    auto& n = static_cast<NameExpr&>(*e);
    if (n.routine) {
      callRoutine(*n.routine, nullptr, s.loc, -1);
    } else if (n.builtin == static_cast<int>(Builtin::Writeln)) {
      emit(Op::WRITELN, {}, s.loc);
    }
    return;
  }
  auto& c = static_cast<CallExpr&>(*e);
  if (c.target == CallTarget::Routine) callRoutine(*c.routine, &c.args, s.loc, -1);
  else builtin(c, -1);
}

// ======================================================================= expressions

std::uint32_t CodeGen::resultReg(Type t, std::int64_t dst) {
  return dst >= 0 ? static_cast<std::uint32_t>(dst) : temp(slotKindOf(t));
}

// Evaluates a scalar expression into dst exactly.
std::uint32_t CodeGen::scalarInto(Expr* e, std::int64_t dst) {
  std::uint32_t r = expr(e, dst);
  if (dst >= 0 && r != static_cast<std::uint32_t>(dst))
    emit(Op::MOVE, {static_cast<std::uint32_t>(dst), r}, e->loc);
  return static_cast<std::uint32_t>(dst >= 0 ? dst : r);
}

std::uint32_t CodeGen::toReal(Expr* e) {
  std::uint32_t r = expr(e);
  if (e->type != Type::Integer) return r;
  std::uint32_t out = temp(SlotKind::Scalar);
  emit(Op::ITOF, {out, r}, e->loc);
  releaseTemp(r);
  return out;
}

std::uint32_t CodeGen::literalConstant(const Symbol& s, SourceLoc loc, std::int64_t dst) {
  std::uint32_t out = resultReg(s.type, dst);
  Constant k;
  switch (s.type) {
    case Type::Integer:
    case Type::Boolean:
      if (s.intValue >= std::numeric_limits<std::int32_t>::min() &&
          s.intValue <= std::numeric_limits<std::int32_t>::max()) {
        emit(Op::LOADI, {out, static_cast<std::uint32_t>(static_cast<std::int32_t>(s.intValue))}, loc);
        return out;
      }
      k.tag = ValueTag::Integer;
      k.intValue = s.intValue;
      break;
    case Type::Real:
      k.tag = ValueTag::Real;
      k.realValue = s.realValue;
      break;
    case Type::String:
      k.tag = ValueTag::String;
      k.text = s.stringValue;
      break;
    case Type::Word:
      k.tag = ValueTag::Bits;
      k.text = s.stringValue;
      emit(Op::BCONST, {out, constant(std::move(k))}, loc);
      return out;
    default:
      break;
  }
  emit(Op::LOADK, {out, constant(std::move(k))}, loc);
  return out;
}

std::uint32_t CodeGen::expr(Expr* e, std::int64_t dst) {
  Symbol lit;
  lit.type = e->type;
  switch (e->kind) {
    case ExprKind::IntLit:
      lit.intValue = static_cast<IntLit*>(e)->value;
      return literalConstant(lit, e->loc, dst);
    case ExprKind::BoolLit:
      lit.intValue = static_cast<BoolLit*>(e)->value;
      return literalConstant(lit, e->loc, dst);
    case ExprKind::RealLit:
      lit.realValue = static_cast<RealLit*>(e)->value;
      return literalConstant(lit, e->loc, dst);
    case ExprKind::StringLit:
      lit.stringValue = static_cast<StringLit*>(e)->value;
      return literalConstant(lit, e->loc, dst);
    case ExprKind::BitsLit:
      lit.stringValue = static_cast<BitsLit*>(e)->bits;
      return literalConstant(lit, e->loc, dst);
    case ExprKind::Name: return name(static_cast<NameExpr&>(*e), dst);
    case ExprKind::Call: {
      auto& c = static_cast<CallExpr&>(*e);
      if (c.target == CallTarget::Routine) return callRoutine(*c.routine, &c.args, e->loc, dst);
      if (c.target == CallTarget::Component) {
        std::uint32_t vec = c.symbol->kind == SymbolKind::Const
                                ? literalConstant(*c.symbol, e->loc, -1)
                                : operand(*c.symbol);
        std::uint32_t index = expr(c.args[0].get());
        std::uint32_t out = resultReg(Type::Integer, dst);
        emit(Op::BGET, {out, vec, index}, e->loc);
        releaseTemp(vec);
        releaseTemp(index);
        return out;
      }
      return builtin(c, dst);
    }
    case ExprKind::Unary: return unary(static_cast<UnaryExpr&>(*e), dst);
    case ExprKind::Binary: return binary(static_cast<BinaryExpr&>(*e), dst);
  }
  return 0;
}

std::uint32_t CodeGen::name(NameExpr& e, std::int64_t dst) {
  if (e.routine) return callRoutine(*e.routine, nullptr, e.loc, dst);
  if (e.builtin == static_cast<int>(Builtin::ParamCount)) {
    std::uint32_t out = resultReg(Type::Integer, dst);
    emit(Op::PCOUNT, {out}, e.loc);
    return out;
  }
  Symbol& s = *e.symbol;
  if (s.kind == SymbolKind::Const) return literalConstant(s, e.loc, dst);
  if (s.byRef && slotKindOf(s.type) == SlotKind::Scalar) {
    std::uint32_t out = resultReg(s.type, dst);
    emit(Op::LDREF, {out, operand(s)}, e.loc);
    return out;
  }
  return operand(s);  // the caller copies when it needs the value elsewhere
}

std::uint32_t CodeGen::unary(UnaryExpr& e, std::int64_t dst) {
  if (e.op == UnaryOp::Plus) return expr(e.operand.get(), dst);
  std::uint32_t a = expr(e.operand.get());
  std::uint32_t out = resultReg(e.type, dst);
  Op op = Op::NOT;
  if (e.op == UnaryOp::Not) op = isBits(e.type) ? Op::BNOT : Op::NOT;
  else op = e.type == Type::Real ? Op::FNEG : Op::INEG;
  emit(op, {out, a}, e.loc);
  releaseTemp(a);
  return out;
}

std::uint32_t CodeGen::binary(BinaryExpr& e, std::int64_t dst) {
  Type lt = e.lhs->type, rt = e.rhs->type;
  bool real = lt == Type::Real || rt == Type::Real || e.op == BinaryOp::RealDiv;
  bool numeric = (lt == Type::Integer || lt == Type::Real) && (rt == Type::Integer || rt == Type::Real);
  std::uint32_t a, b;
  if (numeric && real) {
    a = toReal(e.lhs.get());
    b = toReal(e.rhs.get());
  } else {
    a = expr(e.lhs.get());
    b = expr(e.rhs.get());
  }
  std::uint32_t out = resultReg(e.type, dst);
  Op op = Op::IADD;
  auto pick = [&](Op i, Op f) { return real ? f : i; };
  switch (e.op) {
    case BinaryOp::Add: op = pick(Op::IADD, Op::FADD); break;
    case BinaryOp::Sub: op = pick(Op::ISUB, Op::FSUB); break;
    case BinaryOp::Mul: op = pick(Op::IMUL, Op::FMUL); break;
    case BinaryOp::RealDiv: op = Op::FDIV; break;
    case BinaryOp::Div: op = Op::IDIV; break;
    case BinaryOp::Mod: op = Op::IMOD; break;
    case BinaryOp::And: op = isBits(lt) ? Op::BAND : Op::AND; break;
    case BinaryOp::Or: op = isBits(lt) ? Op::BOR : Op::OR; break;
    case BinaryOp::Xor: op = isBits(lt) ? Op::BXOR : Op::XOR; break;
    case BinaryOp::Eq:
      op = lt == Type::Table ? Op::TEQ : isBits(lt) ? Op::WEQ : lt == Type::String ? Op::SEQ : pick(Op::IEQ, Op::FEQ);
      break;
    case BinaryOp::Ne:
      op = lt == Type::Table ? Op::TEQ : isBits(lt) ? Op::WNE : lt == Type::String ? Op::SNE : pick(Op::INE, Op::FNE);
      break;
    case BinaryOp::Lt: op = pick(Op::ILT, Op::FLT); break;
    case BinaryOp::Le: op = pick(Op::ILE, Op::FLE); break;
    case BinaryOp::Gt: op = pick(Op::IGT, Op::FGT); break;
    case BinaryOp::Ge: op = pick(Op::IGE, Op::FGE); break;
  }
  emit(op, {out, a, b}, e.loc);
  if (lt == Type::Table && e.op == BinaryOp::Ne) emit(Op::NOT, {out, out}, e.loc);
  releaseTemp(a);
  releaseTemp(b);
  return out;
}

std::uint32_t CodeGen::callRoutine(Routine& r, std::vector<ExprPtr>* args, SourceLoc loc,
                                   std::int64_t dst) {
  std::uint32_t n = static_cast<std::uint32_t>(r.params.size());
  std::uint32_t base = fs_.argTop;
  // Evaluate every argument first: nested calls use the area above this call's block.
  std::vector<std::uint32_t> values(n);
  fs_.argTop += n;
  // At least one slot, so that the CALL's base (and a procedure's unused result operand) name a
  // real register even for a call without arguments.
  fs_.argMax = std::max(fs_.argMax, base + std::max<std::uint32_t>(n, 1));
  for (std::uint32_t i = 0; i < n; ++i) {
    Param& p = r.params[i];
    Expr* a = (*args)[i].get();
    if (p.byRef) {
      Symbol& s = *static_cast<NameExpr*>(a)->symbol;
      s.used = true;
      bool scalar = slotKindOf(s.type) == SlotKind::Scalar;
      if (scalar && !s.byRef) {
        emit(Op::MKREF, {argReg(base + i), operand(s)}, a->loc);
        values[i] = ~0u;
        continue;
      }
      values[i] = operand(s);  // a reference or a handle: passed as it is
    } else if (p.spec->type == Type::Real && a->type == Type::Integer) {
      values[i] = toReal(a);
    } else {
      values[i] = expr(a);
    }
  }
  for (std::uint32_t i = 0; i < n; ++i)
    if (values[i] != ~0u) {
      emit(Op::MOVE, {argReg(base + i), values[i]}, loc);
      releaseTemp(values[i]);
    }
  std::uint32_t out = r.isFunc ? resultReg(r.result->type, dst) : argReg(base);
  emit(Op::CALL, {r.index, argReg(base), out}, loc);
  fs_.argTop = base;
  return out;
}

std::uint32_t CodeGen::builtin(CallExpr& e, std::int64_t dst) {
  auto b = static_cast<Builtin>(e.builtin);
  const BuiltinInfo& info = builtinInfo(b);
  if (info.opcode == Op::Count_) return irregularBuiltin(e, dst);
  // One instruction: the result register (functions), then the arguments in order.
  std::vector<std::uint32_t> operands;
  for (std::size_t i = 0; i < e.args.size(); ++i) {
    const BuiltinParam& p = info.params[std::min(i, info.params.size() - 1)];
    Expr* a = e.args[i].get();
    if (p.byRef) operands.push_back(operand(*static_cast<NameExpr*>(a)->symbol));
    else if (p.kind == ParamKind::Real) operands.push_back(toReal(a));
    else operands.push_back(expr(a));
  }
  std::uint32_t r = 0;
  if (!info.isProcedure()) {
    r = resultReg(e.type, dst);
    operands.insert(operands.begin(), r);
  }
  emitOperands(info.opcode, operands, e.loc);
  for (std::size_t i = info.isProcedure() ? 0 : 1; i < operands.size(); ++i) releaseTemp(operands[i]);
  return r;
}

// The builtins that are not one instruction with their arguments as operands.
std::uint32_t CodeGen::irregularBuiltin(CallExpr& e, std::int64_t dst) {
  auto b = static_cast<Builtin>(e.builtin);
  auto arg = [&](int i) { return e.args[i].get(); };
  auto out = [&]() { return resultReg(e.type, dst); };
  auto varOperand = [&](int i) { return operand(*static_cast<NameExpr*>(arg(i))->symbol); };
  SourceLoc loc = e.loc;
  switch (b) {
    case Builtin::Set:
    case Builtin::Clr:
      emit(Op::BFILL, {varOperand(0), b == Builtin::Set ? 1u : 0u}, loc);
      return 0;
    case Builtin::Zero: {
      std::uint32_t v = expr(arg(0));
      std::uint32_t r = out();
      emit(Op::BSOME, {r, v}, loc);
      emit(Op::NOT, {r, r}, loc);
      return r;
    }
    case Builtin::Convert: {
      // Slices and words share one representation: CONVERT is a copy with a new type.
      std::uint32_t v = expr(arg(0), dst);
      if (dst >= 0 && v != static_cast<std::uint32_t>(dst)) {
        emit(Op::BCOPY, {static_cast<std::uint32_t>(dst), v}, loc);
        return static_cast<std::uint32_t>(dst);
      }
      return v;
    }
    case Builtin::Trim: {
      std::uint32_t i = expr(arg(0)), j = expr(arg(1)), w = expr(arg(2));
      // TRIM's result may not share storage with w: use a temporary when dst is w.
      std::uint32_t r = dst >= 0 && static_cast<std::uint32_t>(dst) != w ? static_cast<std::uint32_t>(dst)
                                                                          : temp(SlotKind::Bits);
      emit(Op::WTRIM, {r, i, j, w}, loc);
      return r;
    }
    case Builtin::Rep: {
      std::uint32_t i = expr(arg(0)), j = expr(arg(1)), v = expr(arg(2));
      std::uint32_t w = varOperand(3);
      if (v == w) {  // REP(i, j, w, w): copy first, REP may not read what it writes
        std::uint32_t t = temp(SlotKind::Bits);
        emit(Op::BCOPY, {t, v}, loc);
        v = t;
      }
      emit(Op::WREP, {i, j, v, w}, loc);
      return 0;
    }
    case Builtin::Abs: {
      std::uint32_t x = expr(arg(0));
      std::uint32_t r = out();
      emit(e.type == Type::Real ? Op::FABS : Op::IABS, {r, x}, loc);
      return r;
    }
    case Builtin::Trunc:
    case Builtin::Round: {
      // An integer argument is already whole: no round trip through a double (it has 53 bits).
      if (arg(0)->type == Type::Integer) return expr(arg(0), dst);
      std::uint32_t x = expr(arg(0));
      std::uint32_t r = out();
      emit(b == Builtin::Trunc ? Op::FTRUNC : Op::FROUND, {r, x}, loc);
      return r;
    }
    case Builtin::Col:
    case Builtin::Row: {
      std::uint32_t i = expr(arg(0)), t = expr(arg(1));
      std::uint32_t r = out();
      emit(b == Builtin::Col ? Op::TGETCOL : Op::TGETROW, {r, t, i}, loc);
      return r;
    }
    case Builtin::LoadEdges: {
      std::uint32_t path = expr(arg(1));
      std::uint32_t vbits = temp(SlotKind::Scalar), wbits = temp(SlotKind::Scalar);
      emit(Op::TLOADE, {varOperand(0), path, vbits, wbits}, loc);
      for (int k = 2; k <= 3; ++k) {
        Symbol& s = *static_cast<NameExpr*>(arg(k))->symbol;
        emit(s.byRef ? Op::STREF : Op::MOVE, {operand(s), k == 2 ? vbits : wbits}, loc);
      }
      return 0;
    }
    case Builtin::SavePng: {
      // One instruction per kind of value: a table, or a slice (a column) or word (a row).
      std::uint32_t x = expr(arg(0)), path = expr(arg(1));
      if (arg(0)->type == Type::Table)
        emit(Op::TSAVEP, {x, path}, loc);
      else
        emit(Op::BSAVEP, {x, path, arg(0)->type == Type::Word ? 1u : 0u}, loc);
      releaseTemp(x);
      releaseTemp(path);
      return 0;
    }
    case Builtin::Write:
    case Builtin::Writeln:
      for (auto& a : e.args) {
        std::size_t mark = tempMark();
        std::uint32_t v = expr(a.get());
        emit(Op::WRITE, {v, static_cast<std::uint32_t>(valueTagOf(a->type))}, a->loc);
        if (mark == 0) releaseTemps(0);
      }
      if (b == Builtin::Writeln) emit(Op::WRITELN, {}, loc);
      return 0;
    default:
      break;
  }
  assert(!"a builtin without an opcode needs a case in irregularBuiltin");
  return 0;
}

}  // namespace star
