/* The one acquisition path. See rl_client.h. */
#include <stdlib.h>
#include <string.h>

#include "client/rl_client.h"
#include "client/rl_client_private.h"
#include "core/rl_dialect.h"
#include "net/rl_fanout.h"
#include "protocol/rl_reply.h"
#include "services/rl_metrics.h"
#include "services/rl_notify.h"

void rl_client_config_init(rl_client_config *config, unsigned servers)
{
	memset(config, 0, sizeof(*config));
	config->retry_delay = 200;
	config->retry_count = 3;
	config->quorum = rl_quorum_for(servers);
	config->drift_factor = RL_DEFAULT_DRIFT_FACTOR;
	config->max_extensions = -1;
	config->wait_timeout = -1;
}

const char *rl_client_config_conflict(const rl_client_config *config, unsigned servers)
{
	if (config->abort_on_loss && !config->auto_extend) {
		/* the renewal thread is what learns of a loss while $fn runs */
		return "option \"abortOnLoss\" needs \"autoExtend\" => true";
	}
	if (config->auto_extend && config->max_extensions == 0) {
		return "option \"maxExtensions\" => 0 forbids every renewal that \"autoExtend\" => true asks for";
	}
	if (config->fencing && !rl_dialect_for(rl_dialect_initial(config->no_scripts), RL_KIND_FENCED, RL_OP_ACQUIRE)) {
		return "option \"fencing\" needs scripts on the servers, which \"scripts\" => false forbids";
	}
	if (config->fencing && config->quorum < rl_quorum_for(servers)) {
		/* fences only increase across quorums that intersect */
		return "option \"fencing\" needs \"quorum\" to be a strict majority of the servers";
	}
	return NULL;
}

int rl_client_init(rl_client *client, rl_cluster *cluster, const rl_client_config *config)
{
	memset(client, 0, sizeof(*client));
	client->main.outcomes = calloc(cluster->count ? cluster->count : 1, sizeof(*client->outcomes));
	if (client->main.outcomes == NULL) {
		rl_cluster_destroy(cluster);
		return -1;
	}
	client->outcomes = client->main.outcomes;
	client->main.cluster = cluster;
	client->cluster = cluster;
	client->config = *config;
	client->policy.quorum = config->quorum;
	client->policy.servers = (unsigned) cluster->count;
	client->policy.drift_factor = config->drift_factor;
	client->policy.retry_delay = config->retry_delay;
	client->policy.retry_count = config->retry_count;
	client->policy.call_bound_ms = rl_cluster_call_bound(cluster);
	client->policy.scripts = config->scripts;
	/* waiters ('waitTimeout') are woken by the unlock script's PUBLISH, which DELEX cannot send */
	client->policy.release_by_script = config->wait_timeout >= 0; /* its script announces releases */
	client->policy.dialect = rl_dialect_initial(config->no_scripts); /* switched by rl_client_learn_scripts_refused */
	cluster->refuse_evicting = (unsigned char) (config->refuse_evicting != 0);
	rl_fanout_bind(cluster, &client->main.io);
	client->main.io.random = config->random;
	return 0;
}

void rl_client_destroy(rl_client *client)
{
	rl_leases_destroy(client->leases); /* joins its thread first: it copies nothing back */
	client->leases = NULL;
	while (client->spares != NULL) {
		rl_lane *spare = client->spares;
		client->spares = spare->next;
		rl_cluster_destroy(spare->cluster); /* before the endpoints they share */
		free(spare->outcomes);
		free(spare);
	}
	rl_cluster_destroy(client->cluster);
	client->cluster = NULL;
	client->outcomes = NULL; /* one of the lanes' */
	free(client->main.outcomes);
	client->main.outcomes = NULL;
}

/* --- lanes: one call at a time on a set of connections ----------------------------------------- */

static rl_lane *spare_lane(rl_client *client)
{
	rl_lane *lane;

	for (lane = client->spares; lane != NULL; lane = lane->next) {
		if (!lane->lent) {
			return lane;
		}
	}
	lane = calloc(1, sizeof(*lane));
	if (lane == NULL) {
		return NULL;
	}
	lane->cluster = rl_cluster_sibling(client->cluster);
	lane->outcomes = calloc(client->cluster->count ? client->cluster->count : 1, sizeof(*lane->outcomes));
	if (lane->cluster == NULL || lane->outcomes == NULL) {
		rl_cluster_destroy(lane->cluster);
		free(lane->outcomes);
		free(lane);
		return NULL;
	}
	rl_fanout_bind(lane->cluster, &lane->io);
	lane->io.random = client->main.io.random;
	lane->next = client->spares;
	client->spares = lane;
	return lane;
}

