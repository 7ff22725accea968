# Runs the golden suite with --backend=cuda when a GPU is usable; otherwise exits 77 (skipped).
execute_process(COMMAND ${STAR} --version OUTPUT_VARIABLE version)
if(NOT version MATCHES "cuda \\(NVIDIA|cuda \\([^u]")
  message("no usable GPU (star --version: ${version}); skipping the GPU golden run")
  cmake_language(EXIT 77)
endif()
execute_process(COMMAND ${PYTHON} ${LIT} -sv --param star=${STAR} --param backend=cuda
                        --param llvm_bin=${LLVM_BIN} ${SRC} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "GPU golden tests failed")
endif()
