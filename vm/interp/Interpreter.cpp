#include "vm/interp/Interpreter.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <ostream>

#include "core/FileText.h"
#include "core/HostFloat.h"
#include "core/MemoryLimit.h"
#include "vm/bytecode/Decode.h"
#include "vm/interp/FaultText.h"
#include "vm/interp/InterpreterFault.h"
#include "vm/natives/NativeCall.h"
#include "vm/semantics/ScalarOps.h"
#include "vm/interp/StringPool.h"
#include "vm/io/BitBlocks.h"
#include "vm/io/GraphFiles.h"
#include "vm/io/NumericText.h"
#include "vm/io/PngFile.h"
#include "vm/io/TableText.h"

namespace star {

Interpreter::Interpreter(Backend& backend, std::ostream& out) : backend_(backend), out_(out) {
  stack_.reserve(1024);
}

Interpreter::~Interpreter() {
  try {
    releaseGlobals();
    for (auto& [h, kind] : owned_) backend_.destroy(h);
    for (Handle h : freeBits_) backend_.destroy(h);
    if (scratch_bits_ != kNoHandle) backend_.destroy(scratch_bits_);
    for (Handle h : freeTables_) backend_.destroy(h);
  } catch (...) {
    // A failing device at exit has nothing left to report to.
  }
}

void Interpreter::releaseGlobals() {
  for (std::size_t g = 0; g < globals_.size(); ++g)
    if (globalKinds_[g] == SlotKind::Bits || globalKinds_[g] == SlotKind::Table) {
      backend_.destroy(static_cast<Handle>(globals_[g].u));
      globals_[g].u = 0;
    }
  globals_.clear();
  globalKinds_.clear();
}

Handle Interpreter::acquire(SlotKind kind) {
  auto& pool = kind == SlotKind::Table ? freeTables_ : freeBits_;
  Handle h;
  if (!pool.empty()) {
    h = pool.back();
    pool.pop_back();
    if (kind == SlotKind::Table) backend_.resizeTable(h, 0, 0);
    else backend_.resizeBits(h, 0);
  } else {
    h = kind == SlotKind::Table ? backend_.createTable() : backend_.createBits();
  }
  if (h >= fixed_.size()) fixed_.resize(h + 1, 0);
  fixed_[h] = 0;
  return h;
}

Handle Interpreter::scratchBits() {
  if (scratch_bits_ == kNoHandle) scratch_bits_ = acquire(SlotKind::Bits);
  return scratch_bits_;
}

void Interpreter::release(Handle h, SlotKind kind) {
  fixed_[h] = 0;
  (kind == SlotKind::Table ? freeTables_ : freeBits_).push_back(h);
}

// ---------------------------------------------------------------- references (var parameters)

// A reference names a global slot (top bit set) or an absolute stack index.
constexpr std::uint64_t kRefGlobal = 1ull << 63;

std::uint64_t Interpreter::makeRef(std::uint32_t operand) {
  if (operand & kGlobalBit) return kRefGlobal | (operand & ~kGlobalBit);
  return base_ + operand;
}

Interpreter::Value& Interpreter::deref(std::uint64_t ref) {
  if (ref & kRefGlobal) {
    if ((ref & ~kRefGlobal) >= globals_.size()) throw Fault("invalid reference");
    return globals_[ref & ~kRefGlobal];
  }
  if (ref >= stack_.size()) throw Fault("invalid reference");
  return stack_[ref];
}

void Interpreter::indexStrings(const Module& m) {
  argStrings_.clear();
  for (auto& a : args_) argStrings_.push_back(internString(a));
  constStrings_.assign(m.constants.size(), 0);
  for (std::size_t k = 0; k < m.constants.size(); ++k)
    if (m.constants[k].tag == ValueTag::String) constStrings_[k] = internString(m.constants[k].text);
}

const std::string& Interpreter::text(Value v) {
  try {
    return pooledString(v.u);
  } catch (const std::out_of_range&) {
    throw Fault("invalid string value");
  }
}

// ---------------------------------------------------------------- frames

void Interpreter::pushFrame(const Module& m, std::uint32_t fnIndex, std::size_t argBase,
                            std::uint32_t resultDst) {
  if (frames_.size() >= kMaxFrames)
    throw Fault("stack overflow: more than " + str(kMaxFrames) + " nested calls");
  const Function& fn = m.functions[fnIndex];
  std::size_t base = stack_.size();
  // Frames live on a host stack of Values: its size counts against the memory limit.
  if ((base + fn.numRegs) * sizeof(Value) > memoryLimit() / 2)
    throw Fault("stack overflow: the call stack would need more than half the memory limit (" +
                describeBytes(memoryLimit()) + ")");
  stack_.resize(base + fn.numRegs, Value{0});
  std::size_t ownedBegin = owned_.size();
  for (std::size_t i = 0; i < fn.params.size(); ++i) {
    const ParamInfo& p = fn.params[i];
    Value arg = stack_[argBase + i];
    if (!p.byRef && (p.kind == SlotKind::Bits || p.kind == SlotKind::Table)) {
      Handle h = acquire(p.kind);
      owned_.push_back({h, static_cast<std::uint32_t>(p.kind)});
      if (p.kind == SlotKind::Bits) backend_.copyBits(h, static_cast<Handle>(arg.u));
      else backend_.copyTable(h, static_cast<Handle>(arg.u));
      stack_[base + i].u = h;
    } else {
      stack_[base + i] = arg;
    }
  }
  for (auto& [r, kind] : fn.ownedRegs) {
    Handle h = acquire(kind);
    owned_.push_back({h, static_cast<std::uint32_t>(kind)});
    stack_[base + r].u = h;
  }
  frames_.push_back({fnIndex, 0, resultDst, 0, base, ownedBegin});
  base_ = base;
}

void Interpreter::popFrame(const Module&) {
  Frame& f = frames_.back();
  for (std::size_t i = f.ownedBegin; i < owned_.size(); ++i) release(owned_[i].handle, static_cast<SlotKind>(owned_[i].kind));
  owned_.resize(f.ownedBegin);
  stack_.resize(f.base);
  frames_.pop_back();
  base_ = frames_.empty() ? 0 : frames_.back().base;
}

void Interpreter::traceCallers(const Module& m, std::size_t depth, RuntimeError& e) const {
  // Every frame below the failing one stopped at a CALL; its saved pc is just after it.
  for (std::size_t k = depth > 0 ? depth - 1 : 0; k-- > 0;) {
    const Frame& f = frames_[k];
    const Function& fn = m.functions[f.function];
    std::uint32_t callPc = f.pc - instrSize(Op::CALL);
    SourceLoc loc = callPc < fn.locs.size() ? fn.locs[callPc] : SourceLoc{};
    if (!e.callers.empty()) {
      const SourceLoc& last = e.callers.back().loc;
      if (last.file == loc.file && last.line == loc.line && last.col == loc.col) {
        ++e.callers.back().times;  // recursion: one line, not thousands
        continue;
      }
    }
    if (e.callers.size() == RuntimeError::kMaxCallers) {
      e.moreCallers = k + 1;
      break;
    }
    e.callers.push_back({loc, 1});
  }
}

// The declaration is found from the code, not recorded when it runs: the operand of the failing
// instruction that holds h is a variable's register (a global slot, or a register of this
// function), and the variable's sized declaration is the one BNEW or TNEW that fixes a shape in
// it (CodeGen::initDecls, located at the declared name). Nothing is found for a var parameter
// (its register holds the caller's variable) or a module without such an instruction.
void Interpreter::noteSizedDeclaration(const Module& m, const Function& fn, std::uint32_t pc, Handle h,
                                       RuntimeError& e) {
  Instr failing;
  if (decodeAt(fn.code, pc, failing) != DecodeStatus::Ok) return;
  const OpInfo& info = opInfo(failing.op);
  std::int64_t operand = -1;
  for (std::size_t k = 0; k < info.shape.size() && operand < 0; ++k)
    if ((info.shape[k] == 'b' || info.shape[k] == 'T') && info.access[k] != '-' &&
        reg(failing.operands[k]).u == h)
      operand = failing.operands[k];
  if (operand < 0) return;
  const bool global = (operand & kGlobalBit) != 0;
  const Function* where = nullptr;
  Instr decl;
  auto search = [&](const Function& f) {
    for (const Instr& in : instructions(f.code)) {
      const bool fixes = (in.op == Op::BNEW && in.operands[2] == 1) || (in.op == Op::TNEW && in.operands[3] == 1);
      if (fixes && in.operands[0] == static_cast<std::uint32_t>(operand)) {
        if (where) return false;  // two declarations: say nothing rather than guess
        where = &f;
        decl = in;
      }
    }
    return true;
  };
  if (global) {
    for (const Function& f : m.functions)
      if (!search(f)) return;
  } else if (!search(fn)) {
    return;
  }
  if (!where || decl.pc >= where->locs.size()) return;
  // What computed the size: the last instruction before the declaration that wrote its operand.
  // A constant (`slice(8)`, `table(4, 4)`) explains nothing the message does not say already.
  auto writer = [&](std::uint32_t r) {
    Instr last;
    last.op = Op::Count_;
    for (const Instr& in : instructions(where->code, 0, decl.pc))
      if (!opInfo(in.op).shape.empty() && opInfo(in.op).access[0] == 'w' && in.operands[0] == r) last = in;
    return last;
  };
  auto constant = [](const Instr& in) { return in.op == Op::LOADI || in.op == Op::LOADK; };
  const Instr size = writer(decl.operands[1]);
  if (constant(size) && (decl.op == Op::BNEW || constant(writer(decl.operands[2])))) return;
  auto nameOf = [&](std::uint32_t r) -> std::string {
    if (!(r & kGlobalBit) || (r & ~kGlobalBit) >= m.globals.size()) return "";
    return m.globals[r & ~kGlobalBit].name;
  };
  const std::string name = nameOf(decl.operands[0]);
  const std::string var = name.empty() ? std::string("the variable") : "'" + name + "'";
  // slice(T) and word(T) take their length from T's rows or columns.
  const bool fromTable = decl.op == Op::BNEW && (size.op == Op::TROWS || size.op == Op::TCOLS);
  const bool rows = size.op == Op::TROWS;
  const std::string table = fromTable ? nameOf(size.operands[1]) : "";
  const std::string shape = decl.op == Op::BNEW ? str(backend_.length(h)) + " bits"
                                                : str(backend_.rows(h)) + " x " + str(backend_.cols(h));
  if (fromTable)
    e.notes.push_back({where->locs[decl.pc], var + " was sized at its declaration, when " +
                                                 (table.empty() ? std::string("its table") : table) + " had " +
                                                 str(backend_.length(h)) + (rows ? " rows" : " columns") +
                                                 "; a sized variable keeps its size"});
  else
    e.notes.push_back({where->locs[decl.pc], var + " was sized at its declaration, to " + shape +
                                                 "; a sized variable keeps its size"});
  // Sized while its table was still 0 x 0 (or its size 0 for another reason): the trap of a
  // global declared before LOAD. Say how to avoid it.
  const bool empty = decl.op == Op::BNEW ? backend_.length(h) == 0 : backend_.rows(h) == 0 || backend_.cols(h) == 0;
  if (!empty) return;
  const std::string it = name.empty() ? std::string("it") : name;
  std::string how;
  if (fromTable)
    how = "declare " + it + " where " + (table.empty() ? std::string("the table") : table) + " already has its " +
          (rows ? "rows" : "columns") + " (e.g. in a procedure called after LOAD), or without a size ('" +
          (name.empty() ? "" : name + ": ") + (rows ? "slice" : "word") + "'): it then takes the size of what is stored";
  else
    how = "declare " + it + " where its size is known (e.g. in a procedure), or without a size: it then " +
          "takes the size of what is stored";
  e.notes.push_back({SourceLoc{}, how});
}

// ---------------------------------------------------------------- checks

std::uint64_t Interpreter::index(std::int64_t i, std::uint64_t limit, const char* what) {
  if (!sem::inRange(i, limit)) throw Fault(indexMessage(what, i, limit));
  return static_cast<std::uint64_t>(i - 1);
}

void Interpreter::requireSameLength(Handle a, Handle b, const char* op) {
  std::uint64_t la = backend_.length(a), lb = backend_.length(b);
  if (la != lb)
    throw Fault(std::string("size mismatch: ") + op + " of " + str(la) + " bits and " + str(lb) +
                " bits");
}

void Interpreter::requireBitsFit(Handle dst, std::uint64_t length) {
  if (fixed_[dst] && backend_.length(dst) != length)
    throw StoreFault("size mismatch: cannot store " + str(length) + " bits in a variable of " +
                         str(backend_.length(dst)) + " bits",
                     dst);
}

void Interpreter::requireTableFits(Handle dst, std::uint64_t rows, std::uint64_t cols) {
  if (fixed_[dst] && (backend_.rows(dst) != rows || backend_.cols(dst) != cols))
    throw StoreFault("size mismatch: cannot store a " + str(rows) + " x " + str(cols) +
                         " table in a variable of " + str(backend_.rows(dst)) + " x " +
                         str(backend_.cols(dst)),
                     dst);
}

void Interpreter::reshapeBits(Handle dst, std::uint64_t length) {
  requireBitsFit(dst, length);
  if (backend_.length(dst) != length) backend_.resizeBits(dst, length);
}

void Interpreter::bitsFromConstant(Handle dst, const std::string& bits) {
  requireBitsFit(dst, bits.size());
  scratch_.assign(wordsForBits(bits.size()), 0);
  for (std::size_t i = 0; i < bits.size(); ++i)
    if (bits[i] == '1') scratch_[i / 64] |= 1ull << (i % 64);
  backend_.writeBits(dst, bits.size(), scratch_.data());
}

// ---------------------------------------------------------------- output

void Interpreter::writeBitsValue(Handle h) {
  std::uint64_t n = backend_.length(h);
  backend_.readBits(h, scratch_);
  std::string s(n, '0');
  for (std::uint64_t i = 0; i < n; ++i)
    if ((scratch_[i / 64] >> (i % 64)) & 1) s[i] = '1';
  out_ << s;
}

void Interpreter::writeTableValue(Handle h) {
  std::uint64_t rows = backend_.rows(h), cols = backend_.cols(h);
  backend_.readTable(h, scratch_);
  std::uint64_t stride = wordsForBits(rows);
  std::string line(cols, '0');
  for (std::uint64_t i = 0; i < rows; ++i) {
    // A long listing stops at Ctrl-C and at the first failed write, not after the last row.
    if (i % 4096 == 4095) {
      throwIfInterrupted();
      requireOutput();
    }
    for (std::uint64_t j = 0; j < cols; ++j)
      line[j] = ((scratch_[j * stride + i / 64] >> (i % 64)) & 1) ? '1' : '0';
    if (i) out_ << '\n';
    out_ << line;
  }
}

namespace {
// errno as the failed write left it (0: no reason known).
std::string outputErrorText(int reason) {
  return std::string("cannot write the output") + (reason ? std::string(": ") + std::strerror(reason) : "");
}
}  // namespace

// Output that cannot be written is an error of the statement that wrote it (the stream fails
// when its buffer is flushed: a full disk, an I/O error), never a silent loss.
void Interpreter::requireOutput() {
  if (!out_) throw Fault(outputErrorText(errno));
}

void Interpreter::writeValue(ValueTag tag, Value v) {
  switch (tag) {
    case ValueTag::Integer: out_ << v.i; break;
    case ValueTag::Boolean: out_ << (v.i ? "true" : "false"); break;
    case ValueTag::String: out_ << text(v); break;
    case ValueTag::Real: {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.15g", v.f);
      std::string s = buf;
      if (std::isfinite(v.f) && s.find_first_of(".en") == std::string::npos) s += ".0";
      out_ << s;
      break;
    }
    case ValueTag::Bits: writeBitsValue(static_cast<Handle>(v.u)); break;
    case ValueTag::Table: writeTableValue(static_cast<Handle>(v.u)); break;
  }
}

void Interpreter::loadTable(Handle t, const std::string& path) {
  TableData data = readTableFile(path);  // throws TableFileError with file:line
  requireTableFits(t, data.rows, data.cols);
  backend_.writeTable(t, data.rows, data.cols, data.words.data());
}

void Interpreter::saveTable(Handle t, const std::string& path) {
  TableData data;
  data.rows = backend_.rows(t);
  data.cols = backend_.cols(t);
  backend_.readTable(t, data.words);
  writeTableFile(path, data);
}

// ---------------------------------------------------------------- statistics

void ExecutionStats::print(std::ostream& out, const std::string& backendName,
                           const std::string& device) const {
  char line[160];
  out << "--- star statistics (backend " << backendName << ", " << device << ")\n";
  std::snprintf(line, sizeof line, "%-10s %14s %14s %12s\n", "opcode", "count", "total us",
                "us/op");
  out << line;
  std::uint64_t totalCount = 0, totalNanos = 0;
  for (std::uint32_t op = 0; op < kOpCount; ++op) {
    if (!count[op]) continue;
    totalCount += count[op];
    totalNanos += nanos[op];
    std::snprintf(line, sizeof line, "%-10s %14llu %14.1f %12.3f\n",
                  std::string(kOpInfo[op].name).c_str(),
                  static_cast<unsigned long long>(count[op]), nanos[op] / 1e3,
                  nanos[op] / 1e3 / static_cast<double>(count[op]));
    out << line;
  }
  std::snprintf(line, sizeof line, "%-10s %14llu %14.1f\n", "total",
                static_cast<unsigned long long>(totalCount), totalNanos / 1e3);
  out << line;
}

// ---------------------------------------------------------------- the loop

// The interrupt flag is checked before every instruction (execute's loop); here, the budget.
void Interpreter::poll() {
  if (budgetLeft_ && --budgetLeft_ == 0)
    throw Fault("the run used up its budget of " + str(budget_) + " loop iterations and calls");
}

void Interpreter::allocateGlobals(const Module& m) {
  for (std::size_t g = globals_.size(); g < m.globals.size(); ++g) {
    SlotKind kind = m.globals[g].kind;
    Value s{0};
    if (kind == SlotKind::Bits || kind == SlotKind::Table) s.u = acquire(kind);
    globals_.push_back(s);
    globalKinds_.push_back(kind);
  }
}

void Interpreter::truncateGlobals(std::size_t count) {
  for (std::size_t g = count; g < globals_.size(); ++g)
    if (globalKinds_[g] == SlotKind::Bits || globalKinds_[g] == SlotKind::Table)
      release(static_cast<Handle>(globals_[g].u), globalKinds_[g]);
  if (count < globals_.size()) {
    globals_.resize(count);
    globalKinds_.resize(count);
  }
}

void Interpreter::run(const Module& m, std::uint32_t entry) {
  // A different module (not the REPL's growing one) starts from fresh globals.
  if (lastModule_ && lastModule_ != &m) releaseGlobals();
  // What is derived from the module's code (the proofs about its parallel loops, the device
  // engine's copy of the program) is made afresh for every run: between two runs the module may
  // have changed at the same address (the REPL grows it or rolls it back, a caller assigns
  // another program to the same Module object), which neither the address nor the sizes tell
  // apart; during a run it cannot change.
  parallelBodies_.clear();
  engineModule_ = nullptr;
  lastModule_ = &m;
  entry_ = entry;
  // Globals added since the last run (the REPL grows the module) get their storage now.
  allocateGlobals(m);
  indexStrings(m);
  gInterruptRequested = false;
  budgetLeft_ = budget_ ? budget_ + 1 : 0;
  try {
    try {
      pushFrame(m, entry, 0, 0);
    } catch (const std::exception& e) {
      const Function& f = m.functions[entry];
      throw RuntimeError(f.locs.empty() ? SourceLoc{} : f.locs[0], e.what());
    }
    execute(m);
  } catch (...) {
    while (!frames_.empty()) popFrame(m);
    throw;
  }
  while (!frames_.empty()) popFrame(m);
  const bool failedBefore = !out_;  // then the write that failed has been reported
  errno = 0;
  out_.flush();
  // The last flush failed: the output lost is that of the statements that wrote last.
  if (!failedBefore && !out_) throw RuntimeError(lastOutput_, outputErrorText(errno));
}

void Interpreter::execute(const Module& m) {
  const Function* fn = &m.functions[frames_.back().function];
  const std::uint32_t* code = fn->code.data();
  std::uint32_t pc = 0;
  std::uint32_t instrPc = 0;
  auto now = [] { return std::chrono::steady_clock::now(); };
  auto started = now();
  std::uint32_t lastOp = kOpCount;

  bool hostNext = false;  // the device engine stopped here: this instruction is the host's
  try {
    for (;;) {
      instrPc = pc;
      // Ctrl-C, before every instruction: a loop's back-edge, a hand-over to the device engine
      // (a loop that writes comes back at every iteration), and after a long primitive (a LOAD,
      // a SORT, a SAVEPNG) that may be the program's last.
      if (gInterruptRequested.load(std::memory_order_relaxed)) throw Fault("interrupted");
      if (engine_ && !hostNext && deviceRuns(static_cast<Op>(code[pc]))) {
        runOnDevice(m, fn, code, pc);
        instrPc = pc;  // where the engine stopped
        hostNext = true;
        continue;
      }
      hostNext = false;
      const Op op = static_cast<Op>(code[pc]);
      const std::uint32_t* a = code + pc + 1;
      pc += instrSize(op);
      if (statsOn_) {
        auto t = now();
        if (lastOp < kOpCount)
          stats_.nanos[lastOp] += static_cast<std::uint64_t>(
              std::chrono::duration_cast<std::chrono::nanoseconds>(t - started).count());
        started = t;
        lastOp = static_cast<std::uint32_t>(op);
        ++stats_.count[lastOp];
      }
      auto I = [&](int k) { return reg(a[k]).i; };
      switch (op) {
        // ---- scalars
        case Op::LOADI: reg(a[0]).i = static_cast<std::int32_t>(a[1]); break;
        case Op::LOADK: {
          const Constant& k = m.constants[a[1]];
          Value& d = reg(a[0]);
          if (k.tag == ValueTag::Real) d.f = k.realValue;
          else if (k.tag == ValueTag::String) d.u = constStrings_[a[1]];
          else d.i = k.intValue;
          break;
        }
        case Op::MOVE: reg(a[0]) = reg(a[1]); break;
        // The scalar operations (vm/semantics/ScalarOps.h): one case each, from Opcodes.def.
#define STAR_SCALAR_CASE(name)                                                                   \
  case Op::name: {                                                                               \
    const std::uint64_t x = reg(a[1]).u, y = operandCount(Op::name) > 2 ? reg(a[2]).u : 0;       \
    std::uint64_t r;                                                                             \
    const FaultKind fault = scalarOp<Op::name>(x, y, r);                                         \
    if (fault != FaultKind::None) [[unlikely]]                                                   \
      throw Fault(scalarFaultMessage(Op::name, fault, x));                                       \
    reg(a[0]).u = r;                                                                             \
    break;                                                                                       \
  }
#define STAR_HOST_MATH_CASE(name) STAR_SCALAR_CASE(name)
#include "vm/semantics/ScalarCases.inc"
        case Op::SEQ:
        case Op::SNE: {
          bool eq = text(reg(a[1])) == text(reg(a[2]));
          reg(a[0]).i = op == Op::SEQ ? eq : !eq;
          break;
        }

        // ---- control
        // Loops end in a backward jump: that is where an interrupt (Ctrl-C) is noticed.
        case Op::JMP:
          if (a[0] <= instrPc) poll();
          pc = a[0];
          break;
        case Op::JMPF:
          if (!I(0)) {
            if (a[1] <= instrPc) poll();
            pc = a[1];
          }
          break;
        case Op::JMPT:
          if (I(0)) {
            if (a[1] <= instrPc) poll();
            pc = a[1];
          }
          break;
        case Op::CALL: {
          poll();
          frames_.back().pc = pc;
          std::size_t argBase = base_ + a[1];
          const Function& callee = m.functions[a[0]];
          if (nativesOn_ && callee.nativeId >= 0) {
            std::array<std::uint64_t, kMaxNativeParams> raw{};
            for (std::size_t i = 0; i < callee.params.size(); ++i) raw[i] = stack_[argBase + i].u;
            if (runNative(static_cast<NativeId>(callee.nativeId), backend_, raw.data(), fixed_)) {
              ++nativeCalls_;
              break;
            }
          }
          pushFrame(m, a[0], argBase, a[2]);
          fn = &m.functions[a[0]];
          code = fn->code.data();
          pc = 0;
          break;
        }
        case Op::RET: {
          if (frames_.size() == 1) {  // returning from the entry function ends the program
            backend_.synchronize();
            return;
          }
          Frame done = frames_.back();
          const Function& callee = *fn;
          Value result{0};
          if (callee.resultReg >= 0) result = stack_[done.base + static_cast<std::uint32_t>(callee.resultReg)];
          // Hand the result to the caller's register before the callee's storage goes back.
          Frame& caller = frames_[frames_.size() - 2];
          std::size_t savedBase = base_;
          base_ = caller.base;
          if (callee.resultReg >= 0) {
            Value& dst = reg(done.resultDst);
            if (callee.resultKind == SlotKind::Bits) {
              Handle d = static_cast<Handle>(dst.u), s = static_cast<Handle>(result.u);
              if (fixed_[d] && backend_.length(d) != backend_.length(s)) {
                const Function& callerFn = m.functions[caller.function];
                std::uint32_t callPc = caller.pc - instrSize(Op::CALL);
                RuntimeError e(callPc < callerFn.locs.size() ? callerFn.locs[callPc] : SourceLoc{},
                               "size mismatch: the function returns " + str(backend_.length(s)) +
                                   " bits for a variable of " + str(backend_.length(d)) + " bits");
                traceCallers(m, frames_.size() - 1, e);  // the caller is the failing routine
                throw e;
              }
              backend_.copyBits(d, s);
            } else {
              dst = result;
            }
          }
          base_ = savedBase;
          popFrame(m);
          fn = &m.functions[frames_.back().function];
          code = fn->code.data();
          pc = frames_.back().pc;
          break;
        }
        case Op::MKREF: reg(a[0]).u = makeRef(a[1]); break;
        case Op::LDREF: reg(a[0]) = deref(reg(a[1]).u); break;
        case Op::STREF: deref(reg(a[0]).u) = reg(a[1]); break;
        case Op::HALT:
          if (statsOn_ && lastOp < kOpCount)
            stats_.nanos[lastOp] += static_cast<std::uint64_t>(
                std::chrono::duration_cast<std::chrono::nanoseconds>(now() - started).count());
          backend_.synchronize();
          return;

        // ---- output and environment
        case Op::WRITE:
          errno = 0;  // a failing write leaves its own reason (a full disk, an I/O error)
          writeValue(static_cast<ValueTag>(a[1]), reg(a[0]));
          requireOutput();
          lastOutput_ = fn->locs.empty() ? SourceLoc{} : fn->locs[instrPc];
          break;
        case Op::WRITELN:
          errno = 0;
          out_ << '\n';
          requireOutput();
          lastOutput_ = fn->locs.empty() ? SourceLoc{} : fn->locs[instrPc];
          break;
        case Op::PCOUNT: reg(a[0]).i = static_cast<std::int64_t>(args_.size()); break;
        case Op::PSTR: {
          std::int64_t i = I(1);
          if (i < 0 || static_cast<std::uint64_t>(i) > args_.size())
            throw Fault("ParamStr(" + std::to_string(i) + "): there " +
                        (args_.size() == 1 ? "is 1 program argument"
                                           : "are " + str(args_.size()) + " program arguments"));
          // ParamStr(0) (in Pascal, the program's name) is '' here.
          reg(a[0]).u = i == 0 ? 0 : argStrings_[static_cast<std::size_t>(i - 1)];
          break;
        }
        case Op::STOI: {
          const std::string& digits = text(reg(a[1]));
          std::int64_t v = 0;
          auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
          if (ec != std::errc() || end != digits.data() + digits.size() || digits.empty())
            throw Fault("StrToInt: '" + digits.substr(0, 40) + "' is not an integer");
          reg(a[0]).i = v;
          break;
        }

        case Op::STOF: {
          const std::string& s = text(reg(a[1]));
          double x = 0;
          RealParse r = parseDouble(s, x);
          if (r == RealParse::NotANumber) throw Fault("StrToReal: '" + s.substr(0, 40) + "' is not a number");
          if (r == RealParse::OutOfRange)
            throw Fault("StrToReal: '" + s.substr(0, 40) + "' is out of the range of real");
          reg(a[0]).f = x;
          break;
        }
        case Op::SLEN: reg(a[0]).i = static_cast<std::int64_t>(text(reg(a[1])).size()); break;
        case Op::SCHAR: {
          const std::string& s = text(reg(a[1]));
          const std::int64_t i = I(2);
          if (i < 1 || static_cast<std::uint64_t>(i) > s.size())
            throw Fault("CharAt: index " + std::to_string(i) + " is out of range " +
                        (s.empty() ? std::string("(the string is empty)") : "1.." + str(s.size())));
          reg(a[0]).u = internString(s.substr(static_cast<std::size_t>(i - 1), 1));
          break;
        }

        // ---- slices, words, tables and their files: InterpreterBits.cpp, InterpreterTables.cpp
        default:
          if (!bitsOp(m, op, a) && !tableOp(op, a)) throw Fault("invalid opcode");
          break;
        // ---- parallel loops: the sequential code follows; a parallel run jumps past it
        case Op::PFOR:
          if (parallelLoopsOn_ && runParallel(m, *fn, a[0], instrPc)) pc = fn->parallelLoops[a[0]].exit;
          break;
        // ---- errors
        case Op::RAISE:
          throw Fault(text(reg(a[0])));  // ERROR(msg): the message is msg itself
        case Op::Count_:
          throw Fault("invalid opcode");
      }
    }
  } catch (const RuntimeError&) {
    throw;
  } catch (const std::bad_alloc&) {
    out_.flush();
    RuntimeError error(fn->locs.empty() ? SourceLoc{} : fn->locs[instrPc],
                       "out of memory (the system could not allocate more)");
    traceCallers(m, frames_.size(), error);
    throw error;
  } catch (const std::exception& e) {
    // Fault, BackendError (out of memory, device faults), TableFileError: locate it.
    out_.flush();
    RuntimeError error(fn->locs.empty() ? SourceLoc{} : fn->locs[instrPc], e.what());
    traceCallers(m, frames_.size(), error);
    if (auto* store = dynamic_cast<const StoreFault*>(&e)) noteSizedDeclaration(m, *fn, instrPc, store->handle, error);
    throw error;
  }
}

}  // namespace star
