#include "cli/repl/InputReader.h"

#include <editline/readline.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <iostream>

#include "cli/BackendChoice.h"
#include "cli/repl/MetaCommands.h"
#include "frontend/sema/Builtins.h"

namespace star::repl {
namespace {

const char* const kKeywords[] = {
    "const", "var",      "proc",    "procedure", "func",   "function", "begin",  "end",    "if",
    "then",  "else",     "while",   "do",        "for",    "to",       "downto", "repeat", "until",
    "forall", "in",
    "break", "continue", "exit",    "not",       "and",    "or",       "xor",    "div",    "mod",
    "true",  "false",    "integer", "boolean",   "string", "real",     "slice",  "word",   "table"};

InputReader::NameSource* gNames = nullptr;
std::vector<std::string> gMatches;
std::size_t gNextMatch = 0;
volatile sig_atomic_t gLineInterrupted = 0;
bool gFirstRead = false;  // the next readCharacter is the first of this line
constexpr int kCtrlD = 4;
// Keys that libedit reads before the terminal's: what ends a history search hands on (the key
// that ended it, or -1 for a Ctrl-C).
std::deque<int> gReplay;
std::string gPrompt;  // the prompt of the line being read

pthread_t gReaderThread;

// The REPL runs on a thread of its own (runWithLargeStack), but the kernel may deliver SIGINT to
// any thread: it is passed on to the reading thread, whose read() it must interrupt.
void onPromptInterrupt(int) {
  if (!pthread_equal(pthread_self(), gReaderThread)) {
    pthread_kill(gReaderThread, SIGINT);
    return;
  }
  gLineInterrupted = 1;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool startsWithNoCase(const std::string& s, const std::string& prefix) {
  if (s.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[i])) !=
        std::tolower(static_cast<unsigned char>(prefix[i])))
      return false;
  return true;
}

// Keywords and builtins follow the case of what was typed: `beg` -> begin, `NUM` -> NUMB.
std::string inCaseOf(const std::string& word, const std::string& typed) {
  bool upper = false, lowerSeen = false;
  for (char c : typed) {
    upper |= std::isupper(static_cast<unsigned char>(c)) != 0;
    lowerSeen |= std::islower(static_cast<unsigned char>(c)) != 0;
  }
  std::string out = word;
  if (lowerSeen && !upper) return lower(out);
  if (upper && !lowerSeen)
    for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

char* nextMatch(const char*, int state) {
  if (state == 0) gNextMatch = 0;
  if (gNextMatch >= gMatches.size()) return nullptr;
  return strdup(gMatches[gNextMatch++].c_str());
}

char** complete(const char* text, int start, int) {
  rl_attempted_completion_over = 1;
  std::string line = rl_line_buffer ? rl_line_buffer : "";
  std::vector<std::string> names;
  if (gNames && *gNames) names = (*gNames)();
  bool files = false;
  gMatches = completionsFor(line, start, text ? text : "", names, &files);
  if (files) {
    rl_attempted_completion_over = 0;  // :load FILE: libedit completes file names
    return nullptr;
  }
  if (gMatches.empty()) return nullptr;
  return rl_completion_matches(text, nextMatch);
}

// Reads one character for libedit; a Ctrl-C (SIGINT) makes it report the end of the line.
// Multi-byte UTF-8 characters are decoded here, as libedit expects whole characters.
int readCharacter(FILE* in) {
  if (!gReplay.empty()) {
    gFirstRead = false;
    int c = gReplay.front();
    gReplay.pop_front();
    return c;
  }
  auto readByte = [&]() -> int {
    for (;;) {
      unsigned char c;
      ssize_t n = ::read(fileno(in), &c, 1);
      if (n == 1) return c;
      if (n < 0 && errno == EINTR && !gLineInterrupted) continue;
      return -1;
    }
  };
  // A Ctrl-D typed before libedit set raw mode (while a command still ran, or before the first
  // key of the line: libedit prints the prompt first) reached a cooked terminal, which keeps it as
  // an end-of-line mark; raw mode turns that mark into a NUL byte. Such a NUL is waiting when the
  // line's first key is read: it is the Ctrl-D it was. A NUL typed later (Ctrl-Space) stays set-mark.
  const bool first = gFirstRead;
  gFirstRead = false;
  pollfd ready{fileno(in), POLLIN, 0};
  const bool typedAhead = first && ::poll(&ready, 1, 0) > 0;
  int c = readByte();
  if (c == 0 && typedAhead) return kCtrlD;
  if (c < 0x80) return c;
  int extra = (c >> 5) == 0x6 ? 1 : (c >> 4) == 0xE ? 2 : (c >> 3) == 0x1E ? 3 : 0;
  int cp = extra == 1 ? (c & 0x1F) : extra == 2 ? (c & 0x0F) : (c & 0x07);
  for (int i = 0; i < extra; ++i) {
    int cc = readByte();
    if (cc < 0) return -1;
    cp = (cp << 6) | (cc & 0x3F);
  }
  return extra ? cp : '?';
}

// ---------------------------------------------------------------- Ctrl-R: history search
// libedit's own incremental search (em-inc-search-prev) shows a bare `bck:` prompt and ends on
// keys a user expects to edit with; this one behaves as bash's and Python's: Ctrl-R, then the
// text to look for; `(reverse-i-search)'text': line` shows the newest input that holds it.
// Ctrl-R again: the next older one (Ctrl-S: newer); Backspace: one character less; Enter runs
// the line found; Ctrl-G or Esc: back to the line as it was; any other key (arrows, Home, End,
// Ctrl-A, Ctrl-E, Tab, ...) keeps the line found, the cursor at its end, and does its usual work
// there. Ctrl-R with nothing typed searches again for the previous search's text.
//
// It is bound as a readline-style command (rl_add_defun): it reads the keys itself (through
// readCharacter), draws its prompt on the row where the line being edited starts, and on leaving
// gives the line to libedit and has it draw the prompt and the line again.

std::string gLastSearch;  // the text of the previous search

std::string utf8(int cp) {
  std::string out;
  auto c = static_cast<unsigned>(cp);
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
  return out;
}

bool continuationByte(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// Columns taken by UTF-8 text (one per character).
std::size_t columnsOf(const std::string& s, std::size_t from = 0,
                      std::size_t to = std::string::npos) {
  std::size_t n = 0;
  for (std::size_t i = from; i < std::min(to, s.size()); ++i) n += !continuationByte(s[i]);
  return n;
}

// The byte where column `col` of `s` starts (s.size() past its end).
std::size_t byteAtColumn(const std::string& s, std::size_t col) {
  std::size_t i = 0;
  for (; i < s.size(); ++i)
    if (!continuationByte(s[i]) && col-- == 0) break;
  return i;
}

int terminalColumns() {
  int cols = 0;
  rl_get_screen_size(nullptr, &cols);
  return cols > 1 ? cols : 80;
}

void emit(const std::string& text) {
  FILE* out = rl_outstream ? rl_outstream : stdout;
  std::fwrite(text.data(), 1, text.size(), out);
  std::fflush(out);
}

class HistorySearch {
 public:
  HistorySearch(bool forward, std::string original)
      : forward_(forward), original_(std::move(original)) {
    for (int i = 0; i < history_length; ++i)
      if (HIST_ENTRY* entry = history_get(history_base + i); entry && entry->line)
        entries_.push_back(entry->line);  // oldest first
  }

  // Ctrl-R (older) or Ctrl-S (newer): the next input that holds the text, another than the
  // one shown. With no text yet, the previous search's.
  void step(bool forward) {
    forward_ = forward;
    if (pattern_.empty()) {
      pattern_ = gLastSearch;
      if (pattern_.empty()) return;
      search(match_ < 0 ? start() : match_);
      return;
    }
    if (match_ < 0) {
      search(start());
      return;
    }
    for (long i = match_ + (forward_ ? 1 : -1); i >= 0 && i < size(); i += forward_ ? 1 : -1)
      if (entries_[i] != entries_[match_] && holds(i)) {
        match_ = i;
        failed_ = false;
        return;
      }
    failed_ = true;
  }
  // A character typed: the text grows; the input shown still counts if it holds it.
  void type(const std::string& ch) {
    pattern_ += ch;
    search(match_ < 0 ? start() : match_);
  }
  // Backspace: one character less.
  void erase() {
    if (pattern_.empty()) return;
    std::size_t cut = pattern_.size() - 1;
    while (cut > 0 && continuationByte(pattern_[cut])) --cut;
    pattern_.erase(cut);
    if (pattern_.empty()) {
      failed_ = false;
      return;
    }
    search(match_ < 0 ? start() : match_);
  }

  bool found() const { return match_ >= 0; }
  const std::string& line() const { return match_ >= 0 ? entries_[match_] : original_; }
  const std::string& pattern() const { return pattern_; }

  // `(reverse-i-search)'text': line`, cut to the terminal's width (around the text found).
  std::string prompt(std::size_t width) const {
    std::string label = std::string(failed_ ? "(failed " : "(") +
                        (forward_ ? "i-search)'" : "reverse-i-search)'") + pattern_ + "': ";
    std::string shown = line();
    for (char& c : shown)
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = ' ';
    const std::size_t labelCols = columnsOf(label), lineCols = columnsOf(shown);
    if (labelCols + lineCols <= width) return label + shown;
    if (labelCols + 10 > width) {  // a narrow terminal: as much as fits
      std::string all = label + shown;
      return all.substr(0, byteAtColumn(all, width));
    }
    // Columns [first, first + room) of the line, around the text found, with `...` where
    // the line is cut.
    const std::size_t room = width - labelCols;
    const std::size_t at = pattern_.empty() ? std::string::npos : shown.find(pattern_);
    const std::size_t atCol = at == std::string::npos ? 0 : columnsOf(shown, 0, at);
    const std::size_t first = std::min(atCol > room / 3 ? atCol - room / 3 : 0, lineCols - room);
    const bool cutHead = first > 0, cutTail = first + room < lineCols;
    const std::size_t from = byteAtColumn(shown, first + (cutHead ? 3 : 0));
    const std::size_t to = byteAtColumn(shown, first + room - (cutTail ? 3 : 0));
    return label + (cutHead ? "..." : "") + shown.substr(from, to - from) + (cutTail ? "..." : "");
  }

 private:
  long size() const { return static_cast<long>(entries_.size()); }
  long start() const { return forward_ ? size() : size() - 1; }
  bool holds(long i) const { return entries_[i].find(pattern_) != std::string::npos; }
  // The first input from `from` on (in the search's direction) that holds the text.
  void search(long from) {
    for (long i = from; i >= 0 && i < size(); i += forward_ ? 1 : -1)
      if (holds(i)) {
        match_ = i;
        failed_ = false;
        return;
      }
    failed_ = true;
  }

  bool forward_;
  std::string original_;  // the line as it was when the search began
  std::vector<std::string> entries_;
  std::string pattern_;
  long match_ = -1;  // the input shown (an index into entries_); -1: the original line
  bool failed_ = false;
};

// The line libedit edits becomes `text`, the cursor at its end. (rl_replace_line cannot empty
// the line and keeps the cursor where it was: inserting first moves the cursor past the end.)
void replaceLine(const std::string& text) {
  if (text.empty()) return;
  rl_insert_text(text.c_str());
  rl_replace_line(text.c_str(), 0);
}

// Reads the rest of an escape sequence after ESC (at most 50 ms after it): empty when the ESC
// was pressed alone.
std::vector<int> escapeSequence(FILE* in) {
  std::vector<int> seq{27};
  pollfd ready{fileno(in), POLLIN, 0};
  if (::poll(&ready, 1, 50) <= 0) return {};
  int c = readCharacter(in);
  if (c < 0) return {};
  seq.push_back(c);
  if (c == '[') {  // CSI: parameters, then a final byte in @..~
    for (int i = 0; i < 16; ++i) {
      c = readCharacter(in);
      if (c < 0) break;
      seq.push_back(c);
      if (c >= 0x40 && c <= 0x7E) break;
    }
  } else if (c == 'O') {  // SS3: one more byte
    c = readCharacter(in);
    if (c >= 0) seq.push_back(c);
  }
  return seq;
}

int searchHistory(int, int key) {
  constexpr int kCtrlG = 7, kCtrlH = 8, kCtrlR = 18, kCtrlS = 19, kEsc = 27, kDel = 127;
  const std::string original = rl_line_buffer ? std::string(rl_line_buffer, rl_end) : "";
  HistorySearch search(key == kCtrlS, original);
  const std::size_t width = static_cast<std::size_t>(terminalColumns()) - 1;

  // Up to the row where the prompt is, and clear what libedit drew from there.
  const std::size_t cursorCols =
      columnsOf(gPrompt) + columnsOf(original, 0, static_cast<std::size_t>(std::max(rl_point, 0)));
  const std::size_t rowsUp = cursorCols / (width + 1);
  emit((rowsUp ? "\x1b[" + std::to_string(rowsUp) + "A" : std::string()) + "\r\x1b[J");

  auto leave = [&](bool keep, std::vector<int> replay) {
    emit("\r\x1b[J");
    if (!search.pattern().empty()) gLastSearch = search.pattern();
    if (keep && search.found()) replaceLine(search.line());
    rl_forced_update_display();  // the prompt and the line, as libedit shows them
    gReplay.insert(gReplay.end(), replay.begin(), replay.end());
    return 0;
  };

  for (;;) {
    emit("\r" + search.prompt(width) + "\x1b[K");
    int c = readCharacter(rl_instream);
    if (c < 0) {  // Ctrl-C or the end of the input: libedit ends the line
      gReplay.push_back(-1);
      return 0;
    }
    if (c == kCtrlR || c == kCtrlS) {
      search.step(c == kCtrlS);
    } else if (c == kDel || c == kCtrlH) {
      search.erase();
    } else if (c == '\r' || c == '\n') {
      return leave(true, {'\r'});
    } else if (c == kCtrlG) {
      return leave(false, {});
    } else if (c == kEsc) {
      std::vector<int> seq = escapeSequence(rl_instream);
      if (seq.empty()) return leave(false, {});
      return leave(true, seq);
    } else if (c >= 0x20) {
      search.type(utf8(c));
    } else {
      return leave(true, {c});  // Ctrl-A, Ctrl-E, Tab, ...: edits the line found
    }
  }
}

}  // namespace

void ContinuationScanner::addLine(const std::string& line) {
  ++line_;
  std::size_t i = 0;
  const std::size_t n = line.size();
  while (i < n && !lost_) {
    if (comment_ != Comment::None) {
      i = skipComment(line, i);
      continue;
    }
    const char c = line[i];
    const char next = i + 1 < n ? line[i + 1] : '\0';
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
      ++i;
    } else if (c == '/' && next == '/') {
      return;  // the rest of the line is a comment
    } else if (c == '{' || ((c == '(' || c == '/') && next == '*')) {
      comment_ = c == '{' ? Comment::Brace : c == '(' ? Comment::Paren : Comment::Slash;
      i += c == '{' ? 1 : 2;
    } else if (c == '\'') {
      // A string ends on its line ('' is a quote inside it); one that does not is a bad
      // character to the lexer, which then reads the rest of the line as code: so does this.
      std::size_t end = line.find('\'', i + 1);
      while (end != std::string::npos && end + 1 < n && line[end + 1] == '\'')
        end = line.find('\'', end + 2);
      token(false);
      i = end == std::string::npos ? i + 1 : end + 1;
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t end = i + 1;
      while (end < n && (std::isalnum(static_cast<unsigned char>(line[end])) || line[end] == '_'))
        ++end;
      word(lower(line.substr(i, end - i)));
      i = end;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      while (i < n && std::isdigit(static_cast<unsigned char>(line[i]))) ++i;
      token(false);
    } else {
      i = punctuation(line, i);
    }
  }
}

std::size_t ContinuationScanner::skipComment(const std::string& line, std::size_t i) {
  const char* closer = comment_ == Comment::Brace ? "}" : comment_ == Comment::Paren ? "*)" : "*/";
  std::size_t end = line.find(closer, i);
  if (end == std::string::npos) return line.size();
  comment_ = Comment::None;
  return end + std::strlen(closer);
}

std::size_t ContinuationScanner::punctuation(const std::string& line, std::size_t i) {
  const char c = line[i];
  const char next = i + 1 < line.size() ? line[i + 1] : '\0';
  if ((c == ':' || c == '<' || c == '>') && next == '=') {
    token(true);  // := <= >=
    return i + 2;
  }
  if (c == '<' && next == '>') {
    token(true);
    return i + 2;
  }
  switch (c) {
    case ':':
    case '=':
    case '<':
    case '>':
    case '+':
    case '-':
    case '*':
    case '/':
    case ',':
      token(true);
      break;
    case '(':
      token(true);
      ++parens_;
      break;
    case ')':
      token(false);
      if (parens_ == 0)
        lost_ = true;
      else
        --parens_;
      break;
    case ';':
      token(false);
      if (atTop()) tail_.clear(), statementLine_ = 0;  // the statement ends here
      break;
    case '.':
      token(false);
      break;
    case '%':  // %0101, a bit string (a `%` alone is a bad character, as below)
      while (++i < line.size() && (line[i] == '0' || line[i] == '1')) {
      }
      token(false);
      return i;
    default:
      // A character the lexer does not know (`"`, `[`, `!`, a byte of a non-ASCII character):
      // one bad token, after which the lexer goes on. The input is wrong, but its blocks are
      // still followed, so that a pasted block with a typo is read to its end and reported once.
      token(false);
  }
  return i + 1;
}

void ContinuationScanner::word(const std::string& w) {
  if (w == "begin") {
    token(false);
    openBlock(Block::Begin);
  } else if (w == "end") {
    token(false);
    closeBlock(Block::Begin);
  } else if (w == "repeat") {
    token(false);
    openBlock(Block::Repeat);
  } else if (w == "until") {
    token(true);
    closeBlock(Block::Repeat);
  } else if (w == "proc" || w == "procedure" || w == "func" || w == "function") {
    token(false);
    openBlock(Block::Heading);
  } else if (w == "if" || w == "forall") {
    if (atTop()) tail_.push_back(w == "if" ? Tail::If : Tail::Forall);
    token(true);
  } else if (w == "else") {
    if (atTop()) elseAtTop();
    token(true);
  } else {
    static const char* const kNeedMore[] = {"then", "do",     "while", "for",  "forall", "in",
                                            "to",   "downto", "not",   "and",  "or",     "xor",
                                            "div",  "mod",    "var",   "const"};
    token(std::find(std::begin(kNeedMore), std::end(kNeedMore), w) != std::end(kNeedMore));
  }
}

// The `else` of the innermost `if` still without one: it ends that `if`'s then-part, and any
// `forall` in it.
void ContinuationScanner::elseAtTop() {
  auto open = std::find(tail_.rbegin(), tail_.rend(), Tail::If);
  if (open == tail_.rend())
    lost_ = true;
  else
    tail_.erase(std::prev(open.base()), tail_.end());
}

void ContinuationScanner::token(bool wantsMore) {
  if (atTop() && statementLine_ == 0) statementLine_ = line_;
  lastLine_ = line_;
  lastNeedsMore_ = wantsMore;
}

void ContinuationScanner::openBlock(Block b) {
  // A procedure's or function's body is the `begin` block that ends its heading.
  if (b == Block::Begin && !blocks_.empty() && blocks_.back() == Block::Heading)
    blocks_.back() = Block::Begin;
  else
    blocks_.push_back(b);
}

void ContinuationScanner::closeBlock(Block b) {
  if (blocks_.empty() || blocks_.back() != b)
    lost_ = true;
  else
    blocks_.pop_back();
}

bool ContinuationScanner::needsMore() const {
  if (lost_) return false;
  if (comment_ != Comment::None || parens_ > 0 || !blocks_.empty() || lastNeedsMore_) return true;
  // As replInputIncomplete: the statement ends with an `if` without `else` (through the bodies of
  // `while` and `for` loops and `else` parts, not of `forall` loops) and spans lines.
  return !tail_.empty() && tail_.front() == Tail::If && statementLine_ != 0 &&
         statementLine_ < lastLine_;
}

std::vector<std::string> completionsFor(const std::string& line, int start,
                                        const std::string& prefix,
                                        const std::vector<std::string>& names, bool* files) {
  std::vector<std::string> out;
  *files = false;
  std::size_t first = line.find_first_not_of(" \t");
  if (first != std::string::npos && line[first] == ':') {
    std::size_t nameEnd = line.find_first_of(" \t", first);
    if (nameEnd == std::string::npos || static_cast<std::size_t>(start) <= nameEnd) {
      for (auto& m : metaCommandNames())
        if (startsWithNoCase(m, prefix)) out.push_back(m);
    } else {
      std::string command = lower(line.substr(first + 1, nameEnd - first - 1));
      if (command == "load") {
        *files = true;
      } else if (command == "backend") {
        for (const char* b : {"cpu", "cuda"})
          if (startsWithNoCase(b, prefix)) out.push_back(b);
      } else if (command == "engine") {
        for (const char* b : kEngineNames)
          if (startsWithNoCase(b, prefix)) out.push_back(b);
      } else if (command == "stats" || command == "time") {
        for (const char* b : {"on", "off"})
          if (startsWithNoCase(b, prefix)) out.push_back(b);
      } else {
        for (auto& n : names)
          if (startsWithNoCase(n, prefix)) out.push_back(n);
      }
    }
  } else {
    for (const char* k : kKeywords)
      if (startsWithNoCase(k, prefix)) out.push_back(inCaseOf(k, prefix));
    for (auto& b : builtins())
      if (startsWithNoCase(std::string(b.name), prefix))
        out.push_back(inCaseOf(std::string(b.name), prefix));
    for (auto& n : names)
      if (startsWithNoCase(n, prefix)) out.push_back(n);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

InputReader::InputReader(bool interactive, NameSource names) : interactive_(interactive) {
  if (!interactive_) return;
  gNames = new NameSource(std::move(names));
  rl_readline_name = "star";
  rl_catch_signals = 0;  // Ctrl-C is ours: it discards the line (see readCharacter)
  rl_getc_function = readCharacter;
  rl_attempted_completion_function = complete;
  rl_basic_word_break_characters = " \t\n\"'`@$><=;|&{(),:+-*/%";
  rl_completion_append_character = '\0';
  rl_initialize();  // before the history: initialising again would drop it
  // Ctrl-R and Ctrl-S: the history search above, instead of libedit's `bck:` and `fwd:`.
  rl_add_defun("star-search-history-backward", searchHistory, 'R' & 0x1F);
  rl_add_defun("star-search-history-forward", searchHistory, 'S' & 0x1F);
  using_history();
  stifle_history(1000);
  if (const char* path = std::getenv("STAR_HISTORY"); path && *path) {
    historyPath_ = path;
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    historyPath_ = std::string(home) + "/.star_history";
  }
  if (!historyPath_.empty()) read_history(historyPath_.c_str());
}

InputReader::~InputReader() {
  if (!interactive_) return;
  delete gNames;
  gNames = nullptr;
}

InputReader::Result InputReader::read(const std::string& prompt, std::string& line) {
  line.clear();
  if (!interactive_) {
    if (!std::getline(std::cin, line)) return Result::EndOfInput;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return Result::Line;
  }
  std::cout.flush();
  gLineInterrupted = 0;
  gFirstRead = true;
  gReplay.clear();
  gPrompt = prompt;
  gReaderThread = pthread_self();
  struct sigaction sa = {};
  struct sigaction old = {};
  sa.sa_handler = onPromptInterrupt;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: the pending read() must return
  sigaction(SIGINT, &sa, &old);
  char* text = readline(prompt.c_str());
  sigaction(SIGINT, &old, nullptr);
  if (gLineInterrupted) {
    std::free(text);
    std::cout << "\n";
    std::cout.flush();
    return Result::Interrupted;
  }
  if (!text) {
    std::cout << "\n";
    std::cout.flush();
    return Result::EndOfInput;
  }
  line = text;
  std::free(text);
  return Result::Line;
}

bool InputReader::moreWaiting() const {
  if (!interactive_) return true;
  pollfd ready{STDIN_FILENO, POLLIN, 0};
  return ::poll(&ready, 1, 0) > 0;
}

void InputReader::remember(const std::string& input) {
  if (!interactive_) return;
  auto add = [&](std::string entry) {
    while (!entry.empty() && std::isspace(static_cast<unsigned char>(entry.back())))
      entry.pop_back();
    if (entry.empty() || entry == lastEntry_) return;
    add_history(entry.c_str());
    lastEntry_ = entry;
  };
  // A multi-line input is one entry (on one line) unless a // comment would swallow the rest.
  if (input.find("//") == std::string::npos) {
    std::string joined = input;
    std::replace(joined.begin(), joined.end(), '\n', ' ');
    add(joined);
  } else {
    std::size_t begin = 0;
    while (begin <= input.size()) {
      std::size_t end = input.find('\n', begin);
      if (end == std::string::npos) end = input.size();
      add(input.substr(begin, end - begin));
      begin = end + 1;
    }
  }
  if (!historyPath_.empty()) write_history(historyPath_.c_str());
}

}  // namespace star::repl
