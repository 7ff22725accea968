// Where the REPL's lines come from: libedit on a terminal (line editing, history kept across
// sessions in $STAR_HISTORY or ~/.star_history, tab completion, Ctrl-R: an incremental search of
// the history), plain std::getline otherwise.
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
  // Whether more input has already arrived: the rest of a pasted block on a terminal (typed
  // lines come one at a time); always true for a pipe or a file, read as one block.
  bool moreWaiting() const;

  bool interactive() const { return interactive_; }

 private:
  bool interactive_;
  std::string historyPath_;
  std::string lastEntry_;
};

// Follows a multi-line input line by line, in time linear in its size, to tell when it cannot be
// complete yet: it ends inside a comment, a parenthesis, a `begin` block, a `repeat` loop or a
// procedure or function declaration, after a token that needs more (an operator, `then`, `do`,
// `:=`, ...), or after an `if` without `else` written over several lines (as
// replInputIncomplete: the next line may hold its `else`; not in the body of a `forall`). The REPL parses the input again only
// when needsMore() is false: parsing all of it after every line made a pasted block of N lines
// cost O(N^2). needsMore() never holds for an input the parser finds complete and correct; on
// text it does not model (a stray `end` or `)`, an `else` without its `if`) it gives up and
// leaves the decision to the parser. Characters the lexer rejects (`"`, `[`, an unterminated
// string's quote) are read as the lexer reads them, one bad token each, so that the blocks of a
// wrong input are still followed: the REPL reads a pasted block with a typo to its end and
// reports it once, instead of running its remaining lines one by one (cli/Repl.cpp).
class ContinuationScanner {
 public:
  void addLine(const std::string& line);
  bool needsMore() const;
  std::size_t lines() const { return line_; }
  void reset() { *this = ContinuationScanner(); }

 private:
  enum class Comment { None, Brace, Paren, Slash };  // inside { }, (* *) or /* */
  enum class Block : char { Heading, Begin, Repeat };
  enum class Tail : char { If, Forall };  // an `if` without `else` yet; a `forall` loop
  void word(const std::string& w);
  void token(bool wantsMore);
  void elseAtTop();
  void openBlock(Block b);
  void closeBlock(Block b);
  bool atTop() const { return blocks_.empty() && parens_ == 0; }
  std::size_t skipComment(const std::string& line, std::size_t i);
  std::size_t punctuation(const std::string& line, std::size_t i);

  Comment comment_ = Comment::None;
  std::vector<Block> blocks_;  // open blocks, innermost last (Heading: a procedure's, before
                               // its `begin`)
  std::size_t parens_ = 0;
  std::vector<Tail> tail_;         // in the current top-level statement, outermost first
  std::size_t line_ = 0;           // lines seen
  std::size_t statementLine_ = 0;  // where the current top-level statement starts (0: none yet)
  std::size_t lastLine_ = 0;       // where the last token is
  bool lastNeedsMore_ = false;     // the last token cannot end an input
  bool lost_ = false;              // text the scanner does not model: the parser decides
};

// Completion candidates for the word `prefix` at `start` in `line` (exposed for testing).
std::vector<std::string> completionsFor(const std::string& line, int start,
                                        const std::string& prefix,
                                        const std::vector<std::string>& names, bool* files);

}  // namespace star::repl
