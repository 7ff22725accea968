#include "vm/io/PngFile.h"

#include <png.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "vm/io/BitBlocks.h"

namespace star {
namespace {

// The gray levels, row-major: one byte per pixel.
std::vector<png_byte> grayPixels(const TableData& t, const PngLayout& l) {
  const std::uint64_t width = l.width;
  std::vector<png_byte> pixels(width * l.height, 255);
  if (l.step > 1) {
    for (std::uint64_t r = 0; r < l.height; ++r) {
      std::vector<double> density = blockRowDensities(t, r, l.step, l.step);
      for (std::uint64_t c = 0; c < width; ++c)
        pixels[r * width + c] = static_cast<png_byte>(std::lround(255.0 * (1.0 - density[c])));
    }
    return pixels;
  }
  // One bit: a square of scale x scale pixels, less the grid line at its top and left.
  const std::uint64_t k = l.scale, inset = l.grid ? 1 : 0;
  const std::uint64_t stride = blockCount(t.rows, 64);
  for (std::uint64_t j = 0; j < t.cols; ++j)
    for (std::uint64_t i = 0; i < t.rows; ++i)
      if ((t.words[j * stride + i / 64] >> (i % 64)) & 1)
        for (std::uint64_t y = i * k + inset; y < (i + 1) * k; ++y)
          std::memset(&pixels[y * width + j * k + inset], 0, k - inset);
  if (l.grid) {
    const auto gray = static_cast<png_byte>(kPngGridGray);
    for (std::uint64_t y = 0; y < l.height; y += k) std::memset(&pixels[y * width], gray, width);
    for (std::uint64_t y = 0; y < l.height; ++y)
      for (std::uint64_t x = 0; x < width; x += k) pixels[y * width + x] = gray;
  }
  return pixels;
}

}  // namespace

PngLayout pngLayout(std::uint64_t rows, std::uint64_t cols, std::uint64_t maxSide,
                    std::uint64_t minSide) {
  PngLayout l;
  const std::uint64_t longer = rows > cols ? rows : cols;
  if (longer > maxSide) {
    l.step = stepToFit(longer, maxSide);
    l.width = blockCount(cols, l.step);
    l.height = blockCount(rows, l.step);
    return l;
  }
  if (longer > 0 && longer < minSide) l.scale = blockCount(minSide, longer);
  // Never past maxSide (only a maxSide below minSide + L can ask for it).
  while (l.scale > 1 && longer * l.scale + (l.scale >= kPngGridCell ? 1 : 0) > maxSide) --l.scale;
  l.grid = l.scale >= kPngGridCell;
  l.width = cols * l.scale + (l.grid ? 1 : 0);
  l.height = rows * l.scale + (l.grid ? 1 : 0);
  return l;
}

void writePngFile(const std::string& path, const TableData& t, std::uint64_t maxSide,
                  std::uint64_t minSide) {
  if (t.rows == 0 || t.cols == 0)
    throw TableFileError("cannot draw an empty table (" + std::to_string(t.rows) + " x " +
                         std::to_string(t.cols) + ") as a PNG picture");
  const PngLayout layout = pngLayout(t.rows, t.cols, maxSide, minSide);
  const std::uint64_t width = layout.width, height = layout.height;
  std::vector<png_byte> pixels = grayPixels(t, layout);

  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  image.width = static_cast<png_uint_32>(width);
  image.height = static_cast<png_uint_32>(height);
  image.format = PNG_FORMAT_GRAY;
  // Encoded in memory, then written as every data file is (writeWholeFile: Ctrl-C stops an open
  // or a write that waits on a FIFO; a full disk is an error with its reason).
  png_alloc_size_t size = 0;
  std::string bytes;
  bool encoded = png_image_write_to_memory(&image, nullptr, &size, 0, pixels.data(),
                                           static_cast<png_int_32>(width), nullptr) != 0;
  if (encoded) {
    bytes.resize(size);
    encoded = png_image_write_to_memory(&image, bytes.data(), &size, 0, pixels.data(),
                                        static_cast<png_int_32>(width), nullptr) != 0;
    bytes.resize(size);
  }
  const std::string why = encoded ? "" : image.message;
  png_image_free(&image);
  if (!encoded) throw TableFileError(path + ": cannot write: " + why);
  writeWholeFile(path, bytes);
}

}  // namespace star
