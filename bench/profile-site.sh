#!/usr/bin/env bash
# A copy of the site in build/web-prof whose posenc.wasm keeps its function names (--profiling-funcs), for
# bench/profile-frame.mjs: relinks posenc-web's objects from build/web-cmake (after `cmake --build --preset
# web`) with the same command plus that flag. The objects are the same, so the code is the shipped code.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
source scripts/env.sh
bdir=$(sed -n 's/.*"binaryDir": *"\${sourceDir}\/\([^"]*\)".*/\1/p' CMakePresets.json | grep web | head -1)
bdir=${bdir:-build/web-cmake}
rm -rf build/web-prof && mkdir -p build/web-prof
cp -r build/web/. build/web-prof/
cmd=$(ninja -C "$bdir" -t commands posenc-web | tail -1 | sed 's/ && .*//')
out="$repo/build/web-prof/posenc.html"
(cd "$bdir" && eval "${cmd/-o */-o $out} --profiling-funcs $(sed -n 's/.*-o [^ ]*\( .*\)/\1/p' <<<"$cmd")")
mv build/web-prof/posenc.html build/web-prof/index.html
echo "build/web-prof: $(wasm-objdump -x -j name build/web-prof/posenc.wasm 2>/dev/null | grep -c 'func\[') named functions" >&2
