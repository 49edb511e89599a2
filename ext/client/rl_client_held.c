/* A held lock's calls: release, forceUnlock(), extend(), validity(). See rl_client.h; what they share
 * with the acquisition path (lanes, the call record) is in rl_client_private.h. */
#include <stdlib.h>
#include <string.h>

#include "client/rl_client.h"
#include "client/rl_client_private.h"
#include "protocol/rl_reply.h"

/* --- the master-changed rule (docs/design/sentinel.md#master-changed-since-the-lock-was-taken) ---- */

/* Before a call on a tracked lock with Sentinel members: the masters that hold it, expected by the
 * lane's votes. NULL when there is no rule to apply (or out of memory: the keys alone decide). */
static uint32_t *expect_masters(rl_client *client, rl_lane *lane, const char *token, size_t token_len, int *suspected)
{
	uint32_t *masters;

	*suspected = 0;
	if (client->leases == NULL || (masters = calloc(lane->cluster->count ? lane->cluster->count : 1, sizeof(*masters))) == NULL) {
		return NULL;
	}
	if (!rl_leases_masters(client->leases, token, token_len, masters, lane->cluster->count)) {
		free(masters);
		return NULL;
	}
	*suspected = rl_cluster_expect_masters(lane->cluster, masters);
	return masters;
}

/* After it: an extend that won adopts the members it healed (or found holding our key anew). */
static void end_masters(rl_client *client, rl_lane *lane, const char *token, size_t token_len, uint32_t *masters,
	int won)
{
	if (masters == NULL) {
		return;
	}
	rl_cluster_expect_masters(lane->cluster, NULL);
	if (won) {
		(void) rl_cluster_note_masters(lane->cluster, lane->outcomes, masters, 0);
		rl_leases_set_masters(client->leases, token, token_len, masters, lane->cluster->count);
	}
	free(masters);
}

/* --- the clock-jump rule (docs/design/verification.md#clock-jumps) -------------------------------- */

/* Before a call on a held lock: every server's clock is sampled with it, and a tracked lock's votes
 * from a server whose clock jumped forward since it was taken do not count. After it: lock() again
 * samples at most every RL_CLOCK_SAMPLE_MS. */
static void expect_clock(rl_client *client, rl_lane *lane, const char *token, size_t token_len)
{
	rl_cluster_expect_clock(lane->cluster, client->leases != NULL ? rl_leases_taken_at(client->leases, token, token_len) : 0, 1);
}

static void end_clock(rl_lane *lane)
{
	rl_cluster_expect_clock(lane->cluster, 0, 0);
}

/* --- release, extend, validity ------------------------------------------------------------------ */

static int release_on(rl_client *client, rl_lane *lane, const rl_lock_target *held, const char *token,
	size_t token_len)
{
	int votes, released;

	if (rl_dialect_for(client->policy.dialect, held->kind, RL_OP_RELEASE) == NULL) {
		rl_client_finish(client, lane, RL_CALL_RELEASE, held->kind, RL_CALL_FAILED, 0, 0);
		return RL_CALL_NEEDS_SCRIPTS;
	}
	if (client->leases) {
		rl_leases_remove(client->leases, token, token_len); /* before: see rl_leases.h */
	}
	if (client->policy.dialect->probes_release) {
		rl_client_learn_natives(client, lane);
	}
	votes = rl_kind_release(&lane->io, &client->policy, held, token, token_len, lane->outcomes);
	if (votes >= 0 && (unsigned) votes < client->policy.quorum
		&& rl_client_learn_scripts_refused(client, lane, held->kind, RL_OP_RELEASE)) {
		rl_client_learn_natives(client, lane); /* the same release again, without the script */
		votes = rl_kind_release(&lane->io, &client->policy, held, token, token_len, lane->outcomes);
	}
	released = votes >= 0 && (unsigned) votes >= client->policy.quorum;
	rl_client_finish(client, lane, RL_CALL_RELEASE, held->kind,
		released ? RL_CALL_RELEASED : votes < 0 ? RL_CALL_FAILED : rl_client_refused(client, lane, RL_CALL_NOT_HELD), 1, 0);
	return released;
}

static int force_release_on(rl_client *client, rl_lane *lane, const rl_lock_target *target)
{
	int votes, released;

	votes = rl_kind_force_release(&lane->io, &client->policy, target, lane->outcomes);
	if (votes >= 0 && (unsigned) votes < client->policy.quorum
		&& rl_client_learn_scripts_refused(client, lane, target->kind, RL_OP_FORCE)) {
		votes = rl_kind_force_release(&lane->io, &client->policy, target, lane->outcomes);
	}
	released = votes >= 0 && (unsigned) votes >= client->policy.quorum;
	rl_client_finish(client, lane, RL_CALL_FORCE_RELEASE, target->kind, released ? RL_CALL_RELEASED : RL_CALL_FAILED, 1, 0);
	return released;
}

