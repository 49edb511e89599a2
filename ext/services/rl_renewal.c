/* The renewal thread of a registry of leases ('autoExtend'): every ttl/3 it extends each lease
 * with its kind's script over its own connections, marks it lost when that fails or its validity
 * ran out, and raises abortOnLoss then. See rl_leases.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "services/rl_leases_private.h"
#include "services/rl_metrics.h"
#include "core/rl_algorithm.h"
#include "core/rl_dialect.h"
#include "core/rl_kinds.h"
#include "net/rl_fanout.h"
#include "net/rl_fork.h"
#include "protocol/rl_reply.h"

#ifndef _WIN32
# include <signal.h>
# include <time.h>

pthread_mutex_t rl_leases_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

/* No thread holds the lock across fork(), so a child finds it unlocked and the registry whole. */
static void lock_for_fork(void)
{
	pthread_mutex_lock(&rl_leases_lock);
}
static void unlock_after_fork(void)
{
	pthread_mutex_unlock(&rl_leases_lock);
}
static void init_once(void)
{
	rl_fork_guard(lock_for_fork, unlock_after_fork, unlock_after_fork);
}

/* The condition variable's timeouts are on CLOCK_MONOTONIC, as wait_ms() computes them: with the
 * default (CLOCK_REALTIME) every timed wait would end at once and the thread would spin. */
static int init_wake(pthread_cond_t *wake)
{
	pthread_condattr_t attr;
	int rc;

	if (pthread_condattr_init(&attr) != 0) {
		return -1;
	}
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	rc = pthread_cond_init(wake, &attr);
	pthread_condattr_destroy(&attr);
	return rc == 0 ? 0 : -1;
}

static void wait_ms(rl_leases *w, double ms)
{
	struct timespec at;
	long long ns;

	if (ms > 3600e3) {
		ms = 3600e3; /* woken earlier by any change; no overflow of the timespec */
	}
	clock_gettime(CLOCK_MONOTONIC, &at);
	ns = (long long) (ms * 1e6) + 1000000; /* a ms late rather than early: no busy loop */
	at.tv_sec += (time_t) (ns / 1000000000LL);
	at.tv_nsec += (long) (ns % 1000000000LL);
	if (at.tv_nsec >= 1000000000L) {
		at.tv_sec++;
		at.tv_nsec -= 1000000000L;
	}
	pthread_cond_timedwait(&w->wake, &rl_leases_lock, &at);
}
static lease *next_due(rl_leases *w, double *due)
{
	lease *e, *best = NULL;

	for (e = w->leases; e; e = e->next) {
		double at;

		if (e->removed || e->busy || e->lost || (e->converting && e->left == 0)) {
			continue;
		}
		/* capped: only its end; converting: renewed on time, judged after (rl_leases_converting) */
		at = e->converting ? e->due : e->left == 0 ? e->valid_until : fmin(e->due, e->valid_until);
		if (best == NULL || at < *due) {
			best = e;
			*due = at;
		}
	}
	return best;
}

/* The clock jumps the thread's samples showed, counted in metrics() (lock-free). */
static void count_clock_news(rl_cluster *cluster)
{
	unsigned news[2];

	rl_cluster_take_clock_news(cluster, news);
	if (news[0] != 0) {
		rl_metrics_add(RL_METRIC_CLOCK_JUMPS_FORWARD, news[0]);
	}
	if (news[1] != 0) {
		rl_metrics_add(RL_METRIC_CLOCK_JUMPS_BACKWARD, news[1]);
	}
}

/* A renewal that won validity, asked at start: the lease's validity moves on. The lock held. */
static void renewed_locked(rl_leases *w, lease *e, double start, double validity, const rl_outcome *outcomes)
{
	if (e->masters != NULL) {
		(void) rl_cluster_note_masters(w->cluster, outcomes, e->masters, 0); /* healed members adopted */
	}
	if (start + validity > e->valid_until) {
		e->valid_until = start + validity;
	}
	e->expires_at = fmax(e->expires_at, rl_now_ms() + (double) e->ttl + rl_drift_ms(e->ttl, w->drift_factor));
	e->renewal_failing = 0;
	e->due = start + (double) e->ttl / 3.0;
	rl_lease_count_renewal(w);
}

