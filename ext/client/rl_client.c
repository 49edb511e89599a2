/* The one acquisition path. See rl_client.h. */
#include <stdlib.h>
#include <string.h>

#include "client/rl_client.h"
#include "client/rl_client_private.h"
#include "core/rl_dialect.h"
#include "core/rl_scripts.h"
#include "net/rl_fanout.h"
#include "net/rl_wait.h"
#include "protocol/rl_reply.h"
#include "services/rl_metrics.h"
#include "services/rl_notify.h"

static void lane_free(rl_lane *lane);

void rl_client_config_init(rl_client_config *config, unsigned servers)
{
	memset(config, 0, sizeof(*config));
	config->retry_delay = 200;
	config->retry_count = 3;
	config->quorum = rl_quorum_for(servers);
	config->drift_factor = RL_DEFAULT_DRIFT_FACTOR;
	config->max_extensions = -1;
	config->wait_timeout = -1;
	config->max_sets = RL_DEFAULT_MAX_SETS;
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
	if (config->fair && config->wait_timeout <= 0) {
		/* a queue is something to wait in */
		return "option \"fair\" needs \"waitTimeout\" > 0 (ms to wait in the queue)";
	}
	if (config->fair && config->no_scripts) {
		return "option \"fair\" needs scripts on the servers, which \"scripts\" => false forbids";
	}
	if (config->fair && config->fencing) {
		return "option \"fair\" cannot be combined with \"fencing\" (docs/guide/fair.md)";
	}
	if (config->fair && config->quorum < rl_quorum_for(servers)) {
		/* one queue order needs quorums that intersect */
		return "option \"fair\" needs \"quorum\" to be a strict majority of the servers";
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
	client->kept = calloc(cluster->count ? cluster->count : 1, sizeof(*client->kept));
	if (client->kept == NULL) {
		free(client->main.outcomes);
		rl_cluster_destroy(cluster);
		return -1;
	}
	client->outcomes = client->main.outcomes;
	client->main.cluster = cluster;
	client->cluster = cluster;
	client->lanes = 1;
	client->config = *config;
	if (client->config.max_sets <= 0) {
		client->config.max_sets = RL_DEFAULT_MAX_SETS;
	}
	client->policy.quorum = config->quorum;
	client->policy.servers = (unsigned) cluster->count;
	client->policy.drift_factor = config->drift_factor;
	client->policy.retry_delay = config->retry_delay;
	client->policy.retry_count = config->retry_count;
	client->policy.call_bound_ms = rl_cluster_call_bound(cluster);
	/* a fair object's releases and rollbacks wake the head of the queue (RL_SCRIPT_FAIR_UNLOCK) */
	client->policy.scripts = config->fair ? rl_scripts_fair() : config->scripts;
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
		lane_free(spare);
	}
	client->lanes = 1;
	while (client->flow_count > 0) {
		free(client->flows[--client->flow_count].outcomes);
	}
	free(client->flows);
	client->flows = NULL;
	free(client->main.bound);
	client->main.bound = NULL;
	rl_cluster_destroy(client->cluster);
	client->cluster = NULL;
	client->outcomes = NULL; /* one of the lanes', or kept */
	free(client->kept);
	client->kept = NULL;
	free(client->main.outcomes);
	client->main.outcomes = NULL;
}

/* --- lanes: one call at a time on a set of connections ----------------------------------------- */

/* The object's last call is read where it is (rl_client_give_back) while nothing can overwrite it: a
 * lane about to serve a call while other coroutines run (one of them may read it meanwhile), or
 * about to be closed, gives it to a copy. Before, such a reader got the next call's votes as they
 * came, or freed memory (test 939). */
static void keep_last(rl_client *client, const rl_lane *lane)
{
	if (client->outcomes == lane->outcomes) {
		memcpy(client->kept, lane->outcomes, (client->cluster->count ? client->cluster->count : 1) * sizeof(*client->kept));
		client->outcomes = client->kept;
	}
}

/* A spare closed: unlinked from *at, its connections pooled or closed. */
static void close_spare(rl_client *client, rl_lane **at)
{
	rl_lane *lane = *at;

	keep_last(client, lane);
	*at = lane->next;
	client->lanes--;
	lane_free(lane);
}

static void lane_free(rl_lane *lane)
{
	rl_cluster_destroy(lane->cluster); /* before the endpoints they share: connections pooled or closed */
	free(lane->outcomes);
	free(lane->bound);
	free(lane);
}