/* Without scripts, SET IFEQ PX sets the ttl, longer or shorter (rl_dialect.extend_sets_ttl): only
 * when every command sent for the lock, by any holder in any object or process, carries the same
 * ttl can none cut short what a later one won. That ttl is the one the token carries (core/rl_token.h): RL_EXTEND_OTHER_TTL for
 * another, RL_EXTEND_NO_TTL for a token that carries none (another client's, an older version's). */
static double script_free_ttl_check(const char *token, size_t token_len, int64_t ttl)
{
	int64_t taken_with = rl_token_ttl(token, token_len);

	return taken_with < 0 ? RL_EXTEND_NO_TTL : taken_with != ttl ? RL_EXTEND_OTHER_TTL : 0;
}

/* The members known to have lost the lock's key, awaited by its extend (rl_leases_lost_on); NULL when
 * none is known (the reconnect rule alone: rl_request.heals) or the object tracks no leases. */
static unsigned char *members_lost_on(rl_client *client, rl_lane *lane, const char *token, size_t token_len)
{
	unsigned char *lost_on;

	if (client->leases == NULL) {
		return NULL;
	}
	lost_on = calloc(lane->cluster->count ? lane->cluster->count : 1, 1);
	if (lost_on != NULL && !rl_leases_lost_on(client->leases, token, token_len, lost_on, lane->cluster->count)) {
		free(lost_on);
		lost_on = NULL;
	}
	return lost_on;
}

/* What the object recalls of the lock for its extend: the members known to have lost its key (*lost_on:
 * members_lost_on) and the heals sent to its members not known to have landed in time (rl_leases_heals),
 * twice in *heals: [0, count) as read, [count, 2 count) for the extend to update (rl_lock_policy.heals).
 * 0, or -1 when out of memory (nothing kept). */
static int recall_lock(rl_client *client, rl_lane *lane, const char *token, size_t token_len, unsigned char **lost_on,
	rl_heal **heals)
{
	size_t count = lane->cluster->count;

	if ((*heals = calloc(2 * count + 1, sizeof(**heals))) == NULL) {
		return -1;
	}
	if (client->leases != NULL) {
		rl_leases_heals(client->leases, token, token_len, *heals, count);
		memcpy(*heals + count, *heals, count * sizeof(**heals));
	}
	*lost_on = members_lost_on(client, lane, token, token_len);
	return 0;
}

/* After the extend: what it made of the heals kept by the object (its registry made for it when this
 * extend healed a lock of an object that tracks none), the copies freed. */
static void end_recall(rl_client *client, rl_lane *lane, const char *token, size_t token_len, unsigned char *lost_on,
	rl_heal *heals)
{
	size_t i, count = lane->cluster->count;
	int changed = 0;

	for (i = 0; i < count; i++) {
		changed |= heals[i].until != heals[count + i].until || heals[i].stream != heals[count + i].stream;
	}
	if (changed && rl_client_leases_of(client) != NULL) { /* out of memory: not judged later */
		rl_leases_note_heals(client->leases, token, token_len, heals, heals + count, count);
	}
	free(heals);
	free(lost_on);
}

/* The object's policy for one extend: every reply awaited while a member may have changed masters. */
static rl_lock_policy extend_policy(const rl_client *client, int suspected, unsigned char *lost_on, rl_heal *heals,
	size_t count)
{
	rl_lock_policy policy = client->policy;

	policy.await_every_reply = suspected;
	policy.lost_on = lost_on;
	policy.heals = heals + count;
	return policy;
}

/* An extend won (validity > 0): the tracked lease renewed from start; a lock this object did not
 * acquire (or no longer tracks) under maxExtensions starts being tracked, its cap counting from here.
 * -1 when it could not be. */
static int note_extended(rl_client *client, const rl_lock_target *held, const char *token, size_t token_len,
	int64_t ttl, int tracked, double start, double validity)
{
	rl_leases *leases;

	if (tracked == 1) {
		rl_leases_extended(client->leases, token, token_len, start, validity, ttl);
		return 0;
	}
	if (client->config.max_extensions < 0 || tracked >= 0) {
		return 0;
	}
	leases = rl_client_leases_of(client);
	if (leases == NULL || rl_leases_add(leases, held, token, token_len, ttl, validity, 0) != 0) {
		return -1;
	}
	(void) rl_leases_begin_extend(leases, token, token_len);
	return 0;
}

