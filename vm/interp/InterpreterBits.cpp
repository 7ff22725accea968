// The interpreter's instructions on slices and words (Interpreter::bitsOp): each
// checks its operands and calls the backend. execute() hands every opcode it has no case for here.
#include <bit>
#include <charconv>
#include <cmath>
#include <string>
#include <vector>

#include "core/HostFloat.h"
#include "core/MemoryLimit.h"
#include "vm/interp/FaultText.h"
#include "vm/interp/Interpreter.h"
#include "vm/interp/InterpreterFault.h"
#include "vm/interp/StringPool.h"
#include "vm/semantics/Scalar.h"
#include "vm/io/BitBlocks.h"
#include "vm/io/NumericText.h"

namespace star {

bool Interpreter::bitsOp(const Module& m, Op op, const std::uint32_t* a) {
  auto H = [&](int k) { return static_cast<Handle>(reg(a[k]).u); };
  auto I = [&](int k) { return reg(a[k]).i; };
  auto F = [&](int k) { return reg(a[k]).f; };
  switch (op) {
    // ---- bit vectors
    case Op::BNEW: {
      std::int64_t n = I(1);
      if (n < 0) throw Fault("a length cannot be negative (" + std::to_string(n) + ")");
      Handle h = H(0);
      requireBitsShape(static_cast<std::uint64_t>(n));
      backend_.resizeBits(h, static_cast<std::uint64_t>(n));
      fixed_[h] = static_cast<std::uint8_t>(a[2]);
      break;
    }
    case Op::BCONST: bitsFromConstant(H(0), m.constants[a[1]].text); break;
    case Op::BCOPY:
      if (H(0) != H(1)) {
        requireBitsFit(H(0), backend_.length(H(1)));
        backend_.copyBits(H(0), H(1));
      }
      break;
    case Op::BFILL: backend_.fill(H(0), a[1] != 0); break;
    case Op::BAND:
    case Op::BOR:
    case Op::BXOR: {
      const char* name = op == Op::BAND ? "'and'" : op == Op::BOR ? "'or'" : "'xor'";
      requireSameLength(H(1), H(2), name);
      reshapeBits(H(0), backend_.length(H(1)));
      backend_.bitwise(op == Op::BAND ? BitOp::And : op == Op::BOR ? BitOp::Or : BitOp::Xor,
                       H(0), H(1), H(2));
      break;
    }
    case Op::BNOT:
      reshapeBits(H(0), backend_.length(H(1)));
      backend_.bitNot(H(0), H(1));
      break;
    case Op::BFRST:
      reshapeBits(H(0), backend_.length(H(1)));
      backend_.firstOnly(H(0), H(1));
      break;
    case Op::BFND: reg(a[0]).i = backend_.findFirst(H(1)) + 1; break;
    case Op::BSTEP: reg(a[0]).i = backend_.step(H(1)) + 1; break;
    case Op::BNUMB: reg(a[0]).i = static_cast<std::int64_t>(backend_.count(H(1))); break;
    case Op::BSOME: reg(a[0]).i = backend_.any(H(1)); break;
    case Op::BGET: {
      std::uint64_t i = index(I(2), backend_.length(H(1)), "index");
      reg(a[0]).i = backend_.getBit(H(1), i);
      break;
    }
    case Op::BSET: {
      std::uint64_t i = index(I(1), backend_.length(H(0)), "index");
      std::int64_t v = I(2);
      if (!sem::isComponent(v)) throw Fault(componentMessage(v));
      backend_.setBit(H(0), i, v == 1);
      break;
    }
    case Op::BLEN: reg(a[0]).i = static_cast<std::int64_t>(backend_.length(H(1))); break;
    case Op::WEQ: case Op::WNE: case Op::WLT: case Op::WLE: case Op::WGT: case Op::WGE: {
      requireSameLength(H(1), H(2), "comparison");
      int c = backend_.compare(H(1), H(2));
      bool r = op == Op::WEQ ? c == 0 : op == Op::WNE ? c != 0 : op == Op::WLT ? c < 0
             : op == Op::WLE ? c <= 0 : op == Op::WGT ? c > 0 : c >= 0;
      reg(a[0]).i = r;
      break;
    }
    case Op::WADD:
    case Op::WSUB:
      requireSameLength(H(1), H(2), op == Op::WADD ? "ADD" : "SUBT");
      reshapeBits(H(0), backend_.length(H(1)));
      if (op == Op::WADD) backend_.add(H(0), H(1), H(2));
      else backend_.sub(H(0), H(1), H(2));
      break;
    case Op::WTRIM: {
      std::uint64_t len = backend_.length(H(3));
      std::uint64_t i = index(I(1), len, "TRIM start");
      std::uint64_t j = index(I(2), len, "TRIM end");
      if (j < i)
        throw Fault("TRIM start " + str(i + 1) + " is after its end " + str(j + 1));
      if (H(0) == H(3)) {  // w := TRIM(.., w) through two names of one word
        Handle t = scratchBits();
        backend_.resizeBits(t, j - i + 1);
        backend_.trim(t, H(3), i, j - i + 1);
        reshapeBits(H(0), j - i + 1);
        backend_.copyBits(H(0), t);
      } else {
        reshapeBits(H(0), j - i + 1);
        backend_.trim(H(0), H(3), i, j - i + 1);
      }
      break;
    }
    case Op::WREP: {
      std::uint64_t len = backend_.length(H(3));
      std::uint64_t i = index(I(0), len, "REP start");
      std::uint64_t j = index(I(1), len, "REP end");
      if (j < i) throw Fault("REP start " + str(i + 1) + " is after its end " + str(j + 1));
      if (backend_.length(H(2)) != j - i + 1)
        throw Fault("size mismatch: REP(" + str(i + 1) + ", " + str(j + 1) + ", ...) replaces " +
                    str(j - i + 1) + " bits but the word has " + str(backend_.length(H(2))));
      if (H(2) == H(3)) {  // REP(i, j, w, w) through two names of one word
        Handle t = scratchBits();
        backend_.copyBits(t, H(2));
        backend_.replace(H(3), i, t);
      } else {
        backend_.replace(H(3), i, H(2));
      }
      break;
    }
    case Op::WBIN: {
      std::int64_t n = I(1), k = I(2);
      if (k < 1) throw Fault("BIN needs a length of at least 1, not " + std::to_string(k));
      if (n < 0) throw Fault("BIN(" + std::to_string(n) + ", ...): negative numbers have no unsigned binary form");
      if (k < 63 && n >= (std::int64_t{1} << k))
        throw Fault("BIN(" + std::to_string(n) + ", " + std::to_string(k) + "): " +
                    std::to_string(n) + " does not fit in " + std::to_string(k) + " bits");
      Handle d = H(0);
      requireBitsFit(d, static_cast<std::uint64_t>(k));
      requireBitsShape(static_cast<std::uint64_t>(k));
      scratch_.assign(wordsForBits(static_cast<std::uint64_t>(k)), 0);
      for (std::int64_t b = 0; b < 63 && b < k; ++b)
        if ((n >> b) & 1) {
          std::uint64_t pos = static_cast<std::uint64_t>(k - 1 - b);  // bit 1 is the MSB
          scratch_[pos / 64] |= 1ull << (pos % 64);
        }
      backend_.writeBits(d, static_cast<std::uint64_t>(k), scratch_.data());
      break;
    }
    case Op::WVAL: {
      std::uint64_t len = backend_.length(H(1));
      if (len > 63) throw Fault("VAL needs a word of at most 63 bits; this one has " + str(len));
      backend_.readBits(H(1), scratch_);
      std::int64_t v = 0;
      for (std::uint64_t i = 0; i < len; ++i)
        v = (v << 1) | static_cast<std::int64_t>((scratch_[i / 64] >> (i % 64)) & 1);
      reg(a[0]).i = v;
      break;
    }

    // ---- numbers
    case Op::WSVAL:
    case Op::WFVAL: {
      std::uint64_t len = backend_.length(H(1));
      if (op == Op::WSVAL && (len < 1 || len > 64))
        throw Fault("SVAL needs a word of 1..64 bits; this one has " + str(len));
      if (op == Op::WFVAL && len != 32 && len != 64)
        throw Fault("FVAL needs a word of 32 or 64 bits; this one has " + str(len));
      backend_.readBits(H(1), scratch_);
      std::uint64_t v = wordToNumber(scratch_[0], len);
      if (op == Op::WSVAL) reg(a[0]).i = signExtend(v, static_cast<unsigned>(len));
      else if (len == 32) reg(a[0]).f = floatBitsToReal(static_cast<std::uint32_t>(v));
      else reg(a[0]).f = std::bit_cast<double>(v);
      break;
    }
    case Op::WSBIN:
    case Op::WFBIN: {
      std::int64_t k = I(2);
      std::uint64_t word = 0;
      if (op == Op::WSBIN) {
        std::int64_t n = I(1);
        if (k < 1 || k > 64) throw Fault("SBIN needs a length of 1..64, not " + std::to_string(k));
        if (!fitsSigned(n, static_cast<unsigned>(k))) {
          std::int64_t half = std::int64_t{1} << (k - 1);
          throw Fault("SBIN(" + std::to_string(n) + ", " + std::to_string(k) + "): " +
                      std::to_string(n) + " does not fit in " + std::to_string(k) +
                      " bits (two's complement: " + std::to_string(-half) + ".." +
                      std::to_string(half - 1) + ")");
        }
        word = numberToWord(lowBits(static_cast<std::uint64_t>(n), static_cast<unsigned>(k)),
                            static_cast<std::uint64_t>(k));
      } else {
        if (k != 32 && k != 64) throw Fault("FBIN needs a length of 32 or 64, not " + std::to_string(k));
        word = sem::realToWordBits(F(1), static_cast<std::uint64_t>(k));
      }
      Handle d = H(0);
      requireBitsFit(d, static_cast<std::uint64_t>(k));
      scratch_.assign(1, word);
      backend_.writeBits(d, static_cast<std::uint64_t>(k), scratch_.data());
      break;
    }

    // ---- strings of '0' and '1' (character 1 is bit 1, as in word literals and write)
    case Op::STOW: {
      const std::string& s = text(reg(a[1]));
      requireBitsShape(s.size());
      scratch_.assign(wordsForBits(s.size()), 0);
      for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '1') scratch_[i / 64] |= 1ull << (i % 64);
        else if (s[i] != '0')
          throw Fault("StrToWord: character " + str(i + 1) + " of '" + s.substr(0, 40) +
                      (s.size() > 40 ? "..." : "") + "' is '" + s.substr(i, 1) + "', not 0 or 1");
      }
      requireBitsFit(H(0), s.size());
      backend_.writeBits(H(0), s.size(), scratch_.data());
      break;
    }
    case Op::WTOS: {
      const std::uint64_t n = backend_.length(H(1));
      requireMemory(n, "a string of " + str(n) + " characters");
      backend_.readBits(H(1), scratch_);
      std::string s(n, '0');
      for (std::uint64_t i = 0; i < n; ++i)
        if ((scratch_[i / 64] >> (i % 64)) & 1) s[i] = '1';
      reg(a[0]).u = internCountedString(s);
      break;
    }
    default:
      return false;
  }
  return true;
}

}  // namespace star
