#include "frontend/sema/Builtins.h"

#include <cctype>
#include <stdexcept>

namespace star {
namespace {

struct RawBuiltin {
  std::string_view params, result;
  Op opcode;
  std::string_view signature, doc;
};

constexpr Op NONE = Op::Count_;
using enum Op;

constexpr RawBuiltin kRaw[] = {
#define BUILTIN(id, params, result, opcode, sig, doc) {params, result, opcode, sig, doc},
#include "frontend/sema/Builtins.def"
};

ParamKind kindOf(char c) {
  switch (c) {
    case 'I': return ParamKind::Integer;
    case 'R': return ParamKind::Real;
    case 'B': return ParamKind::Boolean;
    case 'S': return ParamKind::String;
    case 'Y': return ParamKind::Bits;
    case 'W': return ParamKind::Word;
    case 'T': return ParamKind::Table;
    case 'N': return ParamKind::Number;
    case 'A': return ParamKind::Any;
    case 'X': return ParamKind::Vector;
  }
  throw std::logic_error(std::string("Builtins.def: unknown parameter kind ") + c);
}

ResultKind resultOf(std::string_view r) {
  if (r == "-") return ResultKind::None;
  if (r == "I") return ResultKind::Integer;
  if (r == "R") return ResultKind::Real;
  if (r == "B") return ResultKind::Boolean;
  if (r == "S") return ResultKind::String;
  if (r == "W") return ResultKind::Word;
  if (r == "L") return ResultKind::Slice;
  if (r == "=1") return ResultKind::SameAsFirst;
  if (r == "~1") return ResultKind::OtherBits;
  throw std::logic_error("Builtins.def: unknown result '" + std::string(r) + "'");
}

// One `[&]K[:role][/varrole]` spec.
BuiltinParam paramOf(std::string_view spec) {
  BuiltinParam p;
  if (!spec.empty() && spec[0] == '&') {
    p.byRef = true;
    spec.remove_prefix(1);
  }
  if (spec.empty()) throw std::logic_error("Builtins.def: empty parameter");
  p.kind = kindOf(spec[0]);
  spec.remove_prefix(1);
  if (auto slash = spec.find('/'); slash != std::string_view::npos) {
    p.varRole = std::string(spec.substr(slash + 1));
    spec = spec.substr(0, slash);
  }
  if (!spec.empty() && spec[0] == ':') p.role = std::string(spec.substr(1));
  return p;
}

BuiltinInfo infoOf(const RawBuiltin& raw) {
  BuiltinInfo b;
  std::string_view sig = raw.signature;
  b.spelling = std::string(sig.substr(0, sig.find_first_of("(:")));
  for (char c : b.spelling) b.name += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::string_view params = raw.params;
  if (params.ends_with("...")) {
    b.variadic = true;
    params.remove_suffix(3);
  }
  while (!params.empty()) {
    std::size_t comma = params.find(',');
    b.params.push_back(paramOf(params.substr(0, comma)));
    params = comma == std::string_view::npos ? std::string_view{} : params.substr(comma + 1);
  }
  b.result = resultOf(raw.result);
  b.opcode = raw.opcode;
  b.signature = raw.signature;
  b.doc = raw.doc;
  return b;
}

}  // namespace

std::span<const BuiltinInfo> builtins() {
  static const std::vector<BuiltinInfo> table = [] {
    std::vector<BuiltinInfo> t;
    for (const RawBuiltin& raw : kRaw) t.push_back(infoOf(raw));
    return t;
  }();
  return table;
}

int findBuiltin(std::string_view name) {
  auto all = builtins();
  for (std::size_t i = 0; i < all.size(); ++i) {
    const std::string& b = all[i].name;
    if (b.size() != name.size()) continue;
    bool same = true;
    for (std::size_t k = 0; k < b.size() && same; ++k)
      same = std::toupper(static_cast<unsigned char>(name[k])) == b[k];
    if (same) return static_cast<int>(i);
  }
  return -1;
}

std::string BuiltinInfo::describeParam(std::size_t i, bool asVariable) const {
  static const char* const kOrdinals[] = {"first", "second", "third", "fourth", "fifth", "sixth"};
  const BuiltinParam& p = params[std::min(i, params.size() - 1)];
  if (asVariable && !p.varRole.empty()) return "the " + p.varRole + " of " + spelling;
  if (!p.role.empty()) return "the " + p.role + " of " + spelling;
  if (params.size() == 1 && !variadic) return "the argument of " + spelling;
  return std::string("the ") + (i < 6 ? kOrdinals[i] : "next") + " argument of " + spelling;
}

}  // namespace star
