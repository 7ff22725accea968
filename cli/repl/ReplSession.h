// The state of a `star repl` session and what each input does to it.
//
// Every input is parsed into its own source file `<input>`, checked by one Checker whose global
// scope persists (later declarations replace earlier ones), compiled into one growing Module and
// run by one Interpreter whose globals persist. An input that fails (syntax, type or runtime
// error, Ctrl-C, a backend failure) leaves the session as it was before it: the checker's scope,
// the module and the values of the globals are restored.
#pragma once

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <ostream>
#include <sstream>
#include <streambuf>
#include <string>
#include <vector>

#include "frontend/ast/Ast.h"
#include "frontend/driver/UnitLoader.h"
#include "frontend/diag/Diagnostics.h"
#include "frontend/sema/Checker.h"
#include "vm/backend/Backend.h"
#include "vm/bytecode/Module.h"
#include "vm/interp/Interpreter.h"

namespace star::repl {

struct SessionOptions {
  std::string backend = "auto";
  std::string devices = "1";            // --devices (cli/BackendChoice.h)
  std::vector<std::string> modulePath;  // where `uses NAME` looks (for :load)
  bool colour = false;                  // ANSI colours in diagnostics
  bool interactive = false;             // on a terminal (the tty echoes ^C)
  bool stats = false;                   // :stats on from the start (--stats)
  bool natives = true;                  // false with --no-native: library procedures run their bodies
  bool parallelLoops = true;            // false with --no-parallel-loops
  std::string engine = "auto";          // --engine: one of kEngineNames (cli/BackendChoice.h)
};

// Forwards to another stream buffer and remembers whether the output ends with a newline, so
// that the prompt after `write(1)` starts on a new line.
class TrackingBuf : public std::streambuf {
 public:
  explicit TrackingBuf(std::streambuf* target) : target_(target) {}
  bool atLineStart() const { return last_ == '\n'; }

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override { return target_->pubsync(); }

 private:
  std::streambuf* target_;
  char last_ = '\n';
};

class ReplSession {
 public:
  ReplSession(SessionOptions options, std::ostream& out, std::ostream& err);
  ~ReplSession();
  ReplSession(const ReplSession&) = delete;
  ReplSession& operator=(const ReplSession&) = delete;

  // Creates the backend. False (with *error) when the requested one is not available.
  bool start(std::string* error);

  // One complete input: declarations and statements, or an expression whose value is printed.
  void evaluate(const std::string& text);
  // :load FILE: a program, a unit, or a file of REPL inputs, compiled and run in the session.
  void load(const std::string& path);
  // :dis NAME (a procedure or function; "" = the code of the last input).
  void disassemble(const std::string& name);
  // :type EXPR
  void showType(const std::string& exprText);
  // :show EXPR: a slice, word or table drawn with block characters (cli/repl/BitPicture.h).
  void showPicture(const std::string& exprText);
  // :vars
  void showVars();
  // :backend cpu|cuda: moves every value to a fresh backend of that kind.
  void switchBackend(const std::string& kind);
  // :reset: forgets every declaration and value.
  void reset();
  // :engine host|device|auto: who interprets the next inputs (values stay where they are).
  void switchEngine(const std::string& requested);
  // "device (...)" or "host": the engine the next input runs on.
  std::string engineName() const;

  void setStats(bool on);
  bool stats() const { return stats_; }
  void setTiming(bool on) { timing_ = on; }
  bool timing() const { return timing_; }
  std::string backendName() const { return backend_ ? backend_->name() : "none"; }
  std::string deviceName() const { return backend_ ? backend_->device() : "none"; }

  // Variables, constants, procedures and functions in scope (for completion).
  std::vector<std::string> namesInScope() const;

  // Messages from the REPL itself (stderr, after flushing the results).
  void error(const std::string& message);
  void note(const std::string& message);
  std::ostream& out();  // results (stdout)

 private:
  // What an input may have to undo.
  struct Mark {
    std::size_t functions = 0, globals = 0, constants = 0, units = 0, programs = 0;
    Checker::ScopeSnapshot scope;
    bool valuesSaved = false;
    std::vector<Interpreter::Value> values;  // every global's slot
    std::vector<std::size_t> copied;        // slices, words, tables copied to spares_
  };

  struct SyntaxErrors {
    std::string text;  // the diagnostics, as printed
    SourceLoc at;      // where the first one is
  };

  std::uint32_t addSource(const std::string& path, std::string text);
  void syncFiles();
  bool tryExpression(std::uint32_t file, SyntaxErrors* syntax);
  bool producesValue(const Expr& e) const;
  // A bare expression's value: printed, or drawn for :show.
  void present(Type type, Interpreter::Value value);
  Mark mark() const;
  void rollback(Mark& m, bool restoreValues);
  void saveValues(Mark& m, const std::vector<bool>& touched);
  void releaseSpares();
  // Compiles the checked program (and units) and runs it; then prints `valueOf` (a global of
  // type `valueType`) when given. Rolls everything back when the run fails.
  void execute(std::vector<std::unique_ptr<Program>> units, std::unique_ptr<Program> program,
               Mark& m, const Symbol* valueOf, Type valueType);
  void finishInput();
  void reportTime(std::chrono::steady_clock::time_point started);
  void flushDiagnostics();
  void discardDiagnostics();
  void printColoured(const std::string& text);
  void newInterpreter();
  void configure(Interpreter& vm) const;  // the session's options on a fresh interpreter

  SessionOptions options_;
  std::ostream& out_;
  std::ostream& err_;
  TrackingBuf trackBuf_;
  std::ostream vmOut_;  // program output and results, through trackBuf_

  SourceManager sources_;
  std::ostringstream diagBuffer_;
  Diagnostics diags_;
  std::unique_ptr<Checker> checker_;
  Module module_;
  std::vector<std::unique_ptr<Program>> programs_;  // every checked input (the scope points in)
  UnitLoader unitLoader_;                           // units loaded by :load

  std::unique_ptr<Backend> backend_;
  std::unique_ptr<Interpreter> vm_;
  std::vector<std::pair<Handle, SlotKind>> spares_;  // by global slot: rollback copies
  std::int64_t lastEntry_ = -1;
  bool stats_ = false;
  bool timing_ = false;
  bool picture_ = false;  // the expression being evaluated is :show's
};

}  // namespace star::repl
