/* Parallel fan-out over every server of a cluster. See rl_fanout.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "net/rl_fanout.h"
#include "net/rl_fanout_queue_private.h"
#include "net/rl_wait_cancel.h"
#include "net/rl_net_private.h"

struct rl_poll_set {
	rl_pollfd *fds;
	size_t *owner; /* fds[k] belongs to conns[owner[k]] */
	size_t used;
	/* Small clusters poll from here rather than from the heap. */
	rl_pollfd small_fds[RL_SMALL_CLUSTER];
	size_t small_owner[RL_SMALL_CLUSTER];
};

/* An outcome is known: counted, and (telemetry) given its latency, ms since the fan-out began as
 * of the poll round that brought it (no clock read of its own). */
static void settle(rl_outcome *out, unsigned *yes, unsigned *answered, double latency)
{
	out->latency_ms = latency;
	(*answered)++;
	if (out->kind == RL_OUTCOME_YES) {
		(*yes)++;
	}
}

/* A connection that failed mid-call is closed: its stream can no longer be trusted. */
static void fail(rl_conn *conn, rl_outcome *out, unsigned *yes, unsigned *answered, double latency)
{
	rl_conn_close(conn);
	settle(out, yes, answered, latency);
}

/* poll(), TLS-buffered bytes included (rl_conn_poll). */
static int wait_for_events(struct rl_poll_set *set, rl_cluster *cluster, double wait_until, double now)
{
	return rl_conn_poll(set->fds, set->owner, set->used, cluster->conns, wait_until, now);
}

static inline void add_poll(struct rl_poll_set *set, rl_conn *conn, size_t owner)
{
	set->fds[set->used].fd = rl_conn_fd(conn);
	set->fds[set->used].events = rl_conn_poll_events(conn);
	set->fds[set->used].revents = 0;
	set->owner[set->used] = owner;
	set->used++;
}

static int poll_set_init(struct rl_poll_set *set, size_t count)
{
	set->used = 0;
	if (count <= RL_SMALL_CLUSTER) {
		set->fds = set->small_fds;
		set->owner = set->small_owner;
		return 0;
	}
	set->fds = malloc(count * sizeof(*set->fds));
	set->owner = malloc(count * sizeof(*set->owner));
	return set->fds && set->owner ? 0 : -1;
}

static void poll_set_free(struct rl_poll_set *set)
{
	if (set->fds != set->small_fds) {
		free(set->fds);
		free(set->owner);
	}
}

/* What a cluster member needs to send its command again after a MOVED or ASK: the command as
 * encoded for every server, and the call's slot and deadline. */
struct resend {
	const rl_encoded *command;
	rl_natives *natives;
	int slot;
	double deadline_ms;
	unsigned leading;
	rl_encoded *own; /* fromCluster members' own commands (their keys tagged), or NULL */
};

/* A cluster member's MOVED or ASK (or a transaction's EXECABORT: its command was redirected when
 * queued): sends the command again to the node named, at most RL_SHARDS_REDIRECTS_MAX times and
 * before the call's deadline (docs/design/cluster.md#moved-and-ask). 1 when sent again (out is
 * pending once more), 0 when the reply stands as the member's error, -1 when the resend failed
 * (out says why). */
static int follow_redirect(rl_cluster *cluster, size_t i, const rl_request *request, const struct resend *again,
	rl_outcome *out)
{
	rl_conn *conn = &cluster->conns[i];
	unsigned char redirects = conn->redirects;
	double now = rl_now_ms();
	int asking = 0;
	char message[RL_MESSAGE_MAX];

	if (again == NULL || redirects >= RL_SHARDS_REDIRECTS_MAX || (again->deadline_ms > 0 && now >= again->deadline_ms)
		|| conn->expected != 0) {
		return 0;
	}
	memcpy(message, out->message, sizeof(message));
	if (strncmp(message, "EXECABORT", 9) == 0 && conn->queued_redirect[0] != '\0') {
		/* the transaction's queued command was redirected: an ASK is followed as for one command (ASKING
		 * before MULTI: the server keeps its flag through the transaction), a MOVED as well */
		memcpy(message, conn->queued_redirect, sizeof(message));
	}
	conn->queued_redirect[0] = '\0';
	if (cluster->endpoints[i].shards->pin > 0) {
		/* a fromCluster member: the map is asked again and the member placed anew (its tag may change: a
		 * new placement is a restart for it, docs/design/cluster.md#fromcluster-placement), its command encoded again */
		rl_shards *shards = cluster->endpoints[i].shards;
		rl_outcome why;

		if (again->own == NULL) {
			return 0;
		}
		if (strncmp(message, "ASK ", 4) == 0) {
			/* its tag's slot is migrating: asking the map again places it on the same master, and following
			 * the ASK would put two members' keys on one master (one failover there, two votes lost) */
			char why_ask[RL_MESSAGE_MAX];

			snprintf(why_ask, sizeof(why_ask), "the slot of this member's tag is migrating (%.60s): "
				"it does not vote until the migration ends", message);
			rl_outcome_set(out, RL_OUTCOME_ERROR, why_ask);
			return 0;
		}
		shards->map->state = RL_SHARDS_STALE;
		rl_outcome_reset(&why);
		if (rl_shards_route(&cluster->endpoints[i], conn, cluster->pool, again->slot, 0, again->deadline_ms, &why) != 0) {
			conn->redirects = (unsigned char) (redirects + 1);
			return 0;
		}
		rl_encoded_free(&again->own[i]);
		if (request->batch_len > 0) {
			rl_fanout_encode_tagged(request->batch, request->batch_len, shards->tag, shards->tag_len, &again->own[i]);
		} else {
			rl_fanout_encode_tagged(&request->command, 1, shards->tag, shards->tag_len, &again->own[i]);
		}
		rl_outcome_reset(out);
		if (again->own[i].bytes == NULL) {
			rl_outcome_set(out, RL_OUTCOME_IO, "out of memory");
			conn->redirects = (unsigned char) (redirects + 1);
			return -1;
		}
		if (rl_fanout_prepare_any(cluster, i, &again->own[i], NULL, now, again->deadline_ms, out, 0, RL_NOT_PROBED,
				request->lua_forbidden, again->leading, 0) != 0) {
			conn->redirects = (unsigned char) (redirects + 1);
			return -1;
		}
		conn->redirects = (unsigned char) (redirects + 1);
		return 1;
	}
	if (!rl_shards_redirect(&cluster->endpoints[i], conn, cluster->pool, message, again->slot, again->deadline_ms, &asking)) {
		return 0;
	}
	rl_outcome_reset(out);
	if (rl_fanout_prepare_any(cluster, i, again->command, again->natives, now, again->deadline_ms, out, 0, RL_NOT_PROBED,
			request->lua_forbidden, again->leading, asking) != 0) {
		conn->redirects = (unsigned char) (redirects + 1);
		return -1;
	}
	conn->redirects = (unsigned char) (redirects + 1);
	return 1;
}

