// The REPL's :show renderer (cli/repl/BitPicture.h): half blocks two rows per character, the
// rulers, shading when the bits do not fit the width or the line limit.
#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include "cli/repl/BitPicture.h"

namespace {

using star::TableData;
using star::repl::drawBits;

TableData fromRows(const std::vector<std::string>& rows) {
  TableData t;
  t.reshape(rows.size(), rows.empty() ? 0 : rows[0].size());
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (std::size_t j = 0; j < rows[i].size(); ++j)
      if (rows[i][j] == '1') t.set(i, j);
  return t;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

TEST(BitPicture, HalfBlocksTwoRowsPerCharacter) {
  // Rows 1 and 2 give every combination: 1/1 full, 1/0 upper, 0/1 lower, 0/0 blank; row 3 is
  // alone in its line (its lower half is past the end).
  TableData t = fromRows({"1100", "1010", "0110"});
  EXPECT_EQ(drawBits(t, "table 3 x 4", 80),
            "table 3 x 4\n"
            "   1  4\n"  // ruler: column 1, then steps of 2 (2 would touch the 1)
            "1 │█▀▄\n"
            "3 │ ▀▀\n");
}

TEST(BitPicture, RulersNumberRowsAndColumns) {
  TableData t;
  t.reshape(12, 25);
  for (int i = 0; i < 12; ++i) t.set(static_cast<std::uint64_t>(i), 24);  // the last column
  std::vector<std::string> l = lines(drawBits(t, "T", 80));
  ASSERT_EQ(l.size(), 2u + 6u);
  // Two-digit labels need three characters: columns 1, then every 5th; each row line starts
  // with its first row's number, right-aligned.
  EXPECT_EQ(l[1], "    1   5    10   15   20   25");
  EXPECT_EQ(l[2], " 1 │                        █");
  EXPECT_EQ(l[3], " 3 │                        █");
  EXPECT_EQ(l[7], "11 │                        █");
}

TEST(BitPicture, ShadesWhenWiderThanTheTerminal) {
  // 40 columns in a 14-column terminal (11 characters after "1 │"): blocks of 4 x 8 bits.
  TableData t;
  t.reshape(8, 40);
  for (std::uint64_t i = 0; i < 8; ++i)
    for (std::uint64_t j = 0; j < 4; ++j) t.set(i, j);  // block 1: all 32 ones
  for (std::uint64_t j = 4; j < 8; ++j) t.set(0, j);    // block 2: 4 of 32 (below 1/3)
  for (std::uint64_t i = 0; i < 4; ++i)
    for (std::uint64_t j = 8; j < 12; ++j) t.set(i, j);  // block 3: 16 of 32 (below 2/3)
  for (std::uint64_t i = 0; i < 7; ++i)
    for (std::uint64_t j = 12; j < 16; ++j) t.set(i, j);  // block 4: 28 of 32
  std::vector<std::string> l = lines(drawBits(t, "T", 14));
  ASSERT_EQ(l.size(), 3u);
  EXPECT_EQ(l[0], "T (1 character = 4 x 8 bits, shaded ░ ▒ ▓ █ by the share of 1s)");
  EXPECT_EQ(l[2], "1 │█░▒▓");
}

TEST(BitPicture, ShadesWhenTallerThanTheLineLimit) {
  TableData t;
  t.reshape(20, 1);
  t.set(0, 0);
  std::vector<std::string> l = lines(drawBits(t, "slice, 20 bits", 80, 5));
  // 20 rows in at most 5 lines: blocks of 2 x 4 bits (one column wide here).
  ASSERT_EQ(l.size(), 2u + 5u);
  EXPECT_EQ(l[2], " 1 │░");
  EXPECT_EQ(l[3], " 5 │");
  EXPECT_EQ(l[6], "17 │");
}

TEST(BitPicture, EmptyAndTinyTerminals) {
  TableData empty;
  empty.reshape(0, 5);
  EXPECT_EQ(drawBits(empty, "table 0 x 5", 80), "table 0 x 5\n");
  TableData t = fromRows({"1000"});
  // A terminal too narrow for even the row labels still gets one character: 1 of 4 bits.
  std::vector<std::string> l = lines(drawBits(t, "w", 1));
  ASSERT_EQ(l.size(), 3u);
  EXPECT_EQ(l[2], "1 │░");
}

TEST(BitPicture, Shades) {
  EXPECT_STREQ(star::repl::shadeOf(0), " ");
  EXPECT_STREQ(star::repl::shadeOf(0.1), "░");
  EXPECT_STREQ(star::repl::shadeOf(0.5), "▒");
  EXPECT_STREQ(star::repl::shadeOf(0.9), "▓");
  EXPECT_STREQ(star::repl::shadeOf(1), "█");
}

}  // namespace
