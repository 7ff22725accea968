#include "frontend/diag/Diagnostics.h"

#include <ostream>
#include <sstream>

#include "core/Printable.h"

namespace star {

std::uint32_t SourceManager::add(std::string path, std::string text) {
  File f{std::move(path), std::move(text), {0}};
  for (std::size_t i = 0; i < f.text.size(); ++i)
    if (f.text[i] == '\n') f.lineStarts.push_back(i + 1);
  files_.push_back(std::move(f));
  return static_cast<std::uint32_t>(files_.size() - 1);
}

std::string SourceManager::line(std::uint32_t file, std::uint32_t line) const {
  if (file >= files_.size() || line == 0) return {};
  const File& f = files_[file];
  if (line > f.lineStarts.size()) return {};
  std::size_t begin = f.lineStarts[line - 1];
  std::size_t end = f.text.find('\n', begin);
  if (end == std::string::npos) end = f.text.size();
  if (end > begin && f.text[end - 1] == '\r') --end;
  return f.text.substr(begin, end - begin);
}

std::string Diagnostics::format(const SourceManager& sources, SourceLoc loc,
                                const std::string& kind, const std::string& message,
                                bool withCaret) {
  std::ostringstream os;
  const std::string path = loc.file < sources.size() ? sources.path(loc.file) : "<unknown>";
  os << printable(path);
  if (loc.line) os << ':' << loc.line << ':' << loc.col;
  os << ": " << kind << ": " << message << '\n';
  if (withCaret && loc.line) {
    std::string text = sources.line(loc.file, loc.line);
    // Long lines (a 1 MB identifier) are cut around the column so the caret still shows.
    constexpr std::size_t kWidth = 200;
    std::size_t col = loc.col ? loc.col - 1 : 0;
    std::size_t start = 0;
    if (text.size() > kWidth) {
      start = col > kWidth / 2 ? col - kWidth / 2 : 0;
      text = text.substr(start, kWidth);
    }
    for (char& c : text)  // never echo control bytes of a binary file to the terminal
      if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f) c = '?';
    std::string caret;
    for (std::size_t i = start; i < col && i - start < text.size(); ++i)
      caret += text[i - start] == '\t' ? '\t' : ' ';
    os << text << '\n' << caret << "^\n";
  }
  return os.str();
}

void Diagnostics::report(Severity severity, SourceLoc loc, const std::string& message) {
  if (severity == Severity::Error) {
    if (errors_ == 0) firstError_ = loc;
    if (++errors_ > kMaxErrors) {
      if (errors_ == kMaxErrors + 1) *out_ << "too many errors; stopping\n";
      return;
    }
  } else if (severity == Severity::Warning) {
    ++warnings_;
  }
  const char* kind = severity == Severity::Error     ? "error"
                     : severity == Severity::Warning ? "warning"
                                                     : "note";
  *out_ << format(sources_, loc, kind, message);
  if (listener_) listener_(severity, loc, message);
}

}  // namespace star