/* Reads every reply that has arrived for server i and settles its outcome; counts a NOPERM in
 * *refused. */
static void take_replies(rl_cluster *cluster, size_t i, const rl_request *request,
	rl_outcome *out, unsigned *yes, unsigned *answered, unsigned *refused, double latency, const struct resend *again)
{
	rl_conn *conn = &cluster->conns[i];

	/* inspect()'s HKEYS and MGET: the tokens one level down are read (who holds, not how many keys) */
	if (rl_reader_nest(&conn->reader, request->expect == RL_EXPECT_INSPECT) != 0) {
		rl_outcome_set(out, RL_OUTCOME_IO, "out of memory");
		fail(conn, out, yes, answered, latency);
		return;
	}
	while (out->kind == RL_OUTCOME_PENDING) {
		rl_reply reply;
		int got = rl_conn_next_reply(conn, &reply, out);

		if (got < 0) {
			fail(conn, out, yes, answered, latency);
			return;
		}
		if (got == 0) {
			return;
		}
		if (conn->expected > 0) {
			/* a batch's reply before the last (MULTI's +OK, each +QUEUED): an error among them
			 * shows again in EXEC's, which is the vote; a redirection shows there only as EXECABORT,
			 * so a cluster member keeps the first to follow it (follow_redirect) */
			if (reply.type == RL_REPLY_ERROR && cluster->endpoints[i].shards != NULL && conn->queued_redirect[0] == '\0'
				&& reply.len < sizeof(conn->queued_redirect) && reply.len > 4
				&& (strncmp(reply.str, "ASK ", 4) == 0 || strncmp(reply.str, "MOVED ", 6) == 0)) {
				memcpy(conn->queued_redirect, reply.str, reply.len);
				conn->queued_redirect[reply.len] = '\0';
			}
			continue;
		}
		if (request->expect == RL_EXPECT_HELD) {
			rl_reply_classify_held(&reply, request->held_token, request->held_token_len, out);
		} else if (request->expect == RL_EXPECT_INSPECT) {
			rl_reply_classify_inspect(&reply, out, &request->inspected[i]);
		} else {
			rl_reply_classify(&reply, request->expect, out);
		}
		if (out->kind == RL_OUTCOME_ERROR && cluster->endpoints[i].shards != NULL && rl_shards_redirection(out->message)) {
			int resent = follow_redirect(cluster, i, request, again, out);

			if (resent > 0) {
				return; /* pending again, on the node named */
			}
			if (resent < 0) {
				fail(conn, out, yes, answered, latency);
				return;
			}
		}
		if ((conn->policy_flags | cluster->clock_rule) != 0) {
			rl_cluster_eviction_guard(cluster, i, out); /* the rule every vote passes */
		}
		if (out->kind == RL_OUTCOME_ERROR && out->message[0] == 'N' && strncmp(out->message, "NOPERM", 6) == 0) {
			(*refused)++;
		}
		settle(out, yes, answered, latency);
	}
}

/* Telemetry: the end of this fan-out (its last poll round) and its errors, for the caller's record.
 * all_yes: every outcome settled was a yes (no pass over them to count none). */
static void call_ends(rl_cluster *cluster, const rl_outcome *outcomes, double now, int all_yes)
{
	size_t i;
	unsigned errors = 0;

	for (i = 0; !all_yes && i < cluster->count; i++) {
		errors += outcomes[i].kind >= RL_OUTCOME_CONNECT;
	}
	cluster->call_errors = errors;
	cluster->call_ended = now;
}

/* Whether the call still has replies to wait for: until the quorum is won or lost. */
static int keep_waiting(unsigned yes, unsigned answered, unsigned servers, unsigned quorum)
{
	return rl_quorum_decide(yes, answered, servers, quorum) == RL_QUORUM_UNDECIDED;
}

