#include "vm/interp/StringPool.h"

#include <deque>
#include <mutex>
#include <stdexcept>
#include <unordered_map>

#include "core/MemoryLimit.h"

namespace star {
namespace {

struct Pool {
  std::mutex mutex;
  std::deque<std::string> strings{std::string()};  // deque: references stay valid as it grows
  std::unordered_map<std::string, std::uint64_t> index{{std::string(), 0}};
};

Pool& pool() {
  static Pool p;
  return p;
}

}  // namespace

std::uint64_t internString(const std::string& s) {
  Pool& p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  auto [it, inserted] = p.index.try_emplace(s, p.strings.size());
  if (inserted) p.strings.push_back(s);
  return it->second;
}

std::uint64_t internCountedString(const std::string& s) {
  Pool& p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  if (auto it = p.index.find(s); it != p.index.end()) return it->second;
  // The text is kept twice (the list and the index's key).
  reserveMemory(2 * s.size(), "a string of " + std::to_string(s.size()) + " characters");
  p.index.emplace(s, p.strings.size());
  p.strings.push_back(s);
  return p.strings.size() - 1;
}

const std::string& pooledString(std::uint64_t index) {
  Pool& p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  if (index >= p.strings.size()) throw std::out_of_range("invalid string value");
  return p.strings[index];
}

std::uint64_t pooledStringCount() {
  Pool& p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  return p.strings.size();
}

}  // namespace star
