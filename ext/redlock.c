/* The redlock module: startup, phpinfo(). */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "ext/standard/info.h"
#include "ext/standard/sha1.h"
#include <hiredis/hiredis.h>

#include "php_redlock.h"
#include "rl_scripts.h"

char redlock_unlock_sha[41];

static void compute_script_sha(const char *script, char out[41])
{
	PHP_SHA1_CTX context;
	unsigned char digest[20];

	PHP_SHA1Init(&context);
	PHP_SHA1Update(&context, (const unsigned char *) script, strlen(script));
	PHP_SHA1Final(digest, &context);
	make_sha1_digest(out, digest);
}

static PHP_MINIT_FUNCTION(redlock)
{
	(void) type; /* unused macro parameters: keep -Wextra quiet */
	compute_script_sha(RL_SCRIPT_UNLOCK, redlock_unlock_sha);
	redlock_class_register(module_number);
	return SUCCESS;
}

static PHP_MINFO_FUNCTION(redlock)
{
	char hiredis_version[32];

	(void) zend_module;
	snprintf(hiredis_version, sizeof(hiredis_version), "%d.%d.%d", HIREDIS_MAJOR, HIREDIS_MINOR, HIREDIS_PATCH);
	php_info_print_table_start();
	php_info_print_table_row(2, "redlock support", "enabled");
	php_info_print_table_row(2, "redlock version", PHP_REDLOCK_VERSION);
	php_info_print_table_row(2, "hiredis version", hiredis_version);
	php_info_print_table_end();
}

zend_module_entry redlock_module_entry = {
	STANDARD_MODULE_HEADER,
	"redlock",
	NULL,
	PHP_MINIT(redlock),
	NULL,
	NULL,
	NULL,
	PHP_MINFO(redlock),
	PHP_REDLOCK_VERSION,
	STANDARD_MODULE_PROPERTIES
};

#ifdef COMPILE_DL_REDLOCK
ZEND_GET_MODULE(redlock)
#endif