/* Once a server refused the command to this user (NOPERM), every reply is awaited within the
 * call's bound: whether the others ran it is what the caller learns from (scripts refused:
 * rl_outcomes_scripts_refused), and a decision on the first replies would make that depend on
 * their order. */
static inline int request_waiting(const rl_request *request, const rl_outcome *outcomes, unsigned yes, unsigned answered,
	unsigned refused, unsigned servers, unsigned quorum)
{
	if (refused > 0) {
		return answered < servers;
	}
	if (request->undecided != NULL) {
		return answered < servers && request->undecided(outcomes, servers, quorum);
	}
	return keep_waiting(yes, answered, servers, quorum);
}

/* A healing request (rl_request.heals) still waits for a member known to have lost our key. */
static int awaiting_lost(const unsigned char *awaited, const rl_outcome *outcomes, size_t count)
{
	size_t i;

	for (i = 0; awaited != NULL && i < count; i++) {
		if (awaited[i] && outcomes[i].kind == RL_OUTCOME_PENDING) {
			return 1;
		}
	}
	return 0;
}

/* Servers still pending when their own deadline or the call's has passed. Checked only after a
 * poll() has looked at every socket since the command was queued: a server whose reply is there
 * is never failed because another server was slow to prepare. */
static void settle_overdue(rl_cluster *cluster, double now, double deadline_ms, rl_outcome *outcomes,
	unsigned *yes, unsigned *answered, double latency)
{
	size_t i;

	for (i = 0; i < cluster->count; i++) {
		rl_conn *conn = &cluster->conns[i];

		if (outcomes[i].kind != RL_OUTCOME_PENDING) {
			continue;
		}
		if (now >= conn->deadline && cluster->endpoints[i].timeout_ms > 0) { /* its own timeout */
			if (conn->state != RL_CONN_READY) {
				rl_outcome_set(&outcomes[i], RL_OUTCOME_TIMEOUT,
					conn->state == RL_CONN_RESOLVING ? "connect: timeout resolving the host name"
					: conn->state == RL_CONN_HANDSHAKING ? "connect: timeout in the TLS handshake" : "connect: timeout");
				fail(conn, &outcomes[i], yes, answered, latency);
				continue;
			}
			/* The command may still run later: keep the stream so that a release sent after
			 * this call queues behind it. The next call starts afresh. */
			rl_outcome_set(&outcomes[i], RL_OUTCOME_TIMEOUT, "timeout");
			rl_conn_abandon(conn);
			settle(&outcomes[i], yes, answered, latency);
		} else if ((deadline_ms > 0 && now >= deadline_ms) || now >= conn->deadline) {
			/* The call's bound (for a server without a timeout, its deadline is the call's). */
			rl_outcome_set(&outcomes[i], RL_OUTCOME_TIMEOUT, "timeout: the call's deadline passed");
			rl_conn_abandon(conn);
			settle(&outcomes[i], yes, answered, latency);
		}
	}
}

static void free_own(rl_encoded *own, size_t count)
{
	size_t i;

	for (i = 0; own != NULL && i < count; i++) {
		if (own[i].bytes != NULL) {
			rl_encoded_free(&own[i]);
		}
	}
	free(own);
}

/* fromCluster() members that still owe replies from an earlier call (it settled on the others' quorum): what
 * has arrived since is read now, before they are routed, so that a MOVED among it (conn->moved_late) has the
 * map asked again in this call; else a member whose replies always come after the others' quorum would
 * never read its MOVED (docs/design/cluster.md#one-map-per-object). One poll, without waiting. */
static int owes_late_reply(const rl_cluster *cluster, size_t i)
{
	const rl_conn *conn = &cluster->conns[i];

	return cluster->endpoints[i].shards != NULL && cluster->endpoints[i].shards->pin > 0
		&& conn->state == RL_CONN_READY && rl_conn_owed(conn) > 0;
}

static void read_late_replies(rl_cluster *cluster)
{
	struct rl_poll_set set;
	size_t i, k, any = 0;

	for (i = 0; i < cluster->count; i++) {
		any += owes_late_reply(cluster, i);
	}
	if (any == 0) {
		return;
	}
	if (poll_set_init(&set, cluster->count) == 0) {
		double now = rl_now_ms();

		for (i = 0; i < cluster->count; i++) {
			if (owes_late_reply(cluster, i)) {
				add_poll(&set, &cluster->conns[i], i);
			}
		}
		if (wait_for_events(&set, cluster, now, now) > 0) {
			for (k = 0; k < set.used; k++) {
				rl_conn *conn = &cluster->conns[set.owner[k]];
				rl_outcome ignored;

				if (set.fds[k].revents != 0 && (rl_conn_on_events(conn, &cluster->endpoints[set.owner[k]],
						set.fds[k].revents, &ignored) != 0 || rl_conn_drop_stale(conn) != 0)) {
					rl_conn_close(conn);
					cluster->endpoints[set.owner[k]].shards->map->state = RL_SHARDS_STALE;
				}
			}
		}
	}
	poll_set_free(&set);
}

/* Every server still pending fails with why (the call could not wait for it). */
static void fail_pending(rl_cluster *cluster, rl_outcome *outcomes, const char *why, unsigned *yes, unsigned *answered)
{
	size_t i;

	for (i = 0; i < cluster->count; i++) {
		if (outcomes[i].kind == RL_OUTCOME_PENDING) {
			rl_outcome_set(&outcomes[i], RL_OUTCOME_IO, why);
			fail(&cluster->conns[i], &outcomes[i], yes, answered, 0);
		}
	}
}

