/* The registry of the leases an object tracks. Its renewal thread is in rl_renewal.c. See rl_leases.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "services/rl_leases_private.h"
#include "core/rl_algorithm.h"
#include "services/rl_metrics.h"

/* Below this many leases nothing is forgotten; past it, expired ones go each time the count
 * reaches a power of two, so the cost spreads thinly over the additions. */
#define PRUNE_MIN 64

static rl_leases *g_all;

void rl_lease_free(lease *e)
{
	size_t i;

	for (i = 0; e->keys_copy && i < e->held.keys.count; i++) {
		free(e->keys_copy[i]);
	}
	free(e->keys_copy);
	free(e->lens_copy);
	free(e->token);
	free(e->masters);
	free(e->lost_on);
	free(e->heals);
	free(e);
}

void rl_lease_unlink(rl_leases *w, lease *e)
{
	lease **at;

	for (at = &w->leases; *at; at = &(*at)->next) {
		if (*at == e) {
			*at = e->next;
			w->count--;
			return;
		}
	}
}

static lease *find(rl_leases *w, const char *token, size_t len)
{
	lease *e;

	for (e = w->leases; e; e = e->next) {
		if (!e->removed && e->token_len == len && memcmp(e->token, token, len) == 0) {
			return e;
		}
	}
	return NULL;
}

/* The one place a loss is known: counted, and noticed for 'onLoss', once per lease. */
void rl_lease_count_loss(rl_leases *w, lease *e, rl_loss_reason reason)
{
	if (!e->loss_counted) {
		e->loss_counted = 1;
		e->loss_reason = reason;
		w->lost_events++;
		rl_metrics_add(RL_METRIC_LOST, 1);
		if (w->loss_notice) {
			w->loss_notice(w->loss_notice_arg);
		}
	}
}

void rl_lease_count_renewal(rl_leases *w)
{
	w->renewed_events++;
	rl_metrics_add(RL_METRIC_RENEWALS, 1);
}

rl_loss_reason rl_lease_ran_out(const rl_leases *w, const lease *e)
{
	if (e->renewal_failing) {
		return RL_LOSS_RENEWAL_FAILED; /* ran out while its renewals kept missing the quorum */
	}
	return w->max_extensions >= 0 && e->left == 0 ? RL_LOSS_CAPPED : RL_LOSS_EXPIRED;
}

/* The lock held. A loss found here is counted too (validity ran out without the thread seeing it). */
static rl_lease_state state_of(rl_leases *w, lease *e, double now)
{
	if (e->lost || now >= e->valid_until) {
		rl_lease_count_loss(w, e, rl_lease_ran_out(w, e));
		return RL_LEASE_LOST; /* a renewal failed, still hangs, was capped or never asked for */
	}
	return w->renew && e->left == 0 ? RL_LEASE_CAPPED : RL_LEASE_HELD;
}

void rl_leases_take_events(rl_leases *w, uint64_t *renewals, uint64_t *lost)
{
	LOCK();
	*renewals += w->renewed_events;
	*lost += w->lost_events;
	w->renewed_events = w->lost_events = 0;
	UNLOCK();
}

void rl_lease_mark_lost(rl_leases *w, lease *e, rl_loss_reason reason)
{
	rl_lease_count_loss(w, e, reason);
	e->lost = 1;
	if (e->raise) {
		e->raise(e->raise_arg);
	}
}

/* Forgets leases whose keys have expired everywhere for sure. */
static void prune(rl_leases *w, double now)
{
	lease **at = &w->leases;

	while (*at) {
		lease *e = *at;
		if (!e->busy && !e->pinned && now > e->expires_at) {
			*at = e->next;
			w->count--;
			rl_lease_free(e);
		} else {
			at = &e->next;
		}
	}
}

/* In a forked child: the leases are the parent's locks (not tracked here); the renewal thread is
 * its parent's (never joined or signalled from here). Called with the lock held. */
