#include "vm/io/TableText.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

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
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TableFileError(path + ": cannot open: " + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw TableFileError(path + ": read error");
  return ss.str();
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
        throw TableFileError(name + ":" + std::to_string(lineNo) + ": unexpected character '" +
                             std::string(1, c) + "' (a table row is made of 0 and 1)");
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
  std::string out;
  out.reserve((t.cols + 1) * t.rows);
  for (std::uint64_t i = 0; i < t.rows; ++i) {
    for (std::uint64_t j = 0; j < t.cols; ++j) out += t.get(i, j) ? '1' : '0';
    out += '\n';
  }
  return out;
}

void writeTableFile(const std::string& path, const TableData& t) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw TableFileError(path + ": cannot write: " + std::strerror(errno));
  out << formatTableText(t);
  if (!out) throw TableFileError(path + ": write error");
}

}  // namespace star
