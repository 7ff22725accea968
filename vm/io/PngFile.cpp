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
std::vector<png_byte> grayPixels(const TableData& t, std::uint64_t step, std::uint64_t& width,
                                 std::uint64_t& height) {
  width = blockCount(t.cols, step);
  height = blockCount(t.rows, step);
  std::vector<png_byte> pixels(width * height, 255);
  if (step == 1) {
    std::uint64_t stride = blockCount(t.rows, 64);
    for (std::uint64_t j = 0; j < t.cols; ++j)
      for (std::uint64_t i = 0; i < t.rows; ++i)
        if ((t.words[j * stride + i / 64] >> (i % 64)) & 1) pixels[i * width + j] = 0;
    return pixels;
  }
  for (std::uint64_t r = 0; r < height; ++r) {
    std::vector<double> density = blockRowDensities(t, r, step, step);
    for (std::uint64_t c = 0; c < width; ++c)
      pixels[r * width + c] = static_cast<png_byte>(std::lround(255.0 * (1.0 - density[c])));
  }
  return pixels;
}

}  // namespace

void writePngFile(const std::string& path, const TableData& t, std::uint64_t maxSide) {
  if (t.rows == 0 || t.cols == 0)
    throw TableFileError("cannot draw an empty table (" + std::to_string(t.rows) + " x " +
                         std::to_string(t.cols) + ") as a PNG picture");
  std::uint64_t step = stepToFit(t.rows > t.cols ? t.rows : t.cols, maxSide);
  std::uint64_t width = 0, height = 0;
  std::vector<png_byte> pixels = grayPixels(t, step, width, height);

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