/* A call starts: the object's own lane, unless another call (a suspended coroutine's) holds it.
 * NULL when out of memory. */
rl_lane *rl_client_lend(rl_client *client)
{
	rl_lane *lane = client->main.lent ? spare_lane(client) : &client->main;

	if (lane != NULL) {
		lane->lent = 1;
		lane->cluster->call_began = 0; /* the fan-outs it makes mark its span */
	}
	if (client->policy.dialect == &rl_dialect_learnt) {
		rl_dialect_refresh(&client->policy, rl_now_ms()); /* a learnt NOPERM is asked again after a while */
	}
	return lane;
}

/* The call ended: its votes become the object's "last call" (getLastErrors(), the observer), read
 * where they are (no copy: without overlapping calls, always the main lane's). */
void rl_client_give_back(rl_client *client, rl_lane *lane)
{
	client->outcomes = lane->outcomes;
	lane->lent = 0;
}

rl_leases *rl_client_leases_of(rl_client *client)
{
	if (client->leases == NULL) {
		rl_leases_config config;

		config.servers = client->cluster;
		config.policy = &client->policy;
		config.max_extensions = client->config.max_extensions;
		config.renew = client->config.auto_extend;
		config.owner = client->config.owner;
		client->leases = rl_leases_create(&config);
		if (client->leases && client->loss_notice) {
			rl_leases_set_loss_notice(client->leases, client->loss_notice, client->loss_notice_arg);
		}
	}
	return client->leases;
}

/* --- telemetry: every call ends here ------------------------------------------------------------ */

/* Not done: "taken" (contended, not held) when the servers that said so alone leave no quorum
 * possible, else failed. From the last attempt's votes. */
rl_call_outcome rl_client_refused(const rl_client *client, const rl_lane *lane, rl_call_outcome taken)
{
	return rl_outcomes_quorum_refused(lane->outcomes, client->cluster->count, client->policy.quorum)
		? taken : RL_CALL_FAILED;
}

/* The record of the call, and the per-process counters: the one place. Its wait is the span of
 * its fan-outs, from clock reads they make anyway: no clock read of its own. */
void rl_client_finish(rl_client *client, rl_lane *lane, rl_call_op op, rl_lock_kind kind, rl_call_outcome outcome,
	int64_t attempts, double validity)
{
	rl_call_record *r = &client->last;
	const rl_cluster *cluster = lane->cluster;

	r->op = op;
	r->kind = kind;
	r->outcome = outcome;
	r->attempts = attempts;
	r->waited_ms = cluster->call_began > 0 ? cluster->call_ended - cluster->call_began : 0;
	r->validity_ms = validity > 0 ? validity : 0;
	r->asked = attempts > 0;
	r->renewals = r->lost = 0;
	if (client->leases) {
		rl_leases_take_events(client->leases, &r->renewals, &r->lost);
	}
	if (r->asked && cluster->call_began > 0 && cluster->call_errors > 0) {
		rl_metrics_server_errors(cluster, lane->outcomes);
	}
	if (cluster->policies_news) { /* a server's maxmemory-policy learnt: once per connection */
		lane->cluster->policies_news = 0;
		rl_metrics_server_policies(cluster);
	}
	switch (outcome) {
	case RL_CALL_ACQUIRED: rl_metrics_add(RL_METRIC_ACQUIRED, 1); break;
	case RL_CALL_CONTENDED: rl_metrics_add(RL_METRIC_CONTENDED, 1); break;
	case RL_CALL_RELEASED: rl_metrics_add(RL_METRIC_RELEASED, 1); break;
	case RL_CALL_EXTENDED: rl_metrics_add(RL_METRIC_EXTENDED, 1); break;
	case RL_CALL_FAILED:
		if (op == RL_CALL_ACQUIRE) {
			rl_metrics_add(RL_METRIC_FAILED, 1);
		}
		break;
	default: break;
	}
	if (op == RL_CALL_ACQUIRE) {
		rl_metrics_wait(r->waited_ms);
	}
}

/* --- acquire ------------------------------------------------------------------------------------ */

/* waitTimeout: one attempt of the kind per call of the wait loop (services/rl_notify.c). */
typedef struct wait_attempt {
	rl_lock_policy policy; /* the client's, with one attempt per call */
	const rl_lock_target *target;
	int64_t ttl;
	size_t servers;
	rl_outcome *outcomes;
	rl_held_lock *held;
	int no_random;
	int refused; /* the scripts refused by too many servers for a quorum: waiting cannot help */
} wait_attempt;