static void leave_parent_locked(rl_leases *w)
{
	long pid = rl_process_id();

	if (w->owner_pid == pid) {
		return;
	}
	w->owner_pid = pid;
	while (w->leases) {
		lease *e = w->leases;
		w->leases = e->next;
		rl_lease_free(e);
	}
	w->count = 0;
#ifndef _WIN32
	if (w->renew) {
		rl_renewal_after_fork_locked(w);
	}
#endif
}

/* Takes w's lock (the caller UNLOCKs), leaves a forked parent's leases behind, and finds token's lease:
 * NULL when there is none. The first step of every call on one lease from the object's side. */
static lease *lock_and_find(rl_leases *w, const char *token, size_t token_len)
{
	LOCK();
	leave_parent_locked(w);
	return find(w, token, token_len);
}

rl_leases *rl_leases_create(const rl_leases_config *config)
{
	rl_leases *w;

#ifdef _WIN32
	if (config->renew) {
		return NULL;
	}
#endif
	w = calloc(1, sizeof(*w));
	if (w == NULL) {
		return NULL;
	}
	w->owner_pid = rl_process_id();
	w->owner = config->owner;
	w->max_extensions = config->max_extensions;
	w->drift_factor = config->policy->drift_factor;
	w->renew = config->renew;
#ifndef _WIN32
	if (w->renew && rl_renewal_init(w, config) != 0) {
		free(w);
		return NULL;
	}
#endif
	LOCK();
	w->next_all = g_all;
	g_all = w;
	UNLOCK();
	return w;
}

static lease *lease_new(const rl_lock_target *held, const char *token, size_t token_len)
{
	lease *e = calloc(1, sizeof(*e));
	size_t i, count = held->keys.count;

	if (e == NULL) {
		return NULL;
	}
	e->held = *held;
	e->held.from_token = NULL; /* the caller's, not ours to keep */
	e->held.from_len = 0;
	e->held.fair = NULL;
	e->held.keys.count = 0; /* until the copies are made, for rl_lease_free */
	e->token = malloc(token_len + 1);
	e->keys_copy = calloc(count ? count : 1, sizeof(*e->keys_copy));
	e->lens_copy = calloc(count ? count : 1, sizeof(*e->lens_copy));
	if (e->token == NULL || e->keys_copy == NULL || e->lens_copy == NULL) {
		rl_lease_free(e);
		return NULL;
	}
	memcpy(e->token, token, token_len);
	e->token[token_len] = '\0';
	e->token_len = token_len;
	for (i = 0; i < count; i++) {
		e->keys_copy[i] = malloc(held->keys.lens[i] + 1);
		if (e->keys_copy[i] == NULL) {
			rl_lease_free(e);
			return NULL;
		}
		memcpy(e->keys_copy[i], held->keys.keys[i], held->keys.lens[i]);
		e->keys_copy[i][held->keys.lens[i]] = '\0';
		e->lens_copy[i] = held->keys.lens[i];
		e->held.keys.count = i + 1;
	}
	e->held.keys.keys = (const char *const *) e->keys_copy;
	e->held.keys.lens = e->lens_copy;
	return e;
}

int rl_leases_add(rl_leases *w, const rl_lock_target *held, const char *token, size_t token_len, int64_t ttl,
	double validity, int pinned)
{
	lease *e = lease_new(held, token, token_len);
	double now = rl_now_ms();
	int rc = 0;

	if (e == NULL) {
		return -1;
	}
	e->ttl = ttl;
	e->due = now + (double) ttl / 3.0;
	e->valid_until = now + validity;
	e->expires_at = now + (double) ttl + rl_drift_ms(ttl, w->drift_factor);
	e->taken_at = now;
	e->left = w->max_extensions;
	e->pinned = pinned;

	LOCK();
	leave_parent_locked(w);
	if (w->count >= PRUNE_MIN && (w->count & (w->count - 1)) == 0) {
		prune(w, now);
	}
	e->next = w->leases;
	w->leases = e;
	w->count++;
#ifndef _WIN32
	if (w->renew) {
		if (!w->running && rl_renewal_start_locked(w) != 0) {
			w->leases = e->next;
			w->count--;
			rl_lease_free(e);
			rc = -1;
		} else {
			pthread_cond_signal(&w->wake);
		}
	}
#endif
	UNLOCK();
	return rc;
}

