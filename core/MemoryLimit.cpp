#include "core/MemoryLimit.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>

#include "core/CheckedMath.h"
#include "core/FileText.h"

namespace star {
namespace {
std::atomic<std::uint64_t> gLimit{0};
std::atomic<std::uint64_t> gInUse{0};
}  // namespace

std::uint64_t defaultMemoryLimit() {
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || size <= 0) return std::uint64_t{8} << 30;
  return static_cast<std::uint64_t>(pages) / 4 * 3 * static_cast<std::uint64_t>(size);
}

std::uint64_t memoryLimit() {
  std::uint64_t l = gLimit.load(std::memory_order_relaxed);
  if (l == 0) {
    l = defaultMemoryLimit();
    gLimit.store(l, std::memory_order_relaxed);
  }
  return l;
}

void setMemoryLimit(std::uint64_t bytes) { gLimit.store(bytes, std::memory_order_relaxed); }

namespace {
std::atomic<bool> gUserLimit{false};
}  // namespace

void setUserMemoryLimit(std::uint64_t bytes) {
  gUserLimit = true;
  setMemoryLimit(bytes);
}

void resetMemoryLimit() {
  gUserLimit = false;
  setMemoryLimit(0);
}

void chooseMemoryLimit(std::uint64_t deviceBytes) {
  if (gUserLimit) return;
  std::uint64_t limit = defaultMemoryLimit();
  if (deviceBytes) limit = std::min(limit, deviceBytes / 10 * 9);
  setMemoryLimit(limit);
}

void requireMemory(std::uint64_t bytes, const std::string& what, std::uint64_t inUse) {
  std::uint64_t limit = memoryLimit();
  if (bytes <= limit && inUse <= limit - bytes) return;
  std::string msg = "out of memory: " + what + " needs " + describeBytes(bytes);
  if (inUse) msg += " beside " + describeBytes(inUse) + " in use";
  throw OutOfMemory(msg + "; the limit is " + describeBytes(limit));
}

std::uint64_t saturatingProduct(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r = 0;
  return mulOverflows(a, b, r) ? ~std::uint64_t{0} : r;
}

namespace {
std::uint64_t wordsFor(std::uint64_t bits) { return bits / 64 + (bits % 64 != 0); }  // never overflows
}  // namespace

void requireBitsShape(std::uint64_t length) {
  requireMemory(saturatingProduct(wordsFor(length), 8), describeBits(length));
}

void requireTableShape(std::uint64_t rows, std::uint64_t cols) {
  requireMemory(saturatingProduct(saturatingProduct(wordsFor(rows), std::max<std::uint64_t>(cols, 1)), 8),
                describeTable(rows, cols));
}

void reserveMemory(std::uint64_t bytes, const std::string& what) {
  requireMemory(bytes, what, gInUse.load(std::memory_order_relaxed));
  gInUse.fetch_add(bytes, std::memory_order_relaxed);
}

void releaseMemory(std::uint64_t bytes) noexcept {
  std::uint64_t now = gInUse.load(std::memory_order_relaxed);
  while (!gInUse.compare_exchange_weak(now, now > bytes ? now - bytes : 0, std::memory_order_relaxed)) {
  }
}

std::uint64_t memoryInUse() { return gInUse.load(std::memory_order_relaxed); }

std::string describeTable(std::uint64_t rows, std::uint64_t cols) {
  return "a " + std::to_string(rows) + " x " + std::to_string(cols) + " table";
}

std::string describeBits(std::uint64_t bits) {
  return "a bit vector of " + std::to_string(bits) + " bits";
}

std::uint64_t parseMemorySize(const std::string& text) {
  if (text.empty()) return 0;
  std::uint64_t v = 0;
  std::size_t i = 0;
  for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
    if (v > (~std::uint64_t{0} - 9) / 10) return 0;
    v = v * 10 + static_cast<std::uint64_t>(text[i] - '0');
  }
  if (i == 0) return 0;
  int shift = 0;
  if (i < text.size()) {
    char s = static_cast<char>(std::toupper(static_cast<unsigned char>(text[i])));
    shift = s == 'K' ? 10 : s == 'M' ? 20 : s == 'G' ? 30 : s == 'T' ? 40 : -1;
    if (shift < 0) return 0;
    ++i;
    if (i < text.size() && (text[i] == 'B' || text[i] == 'b')) ++i;
  }
  if (i != text.size()) return 0;
  if (shift && v > (~std::uint64_t{0} >> shift)) return 0;
  return v << shift;
}

}  // namespace star