/* Queues the call's command to every routed server (a fromCluster member with keys of its own:
 * again->own[i]), settling those that failed before sending; with awaited, the members a healing
 * request awaits. */
static void send_all(rl_cluster *cluster, const rl_request *request, const struct resend *again, double now,
	rl_outcome *outcomes, unsigned char *awaited, unsigned *yes, unsigned *answered)
{
	short seen[RL_SMALL_CLUSTER];
	size_t i;

	rl_fanout_probe_idle(cluster, seen);
	for (i = 0; i < cluster->count; i++) {
		unsigned opens = cluster->conns[i].opens;
		short probed = i < RL_SMALL_CLUSTER ? seen[i] : RL_NOT_PROBED;

		if (outcomes[i].kind != RL_OUTCOME_PENDING) {
			settle(&outcomes[i], yes, answered, 0); /* no route: failed before sending */
		} else if (again->own != NULL && again->own[i].bytes != NULL
			? rl_fanout_prepare(cluster, i, &again->own[i], NULL, now, again->deadline_ms, &outcomes[i], 0, probed,
				request->lua_forbidden, again->leading) != 0
			: rl_fanout_prepare(cluster, i, again->command, again->natives, now, again->deadline_ms, &outcomes[i], 0,
				probed, request->lua_forbidden, again->leading) != 0) {
			settle(&outcomes[i], yes, answered, 0); /* failed before sending */
		}
		if (awaited != NULL) {
			/* the one rule of which members an extend awaits: those known to have lost our key */
			awaited[i] = (request->lost_on != NULL && request->lost_on[i])
				|| (cluster->conns[i].opens != opens && cluster->conns[i].reopened);
		}
	}
}

/* rl_fanout_run's call while it waits for replies: what each round of the wait reads and settles. */
typedef struct run_wait {
	rl_cluster *cluster;
	const rl_request *request;
	rl_outcome *outcomes;
	const unsigned char *awaited; /* the members a healing request awaits (NULL: none) */
	unsigned quorum, servers;
	unsigned yes, answered, refused;
	double deadline_ms, start, now; /* now: as the last poll returned */
	const struct resend *again;
} run_wait;

static inline int run_waiting(const run_wait *w)
{
	return request_waiting(w->request, w->outcomes, w->yes, w->answered, w->refused, w->servers, w->quorum)
		|| awaiting_lost(w->awaited, w->outcomes, w->cluster->count);
}

/* One poll of the pending servers, their replies taken and the overdue ones settled. 0 to wait
 * again; 1 when nobody is left to poll or the poll failed (every polled server failed then). */
static int run_wait_once(run_wait *w, struct rl_poll_set *set)
{
	rl_cluster *cluster = w->cluster;
	rl_outcome *outcomes = w->outcomes;
	double wait_until = w->deadline_ms > 0 ? w->deadline_ms : HUGE_VAL;
	size_t i, k;
	int ready;

	set->used = 0;
	for (i = 0; i < cluster->count; i++) {
		rl_conn *conn = &cluster->conns[i];

		if (outcomes[i].kind != RL_OUTCOME_PENDING) {
			continue;
		}
		if (conn->deadline < wait_until) {
			wait_until = conn->deadline;
		}
		add_poll(set, conn, i);
	}
	if (set->used == 0) {
		return 1;
	}
	ready = wait_for_events(set, cluster, wait_until, w->now);
	w->now = rl_now_ms(); /* as the poll returned: the time of every outcome this round settles */
	if (ready < 0 && !rl_poll_interrupted()) {
		const char *why = rl_wait_cancelled(ready) ? "cancelled: the Fiber or coroutine stopped waiting" : "poll failed";
		for (k = 0; k < set->used; k++) {
			rl_outcome_set(&outcomes[set->owner[k]], RL_OUTCOME_IO, why);
			fail(&cluster->conns[set->owner[k]], &outcomes[set->owner[k]], &w->yes, &w->answered, w->now - w->start);
		}
		return 1;
	}
	for (k = 0; ready > 0 && k < set->used; k++) {
		size_t owner = set->owner[k];
		rl_conn *conn = &cluster->conns[owner];

		if (set->fds[k].revents == 0) {
			continue;
		}
		ready--; /* past the last ready one the loop ends */
		if (outcomes[owner].kind != RL_OUTCOME_PENDING) {
			continue;
		}
		if (rl_conn_on_events(conn, &cluster->endpoints[owner], set->fds[k].revents, &outcomes[owner]) != 0) {
			fail(conn, &outcomes[owner], &w->yes, &w->answered, w->now - w->start);
			continue;
		}
		take_replies(cluster, owner, w->request, &outcomes[owner], &w->yes, &w->answered, &w->refused,
			w->now - w->start, w->again);
	}
	/* wait_until is the earliest deadline of the servers still pending and of the call:
	 * before it nobody can be overdue. */
	if (w->now >= wait_until && run_waiting(w)) {
		settle_overdue(cluster, w->now, w->deadline_ms, outcomes, &w->yes, &w->answered, w->now - w->start);
	}
	return 0;
}

