// The warp, as every kernel sees it: its width and the mask of all its lanes.
#pragma once

namespace star::cuda {

inline constexpr unsigned kWarp = 32;
inline constexpr unsigned kFullMask = 0xffffffffu;

}  // namespace star::cuda