/* The one bound of the thread's round trips: a server's timeout, and never more than a renewal
 * period (a third of the ttl) of any lease the thread keeps. The thread renews one round trip at a
 * time, so a round trip that waited longer (for a member known to have lost one lease's key, which
 * answers late) would let every other lease run out of validity meanwhile
 * (docs/design/renewal.md#one-round-trip-for-every-due-lease). The lock held. */
static double round_trip_bound_locked(rl_leases *w)
{
	double bound = rl_cluster_call_bound(w->cluster);
	const lease *e;

	for (e = w->leases; e; e = e->next) {
		if (!e->removed && !e->lost) {
			bound = fmin(bound, (double) e->ttl / 3.0);
		}
	}
	return bound;
}

/* --- every due lease in one round trip (docs/design/renewal.md#one-round-trip-for-every-due-lease) --- */

/* At most this many leases share a round trip (the pipelined commands of one write per server). */
#define RENEW_BATCH 4096

/* When e wants renewing (next_due's rule), and whether it may share a round trip: a lease being
 * converted, or with a Sentinel member (the master-changed rule awaits every reply), goes alone. */
static double wanted_at(const lease *e)
{
	return e->converting ? e->due : e->left == 0 ? e->valid_until : fmin(e->due, e->valid_until);
}

static int by_urgency(const void *a, const void *b)
{
	double x = wanted_at(*(lease *const *) a), y = wanted_at(*(lease *const *) b);

	return x < y ? -1 : x > y;
}

/* Not a lease with a heal recorded whose promise has ended: its round trip awaits every answer
 * (rl_heals_late), which a batch, deciding at the first quorum, would not (it would fail whenever that
 * member's yes is in the first quorum, and the lease be renewed alone at once: a round trip wasted). */
static int batchable(const rl_leases *w, const lease *e, double now)
{
	return !e->removed && !e->busy && !e->lost && !e->alone && !e->converting && e->left != 0 && e->masters == NULL
		&& !rl_heals_late(e->heals, w->cluster->count, now) && now < e->valid_until
		&& wanted_at(e) <= now + (double) e->ttl / 10.0;
}

/* Puts the leases whose extend may share a script call (rl_kind_extend_joins) before the others:
 * the number of them. */
static size_t joiners_first(const rl_lock_policy *policy, lease **batch, size_t n)
{
	size_t k, joined = 0;

	for (k = 0; k < n; k++) {
		if (rl_kind_extend_joins(policy, &batch[k]->held)) {
			lease *e = batch[joined];

			batch[joined++] = batch[k];
			batch[k] = e;
		}
	}
	return joined;
}

/* The script calls renewing batch[0 .. joined) (docs/design/renewal.md#one-script-call-for-many-leases):
 * one per RL_EXTEND_MANY_MAX, lease k's votes in row k. Each call awaits the members any of its
 * leases is known to have lost (group_lost: their lost_on, merged). 0, or -1 when out of memory. */
static int prepare_joined(const rl_lock_policy *policy, lease **batch, size_t joined, const unsigned char *lost_on,
	size_t count, unsigned char *group_lost, rl_extend_many_call *calls)
{
	const rl_lock_keys *keys[RL_EXTEND_MANY_MAX];
	const char *tokens[RL_EXTEND_MANY_MAX];
	size_t lens[RL_EXTEND_MANY_MAX], g, k, i;
	int64_t ttls[RL_EXTEND_MANY_MAX];

	for (g = 0; g * RL_EXTEND_MANY_MAX < joined; g++) {
		size_t first = g * RL_EXTEND_MANY_MAX, size = joined - first < RL_EXTEND_MANY_MAX ? joined - first : RL_EXTEND_MANY_MAX;
		unsigned char *merged = group_lost + g * count;
		int any = 0;

		for (k = 0; k < size; k++) {
			const lease *e = batch[first + k];

			keys[k] = &e->held.keys;
			tokens[k] = e->token;
			lens[k] = e->token_len;
			ttls[k] = e->ttl;
			for (i = 0; e->lost_on != NULL && i < count; i++) {
				merged[i] |= lost_on[(first + k) * count + i]; /* copied under the lock */
				any = 1;
			}
		}
		if (rl_lock_extend_many_init(&calls[g], policy, size, keys, tokens, lens, ttls, any ? merged : NULL) != 0) {
			while (g-- > 0) {
				rl_lock_extend_many_free(&calls[g]);
			}
			return -1;
		}
	}
	return 0;
}