static rl_lane *new_spare(rl_client *client)
{
	rl_lane *lane = calloc(1, sizeof(*lane));

	if (lane == NULL) {
		return NULL;
	}
	lane->cluster = rl_cluster_sibling(client->cluster);
	lane->outcomes = calloc(client->cluster->count ? client->cluster->count : 1, sizeof(*lane->outcomes));
	if (lane->cluster == NULL || lane->outcomes == NULL) {
		lane_free(lane);
		return NULL;
	}
	rl_fanout_bind(lane->cluster, &lane->io);
	lane->io.random = client->main.io.random;
	lane->next = client->spares;
	client->spares = lane;
	client->lanes++;
	return lane;
}

/* Spares nobody used for the idle period are closed (their connections pooled or closed): a burst
 * of calls leaves no descriptors behind once it is over. Their bound locks' late replies were due
 * within the call bound, which the period is never shorter than. */
static void close_idle_spares(rl_client *client, double now)
{
	double idle = client->policy.call_bound_ms > RL_SPARE_IDLE_MS ? client->policy.call_bound_ms : RL_SPARE_IDLE_MS;
	rl_lane **at = &client->spares;

	while (*at != NULL) {
		rl_lane *lane = *at;
		if (!lane->lent && lane->wanted == 0 && now - lane->idle_since >= idle) {
			close_spare(client, at);
		} else {
			at = &lane->next;
		}
	}
}

static int lane_holds(const rl_lane *lane, const char *token, size_t token_len)
{
	size_t i;

	if (token == NULL || token_len != RL_TOKEN_LEN) {
		return 0;
	}
	for (i = 0; i < lane->bound_count; i++) {
		if (memcmp(lane->bound[i], token, RL_TOKEN_LEN) == 0) {
			return 1;
		}
	}
	return 0;
}

/* The lane that still owes token's acquisition replies, or NULL. */
static rl_lane *bound_lane(rl_client *client, const char *token, size_t token_len)
{
	rl_lane *lane;

	if (token == NULL || token_len != RL_TOKEN_LEN) {
		return NULL;
	}
	if (lane_holds(&client->main, token, token_len)) {
		return &client->main;
	}
	for (lane = client->spares; lane != NULL; lane = lane->next) {
		if (lane_holds(lane, token, token_len)) {
			return lane;
		}
	}
	return NULL;
}

/* A lane nobody uses: one no lock is bound to first (a held lock's call may want the others), never
 * one a held lock's call waits for. */
static rl_lane *free_lane(rl_client *client)
{
	rl_lane *lane, *bound = NULL;

	if (!client->main.lent && client->main.wanted == 0) {
		if (client->main.bound_count == 0) {
			return &client->main;
		}
		bound = &client->main;
	}
	for (lane = client->spares; lane != NULL; lane = lane->next) {
		if (!lane->lent && lane->wanted == 0) {
			if (lane->bound_count == 0) {
				return lane;
			}
			if (bound == NULL) {
				bound = lane;
			}
		}
	}
	return bound;
}

/* Lanes and waiters' subscription sets together are held to maxConnectionSets. */
static int room_for_a_set(const rl_client *client)
{
	return client->lanes + client->subscribed < (size_t) client->config.max_sets;
}

/* The token's lane may have settled, or closed, while this call waited: the one it is bound to now, and
 * the old one no longer wanted by this call. */
static rl_lane *owner_now(rl_client *client, const char *token, size_t token_len, rl_lane *owner, rl_lane **wanting)
{
	rl_lane *now_owner = bound_lane(client, token, token_len);

	if (now_owner != owner && *wanting != NULL) {
		(*wanting)->wanted--;
		*wanting = NULL;
	}
	return now_owner;
}

/* The lane for this call: owner, the one its token's late writes are queued on (after them, never
 * beside), else a free one, or a new spare while maxConnectionSets allows. While another coroutine
 * could give one back, waits for it in short, growing pauses (no queue to be woken from), up to
 * wait_ms from started: NULL with *busy set when none came (or the wait was cancelled); NULL alone
 * when a spare could not be made. */
