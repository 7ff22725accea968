#include "vm/bytecode/ModuleFile.h"

#include <cstring>

#include "core/NativeTable.h"
#include "vm/bytecode/Verifier.h"

namespace star {
namespace {

constexpr char kMagic[8] = {'S', 'T', 'A', 'R', 'C', 0, '\r', '\n'};

std::uint64_t fnv1a(const char* data, std::size_t n) {
  std::uint64_t h = 14695981039346656037ull;  // FNV-1a 64-bit offset basis
  for (std::size_t i = 0; i < n; ++i) {
    h ^= static_cast<unsigned char>(data[i]);
    h *= 1099511628211ull;
  }
  return h;
}

class Writer {
 public:
  void u8(std::uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) u8(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void u64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) u8(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void str(const std::string& s) {
    u32(static_cast<std::uint32_t>(s.size()));
    out_ += s;
  }
  std::string& bytes() { return out_; }

 private:
  std::string out_;
};

class Reader {
 public:
  Reader(const char* p, std::size_t n) : p_(p), end_(p + n) {}
  void need(std::size_t n) {
    if (static_cast<std::size_t>(end_ - p_) < n) throw ModuleFormatError("module file is truncated");
  }
  std::uint8_t u8() {
    need(1);
    return static_cast<std::uint8_t>(*p_++);
  }
  std::uint32_t u32() {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= std::uint32_t{u8()} << (8 * i);
    return v;
  }
  std::uint64_t u64() {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= std::uint64_t{u8()} << (8 * i);
    return v;
  }
  // A count of items each at least `minBytes` long: bounded by what is left, so a corrupt count
  // cannot make us allocate gigabytes.
  std::uint32_t count(std::size_t minBytes) {
    std::uint32_t n = u32();
    if (minBytes && n > static_cast<std::size_t>(end_ - p_) / minBytes)
      throw ModuleFormatError("module file is corrupt (a count exceeds the file size)");
    return n;
  }
  std::string str() {
    std::uint32_t n = count(1);
    std::string s(p_, n);
    p_ += n;
    return s;
  }
  bool atEnd() const { return p_ == end_; }