/* One batch of renew_batch_locked, from the leases taken under the lock to their verdicts: the
 * arrays are sized once, by the number of leases due, and freed together (renew_batch_free). */
typedef struct {
	size_t count;          /* the cluster's members */
	size_t n;              /* the leases in the batch */
	size_t joined, groups; /* batch[0 .. joined) share groups script calls (many) */
	size_t sent;           /* the commands of the round trip (requests) */
	lease **batch;
	int *counted;          /* whether the lease's extension was counted against its 'left' */
	unsigned char *lost_on, *group_lost;
	rl_heal *heals_before, *heals; /* each lease's heals as copied, and as its verdict left them */
	rl_extend_call *calls;
	rl_extend_many_call *many;
	rl_request *requests;
	size_t *index;         /* the lease's row in votes and outcomes, or (size_t) -1: renewed alone */
	rl_outcome *outcomes;
	unsigned *votes;
	double *validities;
	double bound, taken_at, start;
} renew_batch;

/* The leases batchable now, counted up to enough. */
static size_t count_batchable(const rl_leases *w, double now, size_t enough)
{
	const lease *e;
	size_t n = 0;

	for (e = w->leases; e && n < enough; e = e->next) {
		n += batchable(w, e, now);
	}
	return n;
}

static void renew_batch_free(renew_batch *b)
{
	free(b->batch), free(b->counted), free(b->lost_on), free(b->group_lost), free(b->calls), free(b->many);
	free(b->heals_before), free(b->heals);
	free(b->requests), free(b->index), free(b->outcomes), free(b->votes), free(b->validities);
}

/* The arrays for n due leases (at most RENEW_BATCH of them renewed) over count members: 0, or -1
 * when out of memory (nothing left allocated). */
static int renew_batch_alloc(renew_batch *b, size_t n, size_t count)
{
	size_t k = n > RENEW_BATCH ? RENEW_BATCH : n; /* the batch's size */
	size_t groups = k / RL_EXTEND_MANY_MAX + 1;   /* at most */

	b->count = count;
	b->batch = malloc(n * sizeof(*b->batch));
	b->counted = malloc(n * sizeof(*b->counted));
	b->lost_on = calloc(k * count + 1, 1);
	b->group_lost = calloc(groups * count + 1, 1);
	b->heals_before = calloc(k * count + 1, sizeof(*b->heals_before));
	b->heals = calloc(k * count + 1, sizeof(*b->heals));
	b->calls = malloc(k * sizeof(*b->calls));
	b->many = malloc(groups * sizeof(*b->many));
	b->requests = malloc(n * sizeof(*b->requests));
	b->index = malloc(n * sizeof(*b->index));
	b->outcomes = malloc(n * (count ? count : 1) * sizeof(*b->outcomes));
	b->votes = malloc(n * sizeof(*b->votes));
	b->validities = malloc(n * sizeof(*b->validities));
	if (!b->batch || !b->counted || !b->lost_on || !b->group_lost || !b->calls || !b->many || !b->requests || !b->index
		|| !b->heals_before || !b->heals || !b->outcomes || !b->votes || !b->validities) {
		renew_batch_free(b);
		return -1;
	}
	return 0;
}

/* Takes the n due leases (the most urgent RENEW_BATCH of them), joiners first, and marks them busy:
 * their keys and tokens stay as they are once the lock is released. What the round trip needs of a
 * lease that the lock guards (lost_on, ttl, taken_at) is copied here. The lock held. */
static void renew_batch_take_locked(rl_leases *w, renew_batch *b, size_t n, double now)
{
	size_t k, count = b->count;
	lease *e;

	for (k = 0, e = w->leases; e; e = e->next) {
		if (batchable(w, e, now)) {
			b->batch[k++] = e;
		}
	}
	if (n > RENEW_BATCH) {
		/* the most urgent first: a lease renewed a moment ago must not keep one that is due out */
		qsort(b->batch, n, sizeof(*b->batch), by_urgency);
		n = RENEW_BATCH;
	}
	b->n = n;
	b->joined = joiners_first(&w->policy, b->batch, n);
	b->groups = (b->joined + RL_EXTEND_MANY_MAX - 1) / RL_EXTEND_MANY_MAX;
	for (k = 0; k < n; k++) {
		e = b->batch[k];
		e->busy = 1;
		b->counted[k] = e->left > 0;
		e->left -= b->counted[k];
		if (e->lost_on != NULL) {
			memcpy(b->lost_on + k * count, e->lost_on, count);
		}
		rl_heals_copy(e->heals, b->heals_before + k * count, count);
		memcpy(b->heals + k * count, b->heals_before + k * count, count * sizeof(*b->heals));
		b->bound = fmin(b->bound, (double) e->ttl);
		b->taken_at = k == 0 || e->taken_at < b->taken_at ? e->taken_at : b->taken_at;
	}
}

