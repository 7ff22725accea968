#include "cli/repl/ReplSession.h"

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <set>

#include "cli/BackendChoice.h"
#include "cli/InterruptSignal.h"
#include "cli/RuntimeErrorText.h"
#include "cli/repl/TerminalWidth.h"
#include "cli/repl/ValuePrinter.h"
#include "frontend/ast/AstWalk.h"
#include "frontend/codegen/CodeGen.h"
#include "frontend/driver/Compilation.h"
#include "frontend/parse/Parser.h"
#include "frontend/sema/Builtins.h"
#include "vm/bytecode/Disassembler.h"

namespace star::repl {
namespace {

constexpr const char* kHiddenPrefix = "__value_";

bool isHidden(const std::string& name) {
  return name.rfind(kHiddenPrefix, 0) == 0;
}

// The global variables an input may read or change: those it names, directly or in the bodies
// of the routines it calls (transitively). Only their slices, words and tables are copied before
// the input runs, so that a large table the input does not touch costs nothing.
class GlobalUses : public AstWalk {
 public:
  explicit GlobalUses(std::size_t globals) : touched_(globals, false) {}
  const std::vector<bool>& touched() const { return touched_; }

  void program(const Program& p) {
    decls(p.decls);
    stmt(p.body.get());
  }

 private:
  void mark(const Symbol* s) {
    if (s && s->kind == SymbolKind::Global && s->slot < touched_.size()) touched_[s->slot] = true;
  }
  void routine(const Routine* r) {
    if (!r || !seen_.insert(r).second) return;
    decls(r->decls);
    stmt(r->body.get());
  }
  void decls(const DeclList& d) {
    for (auto& c : d.consts) expr(c.value.get());
    for (auto& spec : d.specs) {
      expr(spec->size1.get());
      expr(spec->size2.get());
    }
  }
  void loopVariable(SourceLoc, const std::string&, const Symbol* s) override { mark(s); }
  void name(const NameExpr& n) override {
    mark(n.symbol);
    routine(n.routine);
  }
  void call(const CallExpr& c) override {
    mark(c.symbol);
    routine(c.routine);
  }

  std::vector<bool> touched_;
  std::set<const Routine*> seen_;
};

std::string paramText(const Routine& r) {
  if (r.params.empty()) return "";
  std::string s = "(";
  for (std::size_t i = 0; i < r.params.size(); ++i) {
    if (i) s += "; ";
    const Param& p = r.params[i];
    s += (p.byRef ? "var " : "") + p.name + ": " + typeName(p.spec->type);
  }
  return s + ")";
}

std::string constantText(const Symbol& s) {
  switch (s.type) {
    case Type::Integer:
      return std::to_string(s.intValue);
    case Type::Boolean:
      return s.intValue ? "true" : "false";
    case Type::String:
      return "'" + s.stringValue + "'";
    case Type::Real: {
      Interpreter::Value v;
      v.f = s.realValue;
      return scalarText(Type::Real, v);
    }
    case Type::Word:
    case Type::Slice:
      return "%" + s.stringValue;
    default:
      return "?";
  }
}

}  // namespace

// ======================================================================= output

TrackingBuf::int_type TrackingBuf::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  last_ = traits_type::to_char_type(c);
  return target_->sputc(last_);
}

std::streamsize TrackingBuf::xsputn(const char* s, std::streamsize n) {
  if (n > 0) last_ = s[n - 1];
  return target_->sputn(s, n);
}

std::ostream& ReplSession::out() {
  return vmOut_;
}

void ReplSession::printColoured(const std::string& text) {
  vmOut_.flush();
  if (!options_.colour) {
    err_ << text;
    err_.flush();
    return;
  }
  // Colour the severity of each `file:line:col: error: message` line.
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(begin, end - begin);
    static const std::pair<const char*, const char*> kinds[] = {{": runtime error: ", "\033[1;31m"},
                                                                {": error: ", "\033[1;31m"},
                                                                {": warning: ", "\033[1;35m"},
                                                                {": note: ", "\033[1;36m"}};
    for (auto& [kind, colour] : kinds) {
      std::size_t at = line.find(kind);
      if (at == std::string::npos) continue;
      std::string word(kind + 2, std::char_traits<char>::length(kind) - 4);
      line = "\033[1m" + line.substr(0, at + 1) + "\033[0m " + colour + word + ":\033[0m " +
             line.substr(at + std::char_traits<char>::length(kind));
      break;
    }
    if (line.rfind("error: ", 0) == 0) line = "\033[1;31merror:\033[0m " + line.substr(7);
    if (line.rfind("note: ", 0) == 0) line = "\033[1;36mnote:\033[0m " + line.substr(6);
    err_ << line;
    if (end < text.size()) err_ << '\n';
    begin = end + 1;
  }
  err_.flush();
}

