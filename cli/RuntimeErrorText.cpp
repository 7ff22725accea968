#include "cli/RuntimeErrorText.h"

#include "core/Printable.h"

namespace star {

namespace {

std::string where(const SourceManager& sources, SourceLoc loc) {
  std::string s = loc.file < sources.size() ? printable(sources.path(loc.file)) : "<unknown>";
  if (loc.line) s += ':' + std::to_string(loc.line) + ':' + std::to_string(loc.col);
  return s;
}

}  // namespace

std::string formatRuntimeError(const SourceManager& sources, const RuntimeError& e) {
  bool hasText = e.loc.file < sources.size() && !sources.text(e.loc.file).empty();
  // Messages quote program strings and file contents (paths, layouts, tokens): control bytes are
  // shown escaped, never sent raw to the terminal.
  std::string text = Diagnostics::format(sources, e.loc, "runtime error", printable(e.what()), hasText);
  for (const CallSite& c : e.callers) {
    text += "note: called from " + where(sources, c.loc);
    if (c.times > 1) text += " (" + std::to_string(c.times) + " times)";
    text += '\n';
  }
  if (e.moreCallers)
    text += "note: ... " + std::to_string(e.moreCallers) + " more call" +
            (e.moreCallers == 1 ? "" : "s") + "\n";
  for (const RuntimeNote& n : e.notes) {
    if (!n.loc.line) {
      text += "note: " + printable(n.message) + "\n";
      continue;
    }
    bool noteText = n.loc.file < sources.size() && !sources.text(n.loc.file).empty();
    text += Diagnostics::format(sources, n.loc, "note", printable(n.message), noteText);
  }
  return text;
}

}  // namespace star