static rl_lane *wait_for_lane(rl_client *client, const char *token, size_t token_len, rl_lane *owner,
	double started, double wait_ms, int *busy)
{
	double now = started;
	rl_lane *wanting = NULL; /* the lane this call marked as wanted */
	rl_lane *lane;
	int pause = 1;

	for (;;) {
		int can_wait = rl_wait_current() != NULL; /* another coroutine can give one back meanwhile */

		if (owner != NULL) {
			lane = owner->lent ? NULL : owner;
			if (lane == NULL && !can_wait) {
				owner = NULL; /* nobody could give it back: as before */
				continue;
			}
			if (lane == NULL && wanting == NULL) {
				wanting = owner;
				owner->wanted++;
			}
		} else {
			lane = free_lane(client);
			if (lane == NULL && (room_for_a_set(client) || !can_wait)) {
				lane = new_spare(client);
				if (lane == NULL) {
					break;
				}
			}
		}
		if (lane != NULL) {
			break;
		}
		if (now - started >= wait_ms || rl_wait_sleep_ms(pause) != 0) { /* cancelled, or its bound */
			*busy = 1;
			break;
		}
		if (pause < 8) {
			pause *= 2;
		}
		now = rl_now_ms();
		if (owner != NULL) {
			owner = owner_now(client, token, token_len, owner, &wanting);
		}
	}
	if (wanting != NULL) {
		wanting->wanted--;
	}
	return lane;
}

rl_lane *rl_client_lend(rl_client *client, const char *token, size_t token_len, double wait_ms, int *busy)
{
	double started = rl_now_ms();
	rl_lane *owner, *lane;

	*busy = 0;
	/* The owner is looked up after the closing: an idle spare closed there may be the one token was bound
	 * to (its late writes overdue by then: idle past the call bound), and its memory is gone. */
	if (client->spares != NULL) {
		close_idle_spares(client, started);
	}
	owner = bound_lane(client, token, token_len);
	lane = wait_for_lane(client, token, token_len, owner, started, wait_ms, busy);
	if (lane == NULL) {
		return NULL;
	}
	if (rl_wait_current() != NULL) {
		keep_last(client, lane); /* other coroutines run while this call does */
	}
	lane->lent = 1;
	lane->started = started;
	lane->cluster->call_began = 0; /* the fan-outs it makes mark its span */
	if (client->policy.dialect == &rl_dialect_learnt) {
		rl_dialect_refresh(&client->policy, rl_now_ms()); /* a learnt NOPERM is asked again after a while */
	}
	return lane;
}

/* Whether every reply the lane's connections owe has come (or the connection is gone). */
static int lane_settled(const rl_lane *lane)
{
	size_t i;

	for (i = 0; i < lane->cluster->count; i++) {
		const rl_conn *conn = &lane->cluster->conns[i];
		if (conn->state != RL_CONN_DOWN && rl_conn_owed(conn) > 0) {
			return 0;
		}
	}
	return 1;
}

void rl_client_bind(rl_lane *lane, const char *token)
{
	if (lane_settled(lane)) {
		return; /* every write of it has landed: its release may go on any lane */
	}
	if (lane->bound == NULL) {
		lane->bound = malloc(RL_LANE_BOUND_MAX * sizeof(*lane->bound));
		if (lane->bound == NULL) {
			return;
		}
	}
	if (lane->bound_count == RL_LANE_BOUND_MAX) { /* the oldest goes: its writes are the likeliest landed */
		memmove(lane->bound[0], lane->bound[1], (RL_LANE_BOUND_MAX - 1) * sizeof(*lane->bound));
		lane->bound_count--;
	}
	memcpy(lane->bound[lane->bound_count++], token, RL_TOKEN_LEN);
}

/* The calling coroutine's record: a copy, since its lane serves others next. Bounded: the entry
 * written longest ago goes. */
static void keep_flow_last(rl_client *client, uintptr_t flow, const rl_lane *lane)
{
	size_t count = client->cluster->count ? client->cluster->count : 1;
	rl_flow_last *entry = NULL;
	size_t i;

	if (client->flows == NULL) {
		client->flows = calloc(RL_FLOW_LAST_MAX, sizeof(*client->flows));
		if (client->flows == NULL) {
			return;
		}
	}
	for (i = 0; i < client->flow_count; i++) {
		if (client->flows[i].flow == flow) {
			entry = &client->flows[i];
			break;
		}
	}
	if (entry == NULL && client->flow_count < RL_FLOW_LAST_MAX) {
		entry = &client->flows[client->flow_count];
		entry->outcomes = malloc(count * sizeof(*entry->outcomes));
		if (entry->outcomes == NULL) {
			return;
		}
		client->flow_count++;
	}
	if (entry == NULL) {
		entry = &client->flows[0];
		for (i = 1; i < client->flow_count; i++) {
			if (client->flows[i].used < entry->used) {
				entry = &client->flows[i];
			}
		}
	}
	entry->flow = flow;
	entry->used = ++client->flow_clock;
	entry->record = client->last;
	memcpy(entry->outcomes, lane->outcomes, count * sizeof(*entry->outcomes));
}