void ReplSession::error(const std::string& message) {
  printColoured("error: " + message + "\n");
}

void ReplSession::note(const std::string& message) {
  vmOut_.flush();
  err_ << message << "\n";
  err_.flush();
}

void ReplSession::flushDiagnostics() {
  std::string text = diagBuffer_.str();
  discardDiagnostics();
  if (!text.empty()) printColoured(text);
}

void ReplSession::discardDiagnostics() {
  diagBuffer_.str("");
  diagBuffer_.clear();
  diags_.resetCounts();
}

// ======================================================================= lifetime

ReplSession::ReplSession(SessionOptions options, std::ostream& out, std::ostream& err)
    : options_(std::move(options)),
      out_(out),
      err_(err),
      trackBuf_(out.rdbuf()),
      vmOut_(&trackBuf_),
      diags_(sources_, diagBuffer_),
      unitLoader_(sources_, diags_, options_.modulePath),
      stats_(options_.stats) {
  unitLoader_.onFileAdded = [this] { syncFiles(); };
  Checker::Options opts;
  opts.allowRedefinition = true;
  opts.warnUnused = false;
  checker_ = std::make_unique<Checker>(diags_, opts);
}

ReplSession::~ReplSession() {
  try {
    releaseSpares();
    vm_.reset();  // before the backend it uses
    backend_.reset();
  } catch (...) {
    // a failing device at exit has nothing left to report to
  }
}

bool ReplSession::start(std::string* error) {
  backend_ = chooseBackend(options_.backend, error, options_.devices);
  if (!backend_) return false;
  newInterpreter();
  return true;
}

void ReplSession::newInterpreter() {
  vm_ = std::make_unique<Interpreter>(*backend_, vmOut_);
  configure(*vm_);
}

void ReplSession::configure(Interpreter& vm) const {
  vm.enableStats(stats_);
  vm.enableNatives(options_.natives);
  vm.enableParallelLoops(options_.parallelLoops);
  chooseEngine(vm, options_.engine, true);
}

void ReplSession::switchEngine(const std::string& requested) {
  options_.engine = requested;
  if (vm_) chooseEngine(*vm_, requested, true);
}

std::string ReplSession::engineName() const {
  if (!vm_ || !vm_->deviceEngineOn()) return "host";
  const char* kind = !vm_->compiledEngineOn() ? "device (" : options_.engine == "tiered" ? "tiered (" : "compiled (";
  return kind + backendName() + ")";
}

void ReplSession::setStats(bool on) {
  stats_ = on;
  if (vm_) vm_->enableStats(on);
}

void ReplSession::reset() {
  releaseSpares();
  vm_.reset();
  newInterpreter();
  Checker::Options opts;
  opts.allowRedefinition = true;
  opts.warnUnused = false;
  checker_ = std::make_unique<Checker>(diags_, opts);
  programs_.clear();
  unitLoader_.loadedNames().clear();
  module_ = Module{};
  syncFiles();
  lastEntry_ = -1;
}

std::uint32_t ReplSession::addSource(const std::string& path, std::string text) {
  std::uint32_t file = sources_.add(path, std::move(text));
  syncFiles();
  return file;
}

// The module names the same files as the session's SourceManager (for listings).
void ReplSession::syncFiles() {
  while (module_.files.size() < sources_.size())
    module_.files.push_back(sources_.path(static_cast<std::uint32_t>(module_.files.size())));
}

// ======================================================================= rollback

ReplSession::Mark ReplSession::mark() const {
  Mark m;
  m.functions = module_.functions.size();
  m.globals = module_.globals.size();
  m.constants = module_.constants.size();
  m.units = unitLoader_.loadedNames().size();
  m.programs = programs_.size();
  m.scope = checker_->snapshot();
  return m;
}

