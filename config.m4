dnl config.m4 for the redlock extension. Sources live in ext/.

PHP_ARG_ENABLE([redlock],
  [whether to enable redlock support],
  [AS_HELP_STRING([--enable-redlock], [Enable redlock: a Redlock distributed lock over hiredis])],
  [yes])

PHP_ARG_WITH([hiredis],
  [for hiredis],
  [AS_HELP_STRING([[--with-hiredis[=DIR]]], [redlock: prefix where hiredis is installed (default: pkg-config, then /usr/local and /usr)])],
  [yes],
  [no])

if test "$PHP_REDLOCK" != "no"; then
  HIREDIS_FOUND=no

  if test "$PHP_HIREDIS" != "yes" && test "$PHP_HIREDIS" != "no"; then
    dnl An explicit prefix wins over pkg-config.
    if test -r "$PHP_HIREDIS/include/hiredis/hiredis.h"; then
      PHP_ADD_INCLUDE([$PHP_HIREDIS/include])
      PHP_ADD_LIBRARY_WITH_PATH([hiredis], [$PHP_HIREDIS/$PHP_LIBDIR], [REDLOCK_SHARED_LIBADD])
      HIREDIS_FOUND=yes
    else
      AC_MSG_ERROR([redlock: hiredis not found under $PHP_HIREDIS (looked for $PHP_HIREDIS/include/hiredis/hiredis.h)])
    fi
  fi

  if test "$HIREDIS_FOUND" = "no"; then
    PKG_CHECK_MODULES([HIREDIS], [hiredis >= 0.14], [
      PHP_EVAL_INCLINE([$HIREDIS_CFLAGS])
      PHP_EVAL_LIBLINE([$HIREDIS_LIBS], [REDLOCK_SHARED_LIBADD])
      HIREDIS_FOUND=yes
    ], [
      for dir in /usr/local /usr; do
        if test -r "$dir/include/hiredis/hiredis.h"; then
          PHP_ADD_INCLUDE([$dir/include])
          PHP_ADD_LIBRARY_WITH_PATH([hiredis], [$dir/$PHP_LIBDIR], [REDLOCK_SHARED_LIBADD])
          HIREDIS_FOUND=yes
          break
        fi
      done
    ])
  fi

  if test "$HIREDIS_FOUND" = "no"; then
    AC_MSG_ERROR([redlock needs hiredis 0.14 or newer: install it (Debian/Ubuntu: apt-get install libhiredis-dev) or pass --with-hiredis=DIR])
  fi

  AC_DEFINE(HAVE_REDLOCK, 1, [Whether redlock is enabled])
  PHP_SUBST(REDLOCK_SHARED_LIBADD)

  PHP_NEW_EXTENSION(redlock, ext/redlock.c ext/redlock_class.c ext/redlock_servers.c ext/rl_algorithm.c ext/rl_conn.c ext/rl_fanout.c ext/rl_pool.c ext/rl_reply.c ext/rl_uri.c, $ext_shared, , -DZEND_ENABLE_STATIC_TSRMLS_CACHE=1)
  PHP_ADD_BUILD_DIR([$ext_builddir/ext])
fi