static const rl_flow_last *flow_last(const rl_client *client)
{
	uintptr_t flow;
	size_t i;

	if (client->flows == NULL || (flow = rl_wait_flow()) == 0) {
		return NULL;
	}
	for (i = 0; i < client->flow_count; i++) {
		if (client->flows[i].flow == flow) {
			return &client->flows[i];
		}
	}
	return NULL;
}

const rl_outcome *rl_client_last_outcomes(const rl_client *client)
{
	const rl_flow_last *mine = flow_last(client);
	return mine != NULL ? mine->outcomes : client->outcomes;
}

const rl_call_record *rl_client_last_record(const rl_client *client)
{
	const rl_flow_last *mine = flow_last(client);
	return mine != NULL ? &mine->record : &client->last;
}

/* The call ended: its votes become the object's "last call" (getLastErrors(), the observer), read
 * where they are (no copy: without coroutines, always the main lane's) until the lane is lent
 * again where other calls can run meanwhile or closed (keep_last), and, in a coroutine or Fiber,
 * that one's own last call (a copy). */
void rl_client_give_back(rl_client *client, rl_lane *lane)
{
	uintptr_t flow = rl_wait_flow();

	client->outcomes = lane->outcomes;
	if (flow != 0) {
		keep_flow_last(client, flow, lane);
	}
	if (lane->bound_count > 0 && lane_settled(lane)) {
		lane->bound_count = 0;
	}
	lane->lent = 0;
	if (lane != &client->main) {
		lane->idle_since = rl_now_ms();
	}
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
	if ((cluster->clock_news[0] | cluster->clock_news[1]) != 0) { /* a server's clock jumped */
		unsigned news[2];

		rl_cluster_take_clock_news(lane->cluster, news);
		rl_metrics_add(RL_METRIC_CLOCK_JUMPS_FORWARD, news[0]);
		rl_metrics_add(RL_METRIC_CLOCK_JUMPS_BACKWARD, news[1]);
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
	rl_writer_mark *mark; /* a writer's: sent after each failed attempt (rl_kind_acquire) */
	int64_t calls;
} wait_attempt;

/* rolled_back (NULL: not asked): the token of this attempt's rollback, '' when it sent none. */
static int attempt_once(void *arg, const rl_lock_io *io, char rolled_back[RL_TOKEN_LEN + 1])
{
	wait_attempt *a = arg;
	int won;

	if (a->target->fair != NULL) {
		/* the first attempt, before the waiter listens, does not queue: a release between its
		 * ticket and its subscription would wake nobody (rl_wait_acquire subscribes after it) */
		a->target->fair->enqueue = a->calls > 0;
	}
	a->calls++;
	won = rl_kind_acquire(io, &a->policy, a->target, a->ttl, a->servers, a->outcomes, a->held, a->mark);
	if (rolled_back != NULL) {
		memcpy(rolled_back, a->held->result.rolled_back, RL_TOKEN_LEN + 1);
	}

	if (won == 0 && a->held->result.no_random) {
		a->no_random = 1;
		return -1;
	}
	if (won == 0 && rl_outcomes_scripts_refused(a->outcomes, a->servers, a->policy.quorum)) {
		a->refused = 1; /* a refusal is not contention (rl_acquire_stop_if_refused): learnt by the caller now */
		return -1;
	}
	if (won == 0 && a->held->result.hopeless) {
		a->refused = 1; /* no wait can help (rl_acquire_stop_if_hopeless) */
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

/* A waiter's lane is given back while it sleeps for a release and borrowed again (maybe another)
 * for its next attempt: a sleeping waiter holds no connection set, and its subscription set counts
 * against maxConnectionSets (without room: it waits with pauses alone, as when no server could be
 * subscribed). docs/design/coroutines.md. */
typedef struct wait_sets {
	rl_client *client;
	rl_lane **lane;
	wait_attempt *attempt;
	const rl_lock_target *target;
	int subscribed;
} wait_sets;

static void sets_rest(void *arg)
{
	wait_sets *w = arg;
	rl_lane *lane = *w->lane;

	lane->lent = 0;
	if (lane != &w->client->main) {
		lane->idle_since = rl_now_ms();
	}
	*w->lane = NULL;
}

static const rl_lock_io *sets_resume(void *arg, double deadline_ms)
{
	wait_sets *w = arg;
	double left = deadline_ms - rl_now_ms();
	int busy;
	rl_lane *lane = rl_client_lend(w->client, w->target->from_token, w->target->from_len, left > 0 ? left : 0, &busy);

	if (lane == NULL) {
		return NULL;
	}
	*w->lane = lane;
	w->attempt->outcomes = lane->outcomes;
	return &lane->io;
}

/* A spare nobody uses (none bound to a lock's late writes) closed to make room for a subscription set. */
static int close_a_free_spare(rl_client *client)
{
	rl_lane **at;

	for (at = &client->spares; *at != NULL; at = &(*at)->next) {
		rl_lane *lane = *at;
		if (!lane->lent && lane->bound_count == 0 && lane->wanted == 0) {
			close_spare(client, at);
			return 1;
		}
	}
	return 0;
}

static int sets_subscribe(void *arg)
{
	wait_sets *w = arg;

	if (rl_wait_current() != NULL && !room_for_a_set(w->client) && !close_a_free_spare(w->client)) {
		return 0;
	}
	w->client->subscribed++;
	w->subscribed = 1;
	return 1;
}

static void sets_unsubscribed(void *arg)
{
	wait_sets *w = arg;

	if (w->subscribed) {
		w->client->subscribed--;
		w->subscribed = 0;
	}
}

/* A fair waiter listens on its own channel only (the release wakes the head alone). Nothing for
 * an object without 'fair' (wait_channels then). */
static int fair_channel(const rl_client *client, const rl_lock_target *queued, rl_lock_keys *channels, char **names,
	const char ***keys, size_t **lens)
{
	*names = NULL;
	*keys = NULL;
	*lens = NULL;
	if (!client->config.fair) {
		return 0;
	}
	*names = malloc(queued->keys.lens[0] + RL_FAIR_CHANNEL_EXTRA);
	*keys = malloc(sizeof(**keys));
	*lens = malloc(sizeof(**lens));
	if (*names == NULL || *keys == NULL || *lens == NULL) {
		return -1;
	}
	(*lens)[0] = rl_fair_channel_key(*names, queued->keys.keys[0], queued->keys.lens[0], queued->fair);
	(*keys)[0] = *names;
	channels->count = 1;
	channels->keys = *keys;
	channels->lens = *lens;
	channels->multi = 0;
	return 0;
}

/* 'fair': the call waits as a queued waiter, woken on its own channel and attempting (its heartbeat)
 * at least every RL_FAIR_REFRESH_MS (docs/design/fair.md); its attempts and subscriptions use the
 * queued target. -1 when no random id could be drawn for it. */
static int join_fair_queue(rl_lane *lane, rl_fair_waiter *waiter, rl_lock_target *queued, wait_attempt *attempt,
	wait_sets *sets)
{
	if (rl_fair_waiter_init(waiter, lane->io.random, lane->io.arg) != 0) {
		return -1;
	}
	/* a semaphore's waiters queue apart from the lock()s of its name (RL_FAIR_SEM_SUFFIX) */
	waiter->limit = queued->kind == RL_KIND_SEMAPHORE ? queued->limit : 0;
	queued->fair = waiter;
	attempt->target = queued;
	sets->target = queued;
	return 0;
}

/* A fair waiter's leave. Won: off the queue of the servers it did not win; not won (waitTimeout over,
 * cancelled, an error): off every queue, the next waiter woken where the lock is free. A wait cancelled
 * in its pause (its Fiber or coroutine destroyed) ends with its lane given back (sets_rest): the leave
 * goes on a lane nobody uses, sent without waiting. With none (every lane lent, or none came back in
 * time) its heartbeat lapses within RL_FAIR_HEARTBEAT_MS instead. */
static void fair_leave(rl_client *client, rl_lane *lane, const rl_lock_keys *keys, rl_fair_waiter *waiter)
{
	if (lane == NULL && waiter->queued) {
		lane = free_lane(client);
	}
	if (lane != NULL) {
		rl_fair_leave(&lane->io, &client->policy, keys, waiter);
	}
}

static int acquire_waiting(rl_client *client, rl_lane **lanep, const rl_lock_target *target, int64_t ttl, rl_held_lock *held,
	rl_writer_mark *mark)
{
	rl_lane *lane = *lanep;
	wait_attempt attempt = {client->policy, target, ttl, client->cluster->count, lane->outcomes, held, 0, 0, mark};
	wait_sets sets = {client, lanep, &attempt, target, 0};
	rl_wait_sets hooks = {&sets, sets_rest, sets_resume, sets_subscribe, sets_unsubscribed};
	rl_wait_stats stats;
	rl_lock_keys channels;
	const char **keys;
	size_t *lens;
	char *names;
	int won;

	rl_lock_target queued = *target;
	rl_fair_waiter waiter;
	int64_t retry_delay = client->config.retry_delay;

	attempt.policy.retry_count = 0;
	memset(&held->result, 0, sizeof(held->result));
	if (client->config.fair) {
		if (join_fair_queue(lane, &waiter, &queued, &attempt, &sets) != 0) {
			held->result.no_random = 1;
			return 0;
		}
		retry_delay = RL_FAIR_REFRESH_MS;
	}
	if (fair_channel(client, &queued, &channels, &names, &keys, &lens) != 0
		|| (!client->config.fair && wait_channels(target, &channels, &names, &keys, &lens) != 0)) {
		won = -1;
	} else {
		/* the deadline counts from the call's start, the wait for a lane included */
		won = rl_wait_acquire(client->cluster, &lane->io, &channels,
			lane->started + (double) client->config.wait_timeout, retry_delay, client->policy.quorum,
			client->policy.call_bound_ms, attempt_once, &attempt, &hooks, &stats);
		held->result.attempts = stats.attempts;
	}
	if (client->config.fair) {
		fair_leave(client, *lanep, &target->keys, &waiter);
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

/* lock() with retries and no waitTimeout, while other coroutines can run: its attempts one at a
 * time, its lane given back for each pause and borrowed again (maybe another) for the next attempt,
 * as a waiter's (wait_sets): a retrying lock() holds no connection set asleep, so a holder's
 * unlock() on a bounded object is not starved by contenders' pauses. A lane whose lock is won is
 * the one it was won on (bound to it by acquire()). The deadline for a lane is lock()'s own bound
 * from the call's start; none before it: not acquired, no lane (RL_NO_LANE).
 * docs/design/coroutines.md, "A retrying lock() holds no lane asleep". */
static int acquire_retrying(rl_client *client, rl_lane **lanep, const rl_lock_target *target, int64_t ttl,
	rl_held_lock *held, double bound, rl_writer_mark *mark)
{
	rl_lane *lane = *lanep;
	wait_attempt attempt = {client->policy, target, ttl, client->cluster->count, lane->outcomes, held, 0, 0, mark};
	wait_sets sets = {client, lanep, &attempt, target, 0};
	int64_t attempts = rl_attempts_for(client->policy.retry_count), n;
	double deadline = lane->started + bound;
	int won = 0;

	attempt.policy.retry_count = 0;
	for (n = 1;; n++) {
		uint32_t value = 0;
		const rl_lock_io *io = &(*lanep)->io;

		won = attempt_once(&attempt, io, NULL);
		if (won != 0 || n >= attempts) {
			break;
		}
		if (io->random(io->arg, &value, sizeof(value)) != 0) {
			attempt.no_random = 1;
			won = -1;
			break;
		}
		sets_rest(&sets);
		/* a cancelled pause ends early, the attempts go on (as the lane's own pause: rl_fanout_drain_until) */
		(void) rl_wait_sleep_ms((int) rl_retry_delay_ms(client->policy.retry_delay, value));
		if (sets_resume(&sets, deadline) == NULL) {
			won = 0; /* no set came back in time: *lanep is NULL */
			break;
		}
	}
	held->result.attempts = n;
	if (won < 0 && attempt.no_random) {
		held->result.no_random = 1;
		return 0;
	}
	return won < 0 && attempt.refused ? 0 : won;
}

/* lock()'s own bound when it has no waitTimeout: its attempts and pauses. */
static double retries_bound(const rl_client *client)
{
	int64_t attempts = client->config.retry_count > 0 ? client->config.retry_count : 1;

	return (double) attempts * (client->policy.call_bound_ms + (double) client->config.retry_delay);
}

/* An acquisition's attempts, on the path every kind takes: waitTimeout's wait, or the retries
 * (their pauses without a lane while other coroutines can run and use it; without coroutines nobody
 * could, and the lane's pause reads the rollbacks' replies meanwhile). once: demote(), its one attempt
 * (rl_convert_acquire). */
static int acquire_attempts(rl_client *client, rl_lane **lanep, const rl_lock_target *target, int64_t ttl,
	rl_held_lock *held, int waits, int once, rl_writer_mark *mark)
{
	rl_lane *lane = *lanep;

	/* a writer's mark lasts until its next attempt: these loops pause up to retryDelay after a
	 * failed one-attempt call; the driver's own attempts mark at each of their pauses */
	mark->then_ms = 0;
	if (waits) {
		mark->then_ms = (double) client->config.retry_delay;
		return acquire_waiting(client, lanep, target, ttl, held, mark);
	}
	if (!once && rl_wait_current() != NULL && rl_attempts_for(client->policy.retry_count) > 1) {
		mark->then_ms = (double) client->config.retry_delay;
		return acquire_retrying(client, lanep, target, ttl, held, retries_bound(client), mark);
	}
	return rl_kind_acquire(&lane->io, &client->policy, target, ttl, client->cluster->count, lane->outcomes, held, mark);
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

/* A refusal before any attempt: no result. */
static rl_acquire_status refused(rl_held_lock *held, rl_acquire_status status)
{
	memset(&held->result, 0, sizeof(held->result));
	return status;
}

/* Whether target may be tried at all, as asked: its kind (a fenced lock under 'fencing') in *asked and
 * *kind. A fair queue orders only one exclusive resource; a kind the dialect cannot take, or a
 * conversion that cannot begin, is refused before any attempt (held->result zeroed then). */
static rl_acquire_status acquire_admits(rl_client *client, const rl_lock_target *target, int once,
	rl_lock_target *asked, rl_held_lock *held, rl_lock_kind *kind)
{
	int converting = target->from_token != NULL;

	if (asked->kind == RL_KIND_EXCLUSIVE && client->config.fencing) {
		asked->kind = RL_KIND_FENCED;
	}
	if (client->config.fair && !once
		&& ((asked->kind != RL_KIND_EXCLUSIVE && asked->kind != RL_KIND_SEMAPHORE) || asked->keys.multi
			|| asked->keys.count != 1 || converting)) {
		/* the queue orders lock() and run() of one resource, and lockSemaphore(): anything else would wait unordered */
		return refused(held, RL_FAIR_REFUSED);
	}
	*kind = asked->kind;
	if (rl_dialect_for(client->policy.dialect, asked->kind, converting ? RL_OP_CONVERT : RL_OP_ACQUIRE) == NULL) {
		return refused(held, RL_NEEDS_SCRIPTS);
	}
	if (converting && convert_begin(client, target) != RL_ACQUIRED) {
		return refused(held, RL_NOT_ACQUIRED);
	}
	return RL_ACQUIRED;
}

/* The attempts (acquire_attempts), again without the script when this lane learned that scripts
 * are refused, under a waiting writer's mark that keeps new readers out
 * (docs/design/primitives.md#writer-preference). 1 won, 0 not, -1 out of memory. */
static int acquire_marked(rl_client *client, rl_lane **lanep, const rl_lock_target *asked, int converting,
	int64_t ttl, rl_held_lock *held, int waits, int once)
{
	rl_writer_mark mark;
	int won;

	held->result.attempts = 0;
	rl_kind_writer_mark(&mark, &client->policy, asked);
	won = acquire_attempts(client, lanep, asked, ttl, held, waits, once, &mark);
	if (*lanep != NULL
		&& rl_client_learn_scripts_refused(client, *lanep, asked->kind, converting ? RL_OP_CONVERT : RL_OP_ACQUIRE)
		&& won == 0) {
		/* the same lock() again, without the script (several resources: MSETEX) */
		won = acquire_attempts(client, lanep, asked, ttl, held, waits, once, &mark);
	}
	if (*lanep != NULL) {
		rl_writer_mark_clear(&mark, &(*lanep)->io); /* won or not: readers may come in again */
	}
	return won;
}

/* A lock just taken, tracked in the client's leases (the cap, the loss, and with autoExtend the
 * renewal; a converted lock's cap_left handed on when passes_cap). Not tracked means not renewed,
 * or a cap not kept: released, and RL_NOT_TRACKED. (Out of memory for a long slot key: that slot
 * is left to expire.) */
static rl_acquire_status track_taken(rl_client *client, rl_lane *lane, const rl_lock_target *asked, int64_t ttl,
	int pinned, rl_held_lock *held, int passes_cap, int64_t cap_left)
{
	rl_lock_target occupied;
	char slot_key[256], *heap = NULL;
	const char *slot_ptr;
	size_t slot_len;
	rl_leases *leases = rl_client_leases_of(client);
	int tracked = held_target(asked, held, &occupied, slot_key, sizeof(slot_key), &slot_ptr, &slot_len, &heap) == 0
		&& leases != NULL
		&& rl_leases_add(leases, &occupied, held->result.token, RL_TOKEN_LEN, ttl, held->result.validity, pinned) == 0;

	if (!tracked) {
		if (held->kind != RL_KIND_SEMAPHORE || heap != NULL || slot_len < sizeof(slot_key)) {
			rl_kind_release(&lane->io, &client->policy, &occupied, held->result.token, RL_TOKEN_LEN, lane->outcomes);
		}
		free(heap);
		return RL_NOT_TRACKED;
	}
	if (passes_cap) {
		rl_leases_set_left(leases, held->result.token, RL_TOKEN_LEN, cap_left);
	}
	record_masters(client, lane, held->result.token, RL_TOKEN_LEN);
	/* the members that did not answer yes: awaited by the first extend, which heals them */
	rl_leases_note_votes(leases, held->result.token, RL_TOKEN_LEN, lane->outcomes, lane->cluster->count, 1);
	free(heap);
	return RL_ACQUIRED;
}

static rl_acquire_status acquire(rl_client *client, rl_lane **lanep, const rl_lock_target *target, int64_t ttl,
	int pinned, rl_held_lock *held, rl_lock_kind *kind)
{
	rl_lane *lane;
	rl_lock_target asked = *target;
	int converting = target->from_token != NULL;
	/* demote() has no contention to wait out: one attempt (rl_convert_acquire) */
	int once = converting && target->kind == RL_KIND_SHARED;
	int waits = client->config.wait_timeout >= 0 && !once;
	int64_t cap_left = -1;
	int passes_cap = 0, won;
	rl_acquire_status admitted = acquire_admits(client, target, once, &asked, held, kind);

	if (admitted != RL_ACQUIRED) {
		return admitted;
	}
	won = acquire_marked(client, lanep, &asked, converting, ttl, held, waits, once);
	if ((lane = *lanep) == NULL) {
		/* the wait gave its lane back and found none free again before its deadline */
		if (converting) {
			convert_end(client, target, 0);
		}
		return RL_NO_LANE;
	}
	if (won > 0) {
		rl_client_bind(lane, held->result.token); /* its release goes after its late writes */
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
		return track_taken(client, lane, &asked, ttl, pinned, held, passes_cap, cap_left);
	}
	return RL_ACQUIRED;
}

int rl_client_scripts_off(const rl_client *client)
{
	return client->config.no_scripts ? 1 : client->policy.dialect != &rl_dialect_scripted ? 2 : 0;
}

static rl_acquire_status acquire_on(rl_client *client, rl_lane **lanep, const rl_lock_target *target, int64_t ttl,
	int pinned, rl_held_lock *held)
{
	rl_lock_kind kind = target->kind;
	rl_acquire_status status;
	rl_lane *lane;

	status = acquire(client, lanep, target, ttl, pinned, held, &kind);
	if (status == RL_NO_LANE) {
		return RL_NOT_ACQUIRED;
	}
	lane = *lanep;

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
	/* its own bound: waitTimeout, else its attempts and pauses */
	double bound = client->config.wait_timeout >= 0 ? (double) client->config.wait_timeout : retries_bound(client);
	int busy;
	rl_lane *lane = rl_client_lend(client, target->from_token, target->from_len, bound, &busy);
	rl_acquire_status status;

	if (lane == NULL) {
		memset(&held->result, 0, sizeof(held->result));
		return busy ? RL_NOT_ACQUIRED : RL_OUT_OF_MEMORY;
	}
	status = acquire_on(client, &lane, target, ttl, pinned, held);
	if (lane != NULL) {
		rl_client_give_back(client, lane);
	}
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
