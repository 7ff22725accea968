#include "vm/io/GraphFiles.h"

#include <cmath>
#include <sstream>

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

Graph parseGraph(const std::string& text, const std::string& name, bool matrixMarket) {
  Graph g;
  std::istringstream in(text);
  std::string line;
  std::size_t lineNo = 0;
  bool haveHeader = false;
  bool symmetric = false, pattern = false;
  std::uint64_t declaredEdges = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (matrixMarket) {
      if (lineNo == 1) {
        if (line.rfind("%%MatrixMarket", 0) != 0) fail(name, lineNo, "not a Matrix Market file (no %%MatrixMarket banner)");
        std::istringstream b(line);
        std::string banner, object, format, field, symmetry;
        b >> banner >> object >> format >> field >> symmetry;
        if (object != "matrix" || format != "coordinate")
          fail(name, lineNo, "only 'matrix coordinate' Matrix Market files are supported");
        if (field != "pattern" && field != "integer" && field != "real")
          fail(name, lineNo, "unsupported field '" + field + "' (pattern, integer or real)");
        if (symmetry != "general" && symmetry != "symmetric")
          fail(name, lineNo, "unsupported symmetry '" + symmetry + "' (general or symmetric)");
        pattern = field == "pattern";
        symmetric = symmetry == "symmetric";
        continue;
      }
      if (line.empty() || line[0] == '%') continue;
      std::istringstream l(line);
      if (!haveHeader) {
        std::uint64_t rows = 0, cols = 0;
        if (!(l >> rows >> cols >> declaredEdges)) fail(name, lineNo, "expected 'rows cols entries'");
        if (rows != cols) fail(name, lineNo, "an adjacency matrix must be square (" + std::to_string(rows) + " x " + std::to_string(cols) + ")");
        if (rows > kMaxVertices) fail(name, lineNo, "too many vertices");
        g.vertices = rows;
        haveHeader = true;
        continue;
      }
      std::uint64_t u = 0, v = 0;
      double w = 1;
      if (!(l >> u >> v) || (!pattern && !(l >> w))) fail(name, lineNo, "expected 'row column" + std::string(pattern ? "'" : " value'"));
      if (u < 1 || v < 1 || u > g.vertices || v > g.vertices)
        fail(name, lineNo, "entry (" + std::to_string(u) + ", " + std::to_string(v) + ") is outside the " + std::to_string(g.vertices) + " x " + std::to_string(g.vertices) + " matrix");
      if (w != std::floor(w)) fail(name, lineNo, "weights must be integers");
      g.edges.push_back({u, v, static_cast<std::int64_t>(w)});
      if (symmetric && u != v) g.edges.push_back({v, u, static_cast<std::int64_t>(w)});
      continue;
    }
    // DIMACS
    if (line.empty() || line[0] == 'c') continue;
    std::istringstream l(line);
    std::string tag;
    l >> tag;
    if (tag == "p") {
      std::string kind;
      if (haveHeader) fail(name, lineNo, "second 'p' line");
      if (!(l >> kind >> g.vertices >> declaredEdges)) fail(name, lineNo, "expected 'p sp VERTICES ARCS'");
      if (g.vertices > kMaxVertices) fail(name, lineNo, "too many vertices");
      haveHeader = true;
    } else if (tag == "a") {
      if (!haveHeader) fail(name, lineNo, "arc before the 'p sp N M' line");
      std::uint64_t u = 0, v = 0;
      std::int64_t w = 0;
      if (!(l >> u >> v >> w)) fail(name, lineNo, "expected 'a TAIL HEAD WEIGHT'");
      if (u < 1 || v < 1 || u > g.vertices || v > g.vertices)
        fail(name, lineNo, "arc " + std::to_string(u) + " -> " + std::to_string(v) + " names a vertex outside 1.." + std::to_string(g.vertices));
      g.edges.push_back({u, v, w});
    } else {
      fail(name, lineNo, "unexpected line (expected 'c', 'p' or 'a')");
    }
  }
  if (!haveHeader) fail(name, lineNo, matrixMarket ? "missing the size line" : "missing the 'p sp N M' line");
  return g;
}

Graph readGraphFile(const std::string& path) {
  std::string text = readWholeFile(path);
  bool mtx = endsWith(path, ".mtx") || text.rfind("%%MatrixMarket", 0) == 0;
  return parseGraph(text, path, mtx);
}

TableData adjacencyTable(const Graph& g) {
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
