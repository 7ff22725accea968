// SAVEPNG's picture files (vm/io/PngFile.h): written, read back with libpng, compared bit for
// bit; small values enlarged to at least 256 pixels, with a grid from 8 pixels a cell; the
// density shading past the size limit; the block helpers (vm/io/BitBlocks.h); and SAVEPNG in
// programs (tables, slices as columns, words as rows, errors at the call).
#include <gtest/gtest.h>
#include <png.h>

#include <algorithm>
#include <cstring>
#include <random>

#include "support/StarTestUtil.h"
#include "vm/io/BitBlocks.h"
#include "vm/io/PngFile.h"

namespace {

using star::TableData;

struct Gray {
  std::uint32_t width = 0, height = 0;
  std::vector<png_byte> pixels;  // row-major
  png_byte at(std::uint32_t x, std::uint32_t y) const { return pixels[y * width + x]; }
};

// The file read back by libpng's own reader, converted to 8-bit gray.
Gray readPng(const std::string& path) {
  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, path.c_str()))
    throw std::runtime_error("libpng cannot read " + path + ": " + image.message);
  image.format = PNG_FORMAT_GRAY;
  Gray g;
  g.width = image.width;
  g.height = image.height;
  g.pixels.resize(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, g.pixels.data(), 0, nullptr))
    throw std::runtime_error("libpng cannot decode " + path + ": " + image.message);
  return g;
}

TableData randomTable(std::uint64_t rows, std::uint64_t cols, double density, unsigned seed) {
  std::mt19937 rng(seed);
  std::bernoulli_distribution one(density);
  TableData t;
  t.reshape(rows, cols);
  for (std::uint64_t i = 0; i < rows; ++i)
    for (std::uint64_t j = 0; j < cols; ++j)
      if (one(rng)) t.set(i, j);
  return t;
}

// Every pixel of g against the bits of t as pngLayout enlarges them: a cell of scale x scale
// pixels per bit, the grid lines gray where there is a grid.
void expectCells(const TableData& t, const Gray& g) {
  star::PngLayout l = star::pngLayout(t.rows, t.cols);
  ASSERT_EQ(l.step, 1u);
  ASSERT_EQ(g.width, l.width);
  ASSERT_EQ(g.height, l.height);
  const std::uint32_t k = static_cast<std::uint32_t>(l.scale);
  for (std::uint32_t y = 0; y < g.height; ++y)
    for (std::uint32_t x = 0; x < g.width; ++x) {
      if (l.grid && (x % k == 0 || y % k == 0)) {
        ASSERT_EQ(g.at(x, y), star::kPngGridGray) << "grid pixel (" << x << ", " << y << ")";
        continue;
      }
      ASSERT_EQ(g.at(x, y), t.get(y / k, x / k) ? 0 : 255)
          << "pixel (" << x << ", " << y << ") of bit (" << y / k + 1 << ", " << x / k + 1 << ")";
    }
}

void expectSameBits(const TableData& t, const Gray& g) {
  ASSERT_EQ(g.width, t.cols);
  ASSERT_EQ(g.height, t.rows);
  for (std::uint64_t i = 0; i < t.rows; ++i)
    for (std::uint64_t j = 0; j < t.cols; ++j)
      ASSERT_EQ(g.at(static_cast<std::uint32_t>(j), static_cast<std::uint32_t>(i)),
                t.get(i, j) ? 0 : 255)
          << "bit (" << i + 1 << ", " << j + 1 << ")";
}

TEST(PngFile, TableRoundTripsBitForBit) {
  startest::TempDir dir;
  // Shapes across the 64-bit word boundaries of the column-major packing.
  for (auto [rows, cols] :
       std::vector<std::pair<int, int>>{{1, 1}, {3, 5}, {64, 65}, {130, 7}, {257, 129}}) {
    TableData t = randomTable(rows, cols, 0.4, static_cast<unsigned>(rows * 1000 + cols));
    std::string path = dir.file("t.png");
    star::writePngFile(path, t, star::kPngMaxSide, 1);  // not enlarged
    expectSameBits(t, readPng(path));
  }
}

