/* The redlock module: INI, startup and shutdown, the connection pool's lifetime, phpinfo(). */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "php_ini.h"
#include "ext/standard/info.h"
#if PHP_VERSION_ID >= 80200
# include "ext/random/php_random.h"
#else
# include "ext/standard/php_random.h"
#endif

#include "php_redlock.h"
#include "core/rl_scripts.h"
#include "net/rl_conn.h"
#include "net/rl_resolve.h"
#include "net/rl_wait.h"
#include "runtime/redlock_abort.h"
#include "runtime/redlock_callable.h"
#include "runtime/redlock_object.h"
#include "runtime/redlock_running.h"
#include "redlock_memory.h"
#include "runtime/redlock_revolt.h"
#include "runtime/redlock_swoole.h"
#include "redlock_telemetry.h"

ZEND_DECLARE_MODULE_GLOBALS(redlock)

PHP_INI_BEGIN()
	STD_PHP_INI_BOOLEAN("redlock.persistent", "1", PHP_INI_ALL, OnUpdateBool, persistent,
		zend_redlock_globals, redlock_globals)
PHP_INI_END()

/* The pool's secret, drawn in every process (again in a forked child: see rl_pool.c). */
static void draw_pool_secret(unsigned char secret[16])
{
	if (php_random_bytes_silent(secret, 16) != SUCCESS) {
		/* Only weakens the pool keys' hash against chosen collisions; keys still differ by address. */
		uintptr_t mix = (uintptr_t) secret ^ (uintptr_t) time(NULL) ^ ((uintptr_t) rl_process_id() << 16);
		memset(secret, 0, 16);
		memcpy(secret, &mix, sizeof(mix));
	}
}

static PHP_GINIT_FUNCTION(redlock)
{
#if defined(COMPILE_DL_REDLOCK) && defined(ZTS)
	ZEND_TSRMLS_CACHE_UPDATE();
#endif
	memset(redlock_globals, 0, sizeof(*redlock_globals));
	redlock_globals->persistent = true;
	rl_pool_init(&redlock_globals->pool, RL_POOL_DEFAULT_MAX_IDLE, draw_pool_secret);
}

static PHP_GSHUTDOWN_FUNCTION(redlock)
{
	rl_pool_destroy(&redlock_globals->pool);
}

static PHP_MINIT_FUNCTION(redlock)
{
	(void) type; /* unused macro parameters: keep -Wextra quiet */
	REGISTER_INI_ENTRIES();
	rl_scripts_startup();
	redlock_class_register(module_number);
	redlock_callable_startup();
	redlock_swoole_startup(); /* every extension's library is loaded before any MINIT runs */
	return SUCCESS;
}

/* This thread runs PHP: its waits may go through a waiter (a coroutine yields: net/rl_wait.h). */
static PHP_RINIT_FUNCTION(redlock)
{
	(void) type;
	(void) module_number;
#if defined(COMPILE_DL_REDLOCK) && defined(ZTS)
	ZEND_TSRMLS_CACHE_UPDATE();
#endif
	rl_wait_php_thread(1);
	return SUCCESS;
}

/* No renewal thread outlives the request (FPM, php -S): objects still alive (globals, a fatal
 * error) keep their registry of leases, empty, until they are freed. */
static PHP_RSHUTDOWN_FUNCTION(redlock)
{
	(void) type;
	(void) module_number;
	redlock_run_request_end(); /* first: abandoned run() calls' locks, while their leases are known */
	redlock_abort_request_end();
	redlock_callable_request_end();
	redlock_revolt_request_end();
	redlock_swoole_request_end();
	return SUCCESS;
}

static PHP_MSHUTDOWN_FUNCTION(redlock)
{
	UNREGISTER_INI_ENTRIES();
	redlock_callable_shutdown();
	/* The idle connections are closed by GSHUTDOWN, which runs after this; what they still hold of
	 * the resolver's results is reference-counted. Lookups still running free themselves. */
	rl_resolve_shutdown();
	redlock_memory_shutdown();
	rl_scripts_shutdown();
	return SUCCESS;
}

static PHP_MINFO_FUNCTION(redlock)
{
	char hiredis_version[32];
	char number[32];

	(void) zend_module;
	rl_hiredis_version(hiredis_version, sizeof(hiredis_version));
	php_info_print_table_start();
	php_info_print_table_row(2, "redlock support", "enabled");
	php_info_print_table_row(2, "redlock version", PHP_REDLOCK_VERSION);
	php_info_print_table_row(2, "hiredis version", hiredis_version);
	php_info_print_table_row(2, "TLS (rediss://)", rl_tls_version()); /* OpenSSL, used directly */
	/* Counts only: the pool's keys hold hashed credentials and are never shown. */
	php_info_print_table_row(2, "persistent connections", REDLOCK_G(persistent) ? "enabled" : "disabled");
	snprintf(number, sizeof(number), "%zu", rl_pool_idle(&REDLOCK_G(pool)));
	php_info_print_table_row(2, "idle pooled connections", number);
	snprintf(number, sizeof(number), "%llu", (unsigned long long) REDLOCK_G(pool).reused);
	php_info_print_table_row(2, "pooled connections reused", number);
	snprintf(number, sizeof(number), "%llu", (unsigned long long) REDLOCK_G(pool).discarded);
	php_info_print_table_row(2, "pooled connections discarded", number);
	snprintf(number, sizeof(number), "%zu", rl_resolve_in_flight());
	php_info_print_table_row(2, "host name lookups running", number);
	{
		/* what a coroutine or Fiber waits through instead of blocking the thread (net/rl_wait.h) */
		const rl_waiter *waiters[RL_WAITERS_MAX];
		unsigned i, count = rl_wait_registered(waiters, RL_WAITERS_MAX);
		char names[64] = "";

		for (i = 0; i < count && i < RL_WAITERS_MAX; i++) {
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", i ? ", " : "", waiters[i]->name);
		}
		php_info_print_table_row(2, "waits yield to", count ? names : "none (the thread blocks)");
	}
	redlock_metrics_info(); /* the per-process lock counters (RedLock::metrics()) */
	php_info_print_table_end();

	DISPLAY_INI_ENTRIES();
}

/* Loaded and started before us: spl for RuntimeException (RedLockException's parent); the CSPRNG
 * (tokens, the pool's key) from random on 8.2+, from standard before; standard also for SHA1. */
static const zend_module_dep redlock_deps[] = {
	ZEND_MOD_REQUIRED("spl")
	ZEND_MOD_REQUIRED("standard")
#if PHP_VERSION_ID >= 80200
	ZEND_MOD_REQUIRED("random")
#endif
	ZEND_MOD_END
};

zend_module_entry redlock_module_entry = {
	STANDARD_MODULE_HEADER_EX,
	NULL,
	redlock_deps,
	"redlock",
	NULL,
	PHP_MINIT(redlock),
	PHP_MSHUTDOWN(redlock),
	PHP_RINIT(redlock),
	PHP_RSHUTDOWN(redlock),
	PHP_MINFO(redlock),
	PHP_REDLOCK_VERSION,
	PHP_MODULE_GLOBALS(redlock),
	PHP_GINIT(redlock),
	PHP_GSHUTDOWN(redlock),
	NULL,
	STANDARD_MODULE_PROPERTIES_EX
};

#ifdef COMPILE_DL_REDLOCK
# ifdef ZTS
ZEND_TSRMLS_CACHE_DEFINE()
# endif
ZEND_GET_MODULE(redlock)
#endif
