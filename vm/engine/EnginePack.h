// Packing an EngineRun into a block region (EngineLayout.h) and back, for every engine: the host
// side of the hand-over. The backend supplies each handle's shape (shapeOf) and takes back the
// shapes the engine left (setShape).
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "vm/engine/EngineLayout.h"
#include "vm/engine/EngineRun.h"

namespace star::engine {

// A vector's elements to `to` (an empty vector may have no storage at all: nothing to copy).
template <class T>
void copyOut(T* to, const std::vector<T>& from) {
  if (!from.empty()) std::memcpy(to, from.data(), from.size() * sizeof(T));
}

// region: at least layoutOf(run.header).total words; run.header.handles is set.
template <class ShapeOf>
void packRegion(const EngineRun& r, const Layout& l, Word* region, ShapeOf shapeOf) {
  const Region g = regionAt(region, l);
  *g.h = r.header;
  copyOut(g.stack, r.stack);
  copyOut(g.frames, r.frames);
  copyOut(g.owned, r.owned);
  copyOut(g.freeBits, r.freeBits);
  copyOut(g.freeTables, r.freeTables);
  copyOut(g.globals, r.globals);
  for (std::uint32_t hd = 0; hd < r.header.handles; ++hd) {
    g.shapes[hd] = shapeOf(hd);
    g.shapes[hd].fixed = hd < r.fixed.size() ? r.fixed[hd] : 0;
  }
  for (std::uint32_t op = 0; op < kOpCounters; ++op) g.opCounts[op] = 0;
}

template <class SetShape>
void unpackRegion(const Word* region, const Layout& l, EngineRun& r, SetShape setShape) {
  const Region g = regionAt(const_cast<Word*>(region), l);
  r.header = *g.h;
  const Header& h = r.header;
  r.stack.assign(g.stack, g.stack + h.stackSize);
  r.frames.assign(g.frames, g.frames + h.frames);
  r.owned.assign(g.owned, g.owned + h.owned);
  r.freeBits.assign(g.freeBits, g.freeBits + h.freeBits);
  r.freeTables.assign(g.freeTables, g.freeTables + h.freeTables);
  r.globals.assign(g.globals, g.globals + h.globals);
  r.fixed.assign(h.handles, 0);
  for (std::uint32_t hd = 0; hd < h.handles; ++hd) {
    const Shape& s = g.shapes[hd];
    r.fixed[hd] = static_cast<std::uint8_t>(s.fixed);
    if (s.kind) setShape(hd, s.rows, s.cols);
  }
  if (h.flags & kFlagStats)
    for (std::uint32_t op = 0; op < kOpCounters; ++op) r.opCounts[op] += g.opCounts[op];
}

}  // namespace star::engine