TEST(PngFile, SliceIsAColumnAndWordARow) {
  startest::TempDir dir;
  std::vector<std::uint64_t> words = {0x8000000000000005ull, 0x3ull};  // bits 1, 3, 64, 65, 66
  TableData s = star::sliceAsTable(66, words), w = star::wordAsTable(66, words);
  ASSERT_EQ(s.rows, 66u);
  ASSERT_EQ(s.cols, 1u);
  ASSERT_EQ(w.rows, 1u);
  ASSERT_EQ(w.cols, 66u);
  star::writePngFile(dir.file("s.png"), s, star::kPngMaxSide, 1);
  star::writePngFile(dir.file("w.png"), w, star::kPngMaxSide, 1);
  Gray gs = readPng(dir.file("s.png")), gw = readPng(dir.file("w.png"));
  expectSameBits(s, gs);
  expectSameBits(w, gw);
  for (std::uint32_t k = 0; k < 66; ++k) {
    bool one = k == 0 || k == 2 || k == 63 || k == 64 || k == 65;
    EXPECT_EQ(gs.at(0, k), one ? 0 : 255) << k;
    EXPECT_EQ(gw.at(k, 0), one ? 0 : 255) << k;
  }
}

TEST(PngFile, SmallValuesAreEnlargedToAtLeast256Pixels) {
  struct Case {
    std::uint64_t rows, cols, scale;
    bool grid;
    std::uint64_t width, height;
  };
  for (const Case& c : std::vector<Case>{
           {8, 8, 32, true, 257, 257},  // the README's Warshall graph
           {4, 4, 64, true, 257, 257},
           {3, 5, 52, true, 261, 157},  // ceil(256 / 5) = 52
           {1, 1, 256, true, 257, 257},
           {32, 32, 8, true, 257, 257},  // the smallest cells with a grid
           {37, 1, 7, false, 7, 259},    // ceil(256 / 37) = 7: no grid
           {64, 64, 4, false, 256, 256},
           {1, 66, 4, false, 264, 4},  // a word of 66 bits
           {66, 1, 4, false, 4, 264},  // a slice
           {255, 3, 2, false, 6, 510},
           {256, 2, 1, false, 2, 256},      // 256 and more: one pixel per bit
           {220, 554, 1, false, 554, 220},  // the N-body example's film strip, 5 frames
           {4096, 1, 1, false, 1, 4096}}) {
    star::PngLayout l = star::pngLayout(c.rows, c.cols);
    SCOPED_TRACE(std::to_string(c.rows) + " x " + std::to_string(c.cols));
    EXPECT_EQ(l.step, 1u);
    EXPECT_EQ(l.scale, c.scale);
    EXPECT_EQ(l.grid, c.grid);
    EXPECT_EQ(l.width, c.width);
    EXPECT_EQ(l.height, c.height);
    EXPECT_GE(std::max(l.width, l.height), std::min<std::uint64_t>(256, star::kPngMaxSide));
  }
  star::PngLayout shrunk = star::pngLayout(5000, 3);
  EXPECT_EQ(shrunk.step, 2u);
  EXPECT_EQ(shrunk.scale, 1u);
  EXPECT_FALSE(shrunk.grid);
  EXPECT_EQ(shrunk.width, 2u);
  EXPECT_EQ(shrunk.height, 2500u);
  star::PngLayout capped = star::pngLayout(3, 3, 16);  // 5 x 5 pixels a bit fit in 16, not 86
  EXPECT_EQ(capped.scale, 5u);
  EXPECT_FALSE(capped.grid);
  EXPECT_EQ(capped.width, 15u);
  capped = star::pngLayout(3, 3, 100);  // 33 x 33 and the grid: 100 pixels
  EXPECT_EQ(capped.scale, 33u);
  EXPECT_TRUE(capped.grid);
  EXPECT_EQ(capped.width, 100u);
  star::PngLayout off = star::pngLayout(3, 5, star::kPngMaxSide, 1);  // enlarging off
  EXPECT_EQ(off.scale, 1u);
  EXPECT_EQ(off.width, 5u);
  EXPECT_EQ(off.height, 3u);
}

