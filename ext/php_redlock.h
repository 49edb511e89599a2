/* The redlock PHP extension: module entry and what the Zend-facing files share. */
#ifndef PHP_REDLOCK_H
#define PHP_REDLOCK_H

#include "php.h"
#include "net/rl_pool.h"

#define PHP_REDLOCK_VERSION "0.1.0"

/* Defaults documented in README.md. */
#define REDLOCK_DEFAULT_TIMEOUT_SECONDS 1.0
#define REDLOCK_DEFAULT_RETRY_DELAY 200
#define REDLOCK_DEFAULT_RETRY_COUNT 3

ZEND_BEGIN_MODULE_GLOBALS(redlock)
	bool persistent; /* INI redlock.persistent: reuse connections across objects and requests */
	rl_pool pool;    /* idle connections of this process (of this thread under ZTS) */
ZEND_END_MODULE_GLOBALS(redlock)

ZEND_EXTERN_MODULE_GLOBALS(redlock)
#define REDLOCK_G(v) ZEND_MODULE_GLOBALS_ACCESSOR(redlock, v)

extern zend_module_entry redlock_module_entry;
#define phpext_redlock_ptr &redlock_module_entry

extern zend_class_entry *redlock_ce;

void redlock_class_register(int module_number);

#endif
