/* RedLockMemory: the test double's control from PHP (memory/rl_memory_server.h does the work).
 * Arguments in, arrays out. */
#include "php.h"
#include "zend_exceptions.h"

#include "redlock_memory.h"
#include "memory/rl_memory_server.h"

/* "memory://a" or "a": the name, or NULL with a ValueError naming argument 1. */
static const char *server_name(zend_string *server, size_t *len)
{
	const char *name = ZSTR_VAL(server);

	*len = ZSTR_LEN(server);
	if (*len >= 9 && zend_binary_strncasecmp(name, 9, "memory://", 9, 9) == 0) {
		name += 9;
		*len -= 9;
	}
	if (*len == 0) {
		zend_argument_value_error(1, "must name a memory server, like \"memory://a\"");
		return NULL;
	}
	return name;
}

PHP_METHOD(RedLockMemory, advance)
{
	zend_long ms;
	long real;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_LONG(ms)
	ZEND_PARSE_PARAMETERS_END();

	if (ms < 0 || ms > (zend_long) 1000 * 1000 * 1000 * 1000) {
		zend_argument_value_error(1, "must be between 0 and 10^12 ms");
		RETURN_THROWS();
	}
	if ((real = rl_memory_server_advance((int64_t) ms)) != 0) {
		zend_throw_error(NULL, "RedLockMemory::advance(): %ld RedLock object%s on servers other than memory:// exist%s in "
			"this process, and the test clock moves the whole process's clock: their leases would run out early (they "
			"would stop renewing and lose their locks). Free them first, or use memory:// servers only",
			real, real == 1 ? "" : "s", real == 1 ? "s" : "");
		RETURN_THROWS();
	}
}

static void set_mode(zend_string *server, rl_memory_mode mode)
{
	size_t len;
	const char *name = server_name(server, &len);

	if (name != NULL && rl_memory_server_set_mode(name, len, mode) != 0) {
		zend_argument_value_error(1, "names no memory server of this process (a RedLock object creates it)");
	}
}

PHP_METHOD(RedLockMemory, fail)
{
	zend_string *server, *how = NULL;
	rl_memory_mode mode = RL_MEMORY_REFUSE;

	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_STR(server)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR(how)
	ZEND_PARSE_PARAMETERS_END();

	if (how != NULL) {
		if (zend_string_equals_literal(how, "refuse")) {
			mode = RL_MEMORY_REFUSE;
		} else if (zend_string_equals_literal(how, "silent")) {
			mode = RL_MEMORY_SILENT;
		} else if (zend_string_equals_literal(how, "error")) {
			mode = RL_MEMORY_ERROR;
		} else {
			zend_argument_value_error(2, "must be \"refuse\", \"silent\" or \"error\"");
			RETURN_THROWS();
		}
	}
	set_mode(server, mode);
}

PHP_METHOD(RedLockMemory, recover)
{
	zend_string *server;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_STR(server)
	ZEND_PARSE_PARAMETERS_END();

	set_mode(server, RL_MEMORY_UP);
}

PHP_METHOD(RedLockMemory, reset)
{
	ZEND_PARSE_PARAMETERS_NONE();

	rl_memory_server_reset();
}

static void add_key(void *arg, const char *key, size_t key_len, const char *kind, int64_t left)
{
	(void) kind;
	add_assoc_long_ex((zval *) arg, key, key_len, (zend_long) left);
}

PHP_METHOD(RedLockMemory, keys)
{
	zend_string *server;
	const char *name;
	size_t len;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_STR(server)
	ZEND_PARSE_PARAMETERS_END();

	if ((name = server_name(server, &len)) == NULL) {
		RETURN_THROWS();
	}
	array_init(return_value);
	if (rl_memory_server_keys(name, len, add_key, return_value) < 0) {
		zval_ptr_dtor(return_value);
		ZVAL_UNDEF(return_value);
		zend_argument_value_error(1, "names no memory server of this process (a RedLock object creates it)");
		RETURN_THROWS();
	}
}

void redlock_memory_shutdown(void)
{
	rl_memory_server_shutdown();
}
