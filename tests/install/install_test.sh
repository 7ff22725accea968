#!/usr/bin/env bash
# The installed star runs from wherever its tree is moved, and so does the Debian package's.
#   usage: install_test.sh BUILD_DIR
# 1. `cmake --install BUILD --prefix TMP/prefix`, then the prefix is moved to TMP/moved: from an
#    unrelated directory, a program with `uses graphs;` runs, `star --version` names the moved
#    standard library, STAR_PATH adds a unit directory, and `star test` passes on the installed
#    examples.
# 2. `cpack -G DEB` builds the .deb; `dpkg-deb -x` unpacks it (no root needed) and its
#    usr/bin/star passes the same checks.
set -euo pipefail
build=$(cd "$1" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset STAR_PATH
fail() { echo "FAIL: $*"; exit 1; }

# A program that needs the standard library, in a directory of its own.
mkdir -p "$tmp/elsewhere" "$tmp/units"
cat > "$tmp/elsewhere/closure.star" <<'STAR'
program Closure;
uses graphs;
var T: table(3, 3);
begin
  ROW(1, T) := %010;
  ROW(2, T) := %001;
  CLOSURE(T);
  writeln(T)
end.
STAR
printf '011\n001\n000\n' > "$tmp/expected"
# A program that uses a unit found only through STAR_PATH.
cat > "$tmp/units/twice.star" <<'STAR'
unit twice;
func TWICE(n: integer): integer;
begin
  TWICE := 2 * n
end;
end.
STAR
cat > "$tmp/elsewhere/twice_user.star" <<'STAR'
program TwiceUser;
uses twice;
begin
  writeln(TWICE(21))
end.
STAR

check_tree() {  # check_tree STAR SHARE: the checks of one unpacked tree
  local star=$1 share=$2
  cd "$tmp/elsewhere"
  # No CUDA library is needed to start: the runtime is linked statically, NVRTC and the driver
  # are opened at run time where they exist. Run with every CUDA library directory hidden.
  if readelf -d "$star" | grep -E 'NEEDED.*(libcudart|libnvrtc|libcuda\.)'; then
    fail "$star needs a CUDA library to start"
  fi
  env -u LD_LIBRARY_PATH -u CUDA_HOME PATH=/usr/bin:/bin "$star" run closure.star > "$tmp/out" ||
    fail "$star does not run with CUDA hidden"
  diff -u "$tmp/expected" "$tmp/out" || fail "wrong closure from $star with CUDA hidden"
  # A star built with CUDA, on a machine without a GPU: it says so plainly.
  if ! command -v nvidia-smi > /dev/null && ! "$star" --version | grep -q "built without CUDA"; then
    env -u LD_LIBRARY_PATH "$star" --version | grep -q "no GPU found" ||
      fail "$star --version does not say that no GPU was found: $("$star" --version)"
  fi
  "$star" run --backend=cpu closure.star > "$tmp/out" || fail "$star run closure.star"
  diff -u "$tmp/expected" "$tmp/out" || fail "wrong closure from $star"
  "$star" --version > "$tmp/version"
  grep -qx "stdlib: $(cd "$share/stdlib" && pwd -P)" "$tmp/version" ||
    fail "$star --version does not name $share/stdlib: $(cat "$tmp/version")"
  if "$star" run --backend=cpu twice_user.star > /dev/null 2>&1; then
    fail "a unit outside the search path was found"
  fi
  [ "$(STAR_PATH="/nonexistent:$tmp/units" "$star" run --backend=cpu twice_user.star)" = 42 ] ||
    fail "STAR_PATH did not add $tmp/units"
  "$star" test --backend=cpu "$share/examples" > "$tmp/test.out" 2>&1 ||
    { cat "$tmp/test.out"; fail "star test on the installed examples"; }
  tail -1 "$tmp/test.out"
}

# 1. cmake --install, then the tree moves.
cmake --install "$build" --prefix "$tmp/prefix" > "$tmp/install.log" ||
  { cat "$tmp/install.log"; fail "cmake --install"; }
for f in bin/star share/star/stdlib/graphs.star share/star/examples/warshall.star \
         share/doc/star/README.md share/doc/star/CLI.md share/man/man1/star.1 \
         share/star/editors/vim/syntax/star.vim share/star/editors/vscode/package.json; do
  [ -e "$tmp/prefix/$f" ] || fail "not installed: $f"
done
# The manual page reads as one (man's own formatter, where it is installed).
if command -v man > /dev/null; then
  MANWIDTH=80 man -l "$tmp/prefix/share/man/man1/star.1" 2> "$tmp/man.err" | grep -q "COMMANDS" ||
    fail "man -l star.1: $(cat "$tmp/man.err")"
fi
# Uninstalling a prefix install (docs/CLI.md): every installed file is in the manifest.
[ -s "$build/install_manifest.txt" ] || fail "no install_manifest.txt"
mv "$tmp/prefix" "$tmp/moved"
check_tree "$tmp/moved/bin/star" "$tmp/moved/share/star"
echo "installed tree: ok"

# 2. The Debian package, unpacked without root.
(cd "$tmp" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/pkg" > "$tmp/cpack.log" 2>&1) ||
  { cat "$tmp/cpack.log"; fail "cpack -G DEB"; }
deb=$(ls "$tmp"/pkg/*.deb)
[[ "$(dpkg-deb -f "$deb" Depends)" == *libpng16-16* ]] || fail "the package does not depend on libpng"
dpkg-deb -x "$deb" "$tmp/deb"
check_tree "$tmp/deb/usr/bin/star" "$tmp/deb/usr/share/star"
echo "Debian package: ok"