// Copies the globals' values: every scalar, and the slices, words and tables the input may touch
// (into spare backend storage, kept from input to input).
void ReplSession::saveValues(Mark& m, const std::vector<bool>& touched) {
  auto& globals = vm_->globals();
  std::size_t n = std::min({globals.size(), m.globals, touched.size()});
  m.values.assign(globals.begin(), globals.begin() + static_cast<std::ptrdiff_t>(n));
  m.copied.clear();
  if (spares_.size() < n) spares_.resize(n, {kNoHandle, SlotKind::Scalar});
  try {
    for (std::size_t g = 0; g < n; ++g) {
      SlotKind kind = module_.globals[g].kind;
      if (kind != SlotKind::Bits && kind != SlotKind::Table) continue;
      if (!touched[g] || isHidden(module_.globals[g].name)) continue;
      auto& [spare, spareKind] = spares_[g];
      if (spare == kNoHandle || spareKind != kind) {
        if (spare != kNoHandle) backend_->destroy(spare);
        spare = kNoHandle;
        spare = kind == SlotKind::Bits ? backend_->createBits() : backend_->createTable();
        spareKind = kind;
      }
      Handle h = static_cast<Handle>(globals[g].u);
      if (kind == SlotKind::Bits)
        backend_->copyBits(spare, h);
      else
        backend_->copyTable(spare, h);
      m.copied.push_back(g);
    }
  } catch (const std::exception& e) {
    note(std::string("warning: cannot save the values this input may change (") + e.what() +
         "); if it fails, its changes stay");
    m.valuesSaved = false;
    return;
  }
  m.valuesSaved = true;
}

void ReplSession::releaseSpares() {
  if (backend_)
    for (auto& [h, kind] : spares_)
      if (h != kNoHandle) backend_->destroy(h);
  spares_.clear();
}

void ReplSession::rollback(Mark& m, bool restoreValues) {
  checker_->restore(std::move(m.scope));
  module_.functions.resize(m.functions);
  module_.globals.resize(m.globals);
  module_.constants.resize(m.constants);
  unitLoader_.loadedNames().resize(m.units);
  if (programs_.size() > m.programs) programs_.resize(m.programs);
  if (lastEntry_ >= static_cast<std::int64_t>(m.functions)) lastEntry_ = -1;
  if (!vm_) return;
  vm_->truncateGlobals(m.globals);
  if (!restoreValues || !m.valuesSaved) return;
  auto& globals = vm_->globals();
  try {
    for (std::size_t g = 0; g < m.values.size() && g < globals.size(); ++g) {
      SlotKind kind = module_.globals[g].kind;
      if (kind == SlotKind::Scalar || kind == SlotKind::Ref) globals[g] = m.values[g];
    }
    for (std::size_t g : m.copied) {
      Handle h = static_cast<Handle>(globals[g].u);
      if (module_.globals[g].kind == SlotKind::Bits)
        backend_->copyBits(h, spares_[g].first);
      else
        backend_->copyTable(h, spares_[g].first);
    }
  } catch (const std::exception& e) {
    error(std::string("cannot restore the session's values: ") + e.what());
  }
}

// ======================================================================= inputs

void ReplSession::finishInput() {
  if (!trackBuf_.atLineStart()) vmOut_ << '\n';
  vmOut_.flush();
}

bool ReplSession::producesValue(const Expr& e) const {
  std::string name;
  if (e.kind == ExprKind::Name)
    name = static_cast<const NameExpr&>(e).name;
  else if (e.kind == ExprKind::Call)
    name = static_cast<const CallExpr&>(e).name;
  else
    return true;
  if (checker_->findGlobal(name)) return true;
  if (const Routine* r = checker_->findRoutine(name)) return r->isFunc;
  int b = findBuiltin(name);
  if (b >= 0) return !isStatementLikeBuiltin(static_cast<Builtin>(b));
  return false;  // an unknown name: the statement's message says so
}

