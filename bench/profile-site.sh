#!/usr/bin/env bash
# A copy of the site in build/web-prof whose posenc.wasm keeps its function names (--profiling-funcs), for
# bench/profile-frame.mjs: relinks posenc-web's objects from build/web-cmake (after `cmake --build --preset
# web --target posenc-web`) with the same em++ command plus that flag. Same objects, so the same code.
#   bench/profile-site.sh [repo]     (default: this checkout)
set -euo pipefail
repo="$(cd "${1:-$(dirname "$0")/..}" && pwd)"
source "$(dirname "$0")/../scripts/env.sh"
cd "$repo"
rm -rf build/web-prof && mkdir -p build/web-prof
cp -r build/web/. build/web-prof/
# The link line: "... && /usr/bin/em++ <flags> -o <build>/web-link/posenc.html <objects> && cd ... && cmake ...".
link=$(ninja -C build/web-cmake -t commands posenc-web | tail -1 | awk -F' && ' '{for (i = 1; i <= NF; ++i) if ($i ~ /em\+\+/) print $i}')
link=$(sed -E "s#-o [^ ]*/posenc\.html#-o $repo/build/web-prof/posenc.html#" <<<"$link")
(cd build/web-cmake && eval "$link --profiling-funcs")
mv build/web-prof/posenc.html build/web-prof/index.html
echo "build/web-prof: $(wasm-objdump -x -j name build/web-prof/posenc.wasm 2>/dev/null | grep -c 'func\[') named functions" >&2
