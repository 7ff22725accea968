// The bit-serial field procedures of unit assoc on the device (Backend::extremeRows, addField):
// the model's column-at-a-time algorithms, every column queued on the stream with no host round
// trip. Tables are column-major, colWords elements a column, unused high bits 0.
#pragma once

#include <cstdint>

#include "runtime-cuda/kernels/Launch.h"

namespace star::cuda {

// Elements of device scratch that launchExtremeRows needs for columns of colWords elements:
// 0 when one block does the whole search in registers.
std::uint64_t extremeScratchWords(std::uint64_t colWords);

// MINROW / MAXROW: z := the rows of x whose field of `len` columns starting at column `first`
// holds the least (greatest when `max`) unsigned number among the rows of x (column `first` the
// most significant), ties all marked; x empty gives z empty. For each column, the candidates
// with a 0 (max: a 1) there are kept if there are any. z may alias x. scratch:
// extremeScratchWords(colWords) elements (or null when that is 0), not aliasing the others.
// colWords > 0. Queued on launch.stream; returns without waiting.
void launchExtremeRows(const Launch& launch, const std::uint64_t* table, std::uint64_t colWords,
                         const std::uint64_t* x, std::uint64_t first, std::uint64_t len, bool max,
                         std::uint64_t* z, std::uint64_t* scratch);

// ADDWF / SUBWF: in every row of x, the field of `len` columns starting at column `first` :=
// field + v (field - v when `subtract`) modulo 2^len, where v is a word of len bits in device
// memory (bit 0 the most significant, as the field's first column). One launch: every row
// ripples its carry through the field's columns from the least significant. colWords > 0,
// len > 0.
void launchAddField(const Launch& launch, std::uint64_t* table, std::uint64_t colWords,
                      const std::uint64_t* x, std::uint64_t first, const std::uint64_t* v,
                      std::uint64_t len, bool subtract);

}  // namespace star::cuda