void ReplSession::evaluate(const std::string& text) {
  auto started = std::chrono::steady_clock::now();
  discardDiagnostics();
  std::string body = text;  // without the final newline: an error at the end points after it
  while (!body.empty() && (body.back() == '\n' || body.back() == '\r')) body.pop_back();
  std::uint32_t file = addSource("<input>", std::move(body));
  bool didSomething = true;
  SyntaxErrors asExpression;
  if (!tryExpression(file, &asExpression)) {
    auto program = parseSource(sources_, file, ParseMode::ReplInput, diags_);
    if (!program) {
      // Neither declarations and statements nor an expression: the reading that got further
      // explains the mistake better (`x +` is an unfinished expression, not a bad statement).
      SourceLoc a = asExpression.at, b = diags_.firstErrorLoc();
      if (!asExpression.text.empty() && (a.line > b.line || (a.line == b.line && a.col > b.col))) {
        discardDiagnostics();
        printColoured(asExpression.text);
      } else {
        flushDiagnostics();
      }
    } else if (program->decls.consts.empty() && program->decls.vars.empty() &&
               program->routines.empty() && (!program->body || program->body->body.empty())) {
      didSomething = false;  // only comments and semicolons
    } else {
      Mark m = mark();
      if (!checker_->checkProgram(*program)) {
        rollback(m, false);
        flushDiagnostics();
      } else {
        flushDiagnostics();  // warnings
        execute({}, std::move(program), m, nullptr, Type::Void);
      }
    }
  }
  if (timing_ && didSomething) reportTime(started);
}

void ReplSession::reportTime(std::chrono::steady_clock::time_point started) {
  double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  char buf[64];
  std::snprintf(buf, sizeof buf, "time: %.3f ms", ms);
  note(buf);
}

// A bare expression: its value is printed. False when the input is not one (or is a procedure
// call, which runs as a statement).
bool ReplSession::tryExpression(std::uint32_t file, SyntaxErrors* syntax) {
  std::ostringstream quiet;
  Diagnostics quietDiags(sources_, quiet);
  auto parsed = parseSource(sources_, file, ParseMode::ReplExpr, quietDiags);
  if (!parsed) {
    syntax->text = quiet.str();
    syntax->at = quietDiags.firstErrorLoc();
    return false;
  }
  if (!producesValue(*parsed->value)) return false;
  Type type = checker_->checkExpression(parsed->value.get());
  if (diags_.errorCount() > 0 || type == Type::Error) {
    flushDiagnostics();
    return true;
  }
  if (type == Type::Void) {
    discardDiagnostics();
    return false;
  }
  Expr* e = parsed->value.get();
  if (e->kind == ExprKind::Name) {
    // A variable is shown where it lives.
    const Symbol* sym = static_cast<NameExpr*>(e)->symbol;
    if (sym && sym->kind == SymbolKind::Global && sym->slot < vm_->globals().size()) {
      flushDiagnostics();
      try {
        present(sym->type, vm_->globals()[sym->slot]);
      } catch (const std::exception& ex) {
        error(ex.what());
      }
      finishInput();
      return true;
    }
  }
  discardDiagnostics();  // the real check below reports any warnings again

  // `__value_<type> := expr` in a program of its own; the hidden variable is declared once.
  auto fresh = parseSource(sources_, file, ParseMode::ReplExpr, quietDiags);
  SourceLoc loc = fresh->value->loc;
  auto program = std::make_unique<Program>();
  program->name = "repl";
  program->loc = loc;
  std::string hidden = std::string(kHiddenPrefix) + typeName(type);
  if (!checker_->findGlobal(hidden)) {
    auto spec = std::make_unique<TypeSpec>();
    spec->type = type;
    spec->loc = loc;
    VarDecl v;
    v.name = hidden;
    v.loc = loc;
    v.spec = spec.get();
    program->decls.specs.push_back(std::move(spec));
    program->decls.vars.push_back(std::move(v));
  }
  program->body = std::make_unique<BlockStmt>(loc);
  program->body->body.push_back(std::make_unique<AssignStmt>(
      loc, std::make_unique<NameExpr>(loc, hidden), std::move(fresh->value)));
  Mark m = mark();
  if (!checker_->checkProgram(*program)) {
    rollback(m, false);
    flushDiagnostics();
    return true;
  }
  flushDiagnostics();
  const Symbol* target = checker_->findGlobal(hidden);
  execute({}, std::move(program), m, target, type);
  return true;
}

