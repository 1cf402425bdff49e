# cmake -DNODE=... -DTERSER=... -DIN=... -DOUT=... -P minify_js.cmake
# A script as served: terser (npm, a dev dependency that scripts/bootstrap installs) compresses it and
# renames its local names; top-level names and properties keep theirs (the page's scripts and emcc's
# posenc.js share globals such as Module). The readable sources are web/ and web/page/ (assembled by
# scripts/assemble-js.mjs); posenc.js is emcc's own output, which emcc minifies only as far as whitespace
# without the Closure Compiler (not in Debian's emscripten).
if(NOT EXISTS "${TERSER}")
  message(FATAL_ERROR "terser not found at ${TERSER}: run scripts/bootstrap (it installs the npm dev dependencies)")
endif()
execute_process(COMMAND ${NODE} ${TERSER} ${IN} --compress --mangle --output ${OUT}.tmp
                ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(REMOVE ${OUT}.tmp)
  message(FATAL_ERROR "minifying ${IN} failed: ${err}")
endif()
file(RENAME ${OUT}.tmp ${OUT})