static int attempt_once(void *arg, const rl_lock_io *io)
{
	wait_attempt *a = arg;
	int won = rl_kind_acquire(io, &a->policy, a->target, a->ttl, a->servers, a->outcomes, a->held);

	if (won == 0 && a->held->result.no_random) {
		a->no_random = 1;
		return -1;
	}
	if (won == 0 && rl_outcomes_scripts_refused(a->outcomes, a->servers, a->policy.quorum)) {
		a->refused = 1; /* a refusal is not contention (rl_acquire_stop_if_refused): learnt by the caller now */
		return -1;
	}
	return won;
}

/* The keys whose releases wake a waiter: the lock's own, or every slot of a semaphore (each
 * slot's unlock() announces its own key). */
static int wait_channels(const rl_lock_target *target, rl_lock_keys *channels, char **names, const char ***keys,
	size_t **lens)
{
	size_t i, limit, key_size;

	*names = NULL;
	*keys = NULL;
	*lens = NULL;
	if (target->kind != RL_KIND_SEMAPHORE) {
		*channels = target->keys;
		return 0;
	}
	limit = (size_t) target->limit;
	key_size = rl_semaphore_slot_key(NULL, 0, target->keys.keys[0], target->keys.lens[0], target->limit) + 1;
	*names = malloc(limit * key_size);
	*keys = malloc(limit * sizeof(**keys));
	*lens = malloc(limit * sizeof(**lens));
	if (*names == NULL || *keys == NULL || *lens == NULL) {
		return -1;
	}
	for (i = 0; i < limit; i++) {
		(*keys)[i] = *names + i * key_size;
		(*lens)[i] = rl_semaphore_slot_key(*names + i * key_size, key_size, target->keys.keys[0],
			target->keys.lens[0], (int64_t) i);
	}
	channels->count = limit;
	channels->keys = *keys;
	channels->lens = *lens;
	channels->multi = 1;
	return 0;
}

static int acquire_waiting(rl_client *client, rl_lane *lane, const rl_lock_target *target, int64_t ttl, rl_held_lock *held)
{
	wait_attempt attempt = {client->policy, target, ttl, client->cluster->count, lane->outcomes, held, 0, 0};
	rl_wait_stats stats;
	rl_lock_keys channels;
	const char **keys;
	size_t *lens;
	char *names;
	int won;

	attempt.policy.retry_count = 0;
	memset(&held->result, 0, sizeof(held->result));
	if (wait_channels(target, &channels, &names, &keys, &lens) != 0) {
		won = -1;
	} else {
		won = rl_wait_acquire(lane->cluster, &lane->io, &channels,
			rl_now_ms() + (double) client->config.wait_timeout, client->config.retry_delay,
			client->policy.call_bound_ms, attempt_once, &attempt, &stats);
		held->result.attempts = stats.attempts;
	}
	free(names);
	free(keys);
	free(lens);
	if (won < 0 && attempt.no_random) {
		held->result.no_random = 1;
		return 0;
	}
	return won < 0 && attempt.refused ? 0 : won;
}

/* The keys a held lock occupies: a semaphore's is its slot's, built into slot_key (or a heap
 * buffer returned in *heap, to free). */
static int held_target(const rl_lock_target *target, const rl_held_lock *held, rl_lock_target *out,
	char *slot_key, size_t slot_key_size, const char **slot_ptr, size_t *slot_len, char **heap)
{
	*out = *target;
	out->kind = held->kind;
	out->from_token = NULL;
	out->from_len = 0;
	*heap = NULL;
	if (held->kind != RL_KIND_SEMAPHORE) {
		return 0;
	}
	*slot_len = rl_semaphore_slot_key(slot_key, slot_key_size, target->keys.keys[0], target->keys.lens[0], held->slot);
	*slot_ptr = slot_key;
	if (*slot_len >= slot_key_size) {
		*heap = malloc(*slot_len + 1);
		if (*heap == NULL) {
			return -1;
		}
		rl_semaphore_slot_key(*heap, *slot_len + 1, target->keys.keys[0], target->keys.lens[0], held->slot);
		*slot_ptr = *heap;
	}
	out->keys.count = 1;
	out->keys.keys = slot_ptr;
	out->keys.lens = slot_len;
	out->keys.multi = 0;
	return 0;
}

/* promote()/demote(): the lock being converted stops being renewed meanwhile (a renewal would find
 * it converted and call it lost); NOT_ACQUIRED when it is known lost (the servers are not asked). */
