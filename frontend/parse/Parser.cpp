#include "frontend/parse/Parser.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <sstream>
#include <vector>

#include "StarLexer.h"
#include "StarParser.h"
#include "antlr4-runtime.h"
#include "core/Interrupt.h"
#include "frontend/parse/AstBuilder.h"

namespace star {
namespace {

// How a token is named in messages: keywords as written in Star, others by what they are.
std::string tokenName(const antlr4::dfa::Vocabulary& vocab, std::size_t type) {
  if (type == antlr4::Token::EOF) return "end of file";
  switch (type) {
    case StarLexer::IDENT: return "identifier";
    case StarLexer::INT_LIT: return "integer";
    case StarLexer::REAL_LIT: return "real number";
    case StarLexer::BITS_LIT: return "word literal";
    case StarLexer::STRING_LIT: return "string";
    default: break;
  }
  std::string literal = vocab.getLiteralName(type);
  if (!literal.empty()) return literal;
  std::string symbolic = vocab.getSymbolicName(type);
  for (char& c : symbolic) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return "'" + symbolic + "'";
}

std::string describe(antlr4::Token* t) {
  if (!t || t->getType() == antlr4::Token::EOF) return "end of file";
  std::string text = t->getText();
  if (text.size() > 40) text = text.substr(0, 40) + "...";
  return "'" + text + "'";
}

class ErrorListener : public antlr4::BaseErrorListener {
 public:
  ErrorListener(std::uint32_t file, Diagnostics& diags) : file_(file), diags_(diags) {}

  void syntaxError(antlr4::Recognizer* recognizer, antlr4::Token* offending, size_t line,
                   size_t col, const std::string& msg, std::exception_ptr) override {
    SourceLoc loc{file_, static_cast<std::uint32_t>(line), static_cast<std::uint32_t>(col + 1)};
    if (line == lastLine_ && col == lastCol_) return;  // one message per position
    lastLine_ = line;
    lastCol_ = col;
    diags_.error(loc, rewrite(recognizer, offending, msg));
    noteUnclosedBegin(recognizer, offending);
  }

 private:
  // A missing 'end' shows where the program ends (or the next routine or section starts) while an
  // 'end' is still expected: a note then points at the 'begin' left open.
  void noteUnclosedBegin(antlr4::Recognizer* recognizer, antlr4::Token* offending) {
    auto* parser = dynamic_cast<antlr4::Parser*>(recognizer);
    if (!parser || !offending || notedBegin_ || diags_.errorCount() > Diagnostics::kMaxErrors) return;
    switch (offending->getType()) {
      case antlr4::Token::EOF: case StarLexer::DOT: case StarLexer::PROC: case StarLexer::FUNC:
      case StarLexer::VAR: case StarLexer::CONST:
        break;
      default:
        return;
    }
    antlr4::TokenStream* tokens = parser->getTokenStream();
    std::size_t upTo = offending->getTokenIndex();
    if (!parser->getExpectedTokens().contains(static_cast<std::size_t>(StarLexer::END))) {
      // In a unit, the final 'end' closed the routine instead: '.' comes where its ';' should be.
      const antlr4::Token* before = previousToken(parser, offending);
      if (offending->getType() != StarLexer::DOT || !before || before->getType() != StarLexer::END ||
          tokens->get(0)->getType() != StarLexer::UNIT)
        return;
      upTo = before->getTokenIndex();  // the begin that this 'end' closed is the one left open
    }
    notedBegin_ = true;  // one scan of the tokens per parse, however many errors follow
    const antlr4::Token* open = unclosedBegin(tokens, upTo);
    if (!open) return;
    diags_.note({file_, static_cast<std::uint32_t>(open->getLine()),
                 static_cast<std::uint32_t>(open->getCharPositionInLine() + 1)},
                "this 'begin' is not closed: add 'end' after its last statement");
  }