/* What the call leaves to each server once it stops waiting. */
static void after_call(rl_cluster *cluster, rl_outcome *outcomes)
{
	size_t i;

	for (i = 0; i < cluster->count; i++) {
		/* A server's connect-time answers (its probes: the eviction policy) come before its first
		 * vote, and a server slower than the quorum has its vote, and often them, read as stale
		 * replies at a later call's start, where no vote passes the guard: what any reply taught
		 * the connection is kept here, at every call's end (docs/guide/eviction.md). The call
		 * does not wait for them: a quorum without a hung server stays fast. */
		rl_cluster_note_policy(cluster, i);
		if (outcomes[i].kind == RL_OUTCOME_PENDING) {
			rl_conn_abandon(&cluster->conns[i]);
		} else if (cluster->endpoints[i].sentinel != NULL) {
			rl_sentinel_after_call(&cluster->endpoints[i], &cluster->conns[i], &outcomes[i]);
		} else if (cluster->endpoints[i].shards != NULL) {
			rl_shards_after_call(&cluster->endpoints[i], &cluster->conns[i], &outcomes[i]);
		}
	}
}

unsigned rl_fanout_run(rl_cluster *cluster, const rl_request *request, unsigned quorum,
	double deadline_ms, rl_outcome *outcomes)
{
	struct rl_poll_set set;
	rl_encoded command;
	rl_natives natives;
	unsigned yes = 0, answered = 0;
	run_wait wait;
	unsigned servers = (unsigned) cluster->count;
	double now = rl_now_ms(), start = now;
	unsigned char awaited_small[RL_SMALL_CLUSTER], *awaited = NULL;
	struct resend again;
	int slot = RL_SLOT_NONE - 1; /* not computed yet */
	rl_encoded *own = NULL; /* fromCluster members: each its own keys (rl_fanout_encode_tagged) */
	int polled;
	size_t i;

	rl_cluster_leave_parent(cluster);
	if (request->heals) {
		awaited = cluster->count <= RL_SMALL_CLUSTER ? awaited_small : calloc(cluster->count, 1);
	}
	if (cluster->call_began == 0) {
		cluster->call_began = start;
	}
	if (request->batch_len > 0) {
		rl_fanout_encode_all(request->batch, request->batch_len, &command);
	} else {
		rl_fanout_encode(&request->command, &command);
	}
	rl_natives_init(&natives, request);
	read_late_replies(cluster);
	for (i = 0; i < cluster->count; i++) {
		rl_outcome_reset(&outcomes[i]);
		if (cluster->endpoints[i].shards != NULL) { /* a cluster member: to the master of the keys' slot */
			if (slot == RL_SLOT_NONE - 1) {
				slot = rl_request_slot(request);
			}
			if (rl_shards_route(&cluster->endpoints[i], &cluster->conns[i], cluster->pool, slot, 0, deadline_ms, &outcomes[i]) == 0
				&& cluster->endpoints[i].shards->pin > 0) {
				const rl_shards *shards = cluster->endpoints[i].shards;

				if (own == NULL && (own = calloc(cluster->count, sizeof(*own))) == NULL) {
					rl_outcome_set(&outcomes[i], RL_OUTCOME_IO, "out of memory");
					continue;
				}
				if (request->batch_len > 0) {
					rl_fanout_encode_tagged(request->batch, request->batch_len, shards->tag, shards->tag_len, &own[i]);
				} else {
					rl_fanout_encode_tagged(&request->command, 1, shards->tag, shards->tag_len, &own[i]);
				}
				if (own[i].bytes == NULL) {
					rl_outcome_set(&outcomes[i], RL_OUTCOME_IO, "out of memory");
				}
			}
		}
	}
	again.command = &command;
	again.natives = &natives;
	again.slot = slot;
	again.deadline_ms = deadline_ms;
	again.leading = request->batch_len > 0 ? request->batch_len - 1 : 0;
	again.own = own;
	send_all(cluster, request, &again, now, outcomes, awaited, &yes, &answered);
	wait.cluster = cluster, wait.request = request, wait.outcomes = outcomes, wait.awaited = awaited;
	wait.quorum = quorum, wait.servers = servers, wait.yes = yes, wait.answered = answered, wait.refused = 0;
	wait.deadline_ms = deadline_ms, wait.start = start, wait.now = now, wait.again = &again;
	if (!(polled = poll_set_init(&set, cluster->count) == 0)) {
		fail_pending(cluster, outcomes, "out of memory", &wait.yes, &wait.answered);
	}
	while (polled && run_waiting(&wait) && run_wait_once(&wait, &set) == 0) {
	}
	poll_set_free(&set);
	rl_encoded_free(&command);
	rl_natives_free(&natives);
	free_own(own, cluster->count);
	if (awaited != awaited_small) {
		free(awaited);
	}
	if (polled) {
		after_call(cluster, outcomes);
	}
	call_ends(cluster, outcomes, wait.now, polled && wait.yes == wait.answered);
	return wait.yes;
}

/* --- many requests in one round trip (rl_fanout_run_many) ------------------------------------- */

typedef struct many_state {
	rl_cluster *cluster;
	const rl_request *requests;
	unsigned n, quorum, servers;
	unsigned *first_row;   /* request r's votes: rows first_row[r] .. first_row[r + 1] - 1 (rl_request.spread) */
	rl_outcome *outcomes;  /* rows * servers */
	unsigned *votes;       /* yes per row */
	unsigned *answered;    /* answers per row */
	unsigned *got;         /* replies taken per server */
	unsigned undecided;    /* rows whose quorum is neither won nor lost */
	unsigned char *awaited;
} many_state;

