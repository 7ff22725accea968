// libFuzzer target: the data-file readers behind LOAD, LOADNUM, LOADGRAPH and LOADEDGES (table
// text, numeric text, DIMACS, Matrix Market), with a small memory limit. The first byte picks the
// reader (and, for numeric text, the layout); the rest is the file. Their errors (TableFileError,
// OutOfMemory) are fine; a crash, a hang, a leak, UB or another exception is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/MemoryLimit.h"
#include "core/NumericLayout.h"
#include "vm/io/GraphFiles.h"
#include "vm/io/NumericText.h"
#include "vm/io/TableText.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  star::setMemoryLimit(std::uint64_t{64} << 20);
  static const char* const kLayouts[] = {"u8", "i16 f32", "f64 u1 i64", "u64 u64", "i3 f32 u7"};
  std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    switch (data[0] % 4) {
      case 0: star::parseTableText(text, "t.txt"); break;
      case 1: {
        std::string error;
        auto layout = star::parseLayout(kLayouts[(data[0] / 4) % 5], error);
        star::TableData t = star::parseNumericText(text, *layout, "n.txt");
        star::formatNumericText(t, *layout);  // and back to text
        break;
      }
      default: {
        star::Graph g = star::parseGraph(text, "g", data[0] % 4 == 3);
        std::uint64_t vb = 0, wb = 0;
        if (data[0] & 4) star::adjacencyTable(g);
        else star::edgeListTable(g, vb, wb, "g");
      }
    }
  } catch (const star::TableFileError&) {
  } catch (const star::OutOfMemory&) {
  }
  return 0;
}
