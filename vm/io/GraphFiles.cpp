#include "vm/io/GraphFiles.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

#include "core/BitLayout.h"
#include "core/MemoryLimit.h"
#include "core/Printable.h"

namespace star {
namespace {

[[noreturn]] void fail(const std::string& name, std::size_t line, const std::string& msg) {
  throw TableFileError(name + ":" + std::to_string(line) + ": " + msg);
}

std::uint64_t bitLength(std::uint64_t v) {
  std::uint64_t b = 0;
  while (v) {
    ++b;
    v >>= 1;
  }
  return b;
}

bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Vertices beyond this make an adjacency table larger than any memory we would get.
constexpr std::uint64_t kMaxVertices = 1ull << 32;

}  // namespace

namespace {

// One line's blank-separated tokens with their columns, read strictly: a number is all digits
// (an optional sign for weights), and nothing may follow the fields a line has.
class LineTokens {
 public:
  // `expected` describes the whole line, for a line that stops short ("'a TAIL HEAD WEIGHT'").
  LineTokens(const std::string& line, const std::string& name, std::size_t lineNo)
      : name_(name), lineNo_(lineNo) {
    std::size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
      if (i == line.size()) break;
      std::size_t start = i;
      while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
      tokens_.push_back({line.substr(start, i - start), start + 1});
    }
  }
  bool done() const { return next_ == tokens_.size(); }
  void expect(std::string expected) { expected_ = std::move(expected); }
  std::string word(const std::string& what) { return take(what).text; }
  std::uint64_t count(const std::string& what) {
    const Token& t = take(what);
    std::uint64_t v = 0;
    auto [end, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
    if (t.text.empty() || t.text[0] == '+' || t.text[0] == '-' ||
        end != t.text.data() + t.text.size())
      failAt(t, what + " '" + shown(t.text) + "' is not a whole number");
    if (ec == std::errc::result_out_of_range) failAt(t, what + " " + shown(t.text) + " is too large");
    return v;
  }
  // A weight: an integer (with a sign); `realAllowed` also accepts a real with a whole value
  // (Matrix Market real fields), exactly.
  std::int64_t weight(bool realAllowed) {
    const Token& t = take("a weight");
    std::int64_t v = 0;
    const char* first = t.text.data();
    if (!t.text.empty() && t.text[0] == '+') ++first;
    auto [end, ec] = std::from_chars(first, t.text.data() + t.text.size(), v);
    if (end == t.text.data() + t.text.size() && first != end) {
      if (ec == std::errc::result_out_of_range)
        failAt(t, "weight " + shown(t.text) + " does not fit in 64 bits");
      return v;
    }
    if (realAllowed) {
      double d = 0;
      auto [dend, dec] = std::from_chars(first, t.text.data() + t.text.size(), d);
      if (dec == std::errc() && dend == t.text.data() + t.text.size()) {
        if (d != std::floor(d)) failAt(t, "weight " + shown(t.text) + " is not a whole number");
        if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0))
          failAt(t, "weight " + shown(t.text) + " does not fit in 64 bits");
        return static_cast<std::int64_t>(d);
      }
    }
    failAt(t, "weight '" + shown(t.text) + "' is not an integer");
  }
  void end() {
    if (!done()) failAt(tokens_[next_], "unexpected '" + shown(tokens_[next_].text) + "' at the end of the line");
  }
  [[noreturn]] void failHere(const std::string& msg) const {
    throw TableFileError(name_ + ":" + std::to_string(lineNo_) + ": " + msg);
  }

 private:
  struct Token {
    std::string text;
    std::size_t col;
  };
  const Token& take(const std::string& what) {
    if (done()) failHere("expected " + (expected_.empty() ? what : expected_));
    return tokens_[next_++];
  }
  [[noreturn]] void failAt(const Token& t, const std::string& msg) const {
    throw TableFileError(name_ + ":" + std::to_string(lineNo_) + ":" + std::to_string(t.col) + ": " + msg);
  }
  static std::string shown(const std::string& s) { return printable(s.size() > 30 ? s.substr(0, 30) + "..." : s); }