static void many_settle(many_state *m, unsigned r, size_t i, double latency)
{
	rl_outcome *out = &m->outcomes[(size_t) r * m->servers + i];
	int before = rl_quorum_decide(m->votes[r], m->answered[r], m->servers, m->quorum) == RL_QUORUM_UNDECIDED;

	out->latency_ms = latency;
	m->answered[r]++;
	m->votes[r] += out->kind == RL_OUTCOME_YES;
	if (before && rl_quorum_decide(m->votes[r], m->answered[r], m->servers, m->quorum) != RL_QUORUM_UNDECIDED) {
		m->undecided--;
	}
}

/* Server i failed (or timed out) with *why: so did every request it had not answered. */
static void many_fail_rest(many_state *m, size_t i, const rl_outcome *why, double latency)
{
	unsigned row;

	for (row = m->first_row[m->got[i]]; row < m->first_row[m->n]; row++) {
		m->outcomes[(size_t) row * m->servers + i] = *why;
		many_settle(m, row, i, latency);
	}
	m->got[i] = m->n;
}

static int many_pending(const many_state *m, size_t i)
{
	return m->got[i] < m->n;
}

static int many_waiting(const many_state *m)
{
	size_t i;

	if (m->undecided > 0) {
		return 1;
	}
	for (i = 0; m->awaited != NULL && i < m->servers; i++) {
		if (m->awaited[i] && many_pending(m, i)) {
			return 1;
		}
	}
	return 0;
}

static void many_take_replies(many_state *m, size_t i, double latency)
{
	rl_conn *conn = &m->cluster->conns[i];

	while (many_pending(m, i)) {
		const rl_request *request = &m->requests[m->got[i]];
		unsigned row = m->first_row[m->got[i]], rows = m->first_row[m->got[i] + 1] - row, j;
		rl_outcome *out = &m->outcomes[(size_t) row * m->servers + i];
		rl_reply reply;
		int got = rl_conn_next_reply(conn, &reply, out);

		if (got < 0) {
			rl_outcome why = *out;

			rl_conn_close(conn);
			many_fail_rest(m, i, &why, latency);
			return;
		}
		if (got == 0) {
			return;
		}
		m->got[i]++;
		/* one reply, the vote of each of its rows: the same rules on each as on a reply of its own */
		for (j = 0; j < rows; j++, out += m->servers) {
			if (request->spread > 0) {
				rl_reply_classify_row(&reply, request->expect, request->spread, j, out);
			} else {
				rl_reply_classify(&reply, request->expect, out);
			}
			if ((conn->policy_flags | m->cluster->clock_rule) != 0) {
				rl_cluster_eviction_guard(m->cluster, i, out); /* the rule every vote passes */
			}
			many_settle(m, row + j, i, latency);
		}
	}
}

static void many_free(many_state *m)
{
	free(m->first_row), free(m->answered), free(m->got), free(m->awaited);
}

/* The state of n requests over the cluster's members: request r's rows (rl_request.spread), each
 * row's votes and outcomes reset. 0, or -1 when out of memory (nothing left allocated). */
static int many_init(many_state *m, rl_cluster *cluster, const rl_request *requests, unsigned n, unsigned quorum,
	rl_outcome *outcomes, unsigned *votes)
{
	size_t count = cluster->count, i;
	unsigned r, rows = 0;

	memset(m, 0, sizeof(*m));
	m->first_row = malloc((n + 1) * sizeof(*m->first_row));
	for (r = 0; r < n && m->first_row != NULL; r++) {
		m->first_row[r] = rows;
		rows += requests[r].spread > 0 ? requests[r].spread : 1;
	}
	if (m->first_row != NULL) {
		m->first_row[n] = rows;
	}
	m->cluster = cluster, m->requests = requests, m->n = n, m->quorum = quorum, m->servers = (unsigned) count;
	m->outcomes = outcomes, m->votes = votes, m->undecided = rows;
	m->answered = calloc(rows ? rows : 1, sizeof(*m->answered));
	m->got = calloc(count ? count : 1, sizeof(*m->got));
	m->awaited = calloc(count ? count : 1, 1);
	if (m->first_row == NULL || m->answered == NULL || m->got == NULL || m->awaited == NULL) {
		many_free(m);
		return -1;
	}
	for (r = 0; r < rows; r++) {
		votes[r] = 0;
		for (i = 0; i < count; i++) {
			rl_outcome_reset(&outcomes[(size_t) r * count + i]);
		}
	}
	return 0;
}

/* The n commands, pipelined in one write to every member; a member that cannot take them fails
 * every request. The members awaited for healing: those any of the locks is known to have lost, and
 * those reopened by this call. -1 when out of memory before anything was sent. */
