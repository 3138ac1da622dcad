# SPDX-License-Identifier: GPL-3.0-or-later
# LibTorch for the engine, its tests and benchmarks (included from the top CMakeLists.txt, so
# that its imported targets are seen everywhere). Debian's CPU LibTorch needs nothing more. A
# CUDA LibTorch (PyTorch's wheel, the libtorch zip) brings conditions its own package checks
# late or not at all; they are said here in one sentence each, before it runs:
#   - its package enables CMake's CUDA language, which needs an nvcc; the engine's own CUDA
#     calls need the toolkit's runtime to be LibTorch's (the same libcudart.so.<major>), so
#     the toolkit's major version must be the one LibTorch was built with;
#   - older wheels use the pre-C++11 string ABI, which Qt (the window, the tests) cannot share.
# Sets DDPLAB_TORCH_CUDA_VERSION ("12.4") for a CUDA LibTorch, empty otherwise.

set(DDPLAB_TORCH_CUDA_VERSION "")
find_path(DDPLAB_TORCH_CONFIG_FOLDER TorchConfig.cmake
  HINTS ${Torch_DIR}
  PATH_SUFFIXES Torch share/cmake/Torch lib/cmake/Torch lib/${CMAKE_LIBRARY_ARCHITECTURE}/cmake/Torch)
if(DDPLAB_TORCH_CONFIG_FOLDER)
  # <prefix>/share/cmake/Torch: the wheel has <prefix>/version.py, the zip <prefix>/build-version.
  get_filename_component(ddplab_torch_prefix "${DDPLAB_TORCH_CONFIG_FOLDER}/../../.." ABSOLUTE)
  if(EXISTS "${ddplab_torch_prefix}/version.py")
    file(STRINGS "${ddplab_torch_prefix}/version.py" ddplab_torch_cuda REGEX "^cuda")
    if(ddplab_torch_cuda MATCHES "'([0-9]+\\.[0-9]+)'")
      set(DDPLAB_TORCH_CUDA_VERSION "${CMAKE_MATCH_1}")
    endif()
  elseif(EXISTS "${ddplab_torch_prefix}/build-version")
    file(READ "${ddplab_torch_prefix}/build-version" ddplab_torch_build)
    if(ddplab_torch_build MATCHES "\\+cu([0-9]+)([0-9])")
      set(DDPLAB_TORCH_CUDA_VERSION "${CMAKE_MATCH_1}.${CMAKE_MATCH_2}")
    endif()
  endif()
endif()

if(DDPLAB_TORCH_CUDA_VERSION)
  string(REGEX MATCH "^[0-9]+" ddplab_torch_cuda_major "${DDPLAB_TORCH_CUDA_VERSION}")
  if(CMAKE_CUDA_COMPILER)
    set(ddplab_nvcc "${CMAKE_CUDA_COMPILER}")
  else()
    find_program(DDPLAB_NVCC nvcc HINTS ${CUDAToolkit_ROOT}/bin $ENV{CUDAToolkit_ROOT}/bin $ENV{CUDA_HOME}/bin /usr/local/cuda/bin)
    set(ddplab_nvcc "${DDPLAB_NVCC}")
  endif()
  set(ddplab_nvcc_version "")
  if(ddplab_nvcc)
    execute_process(COMMAND "${ddplab_nvcc}" --version OUTPUT_VARIABLE ddplab_nvcc_output ERROR_QUIET)
    if(ddplab_nvcc_output MATCHES "release ([0-9]+)\\.([0-9]+)")
      set(ddplab_nvcc_version "${CMAKE_MATCH_1}.${CMAKE_MATCH_2}")
      set(ddplab_nvcc_major "${CMAKE_MATCH_1}")
    endif()
  endif()
  if(NOT ddplab_nvcc_version)
    message(FATAL_ERROR "ddplab: LibTorch in ${ddplab_torch_prefix} is built with CUDA ${DDPLAB_TORCH_CUDA_VERSION}; its CMake "
                        "package needs the nvcc of a CUDA ${ddplab_torch_cuda_major}.x toolkit and none was found: install one "
                        "(or pip's nvidia-cuda-nvcc-cu${ddplab_torch_cuda_major}) and pass -DCMAKE_CUDA_COMPILER=<its nvcc> "
                        "-DCUDAToolkit_ROOT=<its folder>")
  elseif(NOT ddplab_nvcc_major STREQUAL ddplab_torch_cuda_major)
    message(FATAL_ERROR "ddplab: LibTorch in ${ddplab_torch_prefix} is built with CUDA ${DDPLAB_TORCH_CUDA_VERSION} but "
                        "${ddplab_nvcc} is CUDA ${ddplab_nvcc_version}: the engine's CUDA calls would load a second CUDA "
                        "runtime beside LibTorch's; use a CUDA ${ddplab_torch_cuda_major}.x toolkit (pass "
                        "-DCMAKE_CUDA_COMPILER=<its nvcc> -DCUDAToolkit_ROOT=<its folder>)")
  endif()
  # LibTorch's package and the engine then find the same toolkit.
  set(CMAKE_CUDA_COMPILER "${ddplab_nvcc}" CACHE FILEPATH "nvcc, of LibTorch's CUDA major version")
  get_filename_component(ddplab_cuda_root "${ddplab_nvcc}/../.." ABSOLUTE)
  set(CUDAToolkit_ROOT "${ddplab_cuda_root}" CACHE PATH "The CUDA toolkit matching LibTorch's CUDA")
  message(STATUS "ddplab: LibTorch built with CUDA ${DDPLAB_TORCH_CUDA_VERSION}, toolkit ${ddplab_cuda_root} (CUDA ${ddplab_nvcc_version})")
  # LibTorch 2.x's package (Caffe2's public/cuda.cmake) looks for the header-only NVTX3 in its own
  # source tree, which an installed LibTorch lacks, and falls back to CUDA::nvToolsExt, a library
  # CUDA 12.9 and 13 no longer ship: its torch targets would then link a target that is not there.
  # The toolkit's own nvtx3 headers answer that search (find_path keeps a cached nvtx3_dir).
  if(NOT nvtx3_dir AND EXISTS "${ddplab_cuda_root}/include/nvtx3")
    set(nvtx3_dir "${ddplab_cuda_root}/include" CACHE PATH "NVTX3 headers (the CUDA toolkit's), for LibTorch's CUDA package" FORCE)
  endif()
endif()

find_package(Torch REQUIRED)

if(TORCH_CXX_FLAGS MATCHES "_GLIBCXX_USE_CXX11_ABI=0" AND (DDPLAB_BUILD_UI OR DDPLAB_BUILD_TESTS OR DDPLAB_BUILD_BENCH))
  message(FATAL_ERROR "ddplab: LibTorch in ${TORCH_INSTALL_PREFIX} uses the pre-C++11 string ABI (${TORCH_CXX_FLAGS}), "
                      "which Qt's window, tests and benchmarks cannot share; build the engine alone "
                      "(-DDDPLAB_BUILD_UI=OFF -DDDPLAB_BUILD_TESTS=OFF -DDDPLAB_BUILD_BENCH=OFF) or use a C++11-ABI LibTorch")
endif()