void rl_leases_set_masters(rl_leases *w, const char *token, size_t token_len, const uint32_t *masters, size_t count)
{
	lease *e;

	e = lock_and_find(w, token, token_len);
	if (e != NULL && (e->masters != NULL || (e->masters = calloc(count ? count : 1, sizeof(*masters))) != NULL)) {
		memcpy(e->masters, masters, count * sizeof(*masters));
	}
	UNLOCK();
}

double rl_leases_taken_at(rl_leases *w, const char *token, size_t token_len)
{
	lease *e;
	double at = 0;

	e = lock_and_find(w, token, token_len);
	if (e != NULL) {
		at = e->taken_at;
	}
	UNLOCK();
	return at;
}

int rl_leases_masters(rl_leases *w, const char *token, size_t token_len, uint32_t *masters, size_t count)
{
	lease *e;
	int known = 0;

	e = lock_and_find(w, token, token_len);
	if (e != NULL && e->masters != NULL) {
		memcpy(masters, e->masters, count * sizeof(*masters));
		known = 1;
	}
	UNLOCK();
	return known;
}

/* What a vote says of a member's key: lost after the lock when it did not answer yes; after an
 * extend when it answered "not ours", or could not be connected to (down: it comes back empty
 * unless it persists). A yes, a timeout or another error says nothing more is known. */
static int lost_after(const rl_outcome *out, int acquired)
{
	return acquired ? out->kind != RL_OUTCOME_YES : out->kind == RL_OUTCOME_TAKEN || out->kind == RL_OUTCOME_CONNECT;
}

void rl_lease_note_votes(lease *e, const rl_outcome *outcomes, size_t count, int acquired)
{
	size_t i;
	int any = 0;

	for (i = 0; i < count && !any; i++) {
		any = lost_after(&outcomes[i], acquired);
	}
	if (!any && e->lost_on == NULL) {
		return;
	}
	if (e->lost_on == NULL && (e->lost_on = calloc(count ? count : 1, 1)) == NULL) {
		return; /* out of memory: the reconnect rule alone */
	}
	for (i = 0; i < count; i++) {
		e->lost_on[i] = lost_after(&outcomes[i], acquired);
	}
}

void rl_leases_note_votes(rl_leases *w, const char *token, size_t token_len, const rl_outcome *outcomes,
	size_t count, int acquired)
{
	lease *e;

	e = lock_and_find(w, token, token_len);
	if (e != NULL) {
		rl_lease_note_votes(e, outcomes, count, acquired);
	}
	UNLOCK();
}

void rl_heals_copy(const rl_heal *kept, rl_heal *into, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++) {
		into[i] = kept != NULL ? kept[i] : (rl_heal) {0, 0};
	}
}

static int same_heal(const rl_heal *a, const rl_heal *b)
{
	return a->until == b->until && a->stream == b->stream;
}

