# cmake -DIN=file -DOUT=header -DNAME=kName -P embed_text.cmake
# Writes one data file as a raw string constant (posenc::generated::NAME), so model_io reads it without file IO
# (the web build has no file system).
file(READ ${IN} text)
get_filename_component(name ${IN} NAME)
set(body "// Generated from ${name} by cmake/embed_text.cmake. Do not edit.\n#pragma once\n\n")
string(APPEND body "namespace posenc::generated {\ninline constexpr const char* ${NAME} = R\"posenc_data(${text})posenc_data\";\n}\n")
file(WRITE ${OUT}.tmp "${body}")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.tmp)
