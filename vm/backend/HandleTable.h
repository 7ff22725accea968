// The table both backends keep their values in: a dense array indexed by Handle, each entry a
// backend's own Storage (host words, or a device pointer and its capacity), with a free list.
// Shapes live in the storage, so querying them never touches a device.
#pragma once

#include <cstdint>
#include <limits>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "vm/backend/Backend.h"

namespace star {

enum class HandleKind : std::uint8_t { Free, Bits, Table };

template <class Storage>
class HandleTable {
 public:
  explicit HandleTable(std::string owner) : entries_(1), owner_(std::move(owner)) {}

  // A fresh handle of `kind` with default storage.
  Handle create(HandleKind kind) {
    try {
      Handle h;
      if (!free_.empty()) {
        h = free_.back();
        free_.pop_back();
      } else {
        if (entries_.size() >= std::numeric_limits<Handle>::max())
          throw BackendError(owner_ + ": too many handles");
        h = static_cast<Handle>(entries_.size());
        // Room to free every handle without allocating (grown geometrically).
        if (free_.capacity() < entries_.size()) free_.reserve(2 * entries_.size());
        entries_.emplace_back();
      }
      entries_[h] = Entry{Storage{}, kind};
      return h;
    } catch (const std::bad_alloc&) {
      throw BackendError(owner_ + ": out of memory");
    }
  }

  // Resets the storage (the caller has released what it does not free by itself).
  void release(Handle h) {
    at(h);
    entries_[h] = Entry{};
    free_.push_back(h);  // never reallocates: create() reserved room
  }

  // Handles come from the VM, which only passes live ones; the check costs one compare and turns
  // a VM bug into an error rather than memory corruption.
  Storage& at(Handle h) { return entry(h).storage; }
  const Storage& at(Handle h) const { return const_cast<HandleTable*>(this)->at(h); }
  Storage& bits(Handle h) { return ofKind(h, HandleKind::Bits); }
  const Storage& bits(Handle h) const { return const_cast<HandleTable*>(this)->bits(h); }
  Storage& table(Handle h) { return ofKind(h, HandleKind::Table); }
  const Storage& table(Handle h) const { return const_cast<HandleTable*>(this)->table(h); }
  HandleKind kind(Handle h) const { return const_cast<HandleTable*>(this)->entry(h).kind; }

  // Handles are below size(); live(h) says whether one is in use (the device engine walks them).
  std::size_t size() const { return entries_.size(); }
  bool live(Handle h) const { return h < entries_.size() && entries_[h].kind != HandleKind::Free; }

  template <class F>
  void forEachLive(F&& f) {
    for (Entry& e : entries_)
      if (e.kind != HandleKind::Free) f(e.storage);
  }

 private:
  struct Entry {
    Storage storage{};
    HandleKind kind = HandleKind::Free;
  };

  Entry& entry(Handle h) {
    if (h == kNoHandle || h >= entries_.size() || entries_[h].kind == HandleKind::Free)
      throw BackendError(owner_ + ": invalid handle " + std::to_string(h));
    return entries_[h];
  }
  Storage& ofKind(Handle h, HandleKind want) {
    Entry& e = entry(h);
    if (e.kind != want)
      throw BackendError(owner_ + ": handle " + std::to_string(h) +
                         (want == HandleKind::Bits ? " is a table, not a bit vector"
                                                   : " is a bit vector, not a table"));
    return e.storage;
  }

  std::vector<Entry> entries_;
  std::vector<Handle> free_;
  std::string owner_;
};

}  // namespace star
