/* Unit test of the clock-jump arithmetic (ext/protocol/rl_clock_jump.h), run by verify/unit/clock_test.sh.
 * Each case is a script of TIME samples on our clock: when TIME was queued, when the server read its
 * clock (its clock then: ours plus an offset that a jump changes), and when its reply was taken in,
 * which may be long after (a reply read late, among a later call's stale ones, as under valgrind in
 * CI when a server answered after the call's quorum). Prints "FAIL" and why for each failed check and
 * ends with "N passed, N failed"; exits 1 on any failure. */
#include <stdio.h>
#include <stdlib.h>

#include "protocol/rl_clock_jump.h"

static int passed, failed;

static void check(int ok, const char *what)
{
	if (ok) {
		passed++;
	} else {
		failed++;
		printf("FAIL %s\n", what);
	}
}

/* A server whose clock is ours plus offset_ms, 1,000,000 s ahead of our monotonic clock's origin. */
typedef struct sampler {
	rl_clock_ref ref;
	double jump, spread, since, seen;
} sampler;

/* One TIME: queued at sent, read by the server at read (its clock then ours + offset), taken in at recv. */
static double sample(sampler *s, double sent, double read, double recv, double offset_ms)
{
	double since, spread;
	double jump = rl_clock_sample(&s->ref, sent, recv, 1e9 + read + offset_ms, &since, &spread);

	if (jump != 0) {
		s->jump = jump;
		s->spread = spread;
		s->since = since;
		s->seen = recv;
	}
	return jump;
}

static int same(const sampler *later, const sampler *first)
{
	return rl_clock_same_jump(later->jump, later->spread, later->since, first->jump, first->spread, first->seen);
}

int main(void)
{
	sampler renewal = {0}, object = {0};
	double t;

	/* An honest clock: replies read 2 s late, round trips of 300 ms, no jump. */
	check(sample(&object, 0, 1, 2000, 0) == 0 && sample(&object, 2100, 2400, 2500, 0) == 0
		&& sample(&object, 2600, 2601, 5000, 0) == 0 && sample(&object, 5100, 5350, 5400, 0) == 0,
		"an honest clock, its replies read late, shows no jump");
	/* Drift inside the allowance: 0.5 % over 10 s, and an NTP step of 20 ms. */
	object = (sampler) {0};
	check(sample(&object, 0, 1, 2, 0) == 0 && sample(&object, 10000, 10001, 10002, 50) == 0
		&& sample(&object, 11000, 11001, 11002, 70) == 0, "drift of 0.5 % and a step of 20 ms are no jump");

	/* The case CI met (faults/124 under valgrind): +60 s at 1500. The renewal thread's samples are
	 * prompt; the object's reference reply, sent at 0, was taken in at 2000 (late, after the jump). Its
	 * midpoint is a second off, more than a fixed tolerance of 2 x 50 ms + 1 % of the jump allowed. */
	object = (sampler) {0};
	renewal = (sampler) {0};
	sample(&object, 0, 1, 2000, 0);
	sample(&renewal, 1000, 1001, 1002, 0);
	check(sample(&renewal, 2000, 2001, 2002, 60000) > 59900, "the renewal thread sees +60 s");
	t = sample(&object, 2100, 2101, 2102, 60000);
	check(t > 59000 && t - 60000 > 2 * RL_CLOCK_SLACK_MS + RL_CLOCK_DRIFT * 60000,
		"the object's estimate is off by more than a fixed tolerance (the case is the one CI met)");
	check(t - object.spread <= 60000 && 60000 <= t + object.spread, "the true jump lies within the estimate's spread");
	check(same(&object, &renewal), "the late sampler's jump is the one the renewal thread saw: counted once");

	/* The same, the other way round: the object's samples prompt, the renewal thread's late. */
	object = (sampler) {0};
	renewal = (sampler) {0};
	sample(&object, 0, 1, 2, 0);
	sample(&renewal, 100, 101, 1400, 0);
	sample(&object, 2000, 2001, 2002, 60000);
	sample(&renewal, 3000, 3001, 4900, 60000);
	check(renewal.jump != 0 && same(&renewal, &object), "a late renewal sample of the same jump: counted once");

	/* A backward jump (-5 s), one sampler late: the same jump. */
	object = (sampler) {0};
	renewal = (sampler) {0};
	sample(&object, 0, 1, 1500, 0);
	sample(&renewal, 500, 501, 502, 0);
	check(sample(&renewal, 1600, 1601, 1602, -5000) < -4900, "the renewal thread sees -5 s");
	check(sample(&object, 1700, 1701, 1702, -5000) < -4000 && same(&object, &renewal), "a backward jump seen late: counted once");

	/* Two jumps: +60 s, then +3 s more. A sampler whose reference came before both sees +63 s: not the
	 * jump the other saw, so counted (there were two). */
	object = (sampler) {0};
	renewal = (sampler) {0};
	sample(&object, 0, 1, 2, 0);
	sample(&renewal, 100, 101, 102, 0);
	sample(&renewal, 2000, 2001, 2002, 60000);
	sample(&object, 6000, 6001, 6002, 63000);
	check(object.jump > 62900 && !same(&object, &renewal), "+60 s then +3 s: the sampler that saw both counts a second jump");

	/* A jump the other way is never the same one. */
	object = (sampler) {0};
	sample(&object, 2100, 2101, 2102, 60000);
	sample(&object, 3000, 3001, 3002, 0);
	check(object.jump < -59900 && !same(&object, &renewal), "a backward jump after a forward one is another jump");

	/* A sampler whose reference came after the other saw its jump sees a later jump, even of the same size. */
	object = (sampler) {0};
	sample(&object, 3000, 3001, 3002, 60000);
	sample(&object, 4000, 4001, 4002, 120000);
	check(object.jump > 59900 && !same(&object, &renewal), "a jump after the other sampler saw one is another jump");

	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
