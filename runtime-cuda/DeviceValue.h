// A value of the CUDA backend as the host keeps it (in vm/backend/HandleTable.h's table): its
// shape and its device memory. Shapes live on the host, so querying them never touches the device.
#pragma once

#include <cstdint>

#include "core/BitLayout.h"

namespace star::cuda {

struct DeviceValue {
  std::uint64_t rows = 0;      // the length of a bit vector
  std::uint64_t cols = 1;      // 1 for a bit vector
  std::uint64_t capacity = 0;  // elements allocated at data
  std::uint64_t* data = nullptr;

  std::uint64_t colWords() const { return wordsForBits(rows); }
  std::uint64_t words() const { return cols * colWords(); }
};

}  // namespace star::cuda
