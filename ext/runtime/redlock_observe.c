/* The observer's array and call: see redlock_observe.h and docs/guide/telemetry.md. */
#include "php.h"

#include "runtime/redlock_observe.h"
#include "runtime/redlock_callable.h"

static const char *const kind_names[] = {"exclusive", "fenced", "shared", "semaphore"};
static const char *const outcome_names[] = {"acquired", "contended", "failed", "released", "extended", "valid",
	"not_held", "lost", "capped"};

/* Each server's vote and latency, in constructor order, as getLastErrors() words them. */
static void servers_array(zval *into, const rl_client *client)
{
	size_t i;

	array_init_size(into, (uint32_t) client->cluster->count);
	for (i = 0; i < client->cluster->count; i++) {
		const rl_outcome *out = &rl_client_last_outcomes(client)[i];
		zval server, warning;

		array_init_size(&server, 4);
		switch (out->kind) {
		case RL_OUTCOME_YES:
			add_assoc_string(&server, "vote", "yes");
			break;
		case RL_OUTCOME_PENDING:
			add_assoc_string(&server, "vote", "no reply needed");
			break;
		default:
			add_assoc_string(&server, "vote", out->message[0] ? out->message : "error");
			break;
		}
		if (out->latency_ms >= 0 && out->kind != RL_OUTCOME_PENDING) {
			add_assoc_double(&server, "ms", out->latency_ms);
		} else {
			add_assoc_null(&server, "ms");
		}
		redlock_server_warning(&warning, client->cluster, i);
		add_assoc_zval(&server, "warning", &warning);
		add_assoc_long(&server, "clock_jumps", (zend_long) rl_cluster_clock_jumps(client->cluster, i));
		add_next_index_zval(into, &server);
	}
}

static void record_array(zval *into, const rl_client *client, const char *call, const zval *names)
{
	const rl_call_record *r = rl_client_last_record(client);
	zval servers;

	array_init_size(into, 10);
	add_assoc_string(into, "call", (char *) call);
	add_assoc_string(into, "kind", (char *) kind_names[r->kind]);
	zval resource;

	ZVAL_COPY(&resource, names);
	add_assoc_zval(into, "resource", &resource);
	add_assoc_string(into, "outcome", (char *) outcome_names[r->outcome]);
	add_assoc_long(into, "attempts", (zend_long) r->attempts);
	add_assoc_double(into, "waited_ms", r->waited_ms);
	if (r->validity_ms > 0) {
		add_assoc_double(into, "validity_ms", r->validity_ms);
	} else {
		add_assoc_null(into, "validity_ms");
	}
	if (r->asked) {
		servers_array(&servers, client);
	} else {
		array_init(&servers);
	}
	add_assoc_zval(into, "servers", &servers);
	add_assoc_long(into, "renewals", (zend_long) r->renewals);
	add_assoc_long(into, "lost", (zend_long) r->lost);
}

void redlock_server_warning(zval *into, const rl_cluster *cluster, size_t i)
{
	char warning[2 * RL_MESSAGE_MAX];

	if (rl_cluster_server_warning(cluster, i, warning, sizeof(warning)) != NULL) {
		ZVAL_STRING(into, warning);
	} else {
		ZVAL_NULL(into);
	}
}

void redlock_observe(redlock_object *intern, const char *call, const zval *names)
{
	zval observer, arg;

	if (EXPECTED(Z_ISUNDEF(intern->observer)) || intern->client.cluster == NULL
		|| redlock_callable_inside(intern, REDLOCK_CALLABLE_OBSERVER)) {
		return; /* the observer's own calls on its object are not observed */
	}
	record_array(&arg, &intern->client, call, names);
	ZVAL_COPY(&observer, &intern->observer); /* setObserver() from inside it may replace the object's */
	redlock_callable_call(intern, REDLOCK_CALLABLE_OBSERVER, &observer, 1, &arg);
	zval_ptr_dtor(&observer);
	zval_ptr_dtor(&arg);
}
