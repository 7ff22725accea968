#include "cli/ManPage.h"

#include <sstream>

#include "cli/Help.h"
#include "cli/Options.h"

namespace star {

namespace {

// Text as roff: a backslash doubled, a line starting with '.' or '\'' protected, '-' as \-.
std::string roff(const std::string& text) {
  std::ostringstream out;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::string l;
    for (char c : line) {
      if (c == '\\')
        l += "\\e";
      else if (c == '-')
        l += "\\-";
      else
        l += c;
    }
    if (!l.empty() && (l[0] == '.' || l[0] == '\'')) l = "\\&" + l;
    out << l << '\n';
  }
  return out.str();
}


}  // namespace

std::string manPage(const std::string& version) {
  std::ostringstream m;
  m << ".TH STAR 1 \"\" \"star " << version << "\" \"User Commands\"\n"
    << ".SH NAME\nstar \\- the Star language for the STAR associative machine: compiler, VM, REPL "
       "and tests\n"
    << ".SH SYNOPSIS\n.B star\n[\\fICOMMAND\\fR] [\\fIOPTIONS\\fR] [\\fIFILE\\fR] "
       "[\\fIARGS\\fR...]\n"
    << ".SH DESCRIPTION\nStar is a Pascal-like language with slices, words and tables, run on "
       "NVIDIA GPUs or on "
       "the CPU. With no command, \\fBstar FILE\\fR runs FILE, and \\fBstar\\fR alone starts the "
       "REPL on a "
       "terminal or runs the program on standard input.\n"
    << ".PP\n.nf\n"
    << roff(usageText()) << ".fi\n.SH COMMANDS\n";
  for (const std::string& c : helpCommands()) {
    const std::string text = commandHelpText(c);
    if (text.empty()) continue;
    m << ".SS " << c << "\n.nf\n" << roff(text) << ".fi\n";
  }
  m << ".SH ENVIRONMENT\n"
       ".TP\n.B STAR_PATH\nDirectories searched for units after the program's own "
       "(colon-separated).\n"
       ".TP\n.B STAR_CACHE_DIR\nWhere compiled code is cached (default $XDG_CACHE_HOME/star, else "
       "~/.cache/star).\n"
       ".TP\n.B STAR_CXX\nThe C++ compiler of the compiled tier's host build (default c++).\n"
       ".TP\n.B NO_COLOR\nNo colour in diagnostics and test reports.\n"
       ".SH FILES\n.TP\n.I PREFIX/share/star/stdlib\nThe standard library units, found relative to "
       "the star "
       "executable.\n.TP\n.I PREFIX/share/star/examples\nExample programs; \\fBstar test\\fR runs "
       "them.\n"
       ".TP\n.I PREFIX/share/star/editors\nVim syntax files and the VS Code extension.\n"
       ".TP\n.I PREFIX/share/doc/star\nThe language reference (LANGUAGE.md), the command line "
       "(CLI.md) and "
       "the other documents.\n"
       ".SH EXIT STATUS\n0 on success; 1 for a program rejected by the compiler or a usage error; "
       "2 for a "
       "run-time error (with its location and call trace on standard error).\n";
  return m.str();
}

}  // namespace star
