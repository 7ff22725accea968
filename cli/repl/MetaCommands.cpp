#include "cli/repl/MetaCommands.h"

#include <cctype>
#include <ostream>

#include "cli/BackendChoice.h"
#include "frontend/sema/Builtins.h"

namespace star::repl {
namespace {

const char* kHelp =
    "Enter declarations (var, const, proc, func) and statements; they run at once and the\n"
    "declarations stay for later inputs (declaring a name again replaces it). An expression on\n"
    "its own prints its value. An input continues on the next line until it is complete; an\n"
    "empty line ends it early. Ctrl-C interrupts a running input; Ctrl-D leaves.\n"
    "\n"
    "  :help [NAME]        this text; a builtin's signature and description (:help STEP),\n"
    "                      or a command's line (:help :load)\n"
    "  :load FILE          compile and run FILE (a program, a unit or REPL inputs) here\n"
    "  :dis [NAME]         bytecode of a procedure or function (of the last input without NAME)\n"
    "  :type EXPR          the type of an expression, without running it\n"
    "  :show EXPR          draw a slice, word or table with block characters\n"
    "  :vars               the variables, constants, procedures and functions in scope\n"
    "  :backend cpu|cuda   move the session, with its values, to another backend\n"
    "  :engine host|device|auto  who interprets the next inputs (:engine alone shows it)\n"
    "  :stats on|off       per-opcode statistics after each input\n"
    "  :time [on|off]      the time each input takes (:time alone toggles)\n"
    "  :reset              forget every declaration and value\n"
    "  :quit               leave (also :q, Ctrl-D)\n";

std::string trim(const std::string& s) {
  std::size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  std::size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// :help NAME: a builtin's signature and one-line description (from Builtins.def), or the line
// of kHelp that describes meta-command NAME (with or without its ':').
void helpOn(ReplSession& session, const std::string& topic) {
  std::string name = topic[0] == ':' ? topic.substr(1) : topic;
  int b = findBuiltin(name);
  if (b >= 0 && topic[0] != ':') {
    const BuiltinInfo& info = builtinInfo(static_cast<Builtin>(b));
    session.out() << info.signature << "\n  " << info.doc << "\n";
    session.out().flush();
    return;
  }
  std::string command = lower(name);
  if (command == "h" || command == "?") command = "help";
  if (command == "q" || command == "exit") command = "quit";
  std::string help = kHelp;
  std::string key = "\n  :" + command;
  for (std::size_t at = help.find(key); at != std::string::npos; at = help.find(key, at + 1)) {
    std::size_t after = at + key.size();
    if (after < help.size() && help[after] != ' ' && help[after] != '\n') continue;
    // The command's line and its continuation lines (indented further).
    std::size_t end = help.find('\n', after);
    while (end != std::string::npos && help.compare(end, 8, "\n       ") == 0) end = help.find('\n', end + 1);
    session.out() << help.substr(at + 1, end - at - 1) << "\n";
    session.out().flush();
    return;
  }
  session.error("no builtin or command named '" + topic + "' (:help lists the commands)");
}

// "on"/"off" (or empty for a toggle).
bool onOff(ReplSession& session, const std::string& arg, bool current, bool* value) {
  std::string a = lower(arg);
  if (a.empty())
    *value = !current;
  else if (a == "on")
    *value = true;
  else if (a == "off")
    *value = false;
  else {
    session.error("expected 'on' or 'off', not '" + arg + "'");
    return false;
  }
  return true;
}

}  // namespace

const std::vector<std::string>& metaCommandNames() {
  static const std::vector<std::string> names = {"backend", "dis",   "engine", "help",
                                                 "load",    "quit",  "reset",  "show",
                                                 "stats",   "time",  "type",   "vars"};
  return names;
}

std::string exitOrHelpHint(const std::string& line, const std::vector<std::string>& namesInScope) {
  std::string word = lower(trim(line));
  if (word.size() > 2 && word.compare(word.size() - 2, 2, "()") == 0) word.resize(word.size() - 2);
  if (word != "exit" && word != "quit" && word != "help") return "";
  for (const std::string& name : namesInScope)
    if (lower(name) == word) return "";
  return word == "help" ? "Type :help for help, or :help NAME for a builtin\n"
                        : "Use :quit or Ctrl-D to exit\n";
}

bool isMetaCommand(const std::string& line) {
  std::size_t first = line.find_first_not_of(" \t");
  return first != std::string::npos && line[first] == ':';
}

MetaResult runMetaCommand(ReplSession& session, const std::string& line) {
  std::string body = trim(line);
  body = body.substr(1);  // the ':'
  std::size_t space = body.find_first_of(" \t");
  std::string name = lower(body.substr(0, space));
  std::string arg = space == std::string::npos ? "" : trim(body.substr(space));

  if (name == "quit" || name == "q" || name == "exit") return MetaResult::Quit;
  if (name == "help" || name == "h" || name == "?") {
    if (!arg.empty()) {
      helpOn(session, arg);
    } else {
      session.out() << kHelp;
      session.out().flush();
    }
  } else if (name == "load") {
    if (arg.empty())
      session.error(":load needs a file name");
    else
      session.load(arg);
  } else if (name == "dis") {
    session.disassemble(arg);
  } else if (name == "type") {
    if (arg.empty())
      session.error(":type needs an expression");
    else
      session.showType(arg);
  } else if (name == "show") {
    if (arg.empty())
      session.error(":show needs a slice, word or table expression");
    else
      session.showPicture(arg);
  } else if (name == "vars") {
    session.showVars();
  } else if (name == "backend") {
    std::string kind = lower(arg);
    if (kind.empty()) {
      session.out() << "backend: " << session.backendName() << " (" << session.deviceName()
                    << ")\n";
      session.out().flush();
    } else if (kind != "cpu" && kind != "cuda") {
      session.error("expected :backend cpu or :backend cuda, not '" + arg + "'");
    } else {
      session.switchBackend(kind);
    }
  } else if (name == "engine") {
    std::string kind = lower(arg);
    if (!kind.empty() && !isEngineName(kind)) {
      session.error("expected " + engineNamesText(":engine ") + ", not '" + arg + "'");
    } else {
      if (!kind.empty()) session.switchEngine(kind);
      session.out() << "engine: " << session.engineName() << "\n";
      session.out().flush();
    }
  } else if (name == "stats") {
    bool on;
    if (onOff(session, arg, session.stats(), &on)) {
      session.setStats(on);
      session.out() << "stats " << (on ? "on" : "off") << "\n";
      session.out().flush();
    }
  } else if (name == "time") {
    bool on;
    if (onOff(session, arg, session.timing(), &on)) {
      session.setTiming(on);
      session.out() << "timing " << (on ? "on" : "off") << "\n";
      session.out().flush();
    }
  } else if (name == "reset") {
    session.reset();
    session.out() << "session reset\n";
    session.out().flush();
  } else {
    session.error("unknown command ':" + name + "' (:help lists the commands)");
  }
  return MetaResult::Continue;
}

}  // namespace star::repl