  // The 'begin' among the tokens before `upTo` that has no 'end'. An 'end' less indented than
  // the line of the innermost open 'begin' is taken to close an outer one, as its indentation
  // says: the inner one is then the 'begin' left open. Otherwise, the innermost still open.
  static const antlr4::Token* unclosedBegin(antlr4::TokenStream* stream, std::size_t upTo) {
    struct Open {
      const antlr4::Token* token;
      std::size_t indent;  // of the line the 'begin' is on
    };
    std::vector<Open> open;
    const antlr4::Token* misclosed = nullptr;
    std::size_t line = 0, indent = 0;
    for (std::size_t i = 0; i < upTo; ++i) {
      const antlr4::Token* t = stream->get(i);
      if (t->getChannel() != antlr4::Token::DEFAULT_CHANNEL) continue;
      if (t->getLine() != line) {
        line = t->getLine();
        indent = t->getCharPositionInLine();
      }
      if (t->getType() == StarLexer::BEGIN) {
        open.push_back({t, indent});
      } else if (t->getType() == StarLexer::END && !open.empty()) {
        while (open.size() >= 2 && open.back().indent > indent) {
          if (!misclosed) misclosed = open.back().token;
          open.pop_back();
        }
        open.pop_back();
      }
    }
    if (misclosed) return misclosed;
    return open.empty() ? nullptr : open.back().token;
  }

  std::string rewrite(antlr4::Recognizer* recognizer, antlr4::Token* offending,
                      const std::string& msg) {
    if (offending && offending->getType() == StarLexer::BAD_CHAR) {
      std::string c = offending->getText();
      if (c == "'") return "unterminated string literal";
      if (c == "{" ) return "unterminated comment";
      if (c == "%") return "'%' must be followed by binary digits (a word literal such as %1011)";
      unsigned char b = c.empty() ? 0 : static_cast<unsigned char>(c[0]);
      if (b < 0x20 || b >= 0x7f) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "invalid character (byte 0x%02x)", b);
        return buf;
      }
      if (c == "\"") return "invalid character '\"': strings are written between single quotes, as in 'text'";
      return "invalid character '" + c + "'";
    }
    // A comment opened with (* or /* and never closed lexes as '(' '*' or '/' '*'.
    if (offending && offending->getType() != antlr4::Token::EOF && offending->getInputStream()) {
      std::size_t start = offending->getStartIndex();
      std::string two = offending->getInputStream()->getText(antlr4::misc::Interval(start, start + 1));
      if (two == "(*" || two == "/*") return "unterminated comment";
    }
    auto* parser = dynamic_cast<antlr4::Parser*>(recognizer);
    if (msg.rfind("missing ", 0) == 0 && parser) {
      std::string expected = expectedText(parser);
      if (!expected.empty()) return "expected " + expected + " before " + describe(offending);
    }
    std::string expected;
    if (parser && msg.find("expecting") != std::string::npos) expected = expectedText(parser);
    // `a := 1` then `b := 2` on the next line: the parser wanted 'end', the user forgot a ';'.
    if (offending && startsStatement(offending->getType()) &&
        (expected.find("'end'") != std::string::npos || expected.find("'until'") != std::string::npos))
      return "expected ';' before " + describe(offending) + " (statements are separated by ';')";
    std::string out = "unexpected " + describe(offending);
    if (!expected.empty()) out += ", expected " + expected;
    // The habits Pascal and C programmers bring (LANGUAGE.md): '=' for assignment, ';' before else.
    const antlr4::Token* before = parser ? previousToken(parser, offending) : nullptr;
    if (offending && offending->getText() == "=" && before &&
        (before->getType() == StarLexer::IDENT || before->getText() == ")"))
      out += "; assignment is written ':=' ('=' compares)";
    if (offending && offending->getType() == StarLexer::ELSE && before && before->getText() == ";")
      out += "; a ';' before 'else' ends the 'if' statement: remove it";
    return out;
  }

  // The default-channel token before t in the parser's stream, or null.
  static const antlr4::Token* previousToken(antlr4::Parser* parser, const antlr4::Token* t) {
    if (!t || t->getType() == antlr4::Token::EOF) return nullptr;
    auto* stream = parser->getTokenStream();
    for (std::size_t i = t->getTokenIndex(); i-- > 0;) {
      antlr4::Token* p = stream->get(i);
      if (p->getChannel() == antlr4::Token::DEFAULT_CHANNEL) return p;
    }
    return nullptr;
  }

