# JFR_APPEND_CFLAGS(VAR, FLAG...)
# Append to VAR each FLAG that the C compiler accepts (tested with -Werror so
# that unknown-warning diagnostics count as rejection).
AC_DEFUN([JFR_APPEND_CFLAGS], [
  for jfr_flag in $2; do
    AC_MSG_CHECKING([whether $CC accepts $jfr_flag])
    jfr_save_CFLAGS=$CFLAGS
    CFLAGS="$CFLAGS -Werror $jfr_flag"
    AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[]], [[]])],
      [AC_MSG_RESULT([yes]); $1="$$1 $jfr_flag"],
      [AC_MSG_RESULT([no])])
    CFLAGS=$jfr_save_CFLAGS
  done
])
