#include "vm/io/NumericText.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>

namespace star {

NumLayout parseLayoutOrThrow(std::string_view text) {
  std::string error;
  auto layout = parseLayout(text, error);
  if (!layout) throw TableFileError(error);
  return *layout;
}

// ---------------------------------------------------------------- reals as text

namespace {

// from_chars takes no '+': accept one before a digit, a point, inf or nan.
std::string_view dropPlus(std::string_view s) {
  if (s.size() > 1 && s[0] == '+' && s[1] != '-' && s[1] != '+') s.remove_prefix(1);
  return s;
}

// from_chars reports overflow and underflow alike. The 80-bit long double has a far wider range:
// parse again with it and let the narrowing conversion round (to zero or a subnormal for
// underflow, to infinity for overflow). Beyond even that range, the exponent's sign decides.
template <typename T>
RealParse parseReal(std::string_view s, T& out) {
  s = dropPlus(s);
  if (s.empty()) return RealParse::NotANumber;
  const char* end = s.data() + s.size();
  T value{};
  auto [ptr, ec] = std::from_chars(s.data(), end, value);
  if (ptr != end || ec == std::errc::invalid_argument) return RealParse::NotANumber;
  if (ec == std::errc()) {
    out = value;
    return RealParse::Ok;
  }
  long double wide = 0;
  auto [wptr, wec] = std::from_chars(s.data(), end, wide);
  if (wptr != end) return RealParse::NotANumber;
  if (wec == std::errc()) {
    T narrowed = static_cast<T>(wide);
    if (std::isinf(narrowed)) return RealParse::OutOfRange;
    out = narrowed;
    return RealParse::Ok;
  }
  std::size_t e = s.find_first_of("eE");
  bool tiny = e != std::string_view::npos && e + 1 < s.size() && s[e + 1] == '-';
  if (!tiny) return RealParse::OutOfRange;
  out = s[0] == '-' ? -T(0) : T(0);
  return RealParse::Ok;
}

template <typename T>
std::string shortest(T x) {
  char buf[64];
  auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, x);
  return ec == std::errc() ? std::string(buf, ptr) : std::string("?");
}

}  // namespace

RealParse parseDouble(std::string_view s, double& out) { return parseReal(s, out); }
RealParse parseFloat(std::string_view s, float& out) { return parseReal(s, out); }
std::string shortestText(double x) { return shortest(x); }
std::string shortestText(float x) { return shortest(x); }

// ---------------------------------------------------------------- numeric table files

namespace {

struct Token {
  std::string_view text;
  std::size_t col;  // 1-based
};

class RecordParser {
 public:
  explicit RecordParser(const std::string& name) : name_(name) {}

  // Splits one line into numbers: blanks separate them, and so does one comma (with blanks
  // around it or not). Two commas in a row, or one at either end, leave a number missing.
  std::vector<Token> split(std::string_view line, std::size_t lineNo) const {
    std::vector<Token> tokens;
    bool comma = false;  // a comma since the last number
    std::size_t commaCol = 0;
    for (std::size_t k = 0; k < line.size();) {
      char c = line[k];
      if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        ++k;
      } else if (c == ',') {
        if (comma || tokens.empty()) fail(lineNo, k + 1, "missing number before ','");
        comma = true;
        commaCol = k + 1;
        ++k;
      } else if (c == '\0') {
        fail(lineNo, k + 1, "a NUL byte: this is not a text file");
      } else {
        std::size_t end = k;
        // (strchr would find a NUL byte in its own terminator; the test above keeps them out)
        while (end < line.size() && line[end] != '\0' && !std::strchr(" \t\r\f\v,", line[end])) ++end;
        tokens.push_back({line.substr(k, end - k), k + 1});
        comma = false;
        k = end;
      }
    }
    if (comma) fail(lineNo, commaCol, "missing number after ','");
    return tokens;
  }

  // The field's bit pattern (its low `width` bits) for one number.
  std::uint64_t pattern(const Token& t, const NumField& f, std::size_t index,
                        std::size_t lineNo) const {
    switch (f.kind) {
      case FieldKind::Unsigned:
      case FieldKind::Signed: return integer(t, f, index, lineNo);
      case FieldKind::F32: {
        float x = 0;
        check(parseFloat(t.text, x), t, f, index, lineNo);
        return std::bit_cast<std::uint32_t>(x);
      }
      case FieldKind::F64: {
        double x = 0;
        check(parseDouble(t.text, x), t, f, index, lineNo);
        return std::bit_cast<std::uint64_t>(x);
      }
    }
    return 0;
  }

  [[noreturn]] void fail(std::size_t line, std::size_t col, const std::string& message) const {
    throw TableFileError(name_ + ":" + std::to_string(line) + ":" + std::to_string(col) + ": " +
                         message);
  }

 private:
  static std::string shown(std::string_view s) {
    return std::string(s.size() > 40 ? s.substr(0, 40) : s) + (s.size() > 40 ? "..." : "");
  }