static double extend(rl_client *client, rl_lane *lane, const rl_lock_target *held, const char *token, size_t token_len,
	int64_t ttl, int *asked)
{
	int tracked = -1, suspected;
	double start, validity, refusal;
	uint32_t *masters;
	rl_lock_policy policy; /* the object's, awaiting every reply while a member may have changed masters */
	unsigned char *lost_on; /* the members known to have lost its key: awaited (rl_leases_lost_on) */
	rl_heal *heals;         /* the heals not known to have landed in time (recall_lock) */

	if (rl_dialect_for(client->policy.dialect, held->kind, RL_OP_EXTEND) == NULL) {
		return RL_CALL_NEEDS_SCRIPTS;
	}
	if (rl_dialect_for(client->policy.dialect, held->kind, RL_OP_EXTEND)->extend_sets_ttl
		&& (refusal = script_free_ttl_check(token, token_len, ttl)) != 0) {
		return refusal;
	}
	if (client->leases) {
		tracked = rl_leases_begin_extend(client->leases, token, token_len);
		if (tracked == 0) {
			return 0; /* over the cap, or lost: the servers are not asked */
		}
	}
	if (recall_lock(client, lane, token, token_len, &lost_on, &heals) != 0) {
		return -1;
	}
	*asked = 1;
	masters = expect_masters(client, lane, token, token_len, &suspected);
	expect_clock(client, lane, token, token_len);
	policy = extend_policy(client, suspected, lost_on, heals, lane->cluster->count);
	start = rl_now_ms();
	validity = rl_kind_extend(&lane->io, &policy, held, token, token_len, ttl, lane->outcomes);
	if (validity == 0 && rl_client_learn_scripts_refused(client, lane, held->kind, RL_OP_EXTEND)) {
		if ((refusal = script_free_ttl_check(token, token_len, ttl)) != 0) {
			end_masters(client, lane, token, token_len, masters, 0);
			end_clock(lane);
			end_recall(client, lane, token, token_len, lost_on, heals);
			return refusal;
		}
		policy = extend_policy(client, suspected, lost_on, heals, lane->cluster->count);
		start = rl_now_ms(); /* the same extend() again, without the script */
		validity = rl_kind_extend(&lane->io, &policy, held, token, token_len, ttl, lane->outcomes);
	}
	end_masters(client, lane, token, token_len, masters, validity > 0);
	end_clock(lane);
	end_recall(client, lane, token, token_len, lost_on, heals);
	if (tracked == 1 && validity >= 0) {
		rl_leases_note_votes(client->leases, token, token_len, lane->outcomes, lane->cluster->count, 0);
	}
	if (validity > 0 && note_extended(client, held, token, token_len, ttl, tracked, start, validity) != 0) {
		return -1;
	}
	return validity;
}

static double extend_on(rl_client *client, rl_lane *lane, const rl_lock_target *held, const char *token,
	size_t token_len, int64_t ttl)
{
	int asked = 0;
	double validity;
	rl_call_outcome outcome;

	validity = extend(client, lane, held, token, token_len, ttl, &asked);

	if (validity == RL_EXTEND_OTHER_TTL || validity == RL_EXTEND_NO_TTL || validity == RL_CALL_NEEDS_SCRIPTS) {
		rl_client_finish(client, lane, RL_CALL_EXTEND, held->kind, RL_CALL_FAILED, asked, 0);
		return validity;
	}
	if (validity > 0) {
		outcome = RL_CALL_EXTENDED;
	} else if (!asked) {
		outcome = rl_client_lease(client, token, token_len) == RL_LEASE_LOST ? RL_CALL_LOST : RL_CALL_CAPPED;
	} else {
		outcome = validity < 0 ? RL_CALL_FAILED : rl_client_refused(client, lane, RL_CALL_NOT_HELD);
	}
	if (outcome == RL_CALL_NOT_HELD && client->leases) {
		rl_leases_not_held(client->leases, token, token_len);
	}
	rl_client_finish(client, lane, RL_CALL_EXTEND, held->kind, outcome, asked, validity);
	return validity;
}

