/* lockShared(): the shared holders of a resource live in its key as a hash token -> deadline
 * (server time), which lock()'s SET NX (and the multi-key script's EXISTS) already refuses; the
 * shared scripts refuse a string (a lock() holder). So the lock's driver runs unchanged with the
 * shared scripts in place of the exclusive ones. See rl_kinds.h. */
#include <math.h>
#include <string.h>

#include "core/rl_kinds.h"
#include "protocol/rl_resp.h"

void rl_shared_policy(const rl_lock_policy *base, rl_script_set *scripts, rl_lock_policy *policy)
{
	*scripts = *base->scripts;
	scripts->lock_multi = base->scripts->shared_lock;      /* the acquisition (keys.multi set) */
	scripts->unlock_multi = base->scripts->shared_unlock;  /* its rollback */
	scripts->unlock = base->scripts->shared_unlock;
	scripts->extend = base->scripts->shared_extend;
	scripts->validity = base->scripts->shared_validity;
	scripts->validity_plain = base->scripts->shared_validity_plain;
	*policy = *base;
	policy->scripts = scripts;
	policy->token_kind = RL_TOKEN_SHARED;
	policy->release_by_script = 1; /* DELEX/DELIFEQ on the hash: WRONGTYPE, and our holder stays */
}

/* --- writer preference: a waiting writer's mark (rl_lock.h; docs/design/primitives.md) ------------ */

/* The mark's script (ARGV: member, ms), or the rollback that carries it (ARGV: token, member, ms). */
static void send_mark(rl_writer_mark *mark, const rl_lock_io *io, const rl_script *script, const char *token,
	double ms)
{
	char ms_text[24];
	const char *args[3];
	size_t lens[3];
	int argc = 0;
	rl_script_call call;

	if (token != NULL) {
		args[argc] = token;
		lens[argc++] = RL_TOKEN_LEN;
	}
	args[argc] = mark->member;
	lens[argc++] = mark->member_len;
	args[argc] = ms_text;
	lens[argc++] = rl_resp_decimal(ms_text, (unsigned long long) ceil(ms));
	if (rl_script_call_init(&call, script, mark->keys, argc, args, lens, RL_EXPECT_POSITIVE_INT) != 0) {
		return; /* out of memory: readers are not kept out this time (a rollback's key expires) */
	}
	io->send(io->arg, &call.request.command);
	rl_script_call_free(&call);
}

/* A lock() is named by random bytes of its own, drawn at its first mark. 0, or -1 without randomness. */
static int named(rl_writer_mark *mark, const rl_lock_io *io)
{
	unsigned char bytes[RL_TOKEN_BYTES];

	if (mark->member_len != 0) {
		return 0;
	}
	if (io->random(io->arg, bytes, sizeof(bytes)) != 0) {
		return -1;
	}
	rl_token_write(bytes, RL_TOKEN_EXCLUSIVE, 0, mark->member);
	mark->member_len = RL_TOKEN_LEN;
	return 0;
}

void rl_writer_mark_send(rl_writer_mark *mark, const rl_lock_io *io, double pause_ms)
{
	if (mark->script == NULL || named(mark, io) != 0) {
		return; /* no randomness: no mark (the attempts themselves fail on it) */
	}
	send_mark(mark, io, mark->script, NULL, (pause_ms > 0 ? pause_ms : 0) + RL_WRITER_MARK_SLACK_MS);
	mark->sent = 1;
}

void rl_writer_mark_rollback(rl_writer_mark *mark, const rl_lock_io *io, const char *token, double ms)
{
	/* the rollback goes whatever happens: unnamed, the writer is named by its attempt's token */
	if (named(mark, io) != 0) {
		memcpy(mark->member, token, RL_TOKEN_LEN);
		mark->member_len = RL_TOKEN_LEN;
	}
	send_mark(mark, io, mark->rollback, token, ms);
	mark->sent = ms > 0;
}

void rl_writer_mark_clear(rl_writer_mark *mark, const rl_lock_io *io)
{
	if (mark->script == NULL || !mark->sent) {
		return;
	}
	send_mark(mark, io, mark->script, NULL, 0);
	mark->sent = 0;
}