/* The commands of the round trip: the joined leases' script calls first, then one command per other
 * lease; index[k] says which reply row is lease k's ((size_t) -1: not one command, renewed alone).
 * Without the lock (the leases are busy). */
static void renew_batch_prepare(renew_batch *b, rl_lock_policy *policy)
{
	size_t k, row = 0;

	b->sent = 0;
	if (prepare_joined(policy, b->batch, b->joined, b->lost_on, b->count, b->group_lost, b->many) != 0) {
		b->joined = b->groups = 0; /* out of memory: each its own command */
	}
	for (k = 0; k < b->groups; k++) {
		b->requests[b->sent++] = b->many[k].request;
	}
	for (k = 0; k < b->n; k++) {
		lease *e = b->batch[k];

		b->calls[k].scripted = 0;
		if (k < b->joined) {
			b->index[k] = row++; /* its vote in its group's reply */
			continue;
		}
		policy->lost_on = e->lost_on != NULL ? b->lost_on + k * b->count : NULL; /* copied under the lock */
		if (rl_kind_extend_prepare(policy, &e->held, e->token, e->token_len, e->ttl, &b->calls[k]) == 0) {
			b->requests[b->sent++] = b->calls[k].request;
			b->index[k] = row++;
		} else {
			b->index[k] = (size_t) -1; /* not one command: alone */
		}
	}
}

/* The round trip, and each lease's validity from its own votes (validities[k], 0: renewed alone).
 * Without the lock. */
static void renew_batch_round_trip(rl_leases *w, renew_batch *b, rl_lock_policy *policy)
{
	size_t k;
	double end;
	int ran;

	b->start = rl_now_ms();
	ran = b->sent > 0
		&& rl_fanout_run_many(w->cluster, b->requests, (unsigned) b->sent, w->policy.quorum, b->start + b->bound,
			   b->outcomes, b->votes)
			== 0;
	if (!ran) {
		for (k = 0; k < b->n; k++) {
			b->index[k] = (size_t) -1;
		}
	}
	end = rl_now_ms();
	if (ran) {
		rl_metrics_server_errors(w->cluster, b->outcomes); /* once per round trip */
	}
	count_clock_news(w->cluster);
	for (k = 0; k < b->n; k++) {
		lease *e = b->batch[k];

		b->validities[k] = 0;
		if (b->index[k] != (size_t) -1) {
			policy->lost_on = NULL; /* settled: the round trip is over */
			policy->heals = b->heals + k * b->count;
			b->validities[k] = rl_kind_extend_settle(&w->io, policy, &e->held, e->token, e->token_len, e->ttl, b->start,
				end, b->votes[b->index[k]], b->outcomes + b->index[k] * b->count);
			policy->heals = NULL;
		}
		rl_lock_extend_call_free(&b->calls[k]);
	}
	for (k = 0; k < b->groups; k++) {
		rl_lock_extend_many_free(&b->many[k]);
	}
}

/* Each lease of the batch moves on (renewed) or is due again at once, alone, where its own rules
 * decide; a lease removed meanwhile is freed. The lock held. */
static void renew_batch_conclude_locked(rl_leases *w, renew_batch *b)
{
	size_t k, count = b->count;

	for (k = 0; k < b->n; k++) {
		lease *e = b->batch[k];

		e->busy = 0;
		if (b->index[k] != (size_t) -1) {
			rl_lease_note_votes(e, b->outcomes + b->index[k] * count, count, 0);
			(void) rl_heals_merge(&e->heals, b->heals_before + k * count, b->heals + k * count, count);
		}
		if (e->removed) {
			rl_lease_unlink(w, e);
			rl_lease_free(e);
			continue;
		}
		if (b->validities[k] > 0) {
			renewed_locked(w, e, b->start, b->validities[k], b->outcomes + b->index[k] * count);
		} else {
			if (b->counted[k]) {
				e->left++; /* the extension was not used: the retry alone counts it */
			}
			e->alone = 1;
			e->due = rl_now_ms(); /* renewed alone at once: its own rules decide */
		}
	}
}