static int many_send(many_state *m, double now, double deadline_ms)
{
	rl_cluster *cluster = m->cluster;
	rl_command *commands = malloc((m->n ? m->n : 1) * sizeof(*commands));
	rl_encoded command;
	short seen[RL_SMALL_CLUSTER];
	size_t count = cluster->count, i;
	int heals = 0;
	unsigned r;

	if (commands == NULL) {
		return -1;
	}
	for (r = 0; r < m->n; r++) {
		const rl_request *request = &m->requests[r];

		commands[r] = request->command;
		heals |= request->heals;
		for (i = 0; i < count; i++) {
			/* the healing rule, for the batch: a member any of its locks is known to have lost */
			m->awaited[i] |= request->heals && request->lost_on != NULL && request->lost_on[i];
		}
	}
	rl_fanout_encode_all(commands, m->n, &command);
	free(commands);
	rl_cluster_leave_parent(cluster);
	if (cluster->call_began == 0) {
		cluster->call_began = now;
	}
	rl_fanout_probe_idle(cluster, seen);
	for (i = 0; i < count; i++) {
		unsigned opens = cluster->conns[i].opens;
		rl_outcome why;

		rl_outcome_reset(&why);
		if (command.bytes == NULL) {
			rl_outcome_set(&why, RL_OUTCOME_IO, "out of memory");
			many_fail_rest(m, i, &why, 0);
			continue;
		}
		if (m->n == 0 || rl_fanout_prepare(cluster, i, &command, NULL, now, deadline_ms, &why, 0,
				i < RL_SMALL_CLUSTER ? seen[i] : RL_NOT_PROBED, 0, m->n - 1) != 0) {
			many_fail_rest(m, i, &why, 0); /* failed before sending */
		}
		m->awaited[i] |= heals && cluster->conns[i].opens != opens && cluster->conns[i].reopened;
	}
	rl_encoded_free(&command);
	return 0;
}

/* Every member still pending past its deadline or the call's fails its unanswered requests. */
static void many_settle_overdue(many_state *m, double now, double deadline_ms, double latency)
{
	size_t i;

	for (i = 0; i < m->cluster->count; i++) {
		rl_conn *conn = &m->cluster->conns[i];
		rl_outcome why;

		if (!many_pending(m, i) || !((deadline_ms > 0 && now >= deadline_ms) || now >= conn->deadline)) {
			continue;
		}
		rl_outcome_reset(&why);
		if (conn->state != RL_CONN_READY) {
			rl_outcome_set(&why, RL_OUTCOME_TIMEOUT, "connect: timeout");
			rl_conn_close(conn);
		} else {
			rl_outcome_set(&why, RL_OUTCOME_TIMEOUT, "timeout");
			rl_conn_abandon(conn); /* the rest may still come: dropped by the next call */
		}
		many_fail_rest(m, i, &why, latency);
	}
}

/* One wait for the pending members' replies, and what came taken in; *now the time the wait
 * returned. 0 to wait again, 1 when nobody is left to wait for or the wait failed. */
static int many_wait_once(many_state *m, struct rl_poll_set *set, double deadline_ms, double start, double *now)
{
	rl_cluster *cluster = m->cluster;
	double wait_until = deadline_ms > 0 ? deadline_ms : HUGE_VAL;
	size_t i, k;
	int ready;

	set->used = 0;
	for (i = 0; i < cluster->count; i++) {
		if (!many_pending(m, i)) {
			continue;
		}
		if (cluster->conns[i].deadline < wait_until) {
			wait_until = cluster->conns[i].deadline;
		}
		add_poll(set, &cluster->conns[i], i);
	}
	if (set->used == 0) {
		return 1;
	}
	ready = wait_for_events(set, cluster, wait_until, *now);
	*now = rl_now_ms();
	if (ready < 0 && !rl_poll_interrupted()) {
		rl_outcome why;

		rl_outcome_reset(&why);
		rl_outcome_set(&why, RL_OUTCOME_IO, rl_wait_cancelled(ready) ? "cancelled: the Fiber or coroutine stopped waiting" : "poll failed");
		for (k = 0; k < set->used; k++) {
			rl_conn_close(&cluster->conns[set->owner[k]]);
			many_fail_rest(m, set->owner[k], &why, *now - start);
		}
		return 1;
	}
	for (k = 0; ready > 0 && k < set->used; k++) {
		size_t owner = set->owner[k];
		rl_conn *conn = &cluster->conns[owner];
		rl_outcome why;

		if (set->fds[k].revents == 0) {
			continue;
		}
		ready--;
		if (!many_pending(m, owner)) {
			continue;
		}
		rl_outcome_reset(&why);
		if (rl_conn_on_events(conn, &cluster->endpoints[owner], set->fds[k].revents, &why) != 0) {
			rl_conn_close(conn);
			many_fail_rest(m, owner, &why, *now - start);
			continue;
		}
		many_take_replies(m, owner, *now - start);
	}
	if (*now >= wait_until && many_waiting(m)) {
		many_settle_overdue(m, *now, deadline_ms, *now - start);
	}
	return 0;
}

int rl_fanout_run_many(rl_cluster *cluster, const rl_request *requests, unsigned n, unsigned quorum,
	double deadline_ms, rl_outcome *outcomes, unsigned *votes)
{
	struct rl_poll_set set;
	many_state m;
	size_t count = cluster->count, i;
	double now = rl_now_ms(), start = now;
	unsigned rows;

	if (many_init(&m, cluster, requests, n, quorum, outcomes, votes) != 0) {
		return -1;
	}
	if (poll_set_init(&set, count) != 0) {
		poll_set_free(&set);
		many_free(&m);
		return -1;
	}
	rows = m.first_row[n];
	if (many_send(&m, now, deadline_ms) != 0) {
		poll_set_free(&set);
		many_free(&m);
		return -1;
	}
	while (many_waiting(&m) && many_wait_once(&m, &set, deadline_ms, start, &now) == 0) {
	}
	poll_set_free(&set);
	for (i = 0; i < count; i++) {
		if (many_pending(&m, i)) {
			rl_conn_abandon(&cluster->conns[i]);
		}
	}
	cluster->call_errors = 0;
	for (i = 0; i < count && rows > 0; i++) {
		cluster->call_errors += outcomes[(size_t) (rows - 1) * count + i].kind >= RL_OUTCOME_CONNECT;
	}
	cluster->call_ended = now;
	many_free(&m);
	return 0;
}

