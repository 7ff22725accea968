// Host-side metadata of every value: a dense slot table indexed by Handle, with a free list.
// Shapes live here, so querying them never touches the device.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "vm/backend/Backend.h"

namespace star::cuda {

enum class Kind : std::uint8_t { Free, Bits, Table };

struct Slot {
  Kind kind = Kind::Free;
  std::uint64_t rows = 0;      // the length of a bit vector
  std::uint64_t cols = 0;      // 1 for a bit vector
  std::uint64_t capacity = 0;  // elements allocated at data
  std::uint64_t* data = nullptr;
  Handle next_free = kNoHandle;

  std::uint64_t colWords() const { return wordsForBits(rows); }
  std::uint64_t words() const { return cols * colWords(); }
};

class HandleTable {
 public:
  HandleTable() : slots_(1) {}  // slot 0 stands for kNoHandle and is never issued

  Handle create(Kind kind) {
    Handle h = free_;
    if (h != kNoHandle) {
      free_ = slots_[h].next_free;
    } else {
      h = static_cast<Handle>(slots_.size());
      slots_.emplace_back();
    }
    Slot& s = slots_[h];
    s = Slot{};
    s.kind = kind;
    s.cols = kind == Kind::Bits ? 1 : 0;
    return h;
  }

  // The caller has released s.data.
  void release(Handle h) {
    Slot& s = at(h);
    s = Slot{};
    s.next_free = free_;
    free_ = h;
  }

  // Handles come from the VM, which only passes live ones; the check costs one compare and turns
  // a VM bug into an error rather than memory corruption.
  Slot& at(Handle h) {
    if (h == kNoHandle || h >= slots_.size() || slots_[h].kind == Kind::Free) {
      throw BackendError("cuda backend: invalid handle " + std::to_string(h));
    }
    return slots_[h];
  }
  const Slot& at(Handle h) const { return const_cast<HandleTable*>(this)->at(h); }

  template <class F>
  void forEachLive(F&& f) {
    for (Slot& s : slots_) {
      if (s.kind != Kind::Free) f(s);
    }
  }

 private:
  std::vector<Slot> slots_;
  Handle free_ = kNoHandle;
};

}  // namespace star::cuda
