# cmake -DLANGUAGES=src/app/i18n.h -DCJK=src/core/unicode_text.h -DIN=web/posenc-lang.js -DOUT=posenc-lang.js
#       -P page_tables.cmake
# Writes the page's copy of app tables it needs before the app runs (web/posenc-lang.js decides at start
# whether to fetch the Chinese files): IN with its placeholder POSENC_APP_TABLES replaced by a JSON object
# made from the tables' one home, the C++ rows:
#   languages  the URL values of app/i18n.h's kLanguages, in order
#   cjk        core/unicode_text.h's kCjkRanges, [first, last] code point pairs
# A table that cannot be read, or a placeholder that is not there exactly once, stops the build.
foreach(_var IN ITEMS LANGUAGES CJK IN OUT)
  if(NOT ${_var})
    message(FATAL_ERROR "usage: cmake -DLANGUAGES=i18n.h -DCJK=unicode_text.h -DIN=posenc-lang.js -DOUT=out.js -P page_tables.cmake")
  endif()
endforeach()

# The rows of a header's table `<name>[] = {...};` that match `pattern` (a list); none stops the build,
# naming the row's `shape`.
function(posenc_table_rows out file name pattern shape)
  file(READ ${file} _text)
  string(FIND "${_text}" "${name}[] = {" _at)
  if(_at LESS 0)
    message(FATAL_ERROR "${file}: no table ${name}[] = {...};")
  endif()
  string(SUBSTRING "${_text}" ${_at} -1 _text)
  string(FIND "${_text}" "};" _end)
  string(SUBSTRING "${_text}" 0 ${_end} _text)
  string(REGEX MATCHALL "${pattern}" _rows "${_text}")
  if(NOT _rows)
    message(FATAL_ERROR "${file}: ${name} has no row ${shape}")
  endif()
  set(${out} "${_rows}" PARENT_SCOPE)
endfunction()

posenc_table_rows(_langs ${LANGUAGES} kLanguages "{Lang::[A-Za-z]+, \"[^\"]+\"" "{Lang::X, \"code\", \"name\"}")
set(_codes "")
foreach(_row IN LISTS _langs)
  string(REGEX REPLACE ".*\"([^\"]+)\"$" "\\1" _code "${_row}")
  list(APPEND _codes "\"${_code}\"")
endforeach()
string(REPLACE ";" "," _codes "${_codes}")

posenc_table_rows(_ranges ${CJK} kCjkRanges "{0x[0-9A-Fa-f]+, 0x[0-9A-Fa-f]+}" "{0xFIRST, 0xLAST}")
set(_pairs "")
foreach(_row IN LISTS _ranges)
  string(REGEX REPLACE "{(0x[0-9A-Fa-f]+), (0x[0-9A-Fa-f]+)}" "\\1;\\2" _ends "${_row}")
  list(GET _ends 0 _first)
  list(GET _ends 1 _last)
  math(EXPR _first "${_first}")
  math(EXPR _last "${_last}")
  list(APPEND _pairs "[${_first},${_last}]")
endforeach()
string(REPLACE ";" "," _pairs "${_pairs}")
set(_tables "{\"languages\":[${_codes}],\"cjk\":[${_pairs}]}")

file(READ ${IN} _script)
string(REGEX MATCHALL "= POSENC_APP_TABLES" _places "${_script}")
list(LENGTH _places _n)
if(NOT _n EQUAL 1)
  message(FATAL_ERROR "${IN}: `= POSENC_APP_TABLES` appears ${_n} times, not once")
endif()
string(REPLACE "= POSENC_APP_TABLES" "= ${_tables}" _script "${_script}")
file(WRITE ${OUT}.tmp "${_script}")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.tmp)