/* Queues command everywhere it can and sends it without waiting for replies. */
/* command to every server, or to those whose to[i] is set (to: NULL for all). */
static void rl_fanout_send(rl_cluster *cluster, const rl_command *command, const unsigned char *to)
{
	double now = rl_now_ms();
	/* Nobody waits for these replies; a server without a timeout still gets a bound, after
	 * which a connection that stayed silent is replaced. */
	double call_deadline = now + rl_cluster_call_bound(cluster);
	rl_encoded encoded, *own;
	short seen[RL_SMALL_CLUSTER];
	size_t i;

	rl_cluster_leave_parent(cluster);
	rl_fanout_encode(command, &encoded);
	own = NULL;
	for (i = 0; i < cluster->count; i++) {
		rl_outcome ignored;
		const rl_shards *shards = cluster->endpoints[i].shards;

		if (shards != NULL && (to == NULL || to[i])) { /* never asks for the map: sent without waiting */
			if (rl_shards_route(&cluster->endpoints[i], &cluster->conns[i], cluster->pool, rl_command_slot(command), 1,
					call_deadline, &ignored) == 0 && shards->pin > 0 && (own != NULL || (own = calloc(cluster->count, sizeof(*own))) != NULL)) {
				rl_fanout_encode_tagged(command, 1, shards->tag, shards->tag_len, &own[i]);
			}
		}
	}
	rl_fanout_probe_idle(cluster, seen);
	for (i = 0; i < cluster->count; i++) {
		rl_outcome ignored;
		const rl_shards *shards = cluster->endpoints[i].shards;
		const rl_encoded *mine = shards != NULL && shards->pin > 0 ? (own != NULL && own[i].bytes != NULL ? &own[i] : NULL)
			: &encoded;

		if (mine != NULL && (to == NULL || to[i]) && rl_fanout_prepare(cluster, i, mine, NULL, now, call_deadline, &ignored, 1,
				i < RL_SMALL_CLUSTER ? seen[i] : RL_NOT_PROBED, 0, 0) == 0) {
			rl_conn_abandon(&cluster->conns[i]);
		}
	}
	free_own(own, cluster->count);
	rl_encoded_free(&encoded);
}

void rl_fanout_drain_until(rl_cluster *cluster, double until_ms)
{
	struct rl_poll_set set;
	size_t i, k;

	rl_cluster_leave_parent(cluster);
	if (poll_set_init(&set, cluster->count) != 0) {
		poll_set_free(&set);
		return;
	}
	for (;;) {
		double now = rl_now_ms();
		double wait_until = until_ms;

		if (now >= until_ms) {
			break;
		}
		set.used = 0;
		for (i = 0; i < cluster->count; i++) {
			rl_conn *conn = &cluster->conns[i];
			if (conn->state == RL_CONN_DOWN || rl_conn_owed(conn) + rl_conn_has_unsent(conn) == 0) {
				continue;
			}
			if (now >= conn->stale_deadline) {
				rl_conn_close(conn); /* safe: every attempt has a token of its own */
				continue;
			}
			if (conn->stale_deadline < wait_until) {
				wait_until = conn->stale_deadline;
			}
			add_poll(&set, conn, i);
		}
		if (wait_for_events(&set, cluster, wait_until, now) < 0) {
			if (rl_poll_interrupted()) {
				continue;
			}
			break;
		}
		for (k = 0; k < set.used; k++) {
			rl_conn *conn = &cluster->conns[set.owner[k]];
			rl_outcome ignored;

			if (set.fds[k].revents == 0) {
				continue;
			}
			if (rl_conn_on_events(conn, &cluster->endpoints[set.owner[k]], set.fds[k].revents, &ignored) != 0
				|| rl_conn_drop_stale(conn) != 0) {
				rl_conn_close(conn);
			}
		}
	}
	poll_set_free(&set);
}

static unsigned io_run(void *arg, const rl_request *request, unsigned quorum, double deadline_ms,
	rl_outcome *outcomes)
{
	return rl_fanout_run(arg, request, quorum, deadline_ms, outcomes);
}

static void io_send(void *arg, const rl_command *command)
{
	rl_fanout_send(arg, command, NULL);
}

static void io_send_to(void *arg, const rl_command *command, const unsigned char *to)
{
	rl_fanout_send(arg, command, to);
}

static void io_pause(void *arg, double until_ms)
{
	rl_fanout_drain_until(arg, until_ms);
}

static double io_now(void *arg)
{
	(void) arg;
	return rl_now_ms();
}

static unsigned long long io_stream(void *arg, size_t server)
{
	const rl_cluster *cluster = arg;

	return server < cluster->count && cluster->conns[server].state != RL_CONN_DOWN ? cluster->conns[server].stream : 0;
}

void rl_fanout_bind(rl_cluster *cluster, struct rl_lock_io *io)
{
	io->arg = cluster;
	io->run = io_run;
	io->send = io_send;
	io->send_to = io_send_to;
	io->pause = io_pause;
	io->now = io_now;
	io->stream = io_stream;
}