  static bool startsStatement(std::size_t type) {
    switch (type) {
      case StarLexer::IDENT: case StarLexer::IF: case StarLexer::WHILE: case StarLexer::FOR:
      case StarLexer::FORALL:
      case StarLexer::REPEAT: case StarLexer::BEGIN: case StarLexer::BREAK:
      case StarLexer::CONTINUE: case StarLexer::EXIT:
        return true;
      default:
        return false;
    }
  }

  // "';' or 'end'": what the parser could have accepted, when that is a short list.
  static std::string expectedText(antlr4::Parser* parser) {
    std::string expected;
    auto set = parser->getExpectedTokens();
    if (set.size() > 5) return expected;
    auto values = set.toList();
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (i) expected += i + 1 == values.size() ? " or " : ", ";
      expected += tokenName(parser->getVocabulary(), values[i]);
    }
    return expected;
  }

  std::uint32_t file_;
  Diagnostics& diags_;
  size_t lastLine_ = 0, lastCol_ = static_cast<size_t>(-1);
  bool notedBegin_ = false;
};

// Where the nesting went too deep (the token itself may be freed before it is reported).
struct TooDeep {
  std::uint32_t line = 1, col = 1;
};

// Counts rule nesting while parsing; deeper than kMaxParseDepth aborts the parse.
class DepthGuard : public antlr4::tree::ParseTreeListener {
 public:
  void enterEveryRule(antlr4::ParserRuleContext* ctx) override {
    if (gInterruptRequested.load(std::memory_order_relaxed)) throw ParseInterrupted{};
    if (++depth_ > kMaxParseDepth) {
      TooDeep deep;
      if (antlr4::Token* t = ctx->getStart()) {
        deep.line = static_cast<std::uint32_t>(t->getLine());
        deep.col = static_cast<std::uint32_t>(t->getCharPositionInLine() + 1);
      }
      throw deep;
    }
  }
  void exitEveryRule(antlr4::ParserRuleContext*) override { --depth_; }
  void visitTerminal(antlr4::tree::TerminalNode*) override {}
  void visitErrorNode(antlr4::tree::ErrorNode*) override {}

 private:
  int depth_ = 0;
};

// The ANTLR runtime decodes UTF-8 and throws on invalid input; find the first bad byte first.
// Returns the byte offset of the first invalid sequence, or npos.
std::size_t firstInvalidUtf8(const std::string& s) {
  std::size_t i = 0, n = s.size();
  while (i < n) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || i + len > n) return i;
    std::uint32_t cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
    for (std::size_t k = 1; k < len; ++k) {
      unsigned char cc = static_cast<unsigned char>(s[i + k]);
      if ((cc >> 6) != 0x2) return i;
      cp = (cp << 6) | (cc & 0x3F);
    }
    bool overlong = (len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
    if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
    i += len;
  }
  return std::string::npos;
}

}  // namespace

