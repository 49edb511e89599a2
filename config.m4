dnl config.m4 for the redlock extension. Sources live in ext/.
dnl hiredis is found, in this order: --with-hiredis=DIR, pkg-config, then /usr/local and /usr.

PHP_ARG_ENABLE([redlock],
  [whether to enable redlock support],
  [AS_HELP_STRING([--enable-redlock], [Enable redlock: a Redlock distributed lock over hiredis])],
  [yes])

PHP_ARG_WITH([hiredis],
  [for hiredis],
  [AS_HELP_STRING([[--with-hiredis[=DIR]]], [redlock: prefix where hiredis is installed (DIR/include/hiredis/hiredis.h) (default: pkg-config, then /usr/local and /usr)])],
  [yes],
  [no])

if test "$PHP_REDLOCK" != "no"; then
  dnl What the search below settles on: include dirs holding hiredis/hiredis.h, and a linker line.
  REDLOCK_HIREDIS_INCDIRS=""
  REDLOCK_HIREDIS_LIBLINE=""

  dnl Looks for the header and the library under prefix $1; on success sets the two variables above.
  dnl The library may sit in lib64 or a multiarch dir (lib/x86_64-linux-gnu) rather than lib.
  redlock_hiredis_try_prefix() {
    test -r "$1/include/hiredis/hiredis.h" || return 1
    for redlock_libdir in "$1/$PHP_LIBDIR" "$1/lib64" "$1/lib" "$1"/lib/*-linux-gnu*; do
      for redlock_lib in "$redlock_libdir"/libhiredis.so "$redlock_libdir"/libhiredis.dylib "$redlock_libdir"/libhiredis.a; do
        if test -r "$redlock_lib"; then
          REDLOCK_HIREDIS_INCDIRS="$1/include"
          REDLOCK_HIREDIS_LIBLINE="-L$redlock_libdir -lhiredis"
          dnl The linker searches the system dirs anyway: no -L and rpath for them.
          case $redlock_libdir in
            /usr/lib|/usr/lib64|/usr/lib/*-linux-gnu*) REDLOCK_HIREDIS_LIBLINE="-lhiredis" ;;
          esac
          return 0
        fi
      done
    done
    return 2
  }

  if test "$PHP_HIREDIS" != "yes" && test "$PHP_HIREDIS" != "no"; then
    dnl An explicit prefix wins over pkg-config.
    AC_MSG_CHECKING([for hiredis under $PHP_HIREDIS])
    redlock_hiredis_try_prefix "$PHP_HIREDIS"
    case $? in
      0) AC_MSG_RESULT([yes]) ;;
      1) AC_MSG_RESULT([no])
         AC_MSG_ERROR([redlock: --with-hiredis=$PHP_HIREDIS: no $PHP_HIREDIS/include/hiredis/hiredis.h (pass the prefix that holds include/hiredis/ and lib/)]) ;;
      *) AC_MSG_RESULT([no])
         AC_MSG_ERROR([redlock: --with-hiredis=$PHP_HIREDIS: found the header but no libhiredis in $PHP_HIREDIS/$PHP_LIBDIR, lib64 or lib]) ;;
    esac
  else
    PKG_CHECK_MODULES([HIREDIS], [hiredis >= 0.14], [
      dnl hiredis.pc points -I at .../include/hiredis, but the sources include <hiredis/hiredis.h>:
      dnl add the parent of every -I dir that holds hiredis.h, never the hiredis dir itself
      dnl (its read.h, net.h, dict.h would shadow other headers).
      for redlock_flag in $HIREDIS_CFLAGS; do
        case $redlock_flag in
          -I*)
            redlock_dir=`echo "$redlock_flag" | sed -e 's/^-I//'`
            if test -r "$redlock_dir/hiredis/hiredis.h"; then
              REDLOCK_HIREDIS_INCDIRS="$REDLOCK_HIREDIS_INCDIRS $redlock_dir"
            elif test -r "$redlock_dir/hiredis.h"; then
              REDLOCK_HIREDIS_INCDIRS="$REDLOCK_HIREDIS_INCDIRS `dirname "$redlock_dir"`"
            fi
            ;;
        esac
      done
      if test -n "$REDLOCK_HIREDIS_INCDIRS"; then
        REDLOCK_HIREDIS_LIBLINE="$HIREDIS_LIBS"
      else
        AC_MSG_WARN([pkg-config knows hiredis but no hiredis/hiredis.h is under its -I dirs ($HIREDIS_CFLAGS); searching /usr/local and /usr])
      fi
    ], [:])

    if test -z "$REDLOCK_HIREDIS_LIBLINE"; then
      AC_MSG_CHECKING([for hiredis in /usr/local and /usr])
      for redlock_prefix in /usr/local /usr; do
        if redlock_hiredis_try_prefix "$redlock_prefix"; then
          break
        fi
      done
      if test -n "$REDLOCK_HIREDIS_LIBLINE"; then
        AC_MSG_RESULT([$REDLOCK_HIREDIS_INCDIRS])
      else
        AC_MSG_RESULT([no])
      fi
    fi
  fi

  if test -z "$REDLOCK_HIREDIS_LIBLINE"; then
    AC_MSG_ERROR([redlock needs hiredis 0.14 or newer, and found none (tried pkg-config, /usr/local, /usr). Install it (Debian/Ubuntu: apt-get install libhiredis-dev; Fedora/RHEL: dnf install hiredis-devel; Alpine: apk add hiredis-dev; macOS: brew install hiredis) or pass --with-hiredis=DIR])
  fi

  dnl The header must be 0.14 or newer whatever way it was found (the prefix and /usr paths skip pkg-config's check).
  redlock_save_CPPFLAGS=$CPPFLAGS
  for redlock_dir in $REDLOCK_HIREDIS_INCDIRS; do
    CPPFLAGS="$CPPFLAGS -I$redlock_dir"
  done
  AC_MSG_CHECKING([whether hiredis is 0.14 or newer])
  AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <hiredis/hiredis.h>]], [[
#if !defined(HIREDIS_MAJOR) || (HIREDIS_MAJOR == 0 && HIREDIS_MINOR < 14)
# error hiredis too old
#endif
  ]])], [AC_MSG_RESULT([yes])], [
    AC_MSG_RESULT([no])
    AC_MSG_ERROR([redlock needs hiredis 0.14 or newer; the hiredis/hiredis.h found (in $REDLOCK_HIREDIS_INCDIRS) is older or unusable])
  ])
  CPPFLAGS=$redlock_save_CPPFLAGS

  PHP_CHECK_LIBRARY([hiredis], [redisReaderGetReply], [], [
    AC_MSG_ERROR([redlock: cannot link against hiredis with "$REDLOCK_HIREDIS_LIBLINE" (see config.log)])
  ], [$REDLOCK_HIREDIS_LIBLINE])

  for redlock_dir in $REDLOCK_HIREDIS_INCDIRS; do
    PHP_ADD_INCLUDE([$redlock_dir])
  done
  PHP_EVAL_LIBLINE([$REDLOCK_HIREDIS_LIBLINE], [REDLOCK_SHARED_LIBADD])

  dnl ext/rl_resolve.c runs getaddrinfo() on a thread of its own and pins the module (dladdr,
  dnl dlopen): glibc < 2.34 and the BSDs keep those in libpthread and libdl.
  PHP_CHECK_LIBRARY([pthread], [pthread_create], [PHP_ADD_LIBRARY([pthread], [1], [REDLOCK_SHARED_LIBADD])])
  PHP_CHECK_LIBRARY([dl], [dladdr], [PHP_ADD_LIBRARY([dl], [1], [REDLOCK_SHARED_LIBADD])])

  dnl TLS (rediss://) runs on OpenSSL directly, in ext/rl_tls.c: hiredis 0.14 has no TLS.
  PKG_CHECK_MODULES([OPENSSL], [openssl >= 1.1.1], [
    PHP_EVAL_INCLINE([$OPENSSL_CFLAGS])
    PHP_EVAL_LIBLINE([$OPENSSL_LIBS], [REDLOCK_SHARED_LIBADD])
  ], [
    PHP_CHECK_LIBRARY([ssl], [SSL_CTX_new], [
      PHP_ADD_LIBRARY([ssl], [1], [REDLOCK_SHARED_LIBADD])
      PHP_ADD_LIBRARY([crypto], [1], [REDLOCK_SHARED_LIBADD])
    ], [
      AC_MSG_ERROR([redlock needs OpenSSL 1.1.1 or newer for TLS (Debian/Ubuntu: apt-get install libssl-dev; Fedora/RHEL: dnf install openssl-devel; Alpine: apk add openssl-dev; macOS: brew install openssl and set PKG_CONFIG_PATH)])
    ], [-lcrypto])
  ])

  AC_DEFINE(HAVE_REDLOCK, 1, [Whether redlock is enabled])
  PHP_SUBST(REDLOCK_SHARED_LIBADD)

  dnl Symbols stay inside the module where the compiler can say so (get_module keeps its own
  dnl export attribute from ZEND_GET_MODULE): calls between its files are then direct rather than
  dnl through the PLT, and nothing can interpose them (docs/evidence/benchmark.md: about 120
  dnl instructions of a drop-in cycle).
  redlock_visibility=""
  redlock_saved_cflags=$CFLAGS
  CFLAGS="$CFLAGS -fvisibility=hidden -Werror"
  AC_MSG_CHECKING([whether the compiler hides symbols with -fvisibility=hidden])
  AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[]], [[]])],
    [redlock_visibility="-fvisibility=hidden"; AC_MSG_RESULT([yes])], [AC_MSG_RESULT([no])])
  CFLAGS=$redlock_saved_cflags

  PHP_NEW_EXTENSION(redlock, ext/arguments/redlock_cluster.c ext/arguments/redlock_keys.c ext/arguments/redlock_options.c ext/arguments/redlock_resource.c ext/arguments/redlock_sentinel.c ext/arguments/redlock_server_fields.c ext/arguments/redlock_servers.c ext/client/rl_client.c ext/client/rl_client_held.c ext/client/rl_client_inspect.c ext/core/rl_algorithm.c ext/core/rl_attempts.c ext/core/rl_convert.c ext/core/rl_dialect.c ext/core/rl_dialect_native.c ext/core/rl_dialect_scripts.c ext/core/rl_fair.c ext/core/rl_fence.c ext/core/rl_inspect.c ext/core/rl_kinds.c ext/core/rl_lock.c ext/core/rl_scripts.c ext/core/rl_semaphore.c ext/core/rl_shared.c ext/core/rl_token.c ext/memory/rl_memory_keyspace.c ext/memory/rl_memory_resp.c ext/memory/rl_memory_server.c ext/memory/rl_memory_store.c ext/net/rl_addresses.c ext/net/rl_cluster.c ext/net/rl_conn.c ext/net/rl_conn_poll.c ext/net/rl_connect.c ext/net/rl_fanout.c ext/net/rl_fanout_queue.c ext/net/rl_fork.c ext/net/rl_pool.c ext/net/rl_resolve.c ext/net/rl_seeds.c ext/net/rl_sentinel.c ext/net/rl_shards.c ext/net/rl_tls.c ext/net/rl_uri.c ext/net/rl_uri_sentinel.c ext/net/rl_wait.c ext/net/rl_wait_swoole.c ext/protocol/rl_hiredis_reader.c ext/protocol/rl_reply.c ext/redlock.c ext/redlock_acquire.c ext/redlock_class.c ext/redlock_from_cluster.c ext/redlock_held.c ext/redlock_inspect.c ext/redlock_memory.c ext/redlock_run.c ext/redlock_telemetry.c ext/runtime/redlock_abort.c ext/runtime/redlock_callable.c ext/runtime/redlock_calls.c ext/runtime/redlock_interrupt.c ext/runtime/redlock_loss.c ext/runtime/redlock_observe.c ext/runtime/redlock_revolt.c ext/runtime/redlock_running.c ext/runtime/redlock_swoole.c ext/services/rl_leases.c ext/services/rl_metrics.c ext/services/rl_notify.c ext/services/rl_renewal.c, $ext_shared, , -DZEND_ENABLE_STATIC_TSRMLS_CACHE=1 $redlock_visibility)
  dnl Sources include each other by their folder under ext/ ("core/rl_lock.h", "net/rl_conn.h").
  PHP_ADD_INCLUDE([$ext_srcdir/ext])
  PHP_ADD_BUILD_DIR([$ext_builddir/ext])
  PHP_ADD_BUILD_DIR([$ext_builddir/ext/client])
  PHP_ADD_BUILD_DIR([$ext_builddir/ext/core])
  PHP_ADD_BUILD_DIR([$ext_builddir/ext/net])
  PHP_ADD_BUILD_DIR([$ext_builddir/ext/protocol])
  PHP_ADD_BUILD_DIR([$ext_builddir/ext/memory])
  PHP_ADD_BUILD_DIR([$ext_builddir/ext/services])
  PHP_ADD_BUILD_DIR([$ext_builddir/ext/runtime])
  PHP_ADD_BUILD_DIR([$ext_builddir/ext/arguments])
fi
