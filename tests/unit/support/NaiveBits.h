// A naive reference model of the backend primitives on std::vector<bool>, for tests of any
// backend: obviously correct rather than fast. As in Backend.h, bit 0 of a word is its most
// significant bit; the arithmetic here goes bit by bit from the least significant end (the last
// index), independently of how a backend does it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "vm/backend/Backend.h"

namespace star::naive {

using Bits = std::vector<bool>;

// n random bits, each 1 with probability `density`.
inline Bits randomBits(std::mt19937_64& rng, std::size_t n, double density = 0.5) {
  std::bernoulli_distribution coin(density);
  Bits b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = coin(rng);
  return b;
}

// "0110" -> {0, 1, 1, 0}: bit 0 first, as the language writes words.
inline Bits parse(const char* s) {
  Bits b;
  for (; *s != '\0'; ++s) b.push_back(*s == '1');
  return b;
}

// ---- packing, as Backend.h describes: bit i is bit i % 64 of element i / 64 --------------------
inline std::vector<std::uint64_t> pack(const Bits& b) {
  std::vector<std::uint64_t> w(wordsForBits(b.size()), 0);
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (b[i]) w[i / 64] |= std::uint64_t{1} << (i % 64);
  }
  return w;
}

inline Bits unpack(const std::uint64_t* words, std::size_t n) {
  Bits b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = (words[i / 64] >> (i % 64)) & 1;
  return b;
}

// True if the unused high bits of the last element of a packed `bits`-bit vector are 0.
inline bool tailClear(const std::vector<std::uint64_t>& words, std::uint64_t bits) {
  if (words.size() != wordsForBits(bits)) return false;
  if (bits % 64 == 0) return true;
  return (words.back() >> (bits % 64)) == 0;
}

// ---- bit vectors -------------------------------------------------------------------------------
inline Bits bitwise(BitOp op, const Bits& a, const Bits& b) {
  Bits r(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    r[i] = op == BitOp::And ? a[i] && b[i] : op == BitOp::Or ? a[i] || b[i] : a[i] != b[i];
  }
  return r;
}

inline Bits bitNot(const Bits& a) {
  Bits r(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) r[i] = !a[i];
  return r;
}

inline std::int64_t findFirst(const Bits& a) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i]) return static_cast<std::int64_t>(i);
  }
  return -1;
}

inline Bits firstOnly(const Bits& a) {
  Bits r(a.size());
  if (const std::int64_t i = findFirst(a); i >= 0) r[static_cast<std::size_t>(i)] = true;
  return r;
}

inline std::uint64_t count(const Bits& a) {
  std::uint64_t n = 0;
  for (bool bit : a) n += bit;
  return n;
}

inline Bits trim(const Bits& w, std::size_t from, std::size_t len) {
  return Bits(w.begin() + static_cast<std::ptrdiff_t>(from),
              w.begin() + static_cast<std::ptrdiff_t>(from + len));
}

inline Bits replace(Bits w, std::size_t from, const Bits& v) {
  for (std::size_t i = 0; i < v.size(); ++i) w[from + i] = v[i];
  return w;
}

// ---- arithmetic: bit 0 most significant; walks from the last index (least significant) --------
inline int compare(const Bits& a, const Bits& b) {
  int r = 0;
  for (std::size_t i = a.size(); i-- > 0;) {
    if (a[i] != b[i]) r = a[i] ? 1 : -1;  // a more significant difference overrides
  }
  return r;
}

inline Bits add(const Bits& a, const Bits& b) {
  Bits r(a.size());
  int carry = 0;
  for (std::size_t i = a.size(); i-- > 0;) {
    const int s = a[i] + b[i] + carry;
    r[i] = s & 1;
    carry = s >> 1;
  }
  return r;
}

inline Bits sub(const Bits& a, const Bits& b) {
  Bits r(a.size());
  int borrow = 0;
  for (std::size_t i = a.size(); i-- > 0;) {
    const int d = a[i] - b[i] - borrow;
    r[i] = d & 1;  // d is in [-2, 1]; its low bit is the result bit
    borrow = d < 0;
  }
  return r;
}

// ---- tables: columns[j] is column j, rows bits -------------------------------------------------
struct Table {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::vector<Bits> columns;
  bool operator==(const Table&) const = default;
};

inline Table randomTable(std::mt19937_64& rng, std::size_t rows, std::size_t cols) {
  Table t{rows, cols, {}};
  for (std::size_t j = 0; j < cols; ++j) t.columns.push_back(randomBits(rng, rows));
  return t;
}

inline Bits getRow(const Table& t, std::size_t i) {
  Bits r(t.cols);
  for (std::size_t j = 0; j < t.cols; ++j) r[j] = t.columns[j][i];
  return r;
}

inline void setRow(Table& t, std::size_t i, const Bits& row) {
  for (std::size_t j = 0; j < t.cols; ++j) t.columns[j][i] = row[j];
}

// Column-major: column j at offset j * ceil(rows / 64).
inline std::vector<std::uint64_t> packTable(const Table& t) {
  std::vector<std::uint64_t> w;
  for (const Bits& c : t.columns) {
    const std::vector<std::uint64_t> p = pack(c);
    w.insert(w.end(), p.begin(), p.end());
  }
  return w;
}

inline Table unpackTable(const std::uint64_t* words, std::size_t rows, std::size_t cols) {
  Table t{rows, cols, {}};
  const std::size_t wpc = wordsForBits(rows);
  for (std::size_t j = 0; j < cols; ++j) t.columns.push_back(unpack(words + j * wpc, rows));
  return t;
}

// ---- moving values in and out of a backend -----------------------------------------------------
inline void upload(Backend& be, Handle v, const Bits& b) {
  const std::vector<std::uint64_t> w = pack(b);
  be.writeBits(v, b.size(), w.data());
}

inline Bits download(Backend& be, Handle v) {
  std::vector<std::uint64_t> w;
  be.readBits(v, w);
  return unpack(w.data(), static_cast<std::size_t>(be.length(v)));
}

inline void uploadTable(Backend& be, Handle t, const Table& table) {
  const std::vector<std::uint64_t> w = packTable(table);
  be.writeTable(t, table.rows, table.cols, w.data());
}

inline Table downloadTable(Backend& be, Handle t) {
  std::vector<std::uint64_t> w;
  be.readTable(t, w);
  return unpackTable(w.data(), static_cast<std::size_t>(be.rows(t)),
                      static_cast<std::size_t>(be.cols(t)));
}

}  // namespace star::naive
