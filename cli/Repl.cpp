// `star repl`: the interactive session (cli/repl/ holds its parts).
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <string>

#include "cli/Commands.h"
#include "cli/repl/InputReader.h"
#include "cli/repl/MetaCommands.h"
#include "cli/repl/ReplSession.h"
#include "frontend/parse/Parser.h"

#ifndef STAR_VERSION
#define STAR_VERSION "0.0.0"
#endif

namespace star {
namespace {

constexpr const char* kPrompt = "star> ";
constexpr const char* kContinuation = "  ... ";
// An input up to this size is parsed after every line, so that a syntax error in a line being
// typed is reported at once (one inside a block of several lines: when the block ends); a longer
// one (a pasted block) only when ContinuationScanner finds that it may be complete, which keeps
// reading it linear in its size.
constexpr std::size_t kParseEveryLine = 1024;

bool blank(const std::string& s) {
  return s.find_first_not_of(" \t\r\n") == std::string::npos;
}

bool wantColour() {
  if (!isatty(STDERR_FILENO) || std::getenv("NO_COLOR")) return false;
  const char* term = std::getenv("TERM");
  return term && std::string(term) != "dumb";
}

}  // namespace

int commandRepl(const CommandLine& cl) {
  if (!cl.file.empty()) {
    std::cerr << "star: error: repl takes no file (use :load FILE inside the session)\n";
    return 1;
  }
  // On a terminal: prompts, banner, line editing, colour. Otherwise (a pipe, a file) inputs are
  // read from stdin and only results and diagnostics are printed, for scripts and tests.
  bool interactive = isatty(STDIN_FILENO);
  repl::SessionOptions options;
  options.backend = cl.backend;
  options.devices = cl.devices;
  options.modulePath = cl.modulePath;
  options.colour = interactive && wantColour();
  options.interactive = interactive;
  options.stats = cl.stats;
  options.natives = !cl.noNative;
  options.parallelLoops = !cl.noParallelLoops;
  repl::ReplSession session(options, std::cout, std::cerr);
  std::string error;
  if (!session.start(&error)) {
    std::cerr << "star: error: " << error << "\n";
    return 1;
  }
  if (interactive) {
    // Ctrl-C never ends an interactive session: between inputs it is ignored (the prompt and a
    // running input install handlers of their own).
    struct sigaction sa {};
    sa.sa_handler = SIG_IGN;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
  }
  repl::InputReader reader(interactive, [&session] { return session.namesInScope(); });
  if (interactive) {
    std::cout << "Star " << STAR_VERSION << " on the " << session.backendName() << " backend ("
              << session.deviceName() << ")\n"
              << "Type :help for help, :quit or Ctrl-D to leave.\n";
    std::cout.flush();
  }

  std::string pending;
  repl::ContinuationScanner scanner;  // follows `pending`
  auto evaluate = [&] {
    reader.remember(pending);
    session.evaluate(pending);
    pending.clear();
    scanner.reset();
  };
  for (;;) {
    std::string line;
    auto got = reader.read(pending.empty() ? kPrompt : kContinuation, line);
    if (got == repl::InputReader::Result::Interrupted) {
      pending.clear();
      scanner.reset();
      continue;
    }
    if (got == repl::InputReader::Result::EndOfInput) {
      if (!pending.empty() && !interactive) session.evaluate(pending);
      break;
    }
    if (pending.empty()) {
      if (repl::isMetaCommand(line)) {
        reader.remember(line);
        if (repl::runMetaCommand(session, line) == repl::MetaResult::Quit) break;
        continue;
      }
      if (blank(line)) continue;
      // `exit`, `quit`, `help` alone: where to find :quit and :help, not a Star error.
      const std::string hint = repl::exitOrHelpHint(line, session.namesInScope());
      if (!hint.empty()) {
        reader.remember(line);
        session.out() << hint;
        session.out().flush();
        continue;
      }
    } else if (interactive && blank(line)) {
      // An empty line ends an incomplete input: it is evaluated (and its error reported).
      evaluate();
      continue;
    }
    pending += line;
    pending += '\n';
    scanner.addLine(line);
    if (pending.size() > kParseEveryLine && scanner.needsMore()) continue;
    if (replInputIncomplete(pending)) continue;
    // A mistake before the end of an input whose block (or parenthesis, or comment) is still
    // open: an input of several lines, or one whose next lines have already arrived (a paste), is
    // read to the end of that block and reported once, as a whole; its remaining lines do not
    // run one by one as inputs of their own. A single typed line is reported at once.
    if (scanner.needsMore() && (scanner.lines() > 1 || reader.moreWaiting())) continue;
    evaluate();
  }
  std::cout.flush();
  return 0;
}

}  // namespace star