TEST(PngFile, EnlargedCellsWithAndWithoutGrid) {
  startest::TempDir dir;
  // 3 x 5 bits: cells of 52 pixels with a grid, every pixel checked.
  TableData small = randomTable(3, 5, 0.5, 11);
  small.set(0, 0);
  star::writePngFile(dir.file("small.png"), small);
  Gray g = readPng(dir.file("small.png"));
  expectCells(small, g);
  EXPECT_EQ(g.at(0, 0), star::kPngGridGray);  // the frame
  EXPECT_EQ(g.at(1, 1), 0);                   // inside bit (1, 1), a one
  EXPECT_EQ(g.at(51, 51), 0);
  EXPECT_EQ(g.at(52, 1), star::kPngGridGray);  // the line between columns 1 and 2
  EXPECT_EQ(g.at(260, 156), star::kPngGridGray);
  // 40 x 3 bits: cells of 7 pixels, no grid.
  TableData tall = randomTable(40, 3, 0.5, 12);
  star::writePngFile(dir.file("tall.png"), tall);
  expectCells(tall, readPng(dir.file("tall.png")));
  // Random shapes below 256.
  for (auto [rows, cols] :
       std::vector<std::pair<int, int>>{{2, 2}, {7, 1}, {1, 9}, {65, 3}, {31, 33}, {130, 129}}) {
    TableData t = randomTable(rows, cols, 0.3, static_cast<unsigned>(rows * 100 + cols));
    star::writePngFile(dir.file("r.png"), t);
    expectCells(t, readPng(dir.file("r.png")));
  }
}

TEST(PngFile, LargerThanTheLimitIsShadedByDensity) {
  startest::TempDir dir;
  // 10 x 7 bits with a limit of 4 pixels per side: blocks of 3 x 3, so 4 x 3 pixels; the last
  // block row holds one bit row and the last block column one bit column.
  TableData t;
  t.reshape(10, 7);
  for (int j = 0; j < 3; ++j) t.set(0, j);  // block (0, 0): 3 ones of 9
  for (int i = 3; i < 6; ++i)
    for (int j = 3; j < 6; ++j) t.set(i, j);  // block (1, 1): all 9
  t.set(9, 6);                                // block (3, 2): 1 bit, a one
  star::writePngFile(dir.file("d.png"), t, 4);
  Gray g = readPng(dir.file("d.png"));
  ASSERT_EQ(g.width, 3u);
  ASSERT_EQ(g.height, 4u);
  EXPECT_EQ(g.at(0, 0), 170);  // 255 * (1 - 3/9)
  EXPECT_EQ(g.at(1, 1), 0);
  EXPECT_EQ(g.at(2, 3), 0);
  EXPECT_EQ(g.at(1, 0), 255);
  EXPECT_EQ(g.at(0, 3), 255);
}

TEST(PngFile, DefaultLimitIs4096PixelsPerSide) {
  startest::TempDir dir;
  TableData t = randomTable(5000, 3, 0.5, 7);
  star::writePngFile(dir.file("big.png"), t);
  Gray g = readPng(dir.file("big.png"));
  EXPECT_EQ(g.height, 2500u);  // factor 2: 5000 rows -> 2500, 3 columns -> 2
  EXPECT_EQ(g.width, 2u);
  TableData exact = randomTable(4096, 2, 0.5, 8);
  star::writePngFile(dir.file("exact.png"), exact);
  expectSameBits(exact, readPng(dir.file("exact.png")));
}

TEST(PngFile, ErrorsNameTheFile) {
  startest::TempDir dir;
  TableData t = randomTable(2, 2, 0.5, 1);
  try {
    star::writePngFile(dir.file("missing/x.png"), t);
    FAIL() << "no error";
  } catch (const star::TableFileError& e) {
    EXPECT_EQ(std::string(e.what()),
              dir.file("missing/x.png") + ": cannot write: No such file or directory");
  }
  try {
    star::writePngFile(dir.path(), t);
    FAIL() << "no error";
  } catch (const star::TableFileError& e) {
    EXPECT_NE(std::string(e.what()).find(": cannot write: Is a directory"), std::string::npos)
        << e.what();
  }
  TableData empty;
  empty.reshape(0, 4);
  EXPECT_THROW(star::writePngFile(dir.file("e.png"), empty), star::TableFileError);
}

