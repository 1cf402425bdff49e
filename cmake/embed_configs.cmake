# cmake -DOUT=header -DIN="a.json,b.json" -P embed_configs.cmake
# Writes the model configs (tests/data/configs/*.json, published config.json files) as raw strings, so the
# presets are compiled in and load by id without any file IO (the web build has no file system).
set(body "// Generated from tests/data/configs/*.json by cmake/embed_configs.cmake. Do not edit.\n#pragma once\n\n")
string(APPEND body "namespace posenc::model_io::embedded {\nstruct ConfigFile {\n  const char* name;\n  const char* text;\n};\n")
string(APPEND body "inline constexpr ConfigFile kConfigFiles[] = {\n")
string(REPLACE "," ";" IN "${IN}")
list(SORT IN)
foreach(file IN LISTS IN)
  get_filename_component(name ${file} NAME)
  file(READ ${file} text)
  string(APPEND body "    {\"${name}\", R\"posenc_json(${text})posenc_json\"},\n")
endforeach()
string(APPEND body "};\n}  // namespace posenc::model_io::embedded\n")
file(WRITE ${OUT}.tmp "${body}")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.tmp)