  std::vector<Token> tokens_;
  std::size_t next_ = 0;
  std::string expected_;
  const std::string& name_;
  std::size_t lineNo_;
};

}  // namespace

Graph parseGraph(const std::string& text, const std::string& name, bool matrixMarket) {
  Graph g;
  std::size_t lineNo = 0, pos = 0;
  bool haveHeader = false;
  bool symmetric = false, pattern = false, realField = false;
  // What the size line (Matrix Market) or the 'p' line (DIMACS) declares, and what came: a
  // truncated or over-long file is an error, not a different graph.
  std::uint64_t declared = 0, entries = 0;
  std::size_t headerLine = 0;
  while (pos < text.size()) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string::npos) eol = text.size();
    std::string line = text.substr(pos, eol - pos);
    pos = eol + 1;
    ++lineNo;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find('\0') != std::string::npos) fail(name, lineNo, "a NUL byte: this is not a text file");
    LineTokens l(line, name, lineNo);
    if (matrixMarket) {
      if (lineNo == 1) {
        if (line.rfind("%%MatrixMarket", 0) != 0) fail(name, lineNo, "not a Matrix Market file (no %%MatrixMarket banner)");
        std::istringstream b(line);
        std::string banner, object, format, field, symmetry;
        b >> banner >> object >> format >> field >> symmetry;
        if (object != "matrix" || format != "coordinate")
          fail(name, lineNo, "only 'matrix coordinate' Matrix Market files are supported");
        if (field != "pattern" && field != "integer" && field != "real")
          fail(name, lineNo, "unsupported field '" + printable(field) + "' (pattern, integer or real)");
        if (symmetry != "general" && symmetry != "symmetric")
          fail(name, lineNo, "unsupported symmetry '" + printable(symmetry) + "' (general or symmetric)");
        pattern = field == "pattern";
        realField = field == "real";
        symmetric = symmetry == "symmetric";
        continue;
      }
      if (l.done() || line[0] == '%') continue;
      if (!haveHeader) {
        l.expect("'rows cols entries'");
        std::uint64_t rows = l.count("the number of rows");
        std::uint64_t cols = l.count("the number of columns");
        declared = l.count("the number of entries");
        l.end();
        headerLine = lineNo;
        if (rows != cols) fail(name, lineNo, "an adjacency matrix must be square (" + std::to_string(rows) + " x " + std::to_string(cols) + ")");
        if (rows > kMaxVertices) fail(name, lineNo, "too many vertices");
        g.vertices = rows;
        haveHeader = true;
        continue;
      }
      if (++entries > declared)
        fail(name, lineNo, "more entries than the " + std::to_string(declared) + " that the size line (line " +
                               std::to_string(headerLine) + ") declares");
      l.expect(pattern ? "'row column'" : "'row column value'");
      std::uint64_t u = l.count("a row"), v = l.count("a column");
      std::int64_t w = pattern ? 1 : l.weight(realField);
      l.end();
      if (u < 1 || v < 1 || u > g.vertices || v > g.vertices)
        fail(name, lineNo, "entry (" + std::to_string(u) + ", " + std::to_string(v) + ") is outside the " + std::to_string(g.vertices) + " x " + std::to_string(g.vertices) + " matrix");
      g.edges.push_back({u, v, w});
      if (symmetric && u != v) g.edges.push_back({v, u, w});
      continue;
    }
    // DIMACS
    if (l.done() || line[0] == 'c') continue;
    std::string tag = l.word("a line tag");
    if (tag == "p") {
      if (haveHeader) fail(name, lineNo, "second 'p' line");
      l.expect("'p sp VERTICES ARCS'");
      l.word("'p sp VERTICES ARCS'");
      g.vertices = l.count("the number of vertices");
      declared = l.count("the number of arcs");
      l.end();
      headerLine = lineNo;
      if (g.vertices > kMaxVertices) fail(name, lineNo, "too many vertices");
      haveHeader = true;
    } else if (tag == "a") {
      if (!haveHeader) fail(name, lineNo, "arc before the 'p sp N M' line");
      if (++entries > declared)
        fail(name, lineNo, "more arcs than the " + std::to_string(declared) + " that the 'p' line (line " +
                               std::to_string(headerLine) + ") declares");
      l.expect("'a TAIL HEAD WEIGHT'");
      std::uint64_t u = l.count("a tail"), v = l.count("a head");
      std::int64_t w = l.weight(false);
      l.end();
      if (u < 1 || v < 1 || u > g.vertices || v > g.vertices)
        fail(name, lineNo, "arc " + std::to_string(u) + " -> " + std::to_string(v) + " names a vertex outside 1.." + std::to_string(g.vertices));
      g.edges.push_back({u, v, w});
    } else {
      fail(name, lineNo, "unexpected line (expected 'c', 'p' or 'a')");
    }
  }
  const std::size_t last = std::max<std::size_t>(lineNo, 1);  // an empty file is located at line 1
  if (text.empty()) fail(name, last, matrixMarket ? "the file is empty (no %%MatrixMarket banner)" : "the file is empty (no 'p sp N M' line)");
  if (!haveHeader) fail(name, last, matrixMarket ? "missing the size line" : "missing the 'p sp N M' line");
  if (entries < declared)
    fail(name, last, "the file ends after " + std::to_string(entries) + " of the " + std::to_string(declared) +
                         (matrixMarket ? " entries that the size line (line " : " arcs that the 'p' line (line ") +
                         std::to_string(headerLine) + ") declares");
  return g;
}