namespace {

// Reports the first invalid UTF-8 sequence of `text` (the ANTLR runtime would throw on it).
bool validUtf8(const std::string& text, std::uint32_t file, Diagnostics& diags) {
  std::size_t bad = firstInvalidUtf8(text);
  if (bad == std::string::npos) return true;
  std::uint32_t line = 1, col = 1;
  for (std::size_t i = 0; i < bad; ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      ++col;
    }
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%02x", static_cast<unsigned char>(text[bad]));
  diags.error({file, line, col}, std::string("this is not a text file: invalid UTF-8 byte 0x") + buf);
  return false;
}

void reportTooDeep(const TooDeep& deep, std::uint32_t file, Diagnostics& diags) {
  diags.error({file, deep.line, deep.col}, "program nested too deeply (more than " +
                                              std::to_string(kMaxParseDepth) + " levels of syntax)");
}

// The whole file in one parse: SLL, then (after an error) LL with error recovery.
std::unique_ptr<Program> parseWhole(const std::string& text, std::uint32_t file, ParseMode mode,
                                    Diagnostics& diags) {
  int errorsBefore = diags.errorCount();
  antlr4::ANTLRInputStream input(text);
  StarLexer lexer(&input);
  lexer.removeErrorListeners();  // BAD_CHAR tokens reach the parser and are reported there
  antlr4::CommonTokenStream tokens(&lexer);
  StarParser parser(&tokens);
  ErrorListener listener(file, diags);
  DepthGuard guard;
  parser.addParseListener(&guard);
  AstBuilder builder(file);

  auto parseTree = [&]() -> antlr4::ParserRuleContext* {
    switch (mode) {
      case ParseMode::Program: return parser.program();
      case ParseMode::Unit: return parser.unitFile();
      case ParseMode::ReplInput: return parser.replInput();
      case ParseMode::ReplExpr: return parser.replExpr();
    }
    return nullptr;
  };

  try {
    // Stage 1: fast SLL prediction, bailing out at the first error. Stage 2 (only when stage 1
    // failed): full LL prediction with error recovery, so every syntax error is reported.
    antlr4::ParserRuleContext* tree = nullptr;
    parser.removeErrorListeners();
    parser.setErrorHandler(std::make_shared<antlr4::BailErrorStrategy>());
    parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
        antlr4::atn::PredictionMode::SLL);
    try {
      tree = parseTree();
    } catch (const antlr4::ParseCancellationException&) {
      tokens.seek(0);
      parser.reset();
      parser.removeParseListeners();
      guard = DepthGuard();
      parser.addParseListener(&guard);
      parser.addErrorListener(&listener);
      parser.setErrorHandler(std::make_shared<antlr4::DefaultErrorStrategy>());
      parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
          antlr4::atn::PredictionMode::LL);
      tree = parseTree();
    }
    if (diags.errorCount() > errorsBefore || !tree) return nullptr;
    std::unique_ptr<Program> p;
    switch (mode) {
      case ParseMode::Program: p = builder.program(static_cast<StarParser::ProgramContext*>(tree)); break;
      case ParseMode::Unit: p = builder.unit(static_cast<StarParser::UnitFileContext*>(tree)); break;
      case ParseMode::ReplInput:
        p = builder.replInput(static_cast<StarParser::ReplInputContext*>(tree));
        break;
      case ParseMode::ReplExpr:
        p = builder.replExpr(static_cast<StarParser::ReplExprContext*>(tree));
        break;
    }
    builder.reportErrors(diags);
    return builder.hasErrors() ? nullptr : std::move(p);
  } catch (const TooDeep& deep) {
    reportTooDeep(deep, file, diags);
  } catch (const ParseInterrupted&) {
    diags.error({file, 0, 0}, "interrupted");
  }
  return nullptr;
}

}  // namespace

// ---------------------------------------------------------------- reading piece by piece

// The tokens and parse tree of one piece (a head, a declaration, a statement) are freed once its
// AST is built, so memory grows with the AST, not with ANTLR's tree of the whole file. Pieces are
// predicted with SLL only; a piece that fails throws NeedsWholeParse.
struct ProgramReader::Impl {
  Impl(const std::string& text, std::uint32_t file)
      : input(text), lexer(&input), tokens(&lexer), parser(&tokens), builder(file) {
    lexer.removeErrorListeners();
    parser.removeErrorListeners();
    parser.setErrorHandler(std::make_shared<antlr4::BailErrorStrategy>());
    parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
        antlr4::atn::PredictionMode::SLL);
    parser.addParseListener(&guard);
  }

  template <typename Build>
  auto piece(Build build) -> decltype(build()) {
    // The mark keeps the piece's tokens alive while its parse tree (which points at them) is
    // turned into the AST; the stream frees them once it is released.
    ssize_t mark = tokens.mark();
    try {
      auto result = build();
      parser.getTreeTracker().reset();  // the piece's parse tree is not needed any more
      tokens.release(mark);
      return result;
    } catch (const antlr4::ParseCancellationException&) {
      throw NeedsWholeParse{};
    } catch (const TooDeep& deep) {
      throw TooDeepAt{deep.line, deep.col};
    }
  }

  std::size_t next() { return tokens.LA(1); }

  // `begin statements end`, all of it (routine bodies).
  std::unique_ptr<BlockStmt> block() {
    auto b = open();
    while (StmtPtr s = statement()) b->body.push_back(std::move(s));
    piece([&] { return parser.blockClose(); });
    return b;
  }
  std::unique_ptr<BlockStmt> open() {
    return std::make_unique<BlockStmt>(
        piece([&] { return builder.loc(parser.blockOpen()->getStart()); }));
  }
  // The next statement of an open block, or null at its `end` (not consumed).
  StmtPtr statement() {
    for (;;) {
      if (next() == StarParser::END) return nullptr;
      StmtPtr s;
      if (next() != StarParser::SEMI) s = piece([&] { return builder.statement(parser.statement()); });
      if (next() == StarParser::SEMI) piece([&] { return parser.stmtSep(); });
      else if (next() != StarParser::END) throw NeedsWholeParse{};
      if (s) return s;
    }
  }

  antlr4::ANTLRInputStream input;
  StarLexer lexer;
  antlr4::UnbufferedTokenStream tokens;
  StarParser parser;
  DepthGuard guard;
  AstBuilder builder;
  bool bodyOpen = false;
};

