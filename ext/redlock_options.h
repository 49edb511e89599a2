/* The constructor's $options array as a plain struct. Parsing rejects unknown keys and bad
 * values with a ValueError, and wrong types with a TypeError, both naming the option. */
#ifndef REDLOCK_OPTIONS_H
#define REDLOCK_OPTIONS_H

#include "php.h"

#define REDLOCK_UNLIMITED_EXTENSIONS (-1)

typedef struct {
	unsigned quorum;          /* servers that must agree; default: a strict majority */
	double drift_factor;      /* in [0, 1): clock drift as a share of the ttl */
	zend_string *prefix;      /* prepended to every key sent to Redis; NULL for none */
	bool persistent;          /* connections may outlive the object (the pool reads this) */
	zend_long max_extensions; /* extend() calls allowed per token; REDLOCK_UNLIMITED_EXTENSIONS */
	bool fencing;             /* lock() hands out fencing tokens ("fence"): rl_fence.c */
	bool auto_extend;         /* renew held locks in the background (rl_watchdog.h) */
	bool abort_on_loss;       /* interrupt run()'s $fn when a renewal loses the lock */
	zend_long wait_timeout;   /* ms lock()/run() keep trying, woken by releases; -1: retryCount */
} redlock_options;

/* The defaults for server_count servers. */
void redlock_options_init(redlock_options *options, unsigned server_count);

/* Reads options (argument arg_num) over the defaults already in *options. Returns SUCCESS, or
 * FAILURE with an exception thrown; *options must be released either way. */
zend_result redlock_options_parse(HashTable *options_array, uint32_t arg_num, unsigned server_count,
	redlock_options *options);

void redlock_options_release(redlock_options *options);

#endif