/* Renews every lease due within a tenth of its ttl in one round trip per server, each judged by
 * its own votes as renew_locked judges one: the leases whose extend is the plain compare-the-token
 * script in RL_EXTEND_MANY_MAX-lease script calls (one reply, a vote per lease), the others (shared
 * holders) each its own command in the same pipeline. A lease renewed on its quorum moves on here;
 * any other (no quorum, a refusal, scripts refused) is due again at once and renewed alone, where
 * the refusal-or-miss rule, the dialect switch and the loss are decided. 0 when fewer than two
 * leases were due (the caller renews e alone). The lock held on entry and on return. */
static int renew_batch_locked(rl_leases *w, double now)
{
	renew_batch b = {0};
	rl_lock_policy policy;
	size_t n;

	b.bound = round_trip_bound_locked(w);
	if (count_batchable(w, now, 2) < 2 || w->has_sentinel || w->policy.dialect->extend_prepare == NULL) {
		return 0; /* a dialect with no one-command extend (script-free) renews each lease alone */
	}
	n = count_batchable(w, now, SIZE_MAX);
	if (renew_batch_alloc(&b, n, w->cluster->count) != 0) {
		return 0; /* out of memory: one at a time */
	}
	renew_batch_take_locked(w, &b, n, now);
	/* The earliest lease's: a lease taken after a jump that loses its yes with the batch is renewed
	 * alone at once, under its own time. */
	rl_cluster_expect_clock(w->cluster, b.taken_at, 1);
	w->io_busy = 1;
	pthread_mutex_unlock(&rl_leases_lock);

	policy = w->policy;
	policy.await_every_reply = 0;
	renew_batch_prepare(&b, &policy);
	renew_batch_round_trip(w, &b, &policy);

	pthread_mutex_lock(&rl_leases_lock);
	w->io_busy = 0;
	renew_batch_conclude_locked(w, &b);
	renew_batch_free(&b);
	return 1;
}

/* The thread's own copy of the policy for e's renewal (the lease may change meanwhile): a learnt NOPERM
 * asked again after a while, every reply awaited when a member may have changed masters, the members
 * known to have lost its key awaited by its extend (rl_request.heals). Under the lock. */
static void renewal_policy_locked(rl_leases *w, const lease *e)
{
	rl_dialect_refresh(&w->policy, rl_now_ms());
	w->policy.await_every_reply = rl_cluster_expect_masters(w->cluster, e->masters);
	rl_cluster_expect_clock(w->cluster, e->taken_at, 1); /* a server's clock jumped since: its yes is no yes */
	if (e->lost_on != NULL) {
		memcpy(w->lost_on, e->lost_on, w->cluster->count);
	}
	w->policy.lost_on = e->lost_on != NULL ? w->lost_on : NULL;
	rl_heals_copy(e->heals, w->heals, w->cluster->count);
	memcpy(w->heals + w->cluster->count, w->heals, w->cluster->count * sizeof(*w->heals));
	w->policy.heals = w->heals + w->cluster->count; /* the extend's verdict updates them */
	w->policy.call_bound_ms = round_trip_bound_locked(w);
}

/* What e's renewal concluded (validity: rl_kind_extend's), under the lock: renewed; tried again soon
 * while no quorum refused it and it is still valid; lost; or, out of memory, tried again soon. */
static void renewal_verdict_locked(rl_leases *w, lease *e, double start, double validity, int counted)
{
	if (validity == 0 && e->converting) {
		e->due = start + (double) e->ttl / 3.0; /* converted where it was asked: no verdict */
		return;
	}
	if (validity > 0) {
		renewed_locked(w, e, start, validity, w->outcomes);
	} else if (validity == 0 && !rl_outcomes_quorum_refused(w->outcomes, w->cluster->count, w->policy.quorum)
		&& rl_now_ms() < e->valid_until) {
		/* No quorum, but no quorum of clean "no"s either (timeouts, errors): the lock is still valid,
		 * so try again soon; the thread's loop judges it lost once valid_until passes
		 * (docs/design/renewal.md#a-missed-renewal-is-retried). The miss used no extension. */
		e->renewal_failing = 1;
		if (counted) {
			e->left++;
		}
		e->due = rl_now_ms() + fmax(10.0, (double) e->ttl / 10.0);
	} else if (validity == 0) {
		rl_lease_mark_lost(w, e, RL_LOSS_RENEWAL_FAILED);
	} else {
		e->due = rl_now_ms() + 10; /* out of memory: try again soon; valid_until still bounds it */
	}
}