void ReplSession::execute(std::vector<std::unique_ptr<Program>> units,
                          std::unique_ptr<Program> program, Mark& m, const Symbol* valueOf,
                          Type valueType) {
  CodeGen gen(module_);
  std::vector<Program*> unitPtrs;
  for (auto& u : units) unitPtrs.push_back(u.get());
  std::uint32_t entry = gen.compile(unitPtrs, *program);
  GlobalUses uses(m.globals);
  for (auto& u : units) uses.program(*u);
  uses.program(*program);
  saveValues(m, uses.touched());
  for (auto& u : units) programs_.push_back(std::move(u));
  programs_.push_back(std::move(program));

  ExecutionStats before = vm_->stats();
  std::uint64_t nativesBefore = vm_->nativeCalls();
  Interpreter::ParallelStats parallelBefore = vm_->parallelStats();
  EngineStats engineBefore = vm_->engineStats();
  bool failed = false;
  {
    // Ctrl-C while an input runs stops it (RuntimeError "interrupted") instead of ending the REPL.
    InterruptCatcher guard(InterruptCatcher::Second::Interrupts);
    try {
      vm_->run(module_, entry);
      if (valueOf) present(valueType, vm_->globals()[valueOf->slot]);
    } catch (const RuntimeError& e) {
      failed = true;
      finishInput();
      if (options_.interactive && std::string(e.what()) == "interrupted") vmOut_ << '\n';
      printColoured(formatRuntimeError(sources_, e));
    } catch (const std::exception& e) {
      failed = true;
      finishInput();
      error(e.what());
    }
  }
  gInterruptRequested = false;
  if (failed) {
    rollback(m, true);
  } else {
    lastEntry_ = entry;
  }
  finishInput();
  if (stats_) {
    ExecutionStats diff = vm_->stats();
    for (std::size_t op = 0; op < diff.count.size(); ++op) {
      diff.count[op] -= before.count[op];
      diff.nanos[op] -= before.nanos[op];
    }
    vmOut_.flush();
    diff.print(err_, backend_->name(), backend_->device());
    err_ << "native procedure calls: " << vm_->nativeCalls() - nativesBefore << "\n";
    const Interpreter::ParallelStats& ps = vm_->parallelStats();
    err_ << "parallel loops: " << ps.parallel - parallelBefore.parallel << " run in parallel ("
         << ps.iterations - parallelBefore.iterations << " iterations), "
         << ps.sequential - parallelBefore.sequential << " sequentially\n";
    if (vm_->deviceEngineOn()) vm_->engineStats().since(engineBefore).print(err_);
    err_.flush();
  }
}

// ======================================================================= :load

void ReplSession::load(const std::string& path) {
  auto started = std::chrono::steady_clock::now();
  discardDiagnostics();
  Mark m = mark();
  std::int64_t file = loadSourceFile(path, sources_, diags_, {});
  syncFiles();
  std::unique_ptr<Program> program;
  std::vector<std::unique_ptr<Program>> units;
  bool ok = file >= 0;
  if (ok) {
    auto f = static_cast<std::uint32_t>(file);
    program = parseSource(sources_, f, fileParseMode(sources_.text(f)), diags_);
    ok = program != nullptr;
  }
  if (ok) {
    ok = unitLoader_.load(*program, units);
  }
  if (ok) {
    for (auto& u : units) ok &= checker_->checkUnit(*u);
    ok &= checker_->checkProgram(*program);
  }
  if (!ok) {
    rollback(m, false);
    flushDiagnostics();
  } else {
    flushDiagnostics();
    execute(std::move(units), std::move(program), m, nullptr, Type::Void);
  }
  if (timing_) reportTime(started);
}

// ======================================================================= inspection

void ReplSession::disassemble(const std::string& name) {
  std::uint32_t index;
  if (name.empty()) {
    if (lastEntry_ < 0) {
      error("nothing to disassemble yet (:dis NAME shows a procedure or function)");
      return;
    }
    index = static_cast<std::uint32_t>(lastEntry_);
  } else if (const Routine* r = checker_->findRoutine(name)) {
    index = r->index;
  } else {
    error("no procedure or function named '" + name + "'");
    return;
  }
  disassembleFunction(module_, index, vmOut_, [&](std::uint32_t file, std::uint32_t line) {
    return file < sources_.size() ? sources_.line(file, line) : std::string();
  });
  finishInput();
}

void ReplSession::showType(const std::string& exprText) {
  discardDiagnostics();
  std::uint32_t file = addSource("<input>", exprText);
  auto parsed = parseSource(sources_, file, ParseMode::ReplExpr, diags_);
  if (!parsed) {
    flushDiagnostics();
    return;
  }
  Type t = checker_->checkExpression(parsed->value.get());
  flushDiagnostics();
  if (t == Type::Error) return;
  if (t == Type::Void)
    vmOut_ << "no value (a procedure call)\n";
  else
    vmOut_ << typeText(t, parsed->value->shape) << "\n";
  finishInput();
}

