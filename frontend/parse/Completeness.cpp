// Is a REPL input complete? The REPL keeps reading lines (with a continuation prompt) while the
// only thing wrong with the input is that it stops too early.
#include <cstddef>

#include "StarLexer.h"
#include "StarParser.h"
#include "antlr4-runtime.h"
#include "frontend/parse/Parser.h"

namespace star {
namespace {

// True when the text ends inside a { }, (* *) or /* */ comment. String literals end at the end of
// their line, so they never continue onto the next one.
bool endsInsideComment(const std::string& s) {
  std::size_t i = 0, n = s.size();
  while (i < n) {
    char c = s[i];
    if (c == '\'') {
      std::size_t j = i + 1;
      while (j < n && s[j] != '\'' && s[j] != '\n') ++j;
      i = j + 1;
    } else if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      while (i < n && s[i] != '\n') ++i;
    } else if (c == '{') {
      std::size_t end = s.find('}', i + 1);
      if (end == std::string::npos) return true;
      i = end + 1;
    } else if ((c == '(' || c == '/') && i + 1 < n && s[i + 1] == '*') {
      std::size_t end = s.find(c == '(' ? "*)" : "*/", i + 2);
      if (end == std::string::npos) return true;
      i = end + 2;
    } else {
      ++i;
    }
  }
  return false;
}

// Records the first syntax error's offending token.
class FirstError : public antlr4::BaseErrorListener {
 public:
  void syntaxError(antlr4::Recognizer*, antlr4::Token* offending, size_t, size_t,
                   const std::string&, std::exception_ptr) override {
    if (seen) return;
    seen = true;
    atEof = !offending || offending->getType() == antlr4::Token::EOF;
  }
  bool seen = false;
  bool atEof = false;
};

// The parser's recursion is bounded for real inputs elsewhere; a pathological line here is
// simply treated as complete (the real parse then reports it).
struct Abort {};
class DepthLimit : public antlr4::tree::ParseTreeListener {
 public:
  void enterEveryRule(antlr4::ParserRuleContext*) override {
    if (++depth_ > kMaxParseDepth) throw Abort{};
  }
  void exitEveryRule(antlr4::ParserRuleContext*) override { --depth_; }
  void visitTerminal(antlr4::tree::TerminalNode*) override {}
  void visitErrorNode(antlr4::tree::ErrorNode*) override {}

 private:
  int depth_ = 0;
};

// Whether a statement ends with an `if` that has no `else` yet (an `else` on the next line would
// belong to it).
bool endsWithOpenIf(StarParser::StatementContext* s) {
  if (!s) return false;
  if (auto* i = dynamic_cast<StarParser::IfStmtContext*>(s))
    return !i->ELSE() || endsWithOpenIf(i->elseS);
  if (auto* w = dynamic_cast<StarParser::WhileStmtContext*>(s))
    return endsWithOpenIf(w->statement());
  if (auto* f = dynamic_cast<StarParser::ForStmtContext*>(s)) return endsWithOpenIf(f->statement());
  return false;
}

}  // namespace

bool replInputIncomplete(const std::string& text) {
  if (endsInsideComment(text)) return true;
  try {
    antlr4::ANTLRInputStream input(text);
    StarLexer lexer(&input);
    lexer.removeErrorListeners();
    antlr4::CommonTokenStream tokens(&lexer);
    tokens.fill();
    // The last real token: `if c then`, `else` and `while c do` are complete statements with an
    // empty body, but at the end of a line they almost always continue on the next one.
    const auto& all = tokens.getTokens();
    for (auto it = all.rbegin(); it != all.rend(); ++it) {
      std::size_t type = (*it)->getType();
      if (type == antlr4::Token::EOF) continue;
      if (type == StarLexer::THEN || type == StarLexer::ELSE || type == StarLexer::DO) return true;
      break;
    }
    StarParser parser(&tokens);
    parser.removeErrorListeners();
    FirstError first;
    parser.addErrorListener(&first);
    DepthLimit limit;
    parser.addParseListener(&limit);
    // SLL first, as the compiler parses: full LL prediction of a chain of `if ... else` looks
    // ahead to the chain's end at every `else` (quadratic in a pasted block). LL only when SLL
    // finds an error, so that the error's place (the end of the input or not) is exact.
    parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
        antlr4::atn::PredictionMode::SLL);
    auto* tree = parser.replInput();
    if (first.seen) {
      tokens.seek(0);
      parser.reset();
      first.seen = false;
      first.atEof = false;
      parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
          antlr4::atn::PredictionMode::LL);
      tree = parser.replInput();
    }
    if (first.seen) {
      if (first.atEof) return true;
      // Not declarations or statements: perhaps an expression split over lines (`x +`).
      tokens.seek(0);
      parser.reset();
      FirstError asExpr;
      parser.removeErrorListeners();
      parser.addErrorListener(&asExpr);
      parser.replExpr();
      return asExpr.seen && asExpr.atEof;
    }
    // An `if` without `else` written over several lines, not closed by a ';': the next line may
    // hold its `else` (on one line, `if c then s` runs at once).
    if (all.size() < 2 || all[all.size() - 2]->getType() == StarLexer::SEMI) return false;
    auto* last = tree->children.empty() ? nullptr : tree->children.back();
    for (auto it = tree->children.rbegin(); it != tree->children.rend(); ++it)
      if (!dynamic_cast<antlr4::tree::TerminalNode*>(*it)) {
        last = *it;
        break;
      }
    auto* stmt = dynamic_cast<StarParser::StatementContext*>(last);
    if (!stmt || !endsWithOpenIf(stmt)) return false;
    return stmt->getStart()->getLine() < all[all.size() - 2]->getLine();
  } catch (...) {
    return false;  // invalid UTF-8 or too deep: complete, and the real parse says why
  }
}

ParseMode fileParseMode(const std::string& text) {
  try {
    antlr4::ANTLRInputStream input(text);
    StarLexer lexer(&input);
    lexer.removeErrorListeners();
    auto first = lexer.nextToken();
    if (first->getType() == StarLexer::PROGRAM) return ParseMode::Program;
    if (first->getType() == StarLexer::UNIT) return ParseMode::Unit;
  } catch (...) {
    // invalid UTF-8: the real parse reports it
  }
  return ParseMode::ReplInput;
}

}  // namespace star
