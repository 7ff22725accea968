#include "cli/repl/ValuePrinter.h"

#include <cmath>
#include <cstdio>
#include <ostream>
#include <vector>

#include "cli/repl/BitPicture.h"
#include "vm/io/BitBlocks.h"

namespace star::repl {
namespace {

std::string bitString(Backend& backend, Handle h, std::uint64_t limit) {
  std::uint64_t n = backend.length(h);
  std::vector<std::uint64_t> words;
  backend.readBits(h, words);
  std::uint64_t shown = n < limit ? n : limit;
  std::string s(shown, '0');
  for (std::uint64_t i = 0; i < shown; ++i)
    if ((words[i / 64] >> (i % 64)) & 1) s[i] = '1';
  return s;
}

std::string plural(std::uint64_t n, const char* what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

void printBits(std::ostream& out, Backend& backend, Type type, Handle h) {
  std::uint64_t n = backend.length(h);
  if (n == 0) {
    out << "(empty " << typeName(type) << ")\n";
    return;
  }
  out << bitString(backend, h, kMaxShownBits);
  if (n > kMaxShownBits) out << "...";
  out << " (" << typeName(type) << ", " << plural(n, "bit");
  if (n > kMaxShownBits) out << ", " << plural(backend.count(h), "one");
  out << ")\n";
}

void printTable(std::ostream& out, Backend& backend, Handle t) {
  std::uint64_t rows = backend.rows(t), cols = backend.cols(t);
  out << "table " << rows << " x " << cols;
  if (cols > kMaxShownCols) out << " (first " << kMaxShownCols << " columns shown)";
  out << "\n";
  if (rows == 0 || cols == 0) return;
  std::uint64_t shownRows = rows < kMaxShownRows ? rows : kMaxShownRows;
  int width = static_cast<int>(std::to_string(shownRows).size());
  // Row by row through a scratch word, so that a huge table is not copied to the host whole.
  Handle row = backend.createBits();
  try {
    backend.resizeBits(row, cols);
    for (std::uint64_t i = 0; i < shownRows; ++i) {
      backend.getRow(row, t, i);
      char label[32];
      std::snprintf(label, sizeof label, "%*llu  ", width, static_cast<unsigned long long>(i + 1));
      out << label << bitString(backend, row, kMaxShownCols) << (cols > kMaxShownCols ? "..." : "")
          << "\n";
    }
  } catch (...) {
    backend.destroy(row);
    throw;
  }
  backend.destroy(row);
  if (rows > shownRows) out << "... " << plural(rows - shownRows, "more row") << "\n";
}

}  // namespace

std::string scalarText(Type type, Interpreter::Value value) {
  switch (type) {
    case Type::Integer:
      return std::to_string(value.i);
    case Type::Boolean:
      return value.i ? "true" : "false";
    case Type::String:
      return Interpreter::text(value);
    case Type::Real: {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.15g", value.f);
      std::string s = buf;
      if (std::isfinite(value.f) && s.find_first_of(".en") == std::string::npos) s += ".0";
      return s;
    }
    default:
      return "?";
  }
}

void printValue(std::ostream& out, Backend& backend, Type type, Interpreter::Value value) {
  if (isBits(type))
    printBits(out, backend, type, static_cast<Handle>(value.u));
  else if (type == Type::Table)
    printTable(out, backend, static_cast<Handle>(value.u));
  else
    out << scalarText(type, value) << "\n";
}

void drawValue(std::ostream& out, Backend& backend, Type type, Interpreter::Value value,
               int width) {
  Handle h = static_cast<Handle>(value.u);
  if (type == Type::Table) {
    TableData t;
    t.rows = backend.rows(h);
    t.cols = backend.cols(h);
    backend.readTable(h, t.words);
    out << drawBits(t, "table " + std::to_string(t.rows) + " x " + std::to_string(t.cols), width);
    return;
  }
  std::uint64_t n = backend.length(h);
  if (n == 0) {
    out << "(empty " << typeName(type) << ")\n";
    return;
  }
  std::vector<std::uint64_t> words;
  backend.readBits(h, words);
  TableData t = type == Type::Word ? wordAsTable(n, words) : sliceAsTable(n, words);
  out << drawBits(t, std::string(typeName(type)) + ", " + plural(n, "bit"), width);
}

std::string valueSummary(Backend& backend, Type type, Interpreter::Value value) {
  Handle h = static_cast<Handle>(value.u);
  if (isBits(type)) {
    std::uint64_t n = backend.length(h);
    if (n == 0) return "(empty)";
    if (n <= 64) return bitString(backend, h, n) + " (" + plural(n, "bit") + ")";
    return "(" + plural(n, "bit") + ", " + plural(backend.count(h), "one") + ")";
  }
  if (type == Type::Table)
    return "(" + std::to_string(backend.rows(h)) + " x " + std::to_string(backend.cols(h)) + ")";
  if (type == Type::String) return "'" + scalarText(type, value) + "'";
  return scalarText(type, value);
}

std::string typeText(Type type, const Shape& shape) {
  std::string s = typeName(type);
  if (isBits(type) && shape.length >= 0) s += "(" + std::to_string(shape.length) + ")";
  if (type == Type::Table && shape.rows >= 0 && shape.cols >= 0)
    s += "(" + std::to_string(shape.rows) + ", " + std::to_string(shape.cols) + ")";
  return s;
}

}  // namespace star::repl
