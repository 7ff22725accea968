// The memory a run may use: `star run --max-memory=SIZE`, by default three quarters of the
// machine's memory (and on a GPU, no more than the device has). It is checked before every large
// allocation: tables and bit vectors, sizes read from files, file contents, call frames, so that
// a tiny hostile file cannot make star allocate gigabytes. A request beyond it is the run-time
// error `out of memory: WHAT needs SIZE; the limit is LIMIT`.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace star {

struct OutOfMemory : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::uint64_t memoryLimit();
void setMemoryLimit(std::uint64_t bytes);
// The limit for values held on a device of `deviceBytes` (0: the host): the smaller of the
// default and nine tenths of the device, unless the user chose one (--max-memory).
void chooseMemoryLimit(std::uint64_t deviceBytes);
void setUserMemoryLimit(std::uint64_t bytes);
// The smallest limit a user may choose: below it the interpreter's own stack does not fit.
inline constexpr std::uint64_t kMinUserMemoryLimit = std::uint64_t{1} << 20;
// Back to the state of a fresh process: no limit chosen, the default on first use.
void resetMemoryLimit();
// Three quarters of the physical memory of this machine.
std::uint64_t defaultMemoryLimit();

// Throws OutOfMemory ("out of memory: WHAT needs SIZE; the limit is LIMIT") when `bytes` exceed
// what is left of the limit after `inUse` bytes.
void requireMemory(std::uint64_t bytes, const std::string& what, std::uint64_t inUse = 0);

// Refuse, before any storage is touched or any size is computed from them, a value whose shape
// could never fit in the limit: the sizes come from the program (`table(N, M)`, `BIN(1, K)`). A
// table of no columns counts as one column: its rows are still listed, saved and walked.
void requireBitsShape(std::uint64_t length);
void requireTableShape(std::uint64_t rows, std::uint64_t cols);
// a * b, or the largest value when the product does not fit.
std::uint64_t saturatingProduct(std::uint64_t a, std::uint64_t b);

// The large allocations of this process (the backends' values): reserveMemory checks the limit
// against what is in use and counts the bytes; releaseMemory gives them back.
void reserveMemory(std::uint64_t bytes, const std::string& what);
void releaseMemory(std::uint64_t bytes) noexcept;
std::uint64_t memoryInUse();

// "a 300000 x 300000 table", "a slice of 10 bits": the value named in messages.
std::string describeTable(std::uint64_t rows, std::uint64_t cols);
std::string describeBits(std::uint64_t bits);

// Parses "8G", "512M", "100000K", "4096" (bytes; K, M, G, T suffixes of 1024); nullopt-like 0 when
// malformed.
std::uint64_t parseMemorySize(const std::string& text);

}  // namespace star