static double validity_on(rl_client *client, rl_lane *lane, const rl_lock_target *held, const char *token,
	size_t token_len)
{
	double validity;
	rl_call_outcome outcome;
	uint32_t *masters;
	int suspected;
	rl_lock_policy policy;  /* the object's, with the heals recorded for the lock */
	unsigned char *lost_on; /* recalled with them, unused: validity() awaits no member for it */
	rl_heal *heals;

	if (rl_client_lease(client, token, token_len) == RL_LEASE_LOST) {
		rl_client_finish(client, lane, RL_CALL_VALIDITY, held->kind, RL_CALL_LOST, 0, 0);
		return 0; /* known lost: no round trip */
	}
	if (rl_dialect_for(client->policy.dialect, held->kind, RL_OP_VALIDITY) == NULL) {
		rl_client_finish(client, lane, RL_CALL_VALIDITY, held->kind, RL_CALL_FAILED, 0, 0);
		return RL_CALL_NEEDS_SCRIPTS;
	}
	/* Always the servers, with or without scripts: another holder of the lock (another object or
	 * process with its array) may have released it meanwhile. */
	if (recall_lock(client, lane, token, token_len, &lost_on, &heals) != 0) {
		rl_client_finish(client, lane, RL_CALL_VALIDITY, held->kind, RL_CALL_FAILED, 0, 0);
		return -1;
	}
	policy = client->policy;
	policy.heals = heals; /* read only: a yes extend() would not count is not counted (rl_lock_validity) */
	masters = expect_masters(client, lane, token, token_len, &suspected);
	expect_clock(client, lane, token, token_len);
	validity = rl_kind_validity(&lane->io, &policy, held, token, token_len, client->cluster->count, lane->outcomes);
	if (validity == 0 && rl_client_learn_scripts_refused(client, lane, held->kind, RL_OP_VALIDITY)) {
		policy = client->policy; /* as learnt: scripts refused */
		policy.heals = heals;
		validity = rl_kind_validity(&lane->io, &policy, held, token, token_len, client->cluster->count,
			lane->outcomes); /* the same question again, without the script */
	}
	end_masters(client, lane, token, token_len, masters, 0);
	end_clock(lane);
	free(heals);
	free(lost_on);
	outcome = validity > 0 ? RL_CALL_VALID : validity < 0 ? RL_CALL_FAILED : rl_client_refused(client, lane, RL_CALL_NOT_HELD);
	if (outcome == RL_CALL_NOT_HELD && client->leases) {
		rl_leases_not_held(client->leases, token, token_len);
	}
	rl_client_finish(client, lane, RL_CALL_VALIDITY, held->kind, outcome, 1, validity);
	return validity;
}

/* --- the public calls: each on a lane of its own ------------------------------------------------- */

int rl_client_release(rl_client *client, const rl_lock_target *held, const char *token, size_t token_len)
{
	int busy;
	rl_lane *lane = rl_client_lend(client, token, token_len, client->policy.call_bound_ms, &busy);
	int released;

	if (lane == NULL) {
		return 0;
	}
	released = release_on(client, lane, held, token, token_len);
	rl_client_give_back(client, lane);
	return released;
}

/* --- the implicit releases: only by the process that took the lock --------------------------- */

int rl_client_release_own(rl_client *client, const rl_lock_target *held, const char *token, size_t token_len)
{
	if (client->leases == NULL || !rl_leases_own(client->leases, token, token_len)) {
		return 0; /* another process' (a forked child's copy of its parent's run()), or released already */
	}
	return rl_client_release(client, held, token, token_len);
}

static void release_pinned(void *arg, const rl_lock_target *held, const char *token, size_t token_len)
{
	(void) rl_client_release(arg, held, token, token_len);
}

int rl_client_release_pinned(rl_client *client)
{
	return client->leases ? rl_leases_each_pinned(client->leases, release_pinned, client) : 0;
}

int rl_client_force_release(rl_client *client, const rl_lock_target *target)
{
	int busy;
	rl_lane *lane = rl_client_lend(client, NULL, 0, client->policy.call_bound_ms, &busy);
	int released;

	if (lane == NULL) {
		return 0;
	}
	released = force_release_on(client, lane, target);
	rl_client_give_back(client, lane);
	return released;
}

double rl_client_extend(rl_client *client, const rl_lock_target *held, const char *token, size_t token_len,
	int64_t ttl)
{
	int busy;
	rl_lane *lane = rl_client_lend(client, token, token_len, client->policy.call_bound_ms, &busy);
	double validity;

	if (lane == NULL) {
		return busy ? 0 : -1;
	}
	validity = extend_on(client, lane, held, token, token_len, ttl);
	rl_client_give_back(client, lane);
	return validity;
}

double rl_client_validity(rl_client *client, const rl_lock_target *held, const char *token, size_t token_len)
{
	int busy;
	rl_lane *lane = rl_client_lend(client, token, token_len, client->policy.call_bound_ms, &busy);
	double validity;

	if (lane == NULL) {
		return busy ? 0 : -1;
	}
	validity = validity_on(client, lane, held, token, token_len);
	rl_client_give_back(client, lane);
	return validity;
}
