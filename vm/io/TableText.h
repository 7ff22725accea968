// The table text format: one row per line, one '0' or '1' character per column (spaces and tabs
// between them are ignored); blank lines and lines starting with '#' are skipped; every row has
// the same number of columns. LOAD(T, file) and SAVE(T, file) use it (docs/LANGUAGE.md).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace star {

// "path:line: message" for malformed files, "path: message" for unreadable ones.
struct TableFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A table as the backends exchange it: column-major packed bits (see vm/backend/Backend.h).
struct TableData {
  std::uint64_t rows = 0, cols = 0;
  std::vector<std::uint64_t> words;
  bool get(std::uint64_t i, std::uint64_t j) const;
  void set(std::uint64_t i, std::uint64_t j);
  void reshape(std::uint64_t rows, std::uint64_t cols);  // all zeros
};

TableData parseTableText(const std::string& text, const std::string& nameForErrors);
TableData readTableFile(const std::string& path);
std::string formatTableText(const TableData& t);
void writeTableFile(const std::string& path, const TableData& t);

// Reads a whole file; throws TableFileError("path: cannot open: reason").
// The whole file (bounded by the memory limit; a directory is an error).
std::string readWholeFile(const std::string& path);
// Writes the file and checks that it reached the disk (a full disk is an error, not silence).
void writeWholeFile(const std::string& path, const std::string& text);

}  // namespace star