ProgramReader::ProgramReader(const SourceManager& sources, std::uint32_t file)
    : impl_(std::make_unique<Impl>(sources.text(file), file)) {}
ProgramReader::~ProgramReader() = default;

std::unique_ptr<Program> ProgramReader::declarations(ParseMode mode) {
  Impl& r = *impl_;
  std::unique_ptr<Program> p =
      mode == ParseMode::Program ? r.piece([&] { return r.builder.programHead(r.parser.programHead()); })
                                 : r.piece([&] { return r.builder.unitHead(r.parser.unitHead()); });
  for (;;) {
    std::size_t t = r.next();
    if (t == StarParser::CONST || t == StarParser::VAR) {
      r.piece([&] {
        r.builder.declaration(r.parser.declaration(), *p);
        return 0;
      });
    } else if (t == StarParser::PROC || t == StarParser::FUNC) {
      auto routine = r.piece([&] {
        return t == StarParser::PROC ? r.builder.routineHead(r.parser.procHead(), nullptr)
                                     : r.builder.routineHead(nullptr, r.parser.funcHead());
      });
      routine->body = r.block();
      routine->endLoc = r.piece([&] { return r.builder.loc(r.parser.stmtSep()->getStart()); });
      p->routines.push_back(std::move(routine));
    } else {
      break;
    }
  }
  if (mode == ParseMode::Program) {
    p->body = r.open();  // its statements come from nextStatement()
    r.bodyOpen = true;
  } else {
    r.piece([&] { return r.parser.fileClose(); });
  }
  return p;
}

StmtPtr ProgramReader::nextStatement() {
  Impl& r = *impl_;
  if (!r.bodyOpen) return nullptr;
  if (StmtPtr s = r.statement()) return s;
  r.piece([&] { return r.parser.fileClose(); });
  r.bodyOpen = false;
  return nullptr;
}

void ProgramReader::reportErrors(Diagnostics& diags) const { impl_->builder.reportErrors(diags); }
bool ProgramReader::hasErrors() const { return impl_->builder.hasErrors(); }

std::unique_ptr<Program> parseSource(const SourceManager& sources, std::uint32_t file,
                                     ParseMode mode, Diagnostics& diags) {
  const std::string& text = sources.text(file);
  if (!validUtf8(text, file, diags)) return nullptr;
  if (mode == ParseMode::Program || mode == ParseMode::Unit) {
    try {
      ProgramReader reader(sources, file);
      auto p = reader.declarations(mode);
      while (StmtPtr s = reader.nextStatement()) p->body->body.push_back(std::move(s));
      reader.reportErrors(diags);
      return reader.hasErrors() ? nullptr : std::move(p);
    } catch (const ProgramReader::NeedsWholeParse&) {
      // A syntax error (or input SLL cannot decide): the whole file the usual way.
    } catch (const ProgramReader::TooDeepAt& deep) {
      reportTooDeep(TooDeep{deep.line, deep.col}, file, diags);
      return nullptr;
    } catch (const ParseInterrupted&) {
      diags.error({file, 0, 0}, "interrupted");
      return nullptr;
    }
  }
  return parseWhole(text, file, mode, diags);
}

