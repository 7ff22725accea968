// The language server's pieces that need no client: the framing reader, the nesting bound,
// column conversions, URIs and the comments shown with a declaration. The conversation itself is
// tested by conversation_test.py and robustness_test.py.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>

#include "core/JsonNesting.h"
#include "lsp/DocComment.h"
#include "lsp/MessageReader.h"
#include "lsp/TextPositions.h"
#include "lsp/Uri.h"

namespace star::lsp {
namespace {

using Kind = ReadResult::Kind;

std::string framed(const std::string& body) {
  return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

TEST(MessageReader, ReadsMessagesBackToBack) {
  std::istringstream in(framed("{\"a\":1}") + "Content-Type: x\r\ncontent-length:  2\r\n\r\n{}");
  MessageReader reader(in);
  ReadResult first = reader.next();
  EXPECT_EQ(first.kind, Kind::Message);
  EXPECT_EQ(first.body, "{\"a\":1}");
  ReadResult second = reader.next();
  EXPECT_EQ(second.kind, Kind::Message);
  EXPECT_EQ(second.body, "{}");
  EXPECT_EQ(reader.next().kind, Kind::EndOfInput);
}

TEST(MessageReader, ReportsAHeaderWithoutLengthAndGoesOn) {
  std::istringstream in("junk\r\nmore junk\r\n\r\n" + framed("{}"));
  MessageReader reader(in);
  ReadResult error = reader.next();
  EXPECT_EQ(error.kind, Kind::FramingError);
  EXPECT_NE(error.error.find("without Content-Length"), std::string::npos);
  EXPECT_EQ(reader.next().body, "{}");
}

TEST(MessageReader, ReportsALengthThatIsNotANumber) {
  std::istringstream in("Content-Length: 12x\r\n\r\n" + framed("[]"));
  MessageReader reader(in);
  EXPECT_EQ(reader.next().kind, Kind::FramingError);
  EXPECT_EQ(reader.next().body, "[]");
}

TEST(MessageReader, FindsTheNextHeaderAfterALengthTooShort) {
  std::string body = "{\"jsonrpc\":\"2.0\"}";
  std::string longJunk(20000, 'x');
  std::istringstream in("Content-Length: 5\r\n\r\n" + body + longJunk + framed("{}"));
  MessageReader reader(in);
  EXPECT_EQ(reader.next().body, "{\"jso");
  ReadResult next = reader.next();  // the rest of the body, glued to the next header
  EXPECT_EQ(next.kind, Kind::Message);
  EXPECT_EQ(next.body, "{}");
}

TEST(MessageReader, SkipsAMessageOverTheLimitAfterReportingIt) {
  std::istringstream in(framed(std::string(100, ' ')) + framed("{}"));
  MessageReader reader(in, 64);
  ReadResult error = reader.next();
  EXPECT_EQ(error.kind, Kind::FramingError);
  EXPECT_NE(error.error.find("limit"), std::string::npos);
  EXPECT_EQ(reader.next().body, "{}");
}

TEST(MessageReader, EndsInsideABody) {
  std::istringstream in("Content-Length: 10\r\n\r\n{\"a\"");
  MessageReader reader(in);
  EXPECT_EQ(reader.next().kind, Kind::EndOfInput);
}

// "a𝄞é b": 𝄞 is outside the BMP (4 bytes, 2 UTF-16 units), é is 2 bytes, 1 unit.
const std::string kLine = "a\xF0\x9D\x84\x9E\xC3\xA9 b";

TEST(JsonNesting, CountsArraysAndObjectsInsideOneAnother) {
  EXPECT_FALSE(jsonNestedDeeperThan("42", 0));
  EXPECT_TRUE(jsonNestedDeeperThan("[]", 0));
  EXPECT_FALSE(jsonNestedDeeperThan("[], {}, [1, 2]", 1));
  EXPECT_TRUE(jsonNestedDeeperThan("{\"a\": [{}]}", 2));
  EXPECT_FALSE(jsonNestedDeeperThan("{\"a\": [{}]}", 3));
  EXPECT_FALSE(jsonNestedDeeperThan(std::string(kMaxJsonNesting, '['), kMaxJsonNesting));
  EXPECT_TRUE(jsonNestedDeeperThan(std::string(kMaxJsonNesting + 1, '['), kMaxJsonNesting));
}

TEST(JsonNesting, IgnoresBracketsInStrings) {
  EXPECT_FALSE(jsonNestedDeeperThan("[\"[[[{{{\"]", 1));
  EXPECT_FALSE(jsonNestedDeeperThan("[\"\\\"[[[\"]", 1));      // an escaped quote: still a string
  EXPECT_TRUE(jsonNestedDeeperThan("[\"\\\\\", [[[]]]]", 3));  // an escaped backslash ends it
  // Closing brackets that open nothing (not JSON) do not lower the count below zero.
  EXPECT_TRUE(jsonNestedDeeperThan("]]]]]]]][[", 1));
}

TEST(TextPositions, ConvertsColumnsToEachEncoding) {
  // Column 5 (1-based code points) is the 'b'.
  EXPECT_EQ(lspCharacter(kLine, 5, PositionEncoding::Utf32), 4u);
  EXPECT_EQ(lspCharacter(kLine, 5, PositionEncoding::Utf16), 5u);
  EXPECT_EQ(lspCharacter(kLine, 5, PositionEncoding::Utf8), 8u);
  EXPECT_EQ(lspCharacter(kLine, 9, PositionEncoding::Utf16), 9u);  // past the end: one each
}

TEST(TextPositions, ConvertsCharactersBackToColumns) {
  EXPECT_EQ(codePointColumn(kLine, 5, PositionEncoding::Utf16), 5u);
  EXPECT_EQ(codePointColumn(kLine, 3, PositionEncoding::Utf16), 3u);
  EXPECT_EQ(codePointColumn(kLine, 100, PositionEncoding::Utf16), 6u);  // clamped
  LineCursor cursor(kLine, PositionEncoding::Utf16);
  EXPECT_EQ(cursor.lspCharacter(2), 1u);
  EXPECT_EQ(cursor.lspCharacter(3), 3u);
  EXPECT_EQ(cursor.lspCharacter(5), 5u);
}

TEST(TextPositions, FindsByteOffsets) {
  std::string text = "ab\r\n" + kLine + "\nlast";
  EXPECT_EQ(byteOffset(text, 0, 1, PositionEncoding::Utf16), 1u);
  EXPECT_EQ(byteOffset(text, 0, 50, PositionEncoding::Utf16), 2u);  // before the \r\n
  EXPECT_EQ(byteOffset(text, 1, 3, PositionEncoding::Utf16), 4u + 5u);
  EXPECT_EQ(byteOffset(text, 2, 4, PositionEncoding::Utf16), text.size());
  EXPECT_EQ(byteOffset(text, 9, 0, PositionEncoding::Utf16), text.size());
}

TEST(Uri, ConvertsFileUrisAndPaths) {
  EXPECT_EQ(uriToPath("file:///tmp/a%20b.star"), "/tmp/a b.star");
  EXPECT_EQ(uriToPath("FILE://host/x.star"), "/x.star");
  EXPECT_EQ(uriToPath("untitled:Untitled-1"), std::nullopt);
  EXPECT_EQ(pathToUri("/tmp/a b/c#1.star"), "file:///tmp/a%20b/c%231.star");
  EXPECT_EQ(documentPath("file:///tmp/./x/../y.star"), "/tmp/y.star");
  EXPECT_EQ(documentPath("untitled:Untitled-1"), "untitled:Untitled-1");
}

// The comment before the `procedure` of `text`.
std::string commentOf(const std::string& text) {
  SourceManager sources;
  std::uint32_t file = sources.add("t.star", text);
  std::size_t at = text.find("procedure");
  std::size_t lineStart = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
  auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n');
  return commentBefore(sources, {file, static_cast<std::uint32_t>(line),
                                 static_cast<std::uint32_t>(at - lineStart + 1)});
}

TEST(DocComment, TakesTheCommentJustBeforeADeclaration) {
  EXPECT_EQ(commentOf("x := 1;\n{ Does it.\n  Twice. }\nprocedure P;"), "Does it.\nTwice.");
  EXPECT_EQ(commentOf("// one\n//   two\nprocedure P;"), "one\n  two");
  EXPECT_EQ(commentOf("(* star *) procedure P;"), "star");
  EXPECT_EQ(commentOf("/* c */\n  procedure P;"), "c");
}

TEST(DocComment, IgnoresACommentSeparatedByABlankLine) {
  EXPECT_EQ(commentOf("{ section }\n\nprocedure P;"), "");
  EXPECT_EQ(commentOf("end;\nprocedure P;"), "");
  EXPECT_EQ(commentOf("procedure P;"), "");
}

}  // namespace
}  // namespace star::lsp
