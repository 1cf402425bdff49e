# cmake -DNODE=... -DEMSCRIPTEN_ROOT=... -DIN=... -DOUT=... -P minify_js.cmake
# The page script as served: Emscripten's own JS optimizer (tools/acorn-optimizer.js, the pass emcc runs
# on posenc.js) re-prints it without comments and whitespace (about 5 KB less gzip); the
# readable source is web/page/ (assembled by scripts/assemble-js.mjs).
if(NOT DEFINED ENV{NODE_PATH})
  set(ENV{NODE_PATH} "/usr/share/nodejs")  # Debian's acorn, as scripts/env.sh sets it for emcc
endif()
execute_process(COMMAND ${NODE} ${EMSCRIPTEN_ROOT}/tools/acorn-optimizer.js ${IN} minifyWhitespace
                OUTPUT_FILE ${OUT}.tmp ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(REMOVE ${OUT}.tmp)
  message(FATAL_ERROR "minifying ${IN} failed: ${err}")
endif()
file(RENAME ${OUT}.tmp ${OUT})