static rl_acquire_status convert_begin(rl_client *client, const rl_lock_target *target)
{
	if (client->leases == NULL
		|| rl_leases_converting(client->leases, target->from_token, target->from_len, 1) != RL_LEASE_LOST) {
		return RL_ACQUIRED;
	}
	rl_leases_converting(client->leases, target->from_token, target->from_len, 0);
	return RL_NOT_ACQUIRED;
}

/* won: the old form is gone. Not won: a refused promote() left our shared holder (renewed again);
 * a failed demote() released everything. */
static void convert_end(rl_client *client, const rl_lock_target *target, int won)
{
	if (client->leases == NULL) {
		return;
	}
	if (won || target->kind == RL_KIND_SHARED) {
		rl_leases_remove(client->leases, target->from_token, target->from_len);
	} else {
		rl_leases_converting(client->leases, target->from_token, target->from_len, 0);
	}
}

/* --- scripts refused ----------------------------------------------------------------------- */

/* After a round trip: a server answered NOPERM to a script. From now on the object sends none
 * (rl_dialect_learn, the one switch); 1 when it learnt that just now and the call (kind's op) has a
 * script-free form worth trying at once. */
int rl_client_learn_scripts_refused(rl_client *client, rl_lane *lane, rl_lock_kind kind, rl_dialect_op op)
{
	/* the fan-out counted its errors: a call without any costs two loads here */
	if (lane->cluster->call_errors == 0) {
		return 0;
	}
	return rl_dialect_learn(&client->policy, kind, op, lane->outcomes, client->cluster->count, rl_now_ms());
}

/* A release without scripts must know which of DELEX and DELIFEQ each server has: connections
 * not yet open, or whose probes are unanswered, are opened and asked first (one round trip, once
 * per connection). */
void rl_client_learn_natives(rl_client *client, rl_lane *lane)
{
	static const char *argv[] = {"PING"};
	static const size_t argvlen[] = {4};
	rl_request ping = {{1, argv, argvlen}, RL_EXPECT_OK, rl_request_every_reply, {{0, NULL, NULL}, {0, NULL, NULL}}, 0};

	if (!rl_cluster_natives_known(lane->cluster)) {
		lane->io.run(lane->io.arg, &ping, (unsigned) client->cluster->count,
			rl_now_ms() + client->policy.call_bound_ms, lane->outcomes);
	}
}

/* A lock just taken and tracked: the master each Sentinel member's vote came from, kept in its lease for
 * the master-changed rule (docs/design/sentinel.md#master-changed-since-the-lock-was-taken). */
static void record_masters(rl_client *client, rl_lane *lane, const char *token, size_t token_len)
{
	uint32_t *masters = calloc(lane->cluster->count ? lane->cluster->count : 1, sizeof(*masters));

	if (masters != NULL && client->leases != NULL && rl_cluster_note_masters(lane->cluster, lane->outcomes, masters, 1)) {
		rl_leases_set_masters(client->leases, token, token_len, masters, lane->cluster->count);
	}
	free(masters);
}