TEST(BitBlocks, CountsAndSteps) {
  std::vector<std::uint64_t> w = {~0ull, 0x1ull};
  EXPECT_EQ(star::countOnes(w.data(), 0, 64), 64u);
  EXPECT_EQ(star::countOnes(w.data(), 3, 10), 7u);
  EXPECT_EQ(star::countOnes(w.data(), 60, 70), 5u);
  EXPECT_EQ(star::countOnes(w.data(), 65, 128), 0u);
  EXPECT_EQ(star::stepToFit(4096, 4096), 1u);
  EXPECT_EQ(star::stepToFit(4097, 4096), 2u);
  EXPECT_EQ(star::stepToFit(10, 3), 4u);
  EXPECT_EQ(star::blockCount(10, 4), 3u);
}

TEST(SavePng, ProgramsWriteTablesSlicesAndWords) {
  startest::TempDir dir;
  auto c = startest::compileSource(dir, R"(program P;
var T: table(3, 70); s: slice(5); w: word(4);
begin
  ROW(1, T) := BIN(5, 70); ROW(3, T) := not ROW(3, T);
  s(2) := 1; s(5) := 1; w(4) := 1;
  SAVEPNG(T, ParamStr(1)); SAVEPNG(s, ParamStr(2)); SAVEPNG(w, ParamStr(3))
end.
)");
  ASSERT_TRUE(c.ok) << c.diagnostics;
  startest::Vm vm;
  auto r = vm.run(c.module, {dir.file("t.png"), dir.file("s.png"), dir.file("w.png")});
  ASSERT_FALSE(r.error) << *r.error;
  Gray t = readPng(dir.file("t.png")), s = readPng(dir.file("s.png")),
       w = readPng(dir.file("w.png"));
  // 3 x 70 bits: 4 x 4 pixels a bit, no grid.
  ASSERT_EQ(t.width, 280u);
  ASSERT_EQ(t.height, 12u);
  for (std::uint32_t j = 0; j < 70; ++j) {
    EXPECT_EQ(t.at(4 * j + 1, 1), j == 67 || j == 69 ? 0 : 255) << j;  // 5 = %101 at the right
    EXPECT_EQ(t.at(4 * j + 2, 6), 255) << j;
    EXPECT_EQ(t.at(4 * j + 3, 11), 0) << j;
  }
  // The slice of 5 bits, a column of cells of 52 pixels with a grid; the word of 4, a row of 64.
  ASSERT_EQ(s.width, 53u);
  ASSERT_EQ(s.height, 261u);
  for (std::uint32_t i = 0; i < 5; ++i) {
    EXPECT_EQ(s.at(26, 52 * i + 26), i == 1 || i == 4 ? 0 : 255) << i;
    EXPECT_EQ(s.at(26, 52 * i), star::kPngGridGray) << i;
  }
  ASSERT_EQ(w.width, 257u);
  ASSERT_EQ(w.height, 65u);
  for (std::uint32_t j = 0; j < 4; ++j) EXPECT_EQ(w.at(64 * j + 32, 32), j == 3 ? 0 : 255) << j;
}

TEST(SavePng, RuntimeErrorsAreAtTheCall) {
  startest::TempDir dir;
  auto c = startest::compileSource(dir, R"(program P;
var s: slice; T: table(2, 2);
begin
  SAVEPNG(T, ParamStr(1));
  SAVEPNG(s, ParamStr(2))
end.
)");
  ASSERT_TRUE(c.ok) << c.diagnostics;
  startest::Vm vm;
  auto r = vm.run(c.module, {dir.file("no/such/dir.png"), dir.file("s.png")});
  ASSERT_TRUE(r.error);
  EXPECT_EQ(*r.error, dir.file("no/such/dir.png") + ": cannot write: No such file or directory");
  EXPECT_EQ(r.loc.line, 4u);
  EXPECT_EQ(r.loc.col, 3u);
  r = vm.run(c.module, {dir.file("t.png"), dir.file("s.png")});
  ASSERT_TRUE(r.error);
  EXPECT_EQ(*r.error, "cannot draw an empty slice as a PNG picture");
  EXPECT_EQ(r.loc.line, 5u);
}

}  // namespace