  [[noreturn]] void notNumber(const Token& t, const NumField& f, std::size_t index,
                              std::size_t lineNo, const char* what) const {
    fail(lineNo, t.col, std::string("expected ") + what + " for field " + std::to_string(index + 1) +
                            " (" + fieldName(f) + "), found '" + shown(t.text) + "'");
  }

  [[noreturn]] void tooBig(const Token& t, const NumField& f, std::size_t lineNo) const {
    fail(lineNo, t.col, "value " + shown(t.text) + " does not fit in " + fieldName(f));
  }

  void check(RealParse r, const Token& t, const NumField& f, std::size_t index,
             std::size_t lineNo) const {
    if (r == RealParse::NotANumber) notNumber(t, f, index, lineNo, "a number");
    if (r == RealParse::OutOfRange) tooBig(t, f, lineNo);
  }

  // Decimal or 0x hexadecimal, with an optional sign; the value must fit the field.
  std::uint64_t integer(const Token& t, const NumField& f, std::size_t index,
                        std::size_t lineNo) const {
    std::string_view s = t.text;
    bool negative = false;
    if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
      negative = s[0] == '-';
      s.remove_prefix(1);
    }
    int base = 10;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
      base = 16;
      s.remove_prefix(2);
    }
    std::uint64_t magnitude = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), magnitude, base);
    if (s.empty() || ptr != s.data() + s.size() || ec == std::errc::invalid_argument)
      notNumber(t, f, index, lineNo, "an integer");
    if (ec == std::errc::result_out_of_range) tooBig(t, f, lineNo);
    unsigned k = f.width;
    if (f.kind == FieldKind::Unsigned) {
      if (negative && magnitude != 0) tooBig(t, f, lineNo);
      if (k < 64 && magnitude >> k) tooBig(t, f, lineNo);
      return magnitude;
    }
    std::uint64_t limit = std::uint64_t{1} << (k - 1);  // |min|; max is limit - 1
    if (negative ? magnitude > limit : magnitude >= limit) tooBig(t, f, lineNo);
    return lowBits(negative ? 0 - magnitude : magnitude, k);
  }

  const std::string& name_;
};

}  // namespace

TableData parseNumericText(const std::string& text, const NumLayout& layout,
                           const std::string& name) {
  RecordParser parser(name);
  std::size_t nf = layout.fields.size();
  std::vector<std::uint64_t> patterns;  // nf per record
  std::size_t lineNo = 0, pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    ++lineNo;
    std::string_view line(text.data() + pos, end - pos);
    pos = end + 1;
    std::size_t first = line.find_first_not_of(" \t\r\f\v");
    if (first == std::string_view::npos || line[first] == '#') continue;
    std::vector<Token> tokens = parser.split(line, lineNo);
    if (tokens.size() != nf) {
      std::size_t col = tokens.size() > nf ? tokens[nf].col
                                           : tokens.back().col + tokens.back().text.size();
      parser.fail(lineNo, col, "expected " + std::to_string(nf) + (nf == 1 ? " number" : " numbers") +
                                   ", found " + std::to_string(tokens.size()));
    }
    for (std::size_t i = 0; i < nf; ++i)
      patterns.push_back(parser.pattern(tokens[i], layout.fields[i], i, lineNo));
  }
  TableData t;
  std::size_t rows = nf ? patterns.size() / nf : 0;
  t.reshape(rows, layout.width);
  for (std::size_t r = 0; r < rows; ++r) {
    std::uint64_t col = 0;
    for (std::size_t i = 0; i < nf; ++i) {
      unsigned k = layout.fields[i].width;
      std::uint64_t v = patterns[r * nf + i];
      for (unsigned b = 0; b < k; ++b)  // column col + b holds bit k-1-b: MSB first
        if ((v >> (k - 1 - b)) & 1) t.set(r, col + b);
      col += k;
    }
  }
  return t;
}

TableData readNumericFile(const std::string& path, const NumLayout& layout) {
  return parseNumericText(readWholeFile(path), layout, path);
}

std::string formatNumericText(const TableData& t, const NumLayout& layout) {
  std::string out;
  for (std::uint64_t r = 0; r < t.rows; ++r) {
    std::uint64_t col = 0;
    for (std::size_t i = 0; i < layout.fields.size(); ++i) {
      const NumField& f = layout.fields[i];
      std::uint64_t v = 0;
      for (unsigned b = 0; b < f.width; ++b) v = (v << 1) | (t.get(r, col + b) ? 1 : 0);
      col += f.width;
      if (i) out += ' ';
      switch (f.kind) {
        case FieldKind::Unsigned: out += std::to_string(v); break;
        case FieldKind::Signed: out += std::to_string(signExtend(v, f.width)); break;
        case FieldKind::F32: out += shortestText(std::bit_cast<float>(static_cast<std::uint32_t>(v))); break;
        case FieldKind::F64: out += shortestText(std::bit_cast<double>(v)); break;
      }
    }
    out += '\n';
  }
  return out;
}

void writeNumericFile(const std::string& path, const TableData& t, const NumLayout& layout) {
  writeWholeFile(path, formatNumericText(t, layout));
}

}  // namespace star