int rl_heals_merge(rl_heal **kept, const rl_heal *before, const rl_heal *after, size_t count)
{
	size_t i;
	int pending = 0;

	for (i = 0; i < count; i++) {
		rl_heal now_kept = *kept != NULL ? (*kept)[i] : (rl_heal) {0, 0};

		if (!same_heal(&after[i], &before[i])) {
			if (*kept == NULL && (*kept = calloc(count ? count : 1, sizeof(**kept))) == NULL) {
				return 1; /* out of memory: these heals are not judged (the lease's or record's rest stays) */
			}
			if (same_heal(&now_kept, &before[i])) {
				(*kept)[i] = after[i]; /* nobody else changed it meanwhile */
			} else if (after[i].until > 0) { /* both sent one: the earlier, and no stream shows both */
				(*kept)[i].until = now_kept.until > 0 ? fmin(now_kept.until, after[i].until) : after[i].until;
				(*kept)[i].stream = now_kept.until > 0 && now_kept.stream != after[i].stream ? 0 : after[i].stream;
			}
		}
		pending |= *kept != NULL && (*kept)[i].until > 0;
	}
	return pending;
}

static heal_record **find_record(rl_leases *w, const char *token, size_t token_len)
{
	heal_record **at;

	for (at = &w->records; *at != NULL; at = &(*at)->next) {
		if ((*at)->token_len == token_len && memcmp((*at)->token, token, token_len) == 0) {
			return at;
		}
	}
	return at;
}

static void drop_record(rl_leases *w, heal_record **at)
{
	heal_record *r = *at;

	*at = r->next;
	free(r->token);
	free(r->heals);
	free(r);
	w->nrecords--;
}

/* A record for token's heals, the newest first; the oldest forgotten beyond RL_HEAL_RECORDS_MAX. */
static heal_record **new_record(rl_leases *w, const char *token, size_t token_len)
{
	heal_record *r = calloc(1, sizeof(*r));
	heal_record **at;

	if (r == NULL || (r->token = malloc(token_len ? token_len : 1)) == NULL) {
		free(r);
		return NULL;
	}
	memcpy(r->token, token, token_len);
	r->token_len = token_len;
	r->next = w->records;
	w->records = r;
	if (++w->nrecords > RL_HEAL_RECORDS_MAX) {
		for (at = &w->records; (*at)->next != NULL; at = &(*at)->next) {
		}
		drop_record(w, at);
	}
	return &w->records;
}

void rl_leases_heals(rl_leases *w, const char *token, size_t token_len, rl_heal *heals, size_t count)
{
	lease *e = lock_and_find(w, token, token_len);
	heal_record **at = e == NULL ? find_record(w, token, token_len) : NULL;

	rl_heals_copy(e != NULL ? e->heals : at != NULL && *at != NULL ? (*at)->heals : NULL, heals, count);
	UNLOCK();
}

void rl_leases_note_heals(rl_leases *w, const char *token, size_t token_len, const rl_heal *before,
	const rl_heal *after, size_t count)
{
	lease *e = lock_and_find(w, token, token_len);
	heal_record **at;
	size_t i;
	int changed = 0;

	for (i = 0; i < count; i++) {
		changed |= !same_heal(&before[i], &after[i]);
	}
	if (e != NULL) {
		(void) rl_heals_merge(&e->heals, before, after, count);
	} else if (changed && ((at = find_record(w, token, token_len), *at != NULL) || (at = new_record(w, token, token_len)) != NULL)
		&& !rl_heals_merge(&(*at)->heals, before, after, count)) {
		drop_record(w, at); /* every heal known landed */
	}
	UNLOCK();
}

int rl_leases_lost_on(rl_leases *w, const char *token, size_t token_len, unsigned char *lost_on, size_t count)
{
	lease *e;
	size_t i;
	int any = 0;

	e = lock_and_find(w, token, token_len);
	for (i = 0; i < count; i++) {
		lost_on[i] = e != NULL && e->lost_on != NULL && e->lost_on[i];
		any |= lost_on[i];
	}
	UNLOCK();
	return any;
}

rl_lease_state rl_leases_state(rl_leases *w, const char *token, size_t token_len)
{
	lease *e = lock_and_find(w, token, token_len);
	rl_lease_state state = e != NULL ? state_of(w, e, rl_now_ms()) : RL_LEASE_UNKNOWN;

	UNLOCK();
	return state;
}