 private:
  const char* p_;
  const char* end_;
};

}  // namespace

std::string serializeModule(const Module& m) {
  Writer w;
  w.u32(static_cast<std::uint32_t>(m.files.size()));
  for (auto& f : m.files) w.str(f);
  w.u32(static_cast<std::uint32_t>(m.constants.size()));
  for (auto& k : m.constants) {
    w.u8(static_cast<std::uint8_t>(k.tag));
    w.u64(static_cast<std::uint64_t>(k.intValue));
    std::uint64_t bits;
    std::memcpy(&bits, &k.realValue, sizeof bits);
    w.u64(bits);
    w.str(k.text);
  }
  w.u32(static_cast<std::uint32_t>(m.globals.size()));
  for (auto& g : m.globals) {
    w.str(g.name);
    w.u8(static_cast<std::uint8_t>(g.kind));
  }
  w.u32(static_cast<std::uint32_t>(m.functions.size()));
  for (auto& f : m.functions) {
    w.str(f.name);
    w.u32(static_cast<std::uint32_t>(f.params.size()));
    for (auto& p : f.params) {
      w.u8(static_cast<std::uint8_t>(p.kind));
      w.u8(p.byRef);
    }
    w.u32(f.numRegs);
    w.u32(static_cast<std::uint32_t>(f.ownedRegs.size()));
    for (auto& [reg, kind] : f.ownedRegs) {
      w.u32(reg);
      w.u8(static_cast<std::uint8_t>(kind));
    }
    w.u32(static_cast<std::uint32_t>(f.resultReg));
    w.u8(static_cast<std::uint8_t>(f.resultKind));
    w.u32(static_cast<std::uint32_t>(f.code.size()));
    for (std::uint32_t c : f.code) w.u32(c);
    for (auto& l : f.locs) {
      w.u32(l.file);
      w.u32(l.line);
      w.u32(l.col);
    }
    w.str(f.native);
    w.u32(static_cast<std::uint32_t>(f.parallelLoops.size()));
    for (const ParallelLoop& l : f.parallelLoops) {
      w.u8(static_cast<std::uint8_t>(l.form));
      for (std::uint32_t v : {l.selector, l.index, l.first, l.last, l.bodyBegin, l.bodyEnd, l.exit}) w.u32(v);
    }
  }
  w.u32(m.entry);

  return sealModulePayload(w.bytes());
}

std::string sealModulePayload(const std::string& payload) {
  Writer out;
  out.bytes().append(kMagic, sizeof kMagic);
  out.u32(kModuleVersion);
  out.u64(payload.size());
  out.bytes() += payload;
  out.u64(fnv1a(payload.data(), payload.size()));
  return std::move(out.bytes());
}

Module deserializeModule(const std::string& bytes) {
  if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    throw ModuleFormatError("not a Star module (bad magic number)");
  Reader head(bytes.data() + sizeof kMagic, bytes.size() - sizeof kMagic);
  std::uint32_t version = head.u32();
  if (version != kModuleVersion)
    throw ModuleFormatError("module format version " + std::to_string(version) +
                            " is not supported (this star reads version " +
                            std::to_string(kModuleVersion) + "); recompile the program");
  std::uint64_t size = head.u64();
  std::size_t headerSize = sizeof kMagic + 4 + 8;
  if (bytes.size() < headerSize + 8 || size != bytes.size() - headerSize - 8)
    throw ModuleFormatError("module file is truncated or has trailing bytes");
  const char* payload = bytes.data() + headerSize;
  Reader tail(payload + size, 8);
  if (tail.u64() != fnv1a(payload, size))
    throw ModuleFormatError("module file is corrupt (checksum mismatch)");

  Reader r(payload, size);
  Module m;
  m.files.resize(r.count(4));
  for (auto& f : m.files) f = r.str();
  m.constants.resize(r.count(21));
  for (auto& k : m.constants) {
    std::uint8_t tag = r.u8();
    if (tag > static_cast<std::uint8_t>(ValueTag::Table)) throw ModuleFormatError("bad constant tag");
    k.tag = static_cast<ValueTag>(tag);
    k.intValue = static_cast<std::int64_t>(r.u64());
    std::uint64_t bits = r.u64();
    std::memcpy(&k.realValue, &bits, sizeof bits);
    k.text = r.str();
  }
  m.globals.resize(r.count(5));
  for (auto& g : m.globals) {
    g.name = r.str();
    std::uint8_t kind = r.u8();
    if (kind > static_cast<std::uint8_t>(SlotKind::Table)) throw ModuleFormatError("bad global kind");
    g.kind = static_cast<SlotKind>(kind);
  }
  m.functions.resize(r.count(29));
  for (auto& f : m.functions) {
    f.name = r.str();
    f.params.resize(r.count(2));
    for (auto& p : f.params) {
      std::uint8_t kind = r.u8();
      if (kind > static_cast<std::uint8_t>(SlotKind::Ref)) throw ModuleFormatError("bad parameter kind");
      p.kind = static_cast<SlotKind>(kind);
      p.byRef = r.u8() != 0;
    }
    f.numRegs = r.u32();
    f.ownedRegs.resize(r.count(5));
    for (auto& [reg, kind] : f.ownedRegs) {
      reg = r.u32();
      std::uint8_t k = r.u8();
      if (k != static_cast<std::uint8_t>(SlotKind::Bits) && k != static_cast<std::uint8_t>(SlotKind::Table))
        throw ModuleFormatError("bad register kind");
      kind = static_cast<SlotKind>(k);
    }
    f.resultReg = static_cast<std::int32_t>(r.u32());
    std::uint8_t rk = r.u8();
    if (rk > static_cast<std::uint8_t>(SlotKind::Table)) throw ModuleFormatError("bad result kind");
    f.resultKind = static_cast<SlotKind>(rk);
    f.code.resize(r.count(16));
    for (auto& c : f.code) c = r.u32();
    f.locs.resize(f.code.size());
    for (auto& l : f.locs) {
      l.file = r.u32();
      l.line = r.u32();
      l.col = r.u32();
    }
    f.native = r.str();
    f.nativeId = f.native.empty() ? -1 : findNative(f.native);
    f.parallelLoops.resize(r.count(29));
    for (ParallelLoop& l : f.parallelLoops) {
      std::uint8_t form = r.u8();
      if (form < 1 || form > 4) throw ModuleFormatError("bad parallel loop form");
      l.form = static_cast<LoopForm>(form);
      for (std::uint32_t* v : {&l.selector, &l.index, &l.first, &l.last, &l.bodyBegin, &l.bodyEnd, &l.exit})
        *v = r.u32();
    }
    if (!f.native.empty() && f.nativeId < 0)
      throw ModuleFormatError("unknown native procedure '" + printable(f.native) + "' in function '" +
                              printable(f.name) + "'");
  }
  m.entry = r.u32();
  if (!r.atEnd()) throw ModuleFormatError("module file is corrupt (unexpected trailing data)");
  verifyModule(m);
  return m;
}

}  // namespace star