void ReplSession::present(Type type, Interpreter::Value value) {
  if (picture_)
    drawValue(vmOut_, *backend_, type, value, terminalColumns());
  else
    printValue(vmOut_, *backend_, type, value);
}

void ReplSession::showPicture(const std::string& exprText) {
  discardDiagnostics();
  std::uint32_t file = addSource("<input>", exprText);
  auto parsed = parseSource(sources_, file, ParseMode::ReplExpr, diags_);
  if (!parsed) {
    flushDiagnostics();
    return;
  }
  Type t = checker_->checkExpression(parsed->value.get());
  if (t == Type::Error) {
    flushDiagnostics();
    return;
  }
  discardDiagnostics();
  if (!isVector(t)) {
    error(":show draws a slice, a word or a table, not " +
          (t == Type::Void ? std::string("a procedure call") : std::string(typeName(t))));
    return;
  }
  // The expression runs as a bare expression does; its value is drawn instead of printed.
  struct Picture {
    bool& flag;
    explicit Picture(bool& f) : flag(f) { flag = true; }
    ~Picture() { flag = false; }
  } picture(picture_);
  SyntaxErrors unused;
  tryExpression(file, &unused);
}

void ReplSession::showVars() {
  bool any = false;
  try {
    for (const Symbol* s : checker_->globals()) {
      if (isHidden(s->name)) continue;
      any = true;
      if (s->kind == SymbolKind::Const) {
        vmOut_ << "const " << s->name << ": " << typeText(s->type, s->shape) << " = "
               << constantText(*s) << "\n";
        continue;
      }
      vmOut_ << "var " << s->name << ": " << typeText(s->type, s->shape);
      if (s->slot < vm_->globals().size())
        vmOut_ << " = " << valueSummary(*backend_, s->type, vm_->globals()[s->slot]);
      vmOut_ << "\n";
    }
    for (const Routine* r : checker_->routines()) {
      any = true;
      vmOut_ << (r->isFunc ? "func " : "proc ") << r->name << paramText(*r);
      if (r->isFunc && r->result) vmOut_ << ": " << typeName(r->result->type);
      vmOut_ << "\n";
    }
  } catch (const std::exception& e) {
    error(e.what());
  }
  if (!any) vmOut_ << "(nothing declared)\n";
  finishInput();
}

std::vector<std::string> ReplSession::namesInScope() const {
  std::vector<std::string> names;
  for (const Symbol* s : checker_->globals())
    if (!isHidden(s->name)) names.push_back(s->name);
  for (const Routine* r : checker_->routines()) names.push_back(r->name);
  return names;
}

// ======================================================================= :backend

void ReplSession::switchBackend(const std::string& kind) {
  std::string why;
  auto next = chooseBackend(kind, &why, options_.devices);
  if (!next) {
    error(why);
    return;
  }
  auto vm = std::make_unique<Interpreter>(*next, vmOut_);
  configure(*vm);
  try {
    vm->allocateGlobals(module_);
    auto& from = vm_->globals();
    auto& to = vm->globals();
    std::vector<std::uint64_t> words;
    for (std::size_t g = 0; g < to.size() && g < from.size(); ++g) {
      SlotKind k = module_.globals[g].kind;
      if (k != SlotKind::Bits && k != SlotKind::Table) {
        to[g] = from[g];
        continue;
      }
      auto src = static_cast<Handle>(from[g].u);
      auto dst = static_cast<Handle>(to[g].u);
      if (k == SlotKind::Bits) {
        backend_->readBits(src, words);
        next->writeBits(dst, backend_->length(src), words.data());
      } else {
        backend_->readTable(src, words);
        next->writeTable(dst, backend_->rows(src), backend_->cols(src), words.data());
      }
      vm->setFixedShape(dst, vm_->fixedShape(src));
    }
  } catch (const std::exception& e) {
    vm.reset();
    error(std::string("cannot move the session to the ") + kind + " backend: " + e.what());
    return;
  }
  releaseSpares();
  vm_ = std::move(vm);         // the old interpreter goes first,
  backend_ = std::move(next);  // then the backend it used
  vmOut_ << "backend: " << backend_->name() << " (" << backend_->device() << ")\n";
  finishInput();
}

}  // namespace star::repl