int rl_leases_begin_extend(rl_leases *w, const char *token, size_t token_len)
{
	lease *e;
	int rc = -1;

	e = lock_and_find(w, token, token_len);
	if (e != NULL) {
		rc = e->left != 0 && state_of(w, e, rl_now_ms()) != RL_LEASE_LOST;
		if (rc && e->left > 0) {
			e->left--;
		}
	}
	UNLOCK();
	return rc;
}

void rl_leases_extended(rl_leases *w, const char *token, size_t token_len, double start, double validity,
	int64_t ttl)
{
	lease *e;

	LOCK();
	e = find(w, token, token_len);
	if (e != NULL && validity > 0) {
		if (start + validity > e->valid_until) {
			e->valid_until = start + validity;
		}
		e->renewal_failing = 0; /* extend() reached the quorum: a lapse now would be no failed renewal's */
		e->expires_at = fmax(e->expires_at, rl_now_ms() + (double) ttl + rl_drift_ms(ttl, w->drift_factor));
	}
	UNLOCK();
}

rl_lease_state rl_leases_converting(rl_leases *w, const char *token, size_t token_len, int converting)
{
	rl_lease_state state = RL_LEASE_UNKNOWN;
	lease *e;

	e = lock_and_find(w, token, token_len);
	if (e != NULL) {
		double now = rl_now_ms();

		state = state_of(w, e, now);
		e->converting = converting;
		if (!converting) {
			e->due = now; /* what a rollback gave back is renewed at once */
#ifndef _WIN32
			if (w->renew) {
				pthread_cond_signal(&w->wake);
			}
#endif
		}
	}
	UNLOCK();
	return state;
}

int rl_leases_left(rl_leases *w, const char *token, size_t token_len, int64_t *left)
{
	lease *e;
	int found;

	LOCK();
	e = find(w, token, token_len);
	found = e != NULL;
	if (found) {
		*left = e->left;
	}
	UNLOCK();
	return found ? 0 : -1;
}

void rl_leases_set_left(rl_leases *w, const char *token, size_t token_len, int64_t left)
{
	lease *e;

	LOCK();
	e = find(w, token, token_len);
	if (e != NULL) {
		e->left = left;
	}
	UNLOCK();
}

static int anything_renewed(const rl_leases *w)
{
	const lease *e;

	for (e = w->leases; e; e = e->next) {
		if (!e->removed) {
			return 1;
		}
	}
	return 0;
}

rl_lease_state rl_leases_remove(rl_leases *w, const char *token, size_t token_len)
{
	rl_lease_state state = RL_LEASE_UNKNOWN;
	lease *e;

	heal_record **record;

	e = lock_and_find(w, token, token_len);
	if (*(record = find_record(w, token, token_len)) != NULL) {
		drop_record(w, record); /* unlocked: no later extend of it to judge */
	}
	if (e != NULL) {
		state = state_of(w, e, rl_now_ms());
		if (e->busy) {
			e->removed = 1; /* the thread frees it after its renewal, and counts nothing of it */
		} else {
			rl_lease_unlink(w, e);
			rl_lease_free(e);
		}
	}
#ifndef _WIN32
	if (w->renew && !anything_renewed(w)) {
		rl_renewal_join_locked(w);
	}
#endif
	UNLOCK();
	return state;
}

int rl_leases_set_alarm(rl_leases *w, const char *token, size_t token_len, void (*raise)(void *), void *arg)
{
	lease *e;
	int rc = -1;

	e = lock_and_find(w, token, token_len);
	if (e != NULL) {
		e->raise = raise;
		e->raise_arg = arg;
		if (raise && state_of(w, e, rl_now_ms()) == RL_LEASE_LOST) {
			raise(arg); /* lost already */
		}
		rc = 0;
	}
	UNLOCK();
	return rc;
}

