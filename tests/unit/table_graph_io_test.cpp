// Table text files (vm/io/TableText.h) and graph files (vm/io/GraphFiles.h): parsing,
// formatting, the adjacency and edge-list tables, and every error with its file:line.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "tests/unit/support/StarTestUtil.h"
#include "tests/unit/support/TableFileErrorOf.h"
#include "core/MemoryLimit.h"
#include "vm/io/GraphFiles.h"
#include "vm/io/TableText.h"

namespace star {
namespace {

// The table as rows of '0'/'1' characters, read through TableData::get (row i, column j).
std::vector<std::string> rowsOf(const TableData& t) {
  std::vector<std::string> out;
  for (std::uint64_t i = 0; i < t.rows; ++i) {
    std::string r;
    for (std::uint64_t j = 0; j < t.cols; ++j) r += t.get(i, j) ? '1' : '0';
    out.push_back(r);
  }
  return out;
}

using startest::errorOf;

// ------------------------------------------------------------------ table text

TEST(TableText, ParsesRowsAndColumns) {
  TableData t = parseTableText("101\n010\n", "t.txt");
  EXPECT_EQ(t.rows, 2u);
  EXPECT_EQ(t.cols, 3u);
  EXPECT_EQ(rowsOf(t), (std::vector<std::string>{"101", "010"}));
  // Column-major packing: column j's rows start at word j * ceil(rows / 64); row i is bit i.
  ASSERT_EQ(t.words.size(), 3u);
  EXPECT_EQ(t.words[0], 0b01u);  // column 1: rows 1 (bit 0) set
  EXPECT_EQ(t.words[1], 0b10u);  // column 2: row 2
  EXPECT_EQ(t.words[2], 0b01u);
}

TEST(TableText, PackingAcrossWordBoundaries) {
  // 70 rows, 2 columns: each column takes two words; row 65 (index 64) is bit 0 of word 2.
  std::string text;
  for (int i = 0; i < 70; ++i) text += (i == 64 ? "01\n" : i == 0 ? "10\n" : "00\n");
  TableData t = parseTableText(text, "t");
  EXPECT_EQ(t.rows, 70u);
  EXPECT_EQ(t.cols, 2u);
  ASSERT_EQ(t.words.size(), 4u);
  EXPECT_EQ(t.words[0], 1u);
  EXPECT_EQ(t.words[1], 0u);
  EXPECT_EQ(t.words[2], 0u);
  EXPECT_EQ(t.words[3], 1u);
  EXPECT_TRUE(t.get(0, 0));
  EXPECT_TRUE(t.get(64, 1));
  EXPECT_FALSE(t.get(64, 0));
}

TEST(TableText, FormatRoundTrip) {
  std::mt19937_64 rng(12345);
  for (auto [r, c] : std::vector<std::pair<std::uint64_t, std::uint64_t>>{
           {1, 1}, {3, 5}, {63, 2}, {64, 64}, {65, 3}, {130, 7}, {2, 200}}) {
    TableData t;
    t.reshape(r, c);
    std::string expected;
    for (std::uint64_t i = 0; i < r; ++i) {
      for (std::uint64_t j = 0; j < c; ++j) {
        bool bit = rng() & 1;
        if (bit) t.set(i, j);
        expected += bit ? '1' : '0';
      }
      expected += '\n';
    }
    std::string text = formatTableText(t);
    EXPECT_EQ(text, expected);
    TableData back = parseTableText(text, "t");
    EXPECT_EQ(back.rows, r);
    EXPECT_EQ(back.cols, c);
    EXPECT_EQ(back.words, t.words);
  }
  TableData empty = parseTableText("", "t");
  EXPECT_EQ(empty.rows, 0u);
  EXPECT_EQ(empty.cols, 0u);
  EXPECT_EQ(formatTableText(empty), "");
}

TEST(TableText, CommentsBlankLinesAndSpaces) {
  TableData t = parseTableText(
      "# a comment\n"
      "\n"
      "  1 0 1  \n"
      "   \t \n"
      "0\t1 1\r\n"
      "#another comment with 0 and 1 in it\n"
      "111",  // the last line needs no newline
      "t");
  EXPECT_EQ(rowsOf(t), (std::vector<std::string>{"101", "011", "111"}));
  // A comment must start the line (after blanks); after digits '#' is an error.
  EXPECT_EQ(errorOf([] { parseTableText("10 # no\n", "t"); }),
            "t:1:4: unexpected character '#' (a table row is made of 0 and 1)");
  TableData c = parseTableText("   # indented comment\n11\n", "t");
  EXPECT_EQ(rowsOf(c), (std::vector<std::string>{"11"}));
}

TEST(TableText, RaggedRowsReportTheirLine) {
  EXPECT_EQ(errorOf([] { parseTableText("101\n10\n", "g.txt"); }),
            "g.txt:2: row has 2 columns, expected 3 like the first row");
  // Comment and blank lines count for the line number.
  EXPECT_EQ(errorOf([] { parseTableText("# c\n101\n\n111\n1111\n", "g.txt"); }),
            "g.txt:5: row has 4 columns, expected 3 like the first row");
}

TEST(TableText, BadCharacterReportsItsLineAndColumn) {
  EXPECT_EQ(errorOf([] { parseTableText("10x\n", "g.txt"); }),
            "g.txt:1:3: unexpected character 'x' (a table row is made of 0 and 1)");
  EXPECT_EQ(errorOf([] { parseTableText("11\n01\n1 2\n", "g.txt"); }),
            "g.txt:3:3: unexpected character '2' (a table row is made of 0 and 1)");
}

TEST(TableText, Files) {
  startest::TempDir dir;
  TableData t = parseTableText("110\n001\n", "t");
  const std::string path = dir.file("t.txt");
  writeTableFile(path, t);
  EXPECT_EQ(startest::readFile(path), "110\n001\n");
  TableData back = readTableFile(path);
  EXPECT_EQ(back.words, t.words);
  EXPECT_EQ(readWholeFile(path), "110\n001\n");
  // Errors name the file.
  dir.write("bad.txt", "11\n1\n");
  EXPECT_EQ(errorOf([&] { readTableFile(dir.file("bad.txt")); }),
            dir.file("bad.txt") + ":2: row has 1 columns, expected 2 like the first row");
  EXPECT_EQ(errorOf([&] { readTableFile(dir.file("none.txt")); }),
            dir.file("none.txt") + ": cannot open: No such file or directory");
  EXPECT_EQ(errorOf([&] { writeTableFile(dir.file("no/such/dir.txt"), t); }),
            dir.file("no/such/dir.txt") + ": cannot write: No such file or directory");
}

// ------------------------------------------------------------------ graphs

TEST(GraphFiles, Dimacs) {
  Graph g = parseGraph(
      "c a small road graph\n"
      "p sp 4 3\n"
      "c arcs follow\n"
      "a 1 2 7\n"
      "a 2 3 1\n"
      "\n"
      "a 4 1 2\n",
      "g.gr", false);
  EXPECT_EQ(g.vertices, 4u);
  ASSERT_EQ(g.edges.size(), 3u);
  EXPECT_EQ(g.edges[0].tail, 1u);
  EXPECT_EQ(g.edges[0].head, 2u);
  EXPECT_EQ(g.edges[0].weight, 7);
  EXPECT_EQ(g.edges[2].tail, 4u);
  EXPECT_EQ(g.edges[2].head, 1u);
  EXPECT_EQ(g.edges[2].weight, 2);
  TableData t = adjacencyTable(g);
  EXPECT_EQ(rowsOf(t), (std::vector<std::string>{"0100", "0010", "0000", "1000"}));
}

TEST(GraphFiles, MatrixMarketPatternGeneral) {
  Graph g = parseGraph(
      "%%MatrixMarket matrix coordinate pattern general\n"
      "% a comment\n"
      "3 3 2\n"
      "1 2\n"
      "3 1\n",
      "g.mtx", true);
  EXPECT_EQ(g.vertices, 3u);
  ASSERT_EQ(g.edges.size(), 2u);
  EXPECT_EQ(g.edges[0].weight, 1);  // pattern files have no weights
  EXPECT_EQ(rowsOf(adjacencyTable(g)), (std::vector<std::string>{"010", "000", "100"}));
}

TEST(GraphFiles, MatrixMarketIntegerSymmetric) {
  Graph g = parseGraph(
      "%%MatrixMarket matrix coordinate integer symmetric\r\n"
      "3 3 2\r\n"
      "2 1 5\r\n"
      "3 3 4\r\n",
      "g.mtx", true);
  // An off-diagonal entry stands for both arcs; a diagonal one for one loop.
  ASSERT_EQ(g.edges.size(), 3u);
  EXPECT_EQ(g.edges[0].tail, 2u);
  EXPECT_EQ(g.edges[0].head, 1u);
  EXPECT_EQ(g.edges[1].tail, 1u);
  EXPECT_EQ(g.edges[1].head, 2u);
  EXPECT_EQ(g.edges[1].weight, 5);
  EXPECT_EQ(g.edges[2].tail, 3u);
  EXPECT_EQ(g.edges[2].head, 3u);
  EXPECT_EQ(g.edges[2].weight, 4);
  EXPECT_EQ(rowsOf(adjacencyTable(g)), (std::vector<std::string>{"010", "100", "001"}));
}

TEST(GraphFiles, MatrixMarketRealWeightsMustBeWhole) {
  Graph g = parseGraph("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 3.0\n", "g.mtx", true);
  ASSERT_EQ(g.edges.size(), 1u);
  EXPECT_EQ(g.edges[0].weight, 3);
  EXPECT_EQ(errorOf([] {
              parseGraph("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 2.5\n", "g.mtx", true);
            }),
            "g.mtx:3:5: weight 2.5 is not a whole number");
}

TEST(GraphFiles, EdgeListTableLayout) {
  Graph g = parseGraph("p sp 4 3\na 1 2 7\na 2 3 1\na 4 1 2\n", "g.gr", false);
  std::uint64_t vbits = 0, wbits = 0;
  TableData t = edgeListTable(g, vbits, wbits, "g.gr");
  // 4 vertices need 3 bits (4 = 100); the largest weight 7 needs 3 bits (111).
  EXPECT_EQ(vbits, 3u);
  EXPECT_EQ(wbits, 3u);
  EXPECT_EQ(t.rows, 3u);
  EXPECT_EQ(t.cols, 9u);
  // Tail, head, weight: unsigned binary, most significant bit first.
  EXPECT_EQ(rowsOf(t), (std::vector<std::string>{
                           "001" "010" "111",   // 1 -> 2, 7
                           "010" "011" "001",   // 2 -> 3, 1
                           "100" "001" "010"}));  // 4 -> 1, 2
}

TEST(GraphFiles, EdgeListWidths) {
  std::uint64_t vbits = 0, wbits = 0;
  // One vertex, a zero weight: both widths are at least 1.
  TableData t = edgeListTable(parseGraph("p sp 1 1\na 1 1 0\n", "g", false), vbits, wbits, "g");
  EXPECT_EQ(vbits, 1u);
  EXPECT_EQ(wbits, 1u);
  EXPECT_EQ(rowsOf(t), (std::vector<std::string>{"110"}));
  // 8 vertices need 4 bits; weight 8 needs 4 bits; pattern weights (1) need 1.
  t = edgeListTable(parseGraph("p sp 8 1\na 8 7 8\n", "g", false), vbits, wbits, "g");
  EXPECT_EQ(vbits, 4u);
  EXPECT_EQ(wbits, 4u);
  EXPECT_EQ(rowsOf(t), (std::vector<std::string>{"1000" "0111" "1000"}));
  t = edgeListTable(parseGraph("%%MatrixMarket matrix coordinate pattern general\n7 7 1\n5 6\n", "g", true),
                    vbits, wbits, "g");
  EXPECT_EQ(vbits, 3u);
  EXPECT_EQ(wbits, 1u);
  EXPECT_EQ(rowsOf(t), (std::vector<std::string>{"101" "110" "1"}));
  // No edges: an empty table of the right width.
  t = edgeListTable(parseGraph("p sp 5 0\n", "g", false), vbits, wbits, "g");
  EXPECT_EQ(t.rows, 0u);
  EXPECT_EQ(t.cols, 2 * 3u + 1);
}

TEST(GraphFiles, NegativeWeightsCannotBeEdgeListed) {
  Graph g = parseGraph("p sp 3 2\na 1 2 4\na 2 3 -3\n", "g.gr", false);
  EXPECT_EQ(g.edges[1].weight, -3);  // fine in the graph and its adjacency table
  EXPECT_EQ(rowsOf(adjacencyTable(g)), (std::vector<std::string>{"010", "001", "000"}));
  std::uint64_t vbits = 0, wbits = 0;
  EXPECT_EQ(errorOf([&] { edgeListTable(g, vbits, wbits, "g.gr"); }),
            "g.gr: negative weight -3 cannot be stored as an unsigned binary code");
}

class GraphFileErrors : public ::testing::Test {
 protected:
  // Writes `text` to a file and reads it as a graph; returns the error with the path as "F".
  std::string readError(const std::string& name, const std::string& text) {
    std::string path = dir.write(name, text);
    std::string err = errorOf([&] { readGraphFile(path); });
    if (err.rfind(path, 0) == 0) err = "F" + err.substr(path.size());
    return err;
  }
  startest::TempDir dir;
};

TEST_F(GraphFileErrors, Dimacs) {
  EXPECT_EQ(readError("g.gr", "p sp 4 1\na 1 x 3\n"), "F:2:5: a head 'x' is not a whole number");
  EXPECT_EQ(readError("g.gr", "p sp 4 1\na 1 2\n"), "F:2: expected 'a TAIL HEAD WEIGHT'");
  EXPECT_EQ(readError("g.gr", "c\np sp 4 2\na 1 2 1\na 1 5 1\n"),
            "F:4: arc 1 -> 5 names a vertex outside 1..4");
  EXPECT_EQ(readError("g.gr", "p sp 4 1\na 0 2 1\n"), "F:2: arc 0 -> 2 names a vertex outside 1..4");
  EXPECT_EQ(readError("g.gr", "c header missing\na 1 2 3\n"), "F:2: arc before the 'p sp N M' line");
  EXPECT_EQ(readError("g.gr", "c only comments\nc here\n"), "F:2: missing the 'p sp N M' line");
  EXPECT_EQ(readError("g.gr", "p sp 4 1\np sp 4 1\n"), "F:2: second 'p' line");
  EXPECT_EQ(readError("g.gr", "p sp four 1\n"),
            "F:1:6: the number of vertices 'four' is not a whole number");
  EXPECT_EQ(readError("g.gr", "p sp 4 1\ne 1 2\n"), "F:2: unexpected line (expected 'c', 'p' or 'a')");
  EXPECT_EQ(readError("g.gr", "p sp 8589934593 0\n"), "F:1: too many vertices");
}

// Numbers are read strictly: no silent truncation of a weight, no detour of an integer through a
// double, no wrap-around into a negative weight, nothing after the last field.
TEST_F(GraphFileErrors, WeightsAreReadExactly) {
  EXPECT_EQ(readError("g.gr", "p sp 2 1\na 1 2 7.9\n"), "F:2:7: weight '7.9' is not an integer");
  EXPECT_EQ(readError("g.gr", "p sp 2 1\na 1 2 7abc\n"), "F:2:7: weight '7abc' is not an integer");
  EXPECT_EQ(readError("g.gr", "p sp 2 1\na 1 2 9223372036854775808\n"),
            "F:2:7: weight 9223372036854775808 does not fit in 64 bits");
  EXPECT_EQ(readError("g.gr", "p sp 2 1\na 1 2 3 4\n"), "F:2:9: unexpected '4' at the end of the line");
  std::string big = dir.write("big.mtx", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 9007199254740993\n");
  Graph g = readGraphFile(big);
  ASSERT_EQ(g.edges.size(), 1u);
  EXPECT_EQ(g.edges[0].weight, 9007199254740993);  // 2^53 + 1: not through a double
  EXPECT_EQ(readError("r.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 1e30\n"),
            "F:3:5: weight 1e30 does not fit in 64 bits");
  EXPECT_EQ(readError("z.gr", std::string("p sp 2 1\na 1 2 3\0\n", 18)), "F:2: a NUL byte: this is not a text file");
}

// A tiny file may not declare a table larger than the memory limit.
TEST_F(GraphFileErrors, DeclaredSizeIsCheckedAgainstTheMemoryLimit) {
  std::uint64_t saved = memoryLimit();
  setMemoryLimit(std::uint64_t{1} << 30);
  Graph g = readGraphFile(dir.write("g.gr", "p sp 300000 0\n"));
  std::string message;
  try {
    adjacencyTable(g);
  } catch (const OutOfMemory& e) {
    message = e.what();
  }
  EXPECT_EQ(message, "out of memory: a 300000 x 300000 table needs 10.5 GB; the limit is 1 GB");
  setMemoryLimit(saved);
}

TEST_F(GraphFileErrors, MatrixMarket) {
  const std::string banner = "%%MatrixMarket matrix coordinate pattern general\n";
  EXPECT_EQ(readError("g.mtx", "3 3 1\n1 2\n"),
            "F:1: not a Matrix Market file (no %%MatrixMarket banner)");
  EXPECT_EQ(readError("g.mtx", "%%MatrixMarket matrix array real general\n"),
            "F:1: only 'matrix coordinate' Matrix Market files are supported");
  EXPECT_EQ(readError("g.mtx", "%%MatrixMarket matrix coordinate complex general\n"),
            "F:1: unsupported field 'complex' (pattern, integer or real)");
  EXPECT_EQ(readError("g.mtx", "%%MatrixMarket matrix coordinate pattern hermitian\n"),
            "F:1: unsupported symmetry 'hermitian' (general or symmetric)");
  EXPECT_EQ(readError("g.mtx", banner + "3 4 1\n"), "F:2: an adjacency matrix must be square (3 x 4)");
  EXPECT_EQ(readError("g.mtx", banner + "% only a comment\n"), "F:2: missing the size line");
  EXPECT_EQ(readError("g.mtx", banner + "3 3\n"), "F:2: expected 'rows cols entries'");
  EXPECT_EQ(readError("g.mtx", banner + "3 3 2\n1 2\n4 1\n"),
            "F:4: entry (4, 1) is outside the 3 x 3 matrix");
  EXPECT_EQ(readError("g.mtx", banner + "3 3 1\n1\n"), "F:3: expected 'row column'");
  EXPECT_EQ(readError("g.mtx", "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2\n"),
            "F:3: expected 'row column value'");
}

TEST_F(GraphFileErrors, FormatIsChosenByExtensionOrBanner) {
  // A .txt file with the banner is Matrix Market; a .mtx file without it is an error.
  std::string path = dir.write("g.txt", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n2 1\n");
  Graph g = readGraphFile(path);
  EXPECT_EQ(g.vertices, 2u);
  ASSERT_EQ(g.edges.size(), 1u);
  EXPECT_EQ(g.edges[0].tail, 2u);
  path = dir.write("road.gr", "p sp 2 1\na 2 1 9\n");
  g = readGraphFile(path);
  ASSERT_EQ(g.edges.size(), 1u);
  EXPECT_EQ(g.edges[0].weight, 9);
  EXPECT_EQ(errorOf([&] { readGraphFile(dir.file("none.gr")); }),
            dir.file("none.gr") + ": cannot open: No such file or directory");
}

}  // namespace
}  // namespace star
