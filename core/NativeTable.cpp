#include "core/NativeTable.h"

#include <stdexcept>

namespace star {
namespace {

struct RawNative {
  std::string_view name, params, doc;
};

constexpr RawNative kRaw[] = {
#define NATIVE(id, name, params, doc) {name, params, doc},
#include "core/Natives.def"
};

NativeInfo infoOf(const RawNative& raw) {
  NativeInfo n;
  n.name = raw.name;
  n.doc = raw.doc;
  std::string_view params = raw.params;
  while (!params.empty()) {
    std::size_t comma = params.find(',');
    std::string_view spec = params.substr(0, comma);
    NativeParam p;
    if (!spec.empty() && spec[0] == '&') {
      p.byRef = true;
      spec.remove_prefix(1);
    }
    if (spec.size() != 1 || std::string_view("IRBLWT").find(spec[0]) == std::string_view::npos)
      throw std::logic_error("Natives.def: bad parameter '" + std::string(spec) + "'");
    p.kind = spec[0];
    n.params.push_back(p);
    params = comma == std::string_view::npos ? std::string_view{} : params.substr(comma + 1);
  }
  if (n.params.size() > kMaxNativeParams)
    throw std::logic_error("Natives.def: '" + std::string(raw.name) + "' has too many parameters");
  return n;
}

const char* kindName(char k) {
  switch (k) {
    case 'I': return "integer";
    case 'R': return "real";
    case 'B': return "boolean";
    case 'L': return "slice";
    case 'W': return "word";
    default: return "table";
  }
}

}  // namespace

std::span<const NativeInfo> natives() {
  static const std::vector<NativeInfo> table = [] {
    std::vector<NativeInfo> t;
    for (const RawNative& raw : kRaw) t.push_back(infoOf(raw));
    return t;
  }();
  return table;
}

int findNative(std::string_view name) {
  auto all = natives();
  for (std::size_t i = 0; i < all.size(); ++i)
    if (all[i].name == name) return static_cast<int>(i);
  return -1;
}

std::string nativeNames() {
  std::string list;
  for (const NativeInfo& n : natives()) list += (list.empty() ? "" : ", ") + std::string(n.name);
  return list;
}

std::string NativeInfo::describeParams() const {
  std::string out;
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (i) out += "; ";
    out += std::string(params[i].byRef ? "var " : "") + kindName(params[i].kind);
  }
  return out;
}

}  // namespace star
