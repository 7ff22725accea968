#include "cli/test/Expectations.h"

#include <cctype>
#include <charconv>
#include <sstream>

#include "cli/test/UnifiedDiff.h"

namespace star::test {
namespace {

bool blank(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}

std::string trim(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && blank(s[b])) ++b;
  while (e > b && blank(s[e - 1])) --e;
  return s.substr(b, e - b);
}

// A comment before the program's first token: its lines as text (a block comment's opener and
// closer blanked out, a `//` line without its `//`), and where each came from.
struct CommentLine {
  std::size_t line;         // source line (0-based)
  std::string text;         // the line's text, columns kept (the opener replaced by blanks)
  std::string prefix;       // `//` comments: the source text up to and including `//`
  std::string closer;       // the closer, when this is the line that ends a block comment
  bool closerOnly = false;  // nothing but blanks before the closer on this line
};
using Comment = std::vector<CommentLine>;

// The comments before the first token; `firstWord` gets the first token's word (lower-cased;
// "" when there is none).
std::vector<Comment> leadingComments(const std::vector<std::string>& lines,
                                     std::string& firstWord) {
  std::vector<Comment> comments;
  firstWord.clear();
  std::size_t l = 0, col = 0;
  while (l < lines.size()) {
    const std::string& s = lines[l];
    while (col < s.size() && blank(s[col])) ++col;
    if (col >= s.size()) {
      ++l;
      col = 0;
      continue;
    }
    if (s.compare(col, 2, "//") == 0) {
      // A run of `//` lines is one comment.
      Comment c;
      while (l < lines.size()) {
        const std::string& t = lines[l];
        std::size_t at = t.find_first_not_of(" \t\r");
        if (at == std::string::npos || t.compare(at, 2, "//") != 0) break;
        c.push_back({l, t.substr(at + 2), t.substr(0, at + 2), "", false});
        ++l;
      }
      comments.push_back(std::move(c));
      col = 0;
      continue;
    }
    std::string opener, closer;
    if (s[col] == '{')
      opener = "{", closer = "}";
    else if (s.compare(col, 2, "(*") == 0)
      opener = "(*", closer = "*)";
    else if (s.compare(col, 2, "/*") == 0)
      opener = "/*", closer = "*/";
    else {
      // The first token: its word (letters, digits, '_'), lower-cased.
      for (std::size_t k = col; k < s.size(); ++k) {
        const unsigned char ch = static_cast<unsigned char>(s[k]);
        if (!std::isalnum(ch) && ch != '_') break;
        firstWord += static_cast<char>(std::tolower(ch));
      }
      break;
    }
    Comment c;
    std::size_t from = col + opener.size();
    std::string first = std::string(from, ' ') + s.substr(from);
    for (std::size_t k = l; k < lines.size(); ++k) {
      std::string text = k == l ? first : lines[k];
      std::size_t end = text.find(closer, k == l ? from : 0);
      if (end == std::string::npos) {
        c.push_back({k, text, "", "", false});
        continue;
      }
      bool only = trim(text.substr(0, end)).empty();
      c.push_back({k, text.substr(0, end), "", closer, only});
      l = k;
      col = end + closer.size();
      break;
    }
    if (c.empty() || c.back().closer.empty()) return comments;  // unterminated: stop here
    comments.push_back(std::move(c));
  }
  return comments;
}

std::vector<std::string> sourceLines(const std::string& source) {
  std::vector<std::string> lines;
  std::size_t begin = 0;
  while (begin <= source.size()) {
    std::size_t end = source.find('\n', begin);
    if (end == std::string::npos) {
      lines.push_back(source.substr(begin));
      break;
    }
    lines.push_back(source.substr(begin, end - begin));
    begin = end + 1;
  }
  return lines;
}

std::string withoutIndent(const std::string& text, std::size_t indent) {
  std::size_t k = 0;
  while (k < indent && k < text.size() && blank(text[k])) ++k;
  std::string rest = text.substr(k);
  while (!rest.empty() && rest.back() == '\r') rest.pop_back();
  return rest;
}

}  // namespace

