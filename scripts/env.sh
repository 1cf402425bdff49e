# Shared paths and environment for posenc scripts (sourced, not run).
# Third-party sources and builds live outside the repo, reused across clones on one machine.
export POSENC_DEPS="${POSENC_DEPS:-$HOME/.cache/posenc-deps}"
export IMGUI_DIR="$POSENC_DEPS/src/imgui-1.86"
export SDL2_SRC_DIR="$POSENC_DEPS/src/SDL2-2.26.5"
export SDL2_WASM_PREFIX="$POSENC_DEPS/sdl2-wasm-lean"
# Debian's emcc needs Debian's node modules (acorn) visible to the nodesource node.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
