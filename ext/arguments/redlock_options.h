/* The constructor's $options array, read into the plain-C client's configuration. Parsing
 * rejects unknown keys and bad values with a ValueError, wrong types with a TypeError, and
 * combinations the client cannot honour (rl_client_config_conflict) with a ValueError naming
 * both options. */
#ifndef REDLOCK_OPTIONS_H
#define REDLOCK_OPTIONS_H

#include "php.h"
#include "client/rl_client.h"

typedef struct {
	rl_client_config client; /* quorum, driftFactor, maxExtensions, fencing, autoExtend, abortOnLoss, waitTimeout */
	zend_string *prefix;     /* prepended to every key sent to Redis; NULL for none */
	bool persistent;         /* connections may outlive the object (the pool reads this) */
	zval observer;           /* 'observer': a callable, UNDEF for none (memset 0 is UNDEF) */
	zval on_loss;            /* 'onLoss': a callable, UNDEF for none */
} redlock_options;

/* Reads options (argument arg_num) over the defaults already in *options, then checks the
 * combination. Returns SUCCESS, or FAILURE with an exception thrown; *options must be released
 * either way. */
zend_result redlock_options_parse(HashTable *options_array, uint32_t arg_num, unsigned server_count,
	redlock_options *options);

void redlock_options_release(redlock_options *options);

#endif