Expectations parseExpectations(const std::string& source) {
  Expectations e;
  std::vector<std::string> lines = sourceLines(source);
  std::string firstWord;
  const std::vector<Comment> comments = leadingComments(lines, firstWord);
  e.unit = firstWord == "unit";
  for (const Comment& c : comments) {
    for (std::size_t i = 0; i < c.size(); ++i) {
      const std::string& text = c[i].text;
      std::size_t at = text.find_first_not_of(" \t");
      if (at == std::string::npos || text.compare(at, 5, "TEST-") != 0) continue;
      std::size_t colon = text.find(':', at);
      std::string key =
          text.substr(at, colon == std::string::npos ? std::string::npos : colon - at);
      std::string value = colon == std::string::npos ? "" : trim(text.substr(colon + 1));
      std::string where = std::to_string(c[i].line + 1) + ": ";
      if (colon == std::string::npos) {
        e.problems.push_back(where + "'" + trim(key) + "' needs a ':'");
      } else if (key == "TEST-ARGS") {
        std::istringstream words(value);
        for (std::string w; words >> w;) e.args.push_back(w);
      } else if (key == "TEST-STATUS") {
        int n = 0;
        auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
        if (ec != std::errc() || end != value.data() + value.size() || n < 0 || n > 255)
          e.problems.push_back(where + "TEST-STATUS needs a number 0..255, not '" + value + "'");
        else {
          e.status = n;
          e.statusLine = c[i].line;
        }
      } else if (key == "TEST-ERROR") {
        if (value.empty())
          e.problems.push_back(where + "TEST-ERROR needs the text stderr contains");
        else
          e.errors.push_back(value);
      } else if (key == "TEST-OUTPUT") {
        if (!value.empty() || !c[i].closer.empty()) {
          e.problems.push_back(where +
                               "the expected output goes on the lines after TEST-OUTPUT:, "
                               "before the comment ends");
          continue;
        }
        if (e.output) {
          e.problems.push_back(where + "a second TEST-OUTPUT");
          continue;
        }
        OutputBlock b;
        b.indent = at;
        b.prefix = c[i].prefix;
        b.firstLine = c[i].line + 1;
        std::string out;
        std::size_t k = i + 1;
        for (; k < c.size(); ++k) {
          if (!c[k].closer.empty() && c[k].closerOnly) break;  // `}` alone on its line
          std::string line = withoutIndent(c[k].text, b.indent);
          if (!c[k].closer.empty()) {
            b.closer = c[k].closer;  // `0011 }`: the blanks before the closer are not output
            while (!line.empty() && blank(line.back())) line.pop_back();
          }
          out += line + "\n";
        }
        b.endLine = k < c.size() ? c[k].line : c.back().line + 1;
        if (!b.closer.empty()) b.endLine = c.back().line + 1;
        e.output = out;
        e.outputBlock = b;
        break;  // the rest of this comment was the output
      } else {
        e.problems.push_back(where + "unknown '" + key +
                             "' (TEST-ARGS, TEST-STATUS, TEST-ERROR or TEST-OUTPUT)");
      }
    }
  }
  return e;
}

std::string updateExpectations(const std::string& source, const Expectations& e,
                               const std::string& output, std::optional<int> status) {
  std::vector<std::string> lines = sourceLines(source);
  if (status && e.statusLine && *e.statusLine < lines.size()) {
    std::string& l = lines[*e.statusLine];
    std::size_t colon = l.find(':', l.find("TEST-STATUS"));
    std::size_t end = colon + 1;
    while (end < l.size() && blank(l[end])) ++end;
    while (end < l.size() && std::isdigit(static_cast<unsigned char>(l[end]))) ++end;
    l = l.substr(0, colon + 1) + " " + std::to_string(*status) + l.substr(end);
  }
  if (e.outputBlock) {
    const OutputBlock& b = *e.outputBlock;
    std::vector<std::string> fresh;
    std::string indent(b.indent, ' ');
    for (const std::string& line : splitLines(output).lines)
      fresh.push_back(b.prefix + (line.empty() ? "" : indent + line));
    if (!b.closer.empty()) {
      // The closer shared the last output line: it goes on a line of its own, at the indent of
      // the output.
      std::size_t lead = b.prefix.empty() && b.indent >= 2 ? b.indent - 2 : 0;
      fresh.push_back(
          std::string(lead, ' ') + b.closer +
          lines[b.endLine - 1].substr(lines[b.endLine - 1].rfind(b.closer) + b.closer.size()));
    }
    lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(b.firstLine),
                lines.begin() + static_cast<std::ptrdiff_t>(std::min(b.endLine, lines.size())));
    lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(b.firstLine), fresh.begin(),
                 fresh.end());
  }
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    out += lines[i];
    if (i + 1 < lines.size()) out += '\n';
  }
  return out;
}

}  // namespace star::test
