// Where the REPL's lines come from: libedit on a terminal (line editing, history kept across
// sessions in $STAR_HISTORY or ~/.star_history, tab completion), plain std::getline otherwise.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace star::repl {

class InputReader {
 public:
  // Names in scope now (variables, constants, procedures, functions), for completion.
  using NameSource = std::function<std::vector<std::string>()>;

  InputReader(bool interactive, NameSource names);
  ~InputReader();
  InputReader(const InputReader&) = delete;
  InputReader& operator=(const InputReader&) = delete;

  enum class Result { Line, EndOfInput, Interrupted };
  // Reads one line (without its newline). Interrupted: Ctrl-C discarded the line being edited.
  Result read(const std::string& prompt, std::string& line);
  // Adds a complete input to the history (and saves the history file).
  void remember(const std::string& input);

  bool interactive() const { return interactive_; }

 private:
  bool interactive_;
  std::string historyPath_;
  std::string lastEntry_;
};

// Completion candidates for the word `prefix` at `start` in `line` (exposed for testing).
std::vector<std::string> completionsFor(const std::string& line, int start,
                                        const std::string& prefix,
                                        const std::vector<std::string>& names, bool* files);

}  // namespace star::repl
