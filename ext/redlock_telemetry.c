/* RedLock::metrics(), RedLock::setObserver(), the observer's array, phpinfo() rows. See
 * redlock_telemetry.h; what is counted and recorded is decided in client/rl_client.c. */
#include "php.h"
#include "zend_exceptions.h"
#include "ext/standard/info.h"

#include "redlock_telemetry.h"
#include "runtime/redlock_calls.h"
#include "runtime/redlock_callable.h"
#include "runtime/redlock_observe.h"
#include "services/rl_metrics.h"

static const char *const metric_names[RL_METRIC_COUNT] = {"acquired", "contended", "failed", "released",
	"extended", "lost", "renewals", "observer_errors", "on_loss_errors", "clock_jumps_forward", "clock_jumps_backward"};
static const char *const class_names[RL_SERVER_CLASSES] = {"connect", "timeout", "io", "error"};

PHP_METHOD(RedLock, getServerWarnings)
{
	redlock_object *intern;
	size_t i;

	ZEND_PARSE_PARAMETERS_NONE();

	if ((intern = redlock_ready(ZEND_THIS)) == NULL) {
		RETURN_THROWS();
	}
	array_init_size(return_value, (uint32_t) intern->client.cluster->count);
	for (i = 0; i < intern->client.cluster->count; i++) {
		zval warning;

		redlock_server_warning(&warning, intern->client.cluster, i);
		add_next_index_zval(return_value, &warning);
	}
}

PHP_METHOD(RedLock, setObserver)
{
	zend_fcall_info fci = empty_fcall_info;
	zend_fcall_info_cache fcc = empty_fcall_info_cache;
	redlock_object *intern;
	zval old;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_FUNC_OR_NULL(fci, fcc)
	ZEND_PARSE_PARAMETERS_END();

	if ((intern = redlock_ready(ZEND_THIS)) == NULL) {
		RETURN_THROWS();
	}
	ZVAL_COPY_VALUE(&old, &intern->observer);
	if (ZEND_FCI_INITIALIZED(fci)) {
		ZVAL_COPY(&intern->observer, &fci.function_name);
	} else {
		ZVAL_UNDEF(&intern->observer);
	}
	zval_ptr_dtor(&old); /* last: its destructor may call back into this object */
}

/* metrics()'s "wait_ms": the waits' histogram (by upper bound in ms, then "+Inf"), sum and count. */
static void add_wait_histogram(zval *into, const rl_metrics_snapshot *snap)
{
	zval wait, buckets;
	size_t i;

	array_init_size(&buckets, RL_WAIT_BUCKETS + 1);
	for (i = 0; i < RL_WAIT_BUCKETS; i++) {
		add_index_long(&buckets, (zend_ulong) rl_metrics_wait_bounds[i], (zend_long) snap->buckets[i]);
	}
	add_assoc_long(&buckets, "+Inf", (zend_long) snap->buckets[RL_WAIT_BUCKETS]);
	array_init_size(&wait, 3);
	add_assoc_zval(&wait, "buckets", &buckets);
	add_assoc_double(&wait, "sum", snap->wait_sum_ms);
	add_assoc_long(&wait, "count", (zend_long) snap->wait_count);
	add_assoc_zval(into, "wait_ms", &wait);
}

/* One server's errors by class under its name in "server_errors"; nothing when it has none. */
static void add_server_errors(zval *servers, const char *name, const uint64_t *errors)
{
	zval server;
	size_t c;

	for (c = 0; c < RL_SERVER_CLASSES && errors[c] == 0; c++) {
	}
	if (c == RL_SERVER_CLASSES) {
		return;
	}
	array_init_size(&server, RL_SERVER_CLASSES);
	for (c = 0; c < RL_SERVER_CLASSES; c++) {
		add_assoc_long(&server, class_names[c], (zend_long) errors[c]);
	}
	add_assoc_zval(servers, name, &server);
}

PHP_METHOD(RedLock, metrics)
{
	rl_metrics_snapshot snap;
	char address[RL_METRICS_ADDRESS_MAX];
	uint64_t errors[RL_SERVER_CLASSES];
	zval servers, policies;
	size_t i;
	int policy;

	ZEND_PARSE_PARAMETERS_NONE();

	rl_metrics_read(&snap);
	array_init_size(return_value, RL_METRIC_COUNT + 2);
	for (i = 0; i < RL_METRIC_COUNT; i++) {
		add_assoc_long(return_value, metric_names[i], (zend_long) snap.counters[i]);
	}
	add_wait_histogram(return_value, &snap);
	array_init(&servers);
	array_init(&policies);
	for (i = 0; rl_metrics_server(i, address, errors, &policy); i++) {
		if (policy != RL_POLICY_NOT_LEARNT) {
			add_assoc_string(&policies, address, (char *) rl_eviction_policy_name((rl_eviction_policy) policy));
		}
		add_server_errors(&servers, address, errors); /* none: known for its policy only */
	}
	add_server_errors(&servers, "other", snap.server_errors_other);
	add_assoc_zval(return_value, "server_errors", &servers);
	add_assoc_zval(return_value, "server_policies", &policies);
}

void redlock_metrics_info(void)
{
	rl_metrics_snapshot snap;
	char address[RL_METRICS_ADDRESS_MAX], number[64], label[RL_METRICS_ADDRESS_MAX + 32];
	uint64_t errors[RL_SERVER_CLASSES];
	size_t i, c;
	int policy;

	rl_metrics_read(&snap);
	for (i = 0; i < RL_METRIC_COUNT; i++) {
		snprintf(label, sizeof(label), "locks %s", metric_names[i]);
		snprintf(number, sizeof(number), "%llu", (unsigned long long) snap.counters[i]);
		php_info_print_table_row(2, label, number);
	}
	snprintf(number, sizeof(number), "%llu (%.1f ms in all)", (unsigned long long) snap.wait_count,
		snap.wait_sum_ms);
	php_info_print_table_row(2, "lock waits", number);
	for (i = 0; rl_metrics_server(i, address, errors, &policy); i++) {
		if (policy != RL_POLICY_NOT_LEARNT) {
			snprintf(label, sizeof(label), "maxmemory-policy of %s", address);
			snprintf(number, sizeof(number), "%s%s", rl_eviction_policy_name((rl_eviction_policy) policy),
				rl_eviction_policy_evicts((rl_eviction_policy) policy) ? " (can evict lock keys)"
				: policy == RL_POLICY_UNKNOWN ? " (CONFIG GET and INFO refused)" : "");
			php_info_print_table_row(2, label, number);
		}
		for (c = 0; c < RL_SERVER_CLASSES && errors[c] == 0; c++) {
		}
		if (c == RL_SERVER_CLASSES) {
			continue;
		}
		snprintf(label, sizeof(label), "errors of %s", address);
		snprintf(number, sizeof(number), "connect %llu, timeout %llu, io %llu, error %llu",
			(unsigned long long) errors[0], (unsigned long long) errors[1], (unsigned long long) errors[2],
			(unsigned long long) errors[3]);
		php_info_print_table_row(2, label, number);
	}
}