int rl_leases_own(rl_leases *w, const char *token, size_t token_len)
{
	lease *e;
	int own;

	e = lock_and_find(w, token, token_len); /* in a forked child, none of its parent's */
	/* Taken here: pinned by this process' run(). A lease an extend() of the lock array added (the
	 * cap's count, in a forked child for its parent's lock) tracks it without having taken it. */
	own = e != NULL && e->pinned;
	UNLOCK();
	return own;
}

int rl_leases_each_pinned(rl_leases *w, void (*fn)(void *arg, const rl_lock_target *held, const char *token,
	size_t token_len), void *arg)
{
	lease *copies = NULL, *e, *copy;
	int count = 0, failed = 0;

	LOCK();
	leave_parent_locked(w);
	for (e = w->leases; e; e = e->next) {
		if (!e->pinned || e->removed) {
			continue;
		}
		if ((copy = lease_new(&e->held, e->token, e->token_len)) == NULL) {
			failed = 1;
			continue;
		}
		copy->next = copies;
		copies = copy;
	}
	UNLOCK();
	while ((e = copies) != NULL) {
		copies = e->next;
		fn(arg, &e->held, e->token, e->token_len);
		rl_lease_free(e);
		count++;
	}
	return failed ? -1 : count;
}

void rl_leases_set_loss_notice(rl_leases *w, void (*notice)(void *), void *arg)
{
	LOCK();
	w->loss_notice = notice;
	w->loss_notice_arg = arg;
	UNLOCK();
}

int rl_leases_terms(rl_leases *w, const char *token, size_t token_len, int64_t *ttl, double *valid_until)
{
	lease *e;
	int rc = -1;

	e = lock_and_find(w, token, token_len);
	if (e != NULL) {
		*ttl = e->ttl;
		*valid_until = e->valid_until;
		rc = 0;
	}
	UNLOCK();
	return rc;
}

void rl_leases_not_held(rl_leases *w, const char *token, size_t token_len)
{
	lease *e;

	e = lock_and_find(w, token, token_len);
	if (e != NULL && !e->lost && !e->converting) {
		rl_lease_mark_lost(w, e, RL_LOSS_NOT_HELD);
	}
	UNLOCK();
}

size_t rl_leases_take_losses(rl_leases *w, rl_loss *out, size_t room)
{
	size_t n = 0;
	lease *e;

	LOCK();
	leave_parent_locked(w);
	for (e = w->leases; e && n < room; e = e->next) {
		if (e->loss_counted && !e->loss_taken && !e->removed && e->token_len <= RL_TOKEN_LEN) {
			e->loss_taken = 1;
			memcpy(out[n].token, e->token, e->token_len);
			out[n].token[e->token_len] = '\0';
			out[n].token_len = e->token_len;
			out[n].reason = e->loss_reason;
			n++;
		}
	}
	UNLOCK();
	return n;
}

static void stop_locked(rl_leases *w)
{
	leave_parent_locked(w);
#ifndef _WIN32
	rl_renewal_join_locked(w);
#endif
	while (w->leases) {
		lease *e = w->leases;
		w->leases = e->next;
		rl_lease_free(e);
	}
	w->count = 0;
}

void rl_leases_stop_owned(const void *owner)
{
	rl_leases *w;

	LOCK();
	for (w = g_all; w; w = w->next_all) {
		if (w->owner == owner) {
			stop_locked(w); /* drops the lock while joining: the list itself only changes on this thread */
		}
	}
	UNLOCK();
}

void rl_leases_destroy(rl_leases *w)
{
	rl_leases **at;

	if (w == NULL) {
		return;
	}
	LOCK();
	stop_locked(w);
	for (at = &g_all; *at; at = &(*at)->next_all) {
		if (*at == w) {
			*at = w->next_all;
			break;
		}
	}
	while (w->records != NULL) {
		drop_record(w, &w->records);
	}
	UNLOCK();
#ifndef _WIN32
	if (w->renew) {
		rl_renewal_free(w);
	}
#endif
	free(w);
}
