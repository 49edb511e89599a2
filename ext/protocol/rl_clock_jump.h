/* Clock-jump detection (docs/design/verification.md#clock-jumps): the arithmetic that compares a
 * server's clock advance (TIME, pipelined with commands that go to it anyway) with our monotonic
 * clock. Plain C, no I/O, no zvals. Here, below net/, because the vote guard that applies the rule
 * (net/rl_cluster.c) must call it on the vote it judges; core/ sits above net/ (scripts/layers.txt).
 *
 * A sample: our clock when TIME was queued (sent) and when its reply was taken in (recv), and the
 * server's time in its reply. The server read its clock somewhere in [sent, recv], so between the
 * reference sample and this one our clock advanced by at least lo = sent - ref.recv and at most
 * hi = recv - ref.sent: a loaded machine only widens the interval (round trips, late reads), it
 * never makes an honest clock look jumped. A server advance beyond hi + allowance(hi) is a forward
 * jump, below lo - allowance(hi) a backward one; the jump is the advance minus our midpoint. */
#ifndef RL_CLOCK_JUMP_H
#define RL_CLOCK_JUMP_H

#include <stdio.h>
#include <string.h>

#include "protocol/rl_hiredis_reader.h"

/* The drift allowed between two samples: Redlock's own clock drift factor (1 % of the time between
 * them; NTP slews at most 0.05 %) plus a fixed slack for the clocks' granularity and small NTP steps
 * (a step of this size is inside what the lock's validity already subtracts for drift on its ttl). */
#define RL_CLOCK_DRIFT 0.01
#define RL_CLOCK_SLACK_MS 50.0
/* Other calls (lock(), unlock(), ...) send TIME to a server at most this often per connection; held-lock calls (validity(),
 * extend(), renewals) send it every time. */
#define RL_CLOCK_SAMPLE_MS 1000.0

typedef struct rl_clock_ref {
	double sent, recv;    /* our rl_now_ms() around the reference TIME */
	double server_ms;     /* the server's time in it; 0: no reference yet */
} rl_clock_ref;

static inline double rl_clock_allowance(double elapsed_ms)
{
	return RL_CLOCK_DRIFT * elapsed_ms + RL_CLOCK_SLACK_MS;
}

/* TIME's reply ([seconds, microseconds] as strings) in ms: 1, or 0 when it is not one. */
static inline int rl_clock_parse_time(const rl_reply *reply, double *server_ms)
{
	double part[2] = {0, 0};
	size_t k, n;

	if (reply->type != RL_REPLY_ARRAY || reply->integer != 2 || reply->items == NULL) {
		return 0;
	}
	for (k = 0; k < 2; k++) {
		const rl_reply_item *item = &reply->items[k];

		if (item->type != RL_REPLY_STRING || item->str == NULL || item->len == 0 || item->len > 15) {
			return 0;
		}
		for (n = 0; n < item->len; n++) {
			if (item->str[n] < '0' || item->str[n] > '9') {
				return 0;
			}
			part[k] = part[k] * 10 + (item->str[n] - '0');
		}
	}
	*server_ms = part[0] * 1000.0 + part[1] / 1000.0;
	return *server_ms > 0;
}

/* Takes a sample in: the jump it shows (signed ms, 0 when within the allowance, or on the first
 * sample), and the sample becomes the reference. *since: our clock after which the jump happened:
 * the reference's send, since the server read its clock somewhere after it (its reply may come much
 * later: a second sampler whose reference reply came after the first one saw the jump still saw the
 * same jump, and counted it twice under valgrind). *spread: how far the true jump may lie from the
 * one returned, either way: half the interval our clock's advance is known to within, plus the
 * allowance (a reply read late, among a later call's stale ones, widens it by its lateness). */
static inline double rl_clock_sample(rl_clock_ref *ref, double sent, double recv, double server_ms, double *since,
	double *spread)
{
	double lo, hi, advance, jump = 0;

	*since = ref->sent;
	*spread = 0;
	if (ref->server_ms > 0 && recv >= ref->sent) {
		lo = sent - ref->recv;
		hi = recv - ref->sent;
		advance = server_ms - ref->server_ms;
		if (advance > hi + rl_clock_allowance(hi) || advance < lo - rl_clock_allowance(hi)) {
			jump = advance - (lo + hi) / 2.0;
			*spread = (hi - lo) / 2.0 + rl_clock_allowance(hi);
		}
	}
	ref->sent = sent;
	ref->recv = recv;
	ref->server_ms = server_ms;
	return jump;
}

/* Whether a jump seen by one connection, after since, is the one another connection to the same
 * server saw at seen_at (the object's and the renewal thread's each sample it): counted once. The
 * same jump lies within both samples' spreads, however late either reply was read; a fixed tolerance
 * counted one jump twice when one reply was read a second late (CI, under valgrind). */
static inline int rl_clock_same_jump(double jump, double spread, double since, double last_jump, double last_spread,
	double seen_at)
{
	double diff = jump - last_jump;

	return (jump > 0) == (last_jump > 0) && since <= seen_at && (diff < 0 ? -diff : diff) <= spread + last_spread;
}

/* The warning for a jump: "clock jumped +60012 ms" and what it means for votes. */
static inline const char *rl_clock_jump_warning(double jump_ms, char *out, size_t size)
{
	snprintf(out, size, jump_ms > 0
		? "clock jumped %+.0f ms: its votes for locks taken before the jump do not count"
		: "clock jumped %+.0f ms (backward: its keys outlive their ttl; votes unchanged)", jump_ms);
	return out;
}

#endif