static rl_acquire_status acquire(rl_client *client, rl_lane *lane, const rl_lock_target *target, int64_t ttl, int pinned,
	rl_held_lock *held, rl_lock_kind *kind)
{
	rl_lock_target asked = *target;
	int converting = target->from_token != NULL;
	/* demote() has no contention to wait out: one attempt (rl_convert_acquire) */
	int waits = client->config.wait_timeout >= 0 && !(converting && target->kind == RL_KIND_SHARED);
	int64_t cap_left = -1;
	int passes_cap = 0, won;

	if (asked.kind == RL_KIND_EXCLUSIVE && client->config.fencing) {
		asked.kind = RL_KIND_FENCED;
	}
	*kind = asked.kind;
	if (rl_dialect_for(client->policy.dialect, asked.kind, converting ? RL_OP_CONVERT : RL_OP_ACQUIRE) == NULL) {
		memset(&held->result, 0, sizeof(held->result));
		return RL_NEEDS_SCRIPTS;
	}
	if (converting && convert_begin(client, target) != RL_ACQUIRED) {
		memset(&held->result, 0, sizeof(held->result));
		return RL_NOT_ACQUIRED;
	}
	held->result.attempts = 0;
	won = waits
		? acquire_waiting(client, lane, &asked, ttl, held)
		: rl_kind_acquire(&lane->io, &client->policy, &asked, ttl, client->cluster->count, lane->outcomes, held);
	if (rl_client_learn_scripts_refused(client, lane, asked.kind, converting ? RL_OP_CONVERT : RL_OP_ACQUIRE)
		&& won == 0) {
		/* the same lock() again, without the script (several resources: MSETEX) */
		won = waits
			? acquire_waiting(client, lane, &asked, ttl, held)
			: rl_kind_acquire(&lane->io, &client->policy, &asked, ttl, client->cluster->count, lane->outcomes, held);
	}
	if (converting) {
		/* the cap is the lock's, whatever its form: handed on to the new lease below */
		passes_cap = won > 0 && client->leases != NULL
			&& rl_leases_left(client->leases, target->from_token, target->from_len, &cap_left) == 0;
		convert_end(client, target, won > 0);
	}
	if (won < 0) {
		return RL_OUT_OF_MEMORY;
	}
	if (won == 0) {
		return held->result.no_random ? RL_NO_RANDOM : RL_NOT_ACQUIRED;
	}
	if (pinned || client->config.auto_extend || client->config.max_extensions >= 0 || client->config.track_losses) {
		/* Every kind is tracked alike: the cap, the loss, and with autoExtend the renewal. */
		rl_lock_target occupied;
		char slot_key[256], *heap = NULL;
		const char *slot_ptr;
		size_t slot_len;
		rl_leases *leases = rl_client_leases_of(client);
		int tracked = held_target(&asked, held, &occupied, slot_key, sizeof(slot_key), &slot_ptr, &slot_len, &heap) == 0
			&& leases != NULL
			&& rl_leases_add(leases, &occupied, held->result.token, RL_TOKEN_LEN, ttl, held->result.validity, pinned) == 0;

		if (tracked && passes_cap) {
			rl_leases_set_left(leases, held->result.token, RL_TOKEN_LEN, cap_left);
		}
		if (tracked) {
			record_masters(client, lane, held->result.token, RL_TOKEN_LEN);
		}
		if (!tracked) {
			/* Not tracked means not renewed, or a cap not kept: released, and said so. (Out of
			 * memory for a long slot key: that slot is left to expire.) */
			if (held->kind != RL_KIND_SEMAPHORE || heap != NULL || slot_len < sizeof(slot_key)) {
				rl_kind_release(&lane->io, &client->policy, &occupied, held->result.token, RL_TOKEN_LEN,
					lane->outcomes);
			}
			free(heap);
			return RL_NOT_TRACKED;
		}
		free(heap);
	}
	return RL_ACQUIRED;
}

int rl_client_scripts_off(const rl_client *client)
{
	return client->config.no_scripts ? 1 : client->policy.dialect != &rl_dialect_scripted ? 2 : 0;
}

static rl_acquire_status acquire_on(rl_client *client, rl_lane *lane, const rl_lock_target *target, int64_t ttl,
	int pinned, rl_held_lock *held)
{
	rl_lock_kind kind = target->kind;
	rl_acquire_status status;

	status = acquire(client, lane, target, ttl, pinned, held, &kind);

	rl_client_finish(client, lane, RL_CALL_ACQUIRE, kind,
		status == RL_ACQUIRED ? RL_CALL_ACQUIRED
			: status == RL_NOT_ACQUIRED ? rl_client_refused(client, lane, RL_CALL_CONTENDED)
			: RL_CALL_FAILED,
		held->result.attempts, status == RL_ACQUIRED ? held->result.validity : 0);
	return status;
}

/* --- the public calls: each on a lane of its own ------------------------------------------------- */

rl_acquire_status rl_client_acquire(rl_client *client, const rl_lock_target *target, int64_t ttl, int pinned,
	rl_held_lock *held)
{
	rl_lane *lane = rl_client_lend(client);
	rl_acquire_status status;

	if (lane == NULL) {
		memset(&held->result, 0, sizeof(held->result));
		return RL_OUT_OF_MEMORY;
	}
	status = acquire_on(client, lane, target, ttl, pinned, held);
	rl_client_give_back(client, lane);
	return status;
}

rl_lease_state rl_client_lease(rl_client *client, const char *token, size_t token_len)
{
	return client->leases ? rl_leases_state(client->leases, token, token_len) : RL_LEASE_UNKNOWN;
}

void rl_client_set_loss_notice(rl_client *client, void (*notice)(void *), void *arg)
{
	client->loss_notice = notice;
	client->loss_notice_arg = arg;
	if (client->leases) {
		rl_leases_set_loss_notice(client->leases, notice, arg);
	}
}

size_t rl_client_take_losses(rl_client *client, rl_loss *out, size_t room)
{
	return client->leases ? rl_leases_take_losses(client->leases, out, room) : 0;
}

int rl_client_set_alarm(rl_client *client, const char *token, size_t token_len, void (*raise)(void *), void *arg)
{
	return client->leases ? rl_leases_set_alarm(client->leases, token, token_len, raise, arg) : -1;
}
