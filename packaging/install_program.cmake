# SPDX-License-Identifier: GPL-3.0-or-later
# How a program of the lab is installed, as Debian installs its programs:
#   - into bin/, and when installing stripped (CPack: CPACK_STRIP_FILES) without the compiler's
#     .comment and .note sections either, as dh_strip leaves them;
#   - with a manual page made from the program itself: help2man runs `PROGRAM --help` once
#     PROGRAM is built, so the page never says what the program does not. What --help cannot
#     say (environment, files, examples, see also) comes from packaging/man/TARGET.h2m; the
#     version is the project's (the engine's --version also names its event protocol, too long
#     for the page's footer). The page is gzipped (-n: no name or time stamp; -9) into man1.
#     Without help2man (a GPU box with LibTorch only), and in sanitizer builds (no package is
#     made from them, and a leak report at exit would fail the build), there is none.
#
#   ddplab_install_program(TARGET COMPONENT SUMMARY)   SUMMARY: the page's one-line NAME
include_guard(GLOBAL)
include(GNUInstallDirs)
find_program(DDPLAB_HELP2MAN help2man)
find_program(DDPLAB_GZIP gzip)
if(NOT DDPLAB_HELP2MAN OR NOT DDPLAB_GZIP)
  message(STATUS "help2man or gzip not found: no manual pages (scripts/setup-deps.sh installs help2man)")
endif()

function(ddplab_install_program target component summary)
  install(TARGETS ${target} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT ${component})
  if(CMAKE_STRIP)
    install(CODE "
      if(CMAKE_INSTALL_DO_STRIP)
        execute_process(COMMAND \"${CMAKE_STRIP}\" --remove-section=.comment --remove-section=.note
                                \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/${target}\"
                        COMMAND_ERROR_IS_FATAL ANY)
      endif()" COMPONENT ${component})
  endif()

  if(NOT DDPLAB_HELP2MAN OR NOT DDPLAB_GZIP OR DDPLAB_SANITIZE)
    return()
  endif()
  set(page ${CMAKE_CURRENT_BINARY_DIR}/${target}.1)
  set(sections ${PROJECT_SOURCE_DIR}/packaging/man/${target}.h2m)
  # The page's date is SOURCE_DATE_EPOCH's when the build sets it (reproducible builds).
  add_custom_command(
    OUTPUT ${page}.gz
    COMMAND ${DDPLAB_HELP2MAN} --no-info --section=1 --name=${summary} --version-string=${PROJECT_VERSION}
            --help-option=--help --include=${sections} --output=${page} $<TARGET_FILE:${target}>
    COMMAND ${DDPLAB_GZIP} -f -n -9 ${page}
    DEPENDS ${target} ${sections}
    COMMENT "Writing the manual page of ${target} from its --help (help2man)"
    VERBATIM)
  add_custom_target(${target}_manual_page ALL DEPENDS ${page}.gz)
  install(FILES ${page}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT ${component})
endfunction()
