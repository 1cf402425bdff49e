# posenc_model_io: JSON <-> the core's ConfigValue, the `model` response, and the model presets (the
# published configs in tests/data/configs compiled in). Used by the CLI and (phase 2) the explorer.
find_path(POSENC_NLOHMANN_DIR nlohmann/json.hpp PATHS /usr/include NO_CMAKE_FIND_ROOT_PATH REQUIRED)
# Under Emscripten /usr/include must not be on the include path: expose only the nlohmann folder.
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/json-include)
file(CREATE_LINK ${POSENC_NLOHMANN_DIR}/nlohmann ${CMAKE_BINARY_DIR}/json-include/nlohmann SYMBOLIC)

file(GLOB POSENC_MODEL_CONFIGS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/data/configs/*.json)
set(POSENC_MODEL_CONFIGS_HEADER ${CMAKE_BINARY_DIR}/generated/posenc_model_configs.h)
string(REPLACE ";" "," _posenc_config_list "${POSENC_MODEL_CONFIGS}")
add_custom_command(OUTPUT ${POSENC_MODEL_CONFIGS_HEADER}
  COMMAND ${CMAKE_COMMAND} -DOUT=${POSENC_MODEL_CONFIGS_HEADER} -DIN=${_posenc_config_list}
          -P ${PROJECT_SOURCE_DIR}/cmake/embed_configs.cmake
  DEPENDS ${POSENC_MODEL_CONFIGS} ${PROJECT_SOURCE_DIR}/cmake/embed_configs.cmake
  COMMENT "Embedding model configs" VERBATIM)

# Which tensors `posenc weights` reads per family (data/weight_tensors.json), compiled in the same way.
set(POSENC_WEIGHT_TENSORS_HEADER ${CMAKE_BINARY_DIR}/generated/posenc_weight_tensors.h)
add_custom_command(OUTPUT ${POSENC_WEIGHT_TENSORS_HEADER}
  COMMAND ${CMAKE_COMMAND} -DIN=${PROJECT_SOURCE_DIR}/data/weight_tensors.json -DOUT=${POSENC_WEIGHT_TENSORS_HEADER}
          -DNAME=kWeightTensorsJson -P ${PROJECT_SOURCE_DIR}/cmake/embed_text.cmake
  DEPENDS ${PROJECT_SOURCE_DIR}/data/weight_tensors.json ${PROJECT_SOURCE_DIR}/cmake/embed_text.cmake
  COMMENT "Embedding the weight tensor names" VERBATIM)

file(GLOB POSENC_MODEL_IO_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/model_io/*.cpp)
add_library(posenc_model_io STATIC ${POSENC_MODEL_IO_SOURCES} ${POSENC_MODEL_CONFIGS_HEADER} ${POSENC_WEIGHT_TENSORS_HEADER})
posenc_layer_root(model_io _model_io_include)
target_include_directories(posenc_model_io PUBLIC ${_model_io_include} PRIVATE ${CMAKE_BINARY_DIR}/generated)
target_include_directories(posenc_model_io SYSTEM PUBLIC ${CMAKE_BINARY_DIR}/json-include)
target_link_libraries(posenc_model_io PUBLIC posenc_core PRIVATE posenc_warnings)