namespace {

// The byte offset of a 1-based line and column, clamped to the text.
std::size_t offsetOf(const std::string& text, std::uint32_t line, std::uint32_t col) {
  std::size_t at = 0;
  for (std::uint32_t l = 1; l < line && at < text.size(); ++l) {
    const std::size_t nl = text.find('\n', at);
    at = nl == std::string::npos ? text.size() : nl + 1;
  }
  return std::min(text.size(), at + (col > 0 ? col - 1 : 0));
}

// The first syntax error of `text` parsed as file `file` (a copy of the sources), or none.
struct Attempt {
  std::unique_ptr<Program> program;
  bool failed = false;
  std::size_t errorAt = 0;
};
Attempt parseQuietly(const SourceManager& sources, std::uint32_t file, const std::string& text, ParseMode mode) {
  SourceManager copy;
  for (std::uint32_t f = 0; f < sources.size(); ++f) copy.add(sources.path(f), f == file ? text : sources.text(f));
  std::ostringstream discarded;
  Diagnostics quiet(copy, discarded);
  Attempt a;
  bool first = true;
  quiet.setListener([&](Severity s, SourceLoc loc, const std::string&) {
    if (s != Severity::Error || !first) return;
    first = false;
    a.errorAt = loc.file == file ? offsetOf(text, loc.line, loc.col) : 0;
  });
  a.program = parseSource(copy, file, mode, quiet);
  a.failed = !a.program;
  return a;
}

bool isWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Repairs to try at the first error (the offending token starts at `at`), each keeping every
// other token at its line and column where it can: a ';' before the token (in a blank between
// it and the token before, or at the end of that token's line), or the token blanked out.
std::vector<std::string> repairs(const std::string& text, std::size_t at) {
  std::vector<std::string> out;
  std::size_t prev = at;
  while (prev > 0 && std::isspace(static_cast<unsigned char>(text[prev - 1]))) --prev;
  if (prev > 0) {
    std::string t = text;
    if (prev < at && (text[prev] == ' ' || text[prev] == '\t')) t[prev] = ';';
    else t.insert(prev, ";");
    out.push_back(std::move(t));
  }
  if (at < text.size() && !std::isspace(static_cast<unsigned char>(text[at]))) {
    std::size_t end = at + 1;
    if (isWordChar(text[at]))
      while (end < text.size() && isWordChar(text[end])) ++end;
    std::string t = text;
    for (std::size_t i = at; i < end; ++i) t[i] = ' ';
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace

std::unique_ptr<Program> parseForEditor(const SourceManager& sources, std::uint32_t file, ParseMode mode,
                                        Diagnostics& diags, bool* recovered) {
  if (recovered) *recovered = false;
  const int errorsBefore = diags.errorCount();
  auto p = parseSource(sources, file, mode, diags);
  if (p || diags.errorCount() == errorsBefore || firstInvalidUtf8(sources.text(file)) != std::string::npos)
    return p;
  // A few repairs, each at the first error left, while each moves it on; the messages are the
  // original text's (reported above).
  std::string text = sources.text(file);
  Attempt now = parseQuietly(sources, file, text, mode);
  for (int round = 0; round < 8 && now.failed; ++round) {
    bool moved = false;
    for (std::string& candidate : repairs(text, now.errorAt)) {
      Attempt next = parseQuietly(sources, file, candidate, mode);
      if (!next.failed || next.errorAt > now.errorAt) {
        text = std::move(candidate);
        now = std::move(next);
        moved = true;
        break;
      }
    }
    if (!moved) break;
  }
  if (now.failed) return nullptr;
  if (recovered) *recovered = true;
  return std::move(now.program);
}

bool validSourceText(const SourceManager& sources, std::uint32_t file, Diagnostics& diags) {
  return validUtf8(sources.text(file), file, diags);
}

}  // namespace star