/* One renewal of e, the lock held on entry and on return (released around the I/O). */
static void renew_locked(rl_leases *w, lease *e)
{
	double start, validity;
	int counted;

	e->busy = 1;
	e->alone = 0;
	w->io_busy = 1;
	counted = e->left > 0;
	if (counted) {
		e->left--;
	}
	renewal_policy_locked(w, e);
	pthread_mutex_unlock(&rl_leases_lock);
	start = rl_now_ms();
	/* The kind's own compare-the-token script, as extend(): keys still holding our token get at
	 * least ttl more; another holder's keys are never touched. */
	validity = rl_kind_extend(&w->io, &w->policy, &e->held, e->token, e->token_len, e->ttl, w->outcomes);
	if (validity == 0
		&& rl_dialect_learn(&w->policy, e->held.kind, RL_OP_EXTEND, w->outcomes, w->cluster->count, rl_now_ms())) {
		/* The servers refuse scripts (NOPERM): renew with their own commands from now on, and
		 * now, as extend() does. The policy is this thread's own copy. */
		start = rl_now_ms();
		validity = rl_kind_extend(&w->io, &w->policy, &e->held, e->token, e->token_len, e->ttl, w->outcomes);
	}
	rl_metrics_server_errors(w->cluster, w->outcomes); /* lock-free: not under the mutex */
	count_clock_news(w->cluster);
	pthread_mutex_lock(&rl_leases_lock);
	w->io_busy = 0;
	e->busy = 0;
	w->policy.heals = NULL;
	rl_lease_note_votes(e, w->outcomes, w->cluster->count, 0);
	(void) rl_heals_merge(&e->heals, w->heals, w->heals + w->cluster->count, w->cluster->count);
	if (e->removed) {
		rl_lease_unlink(w, e);
		rl_lease_free(e);
		return;
	}
	renewal_verdict_locked(w, e, start, validity, counted);
}

static void *renewal_thread(void *arg)
{
	rl_leases *w = arg;

	pthread_mutex_lock(&rl_leases_lock);
	while (!w->stop) {
		double due = 0, now;
		lease *e = next_due(w, &due);

		if (e == NULL) {
			pthread_cond_wait(&w->wake, &rl_leases_lock);
			continue;
		}
		now = rl_now_ms();
		if (now >= e->valid_until && !e->converting) {
					rl_lease_mark_lost(w, e, rl_lease_ran_out(w, e)); /* capped and run out, or not renewed in time (starved, or a renewal hung) */
			continue;
		}
		if (due > now) {
			wait_ms(w, due - now);
			continue;
		}
		if (!renew_batch_locked(w, now)) {
			renew_locked(w, e);
		}
	}
	w->io_busy = 1;
	pthread_mutex_unlock(&rl_leases_lock);
	{
		size_t i;
		for (i = 0; i < w->cluster->count; i++) {
			rl_conn_close(&w->cluster->conns[i]); /* no connection outlives the thread */
		}
	}
	pthread_mutex_lock(&rl_leases_lock);
	w->io_busy = 0;
	pthread_mutex_unlock(&rl_leases_lock);
	return NULL;
}

/* Starts the thread, all signals blocked in it: SIGALRM/SIGPROF of max_execution_time, SIGCHLD
 * and pcntl's signals must reach the PHP thread. the lock held. */