Graph readGraphFile(const std::string& path) {
  std::string text = readWholeFile(path);
  bool mtx = endsWith(path, ".mtx") || text.rfind("%%MatrixMarket", 0) == 0;
  return parseGraph(text, path, mtx);
}

TableData adjacencyTable(const Graph& g) {
  requireMemory(g.vertices * wordsForBits(g.vertices) * 8, describeTable(g.vertices, g.vertices),
                memoryInUse());
  TableData t;
  t.reshape(g.vertices, g.vertices);
  for (auto& e : g.edges) t.set(e.tail - 1, e.head - 1);
  return t;
}

TableData edgeListTable(const Graph& g, std::uint64_t& vertexBits, std::uint64_t& weightBits,
                        const std::string& name) {
  std::uint64_t maxWeight = 0;
  for (auto& e : g.edges) {
    if (e.weight < 0)
      throw TableFileError(name + ": negative weight " + std::to_string(e.weight) +
                           " cannot be stored as an unsigned binary code");
    maxWeight = std::max<std::uint64_t>(maxWeight, static_cast<std::uint64_t>(e.weight));
  }
  vertexBits = std::max<std::uint64_t>(1, bitLength(g.vertices));
  weightBits = std::max<std::uint64_t>(1, bitLength(maxWeight));
  requireMemory((2 * vertexBits + weightBits) * wordsForBits(g.edges.size()) * 8,
                describeTable(g.edges.size(), 2 * vertexBits + weightBits), memoryInUse());
  TableData t;
  t.reshape(g.edges.size(), 2 * vertexBits + weightBits);
  auto put = [&](std::uint64_t row, std::uint64_t col0, std::uint64_t width, std::uint64_t value) {
    for (std::uint64_t b = 0; b < width; ++b)
      if ((value >> (width - 1 - b)) & 1) t.set(row, col0 + b);
  };
  for (std::uint64_t r = 0; r < g.edges.size(); ++r) {
    put(r, 0, vertexBits, g.edges[r].tail);
    put(r, vertexBits, vertexBits, g.edges[r].head);
    put(r, 2 * vertexBits, weightBits, static_cast<std::uint64_t>(g.edges[r].weight));
  }
  return t;
}

}  // namespace star
