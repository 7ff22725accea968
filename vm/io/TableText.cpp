#include "vm/io/TableText.h"

#include <cstring>
#include <sstream>

#include "core/FileText.h"
#include "core/Interrupt.h"
#include "core/MemoryLimit.h"
#include "core/Printable.h"

namespace star {

bool TableData::get(std::uint64_t i, std::uint64_t j) const {
  std::uint64_t stride = (rows + 63) / 64;
  return (words[j * stride + i / 64] >> (i % 64)) & 1;
}

void TableData::set(std::uint64_t i, std::uint64_t j) {
  std::uint64_t stride = (rows + 63) / 64;
  words[j * stride + i / 64] |= 1ull << (i % 64);
}

void TableData::reshape(std::uint64_t r, std::uint64_t c) {
  rows = r;
  cols = c;
  words.assign(((r + 63) / 64) * c, 0);
}

std::string readWholeFile(const std::string& path) {
  std::string error;
  auto text = readBoundedFile(path, memoryLimit(), error);
  if (!text) {
    if (error == "interrupted") throw Interrupted();
    if (error == "is a directory") throw TableFileError(path + ": is a directory, not a file");
    const std::string prefix = "cannot read: ";
    if (error.rfind(prefix, 0) == 0) throw TableFileError(path + ": cannot open: " + error.substr(prefix.size()));
    if (error.rfind("is larger than", 0) == 0)
      throw TableFileError(path + ": the file " + error + " (the memory limit)");
    throw TableFileError(path + ": the file " + error);
  }
  return std::move(*text);
}

void writeWholeFile(const std::string& path, const std::string& text) {
  std::string error;
  if (writeFileText(path, text, error)) return;
  if (error == "interrupted") throw Interrupted();
  throw TableFileError(path + ": " + error);
}

TableData parseTableText(const std::string& text, const std::string& name) {
  std::vector<std::string> rows;
  std::size_t cols = 0;
  std::size_t lineNo = 0, pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    ++lineNo;
    std::string bits;
    bool comment = false;
    for (std::size_t k = pos; k < end; ++k) {
      char c = text[k];
      if (c == '0' || c == '1') bits += c;
      else if (c == '#' && bits.empty()) { comment = true; break; }
      else if (c == ' ' || c == '\t' || c == '\r') continue;
      else
        throw TableFileError(name + ":" + std::to_string(lineNo) + ":" + std::to_string(k - pos + 1) +
                             ": unexpected character '" + printable(std::string(1, c)) +
                             "' (a table row is made of 0 and 1)");
    }
    pos = end + 1;
    if (comment || bits.empty()) continue;
    if (rows.empty()) cols = bits.size();
    else if (bits.size() != cols)
      throw TableFileError(name + ":" + std::to_string(lineNo) + ": row has " +
                           std::to_string(bits.size()) + " columns, expected " +
                           std::to_string(cols) + " like the first row");
    rows.push_back(std::move(bits));
  }
  TableData t;
  t.reshape(rows.size(), cols);
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (std::size_t j = 0; j < cols; ++j)
      if (rows[i][j] == '1') t.set(i, j);
  return t;
}

TableData readTableFile(const std::string& path) { return parseTableText(readWholeFile(path), path); }

std::string formatTableText(const TableData& t) {
  // One character a bit and a newline a row: up to 16 times the table's own storage.
  const std::uint64_t bytes = saturatingProduct(t.cols + 1, t.rows);
  requireMemory(bytes, "the text of " + describeTable(t.rows, t.cols), memoryInUse());
  std::string out;
  out.reserve(bytes);
  for (std::uint64_t i = 0; i < t.rows; ++i) {
    for (std::uint64_t j = 0; j < t.cols; ++j) out += t.get(i, j) ? '1' : '0';
    out += '\n';
  }
  return out;
}

void writeTableFile(const std::string& path, const TableData& t) {
  writeWholeFile(path, formatTableText(t));
}

}  // namespace star
