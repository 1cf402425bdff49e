# The UI typefaces, from Debian's font packages (scripts/bootstrap installs them), subset at build time
# to the glyphs the app writes and compiled in as byte arrays (generated/posenc_fonts.h): the page loads
# no font file and nothing third-party is committed. Text: Inter (fonts-inter); numbers: DejaVu Sans
# Mono (fonts-dejavu-core), whose digits all have one width, so tick labels and readouts line up.
find_file(POSENC_TEXT_FONT Inter-Regular.otf PATHS /usr/share/fonts/opentype/inter NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
find_file(POSENC_MONO_FONT DejaVuSansMono.ttf PATHS /usr/share/fonts/truetype/dejavu NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
if(NOT POSENC_TEXT_FONT OR NOT POSENC_MONO_FONT)
  message(FATAL_ERROR "UI fonts not found (Inter-Regular.otf, DejaVuSansMono.ttf): run scripts/bootstrap "
                      "(apt: fonts-inter fonts-dejavu-core)")
endif()
# pyftsubset from Debian's python3-fonttools: Debian's own python3 (a python3 earlier on PATH, e.g. a
# pyenv one, does not see Debian's modules).
find_program(POSENC_FONT_PYTHON NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
if(POSENC_FONT_PYTHON)
  execute_process(COMMAND ${POSENC_FONT_PYTHON} -c "import fontTools.subset" RESULT_VARIABLE _fonttools_missing
                  OUTPUT_QUIET ERROR_QUIET)
endif()
if(NOT POSENC_FONT_PYTHON OR _fonttools_missing)
  message(FATAL_ERROR "fontTools not found for /usr/bin/python3: run scripts/bootstrap (apt: python3-fonttools)")
endif()

# The code points the app writes, as inclusive ranges: one list for the subsetter and for ImGui's atlas
# (glyphs a font lacks are skipped by both). Latin-1 (· × ± ° ² µ), modifier letters (ʳ), Greek, general punctuation (– — ‘ ’ …
# ′ ″), super/subscripts (⁰…⁹ ₀…₉ ₖ ₙ ᵢ ⱼ), arrows, mathematical operators (− ≤ ≥ ≈ ∞ √ ∑ ·), floor/ceil.
set(POSENC_TEXT_GLYPHS 0x0020 0x007E 0x00A0 0x00FF 0x02B0 0x02B8 0x0391 0x03A9 0x03B1 0x03C9 0x03D1 0x03D1 0x03D5 0x03D5
    0x1D62 0x1D65 0x2010 0x2027 0x2030 0x203A 0x2070 0x209C 0x2190 0x2199 0x2200 0x22FF 0x2308 0x230B 0x2C7C 0x2C7C)
# Numbers: digits, signs, punctuation, '?' (ImGui's fallback glyph), the exponent and inf/nan letters,
# x, ×, ·, … and the minus sign.
set(POSENC_MONO_GLYPHS 0x0020 0x003F 0x0045 0x0045 0x0061 0x0061 0x0065 0x0066 0x0069 0x0069 0x006E 0x006E
    0x0078 0x0078 0x00B7 0x00B7 0x00D7 0x00D7 0x2026 0x2026 0x2212 0x2212)

function(_posenc_unicodes out)
  set(_parts)
  set(_list ${ARGN})
  list(LENGTH _list _n)
  math(EXPR _last "${_n} - 1")
  foreach(_i RANGE 0 ${_last} 2)
    math(EXPR _j "${_i} + 1")
    list(GET _list ${_i} _lo)
    list(GET _list ${_j} _hi)
    string(REPLACE "0x" "" _lo ${_lo})
    string(REPLACE "0x" "" _hi ${_hi})
    list(APPEND _parts "${_lo}-${_hi}")
  endforeach()
  string(REPLACE ";" "," _joined "${_parts}")
  set(${out} ${_joined} PARENT_SCOPE)
endfunction()
_posenc_unicodes(_text_unicodes ${POSENC_TEXT_GLYPHS})
_posenc_unicodes(_mono_unicodes ${POSENC_MONO_GLYPHS})

set(_font_dir ${CMAKE_BINARY_DIR}/generated/fonts)
file(MAKE_DIRECTORY ${_font_dir})
# No hinting (ImGui's rasteriser does not use it), no layout tables (ImGui does not shape), no names.
set(_subset_opts --no-hinting --layout-features= --name-IDs= --drop-tables+=GSUB,GPOS,GDEF,kern,DSIG --desubroutinize)
add_custom_command(OUTPUT ${_font_dir}/text.otf
  COMMAND ${POSENC_FONT_PYTHON} -m fontTools.subset ${POSENC_TEXT_FONT} --unicodes=${_text_unicodes}
          ${_subset_opts} --output-file=${_font_dir}/text.otf
  DEPENDS ${POSENC_TEXT_FONT} ${PROJECT_SOURCE_DIR}/cmake/fonts.cmake COMMENT "Subsetting ${POSENC_TEXT_FONT}" VERBATIM)
add_custom_command(OUTPUT ${_font_dir}/mono.ttf
  COMMAND ${POSENC_FONT_PYTHON} -m fontTools.subset ${POSENC_MONO_FONT} --unicodes=${_mono_unicodes}
          ${_subset_opts} --output-file=${_font_dir}/mono.ttf
  DEPENDS ${POSENC_MONO_FONT} ${PROJECT_SOURCE_DIR}/cmake/fonts.cmake COMMENT "Subsetting ${POSENC_MONO_FONT}" VERBATIM)

# The language names' face: the CJK characters of the Language menu's label and items (语言, 中文), from
# WenQuanYi Micro Hei (as the CJK face below), merged into the text face: an English interface shows
# them without fetching the CJK face.
find_file(POSENC_LANG_NAMES_FONT wqy-microhei.ttc PATHS /usr/share/fonts/truetype/wqy NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
if(NOT POSENC_LANG_NAMES_FONT)
  message(FATAL_ERROR "CJK font not found (wqy-microhei.ttc): run scripts/bootstrap (apt: fonts-wqy-microhei)")
endif()
set(POSENC_LANG_NAMES_GLYPHS 0x4E2D 0x4E2D 0x6587 0x6587 0x8A00 0x8A00 0x8BED 0x8BED)
_posenc_unicodes(_lang_unicodes ${POSENC_LANG_NAMES_GLYPHS})
add_custom_command(OUTPUT ${_font_dir}/lang.ttf
  COMMAND ${POSENC_FONT_PYTHON} -m fontTools.subset ${POSENC_LANG_NAMES_FONT} --font-number=0 --unicodes=${_lang_unicodes}
          ${_subset_opts} --drop-tables+=FFTM --output-file=${_font_dir}/lang.ttf
  DEPENDS ${POSENC_LANG_NAMES_FONT} ${PROJECT_SOURCE_DIR}/cmake/fonts.cmake COMMENT "Subsetting the language names' glyphs"
  VERBATIM)

set(POSENC_FONT_HEADER ${CMAKE_BINARY_DIR}/generated/posenc_fonts.h)
string(REPLACE ";" "," _text_ranges "${POSENC_TEXT_GLYPHS}")
string(REPLACE ";" "," _mono_ranges "${POSENC_MONO_GLYPHS}")
string(REPLACE ";" "," _lang_ranges "${POSENC_LANG_NAMES_GLYPHS}")
add_custom_command(OUTPUT ${POSENC_FONT_HEADER}
  COMMAND ${CMAKE_COMMAND} -DOUT=${POSENC_FONT_HEADER} -DTEXT=${_font_dir}/text.otf -DMONO=${_font_dir}/mono.ttf
          -DLANG_NAMES=${_font_dir}/lang.ttf -DTEXT_RANGES=${_text_ranges} -DMONO_RANGES=${_mono_ranges}
          -DLANG_NAMES_RANGES=${_lang_ranges} -P ${PROJECT_SOURCE_DIR}/cmake/embed_fonts.cmake
  DEPENDS ${_font_dir}/text.otf ${_font_dir}/mono.ttf ${_font_dir}/lang.ttf ${PROJECT_SOURCE_DIR}/cmake/embed_fonts.cmake
  COMMENT "Embedding the subset fonts" VERBATIM)

# The CJK face: WenQuanYi Micro Hei (fonts-wqy-microhei) subset by scripts/cjk_font.py to the Chinese
# catalogue (i18n/zh.json), GB2312 level 1, CJK punctuation, the full-width forms and the CJK characters of
# the presets and example sentences. Not compiled into the page: the site serves it beside it
# (posenc-cjk.ttf, fetched when the interface is Chinese or CJK text appears); native programs compile it
# in with the catalogue (posenc_app_languages).
find_file(POSENC_CJK_FONT wqy-microhei.ttc PATHS /usr/share/fonts/truetype/wqy NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
if(NOT POSENC_CJK_FONT)
  message(FATAL_ERROR "CJK font not found (wqy-microhei.ttc): run scripts/bootstrap (apt: fonts-wqy-microhei)")
endif()
set(POSENC_ZH_CATALOGUE ${PROJECT_SOURCE_DIR}/i18n/zh.json)
set(POSENC_CJK_SCRIPT ${PROJECT_SOURCE_DIR}/scripts/cjk_font.py)
set(_cjk_examples ${PROJECT_SOURCE_DIR}/tests/data/configs/presets.json
    ${PROJECT_SOURCE_DIR}/src/app/views/permutation_view.cpp ${PROJECT_SOURCE_DIR}/src/app/views/toy_view.cpp)
set(POSENC_CJK_FONT_FILE ${_font_dir}/cjk.ttf)
add_custom_command(OUTPUT ${POSENC_CJK_FONT_FILE}
  COMMAND ${POSENC_FONT_PYTHON} ${POSENC_CJK_SCRIPT} subset ${POSENC_CJK_FONT} ${POSENC_CJK_FONT_FILE}
          --catalogue ${POSENC_ZH_CATALOGUE} --examples ${_cjk_examples}
  DEPENDS ${POSENC_CJK_FONT} ${POSENC_CJK_SCRIPT} ${POSENC_ZH_CATALOGUE} ${_cjk_examples}
  COMMENT "Subsetting ${POSENC_CJK_FONT}" VERBATIM)