int rl_renewal_start_locked(rl_leases *w)
{
	pthread_attr_t attr;
	sigset_t all, old;
	int rc;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	w->stop = 0;
	rc = pthread_create(&w->thread, &attr, renewal_thread, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (rc != 0) {
		return -1;
	}
	w->running = 1;
	return 0;
}

/* Stops and joins the thread. the lock held on entry and on return. */
void rl_renewal_join_locked(rl_leases *w)
{
	if (!w->running) {
		return;
	}
	w->stop = 1;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&rl_leases_lock);
	pthread_join(w->thread, NULL);
	pthread_mutex_lock(&rl_leases_lock);
	w->running = 0;
	w->stop = 0;
}
/* The renewal thread's own connections: copies of the object's servers. */
static rl_cluster *copy_servers(const rl_cluster *from)
{
	rl_cluster *cluster = rl_cluster_create(from->count);
	size_t i;

	if (cluster == NULL) {
		return NULL;
	}
	cluster->refuse_evicting = from->refuse_evicting; /* a renewal's votes as the object's */
	rl_cluster_share_clocks(cluster, from); /* a jump either sees is the object's (the object outlives the thread) */
	for (i = 0; i < from->count; i++) {
		const rl_endpoint *src = &from->endpoints[i];
		rl_endpoint_spec spec;

		memset(&spec, 0, sizeof(spec));
		if (src->host == NULL) {
			continue; /* that server fails with "connect: out of memory", as in the object */
		}
		spec.host = src->host;
		spec.host_len = strlen(src->host);
		spec.port = src->port;
		spec.timeout_ms = src->timeout_ms;
		spec.username = src->username;
		spec.username_len = src->username ? strlen(src->username) : 0;
		spec.password = src->password;
		spec.password_len = src->password ? strlen(src->password) : 0;
		spec.database = src->database;
		spec.tls = src->tls; /* copied: the thread owns its own */
		spec.sentinel = src->sentinel; /* copied: the thread asks the sentinels itself */
		spec.shards = src->shards;     /* copied: the thread learns the slot map itself */
		(void) rl_cluster_set_endpoint_spec(cluster, i, &spec);
		/* These connections carry on the object's, which took the lock: their first open is a
		 * reopen, and its member is awaited by the extend that opens it (rl_request.heals). */
		cluster->conns[i].was_ready = 1;
	}
	return cluster;
}

int rl_renewal_init(rl_leases *w, const rl_leases_config *config)
{
	size_t i;

	pthread_once(&g_once, init_once);
	w->cluster = copy_servers(config->servers);
	w->outcomes = calloc(config->servers->count ? config->servers->count : 1, sizeof(*w->outcomes));
	w->lost_on = calloc(config->servers->count ? config->servers->count : 1, 1);
	w->heals = calloc(2 * config->servers->count + 1, sizeof(*w->heals));
	if (w->cluster == NULL || w->outcomes == NULL || w->lost_on == NULL || w->heals == NULL || init_wake(&w->wake) != 0) {
		rl_cluster_destroy(w->cluster);
		w->cluster = NULL;
		RL_FREE_CLEAR(w->outcomes);
		RL_FREE_CLEAR(w->lost_on);
		RL_FREE_CLEAR(w->heals);
		return -1;
	}
	w->policy = *config->policy;
	for (i = 0; i < config->servers->count; i++) {
		/* members that move (a cluster member's node depends on each lock's key): no batches */
		w->has_sentinel |= config->servers->endpoints[i].sentinel != NULL || config->servers->endpoints[i].shards != NULL;
	}
	w->policy.call_bound_ms = rl_cluster_call_bound(w->cluster);
	rl_fanout_bind(w->cluster, &w->io);
	w->io.random = NULL; /* extend draws nothing */
	return 0;
}

void rl_renewal_after_fork_locked(rl_leases *w)
{
	size_t i;

	w->running = 0;
	w->stop = 0;
	/* The copy may show the parent's thread waiting on it: a fresh one, never destroyed (glibc's
	 * destroy would wait for that waiter; helgrind flags destroying it). */
	init_wake(&w->wake);
	w->forked = 1;
	if (w->io_busy) {
		/* Forked in the middle of a renewal: the connections' bookkeeping may be half-updated.
		 * Their output buffers are wiped (AUTH); neither they nor their readers are freed. */
		for (i = 0; i < w->cluster->count; i++) {
			rl_conn_forget_after_fork(&w->cluster->conns[i]);
		}
		w->io_busy = 0;
	}
	rl_cluster_leave_parent(w->cluster);
}

void rl_renewal_free(rl_leases *w)
{
	if (!w->forked) {
		pthread_cond_destroy(&w->wake);
	}
	rl_cluster_destroy(w->cluster); /* no pool: closes; the copied password is wiped */
	free(w->outcomes);
	free(w->lost_on);
	free(w->heals);
}

#endif
