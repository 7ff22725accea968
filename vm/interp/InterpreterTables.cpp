// The interpreter's instructions on tables and the data files (Interpreter::tableOp): each
// checks its operands and calls the backend. execute() hands every opcode it has no case for here.
#include <bit>
#include <charconv>
#include <cmath>
#include <string>
#include <vector>

#include "core/MemoryLimit.h"
#include "vm/interp/FaultText.h"
#include "vm/interp/Interpreter.h"
#include "vm/interp/InterpreterFault.h"
#include "vm/io/BitBlocks.h"
#include "vm/io/GraphFiles.h"
#include "vm/io/NumericText.h"
#include "vm/io/PngFile.h"
#include "vm/io/TableText.h"

namespace star {

bool Interpreter::tableOp(Op op, const std::uint32_t* a) {
  auto H = [&](int k) { return static_cast<Handle>(reg(a[k]).u); };
  auto I = [&](int k) { return reg(a[k]).i; };
  switch (op) {
    // ---- tables
    case Op::TNEW: {
      std::int64_t r = I(1), c = I(2);
      if (r < 0 || c < 0)
        throw Fault("a table cannot have a negative size (" + std::to_string(r) + " x " +
                    std::to_string(c) + ")");
      Handle h = H(0);
      requireTableShape(static_cast<std::uint64_t>(r), static_cast<std::uint64_t>(c));
      backend_.resizeTable(h, static_cast<std::uint64_t>(r), static_cast<std::uint64_t>(c));
      fixed_[h] = static_cast<std::uint8_t>(a[3]);
      break;
    }
    case Op::TCOPY:
      if (H(0) != H(1)) {
        requireTableFits(H(0), backend_.rows(H(1)), backend_.cols(H(1)));
        backend_.copyTable(H(0), H(1));
      }
      break;
    case Op::TEQ: {
      Handle x = H(1), y = H(2);
      bool eq = backend_.rows(x) == backend_.rows(y) && backend_.cols(x) == backend_.cols(y);
      if (eq && x != y) {
        std::vector<std::uint64_t> other;
        backend_.readTable(x, scratch_);
        backend_.readTable(y, other);
        eq = scratch_ == other;
      }
      reg(a[0]).i = eq;
      break;
    }
    case Op::TROWS: reg(a[0]).i = static_cast<std::int64_t>(backend_.rows(H(1))); break;
    case Op::TCOLS: reg(a[0]).i = static_cast<std::int64_t>(backend_.cols(H(1))); break;
    // COL and ROW: a column is a line of rows bits, a row a line of cols bits.
    case Op::TGETCOL: case Op::TGETROW: {
      const bool col = op == Op::TGETCOL;
      const Handle t = H(1);
      const std::uint64_t k = index(I(2), col ? backend_.cols(t) : backend_.rows(t), indexWhat(op));
      reshapeBits(H(0), col ? backend_.rows(t) : backend_.cols(t));
      if (col) backend_.getCol(H(0), t, k);
      else backend_.getRow(H(0), t, k);
      break;
    }
    case Op::TSETCOL: case Op::TSETROW: {
      const bool col = op == Op::TSETCOL;
      const Handle t = H(0);
      const std::uint64_t k = index(I(1), col ? backend_.cols(t) : backend_.rows(t), indexWhat(op));
      const std::uint64_t line = col ? backend_.rows(t) : backend_.cols(t);
      if (backend_.length(H(2)) != line)
        throw Fault("size mismatch: the table has " + str(line) + (col ? " rows but the slice has " : " columns but the word has ") +
                    str(backend_.length(H(2))) + " bits");
      if (col) backend_.setCol(t, k, H(2));
      else backend_.setRow(t, k, H(2));
      break;
    }
    case Op::TLOAD: {
      loadTable(H(0), text(reg(a[1])));
      break;
    }
    case Op::TSAVE: {
      saveTable(H(0), text(reg(a[1])));
      break;
    }
    case Op::TLOADG: {
      TableData t = adjacencyTable(readGraphFile(text(reg(a[1]))));
      requireTableFits(H(0), t.rows, t.cols);
      backend_.writeTable(H(0), t.rows, t.cols, t.words.data());
      break;
    }
    case Op::TLOADE: {
      const std::string& path = text(reg(a[1]));
      std::uint64_t vbits = 0, wbits = 0;
      TableData t = edgeListTable(readGraphFile(path), vbits, wbits, path);
      requireTableFits(H(0), t.rows, t.cols);
      backend_.writeTable(H(0), t.rows, t.cols, t.words.data());
      reg(a[2]).i = static_cast<std::int64_t>(vbits);
      reg(a[3]).i = static_cast<std::int64_t>(wbits);
      break;
    }
    case Op::TLOADN: {
      NumLayout layout = parseLayoutOrThrow(text(reg(a[2])));  // before touching the file
      TableData t = readNumericFile(text(reg(a[1])), layout);
      requireTableFits(H(0), t.rows, t.cols);
      backend_.writeTable(H(0), t.rows, t.cols, t.words.data());
      break;
    }
    case Op::TSAVEN: {
      NumLayout layout = parseLayoutOrThrow(text(reg(a[2])));
      TableData t;
      t.rows = backend_.rows(H(0));
      t.cols = backend_.cols(H(0));
      if (t.cols != layout.width)
        throw Fault("size mismatch: the layout '" + text(reg(a[2])) + "' has " +
                    str(layout.width) + " bits but the table has " + str(t.cols) + " columns");
      backend_.readTable(H(0), t.words);
      writeNumericFile(text(reg(a[1])), t, layout);
      break;
    }
    case Op::TSAVEP: {
      TableData t;
      t.rows = backend_.rows(H(0));
      t.cols = backend_.cols(H(0));
      backend_.readTable(H(0), t.words);
      writePngFile(text(reg(a[1])), t);
      break;
    }
    case Op::BSAVEP: {
      std::uint64_t n = backend_.length(H(0));
      if (n == 0)
        throw Fault(std::string("cannot draw an empty ") + (a[2] ? "word" : "slice") +
                    " as a PNG picture");
      std::vector<std::uint64_t> words;
      backend_.readBits(H(0), words);
      writePngFile(text(reg(a[1])), a[2] ? wordAsTable(n, words) : sliceAsTable(n, words));
      break;
    }
    default:
      return false;
  }
  return true;
}

}  // namespace star
