/* Deterministic simulation of Redlock (ext/core/rl_lock.c) over many random schedules.
 *
 *   lock_sim [--seconds S] [--schedules N] [--seed BASE] [--stop-after K] [mutations/modes]
 *   lock_sim --replay SEED [same flags]      one schedule, with its trace
 *
 * Every schedule is generated from one 64-bit seed: rerunning it with the same flags replays it
 * exactly. The last line is "RESULT schedules=... violations=..."; the exit status is 0 without
 * a violation, 3 with one, 2 on a usage error. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim.h"

typedef struct options {
	double seconds;
	uint64_t max_schedules;
	uint64_t base_seed;
	uint64_t replay_seed;
	int replay;
	uint64_t stop_after;
	int trace_lines;
	sim_flags flags;
} options;

static double wall_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The schedule's shape: drawn from the seed too, so one number replays everything. */
static void draw_params(uint64_t seed, sim_params *p)
{
	sim_rng rng;

	rng_seed(&rng, seed);
	p->servers = rng_chance(&rng, 0.5) ? 3 : 5;
	p->clients = 2 + rng_below(&rng, SIM_MAX_CLIENTS - 1);
	/* Mostly short locks; some long ones, where a clock drift of 1% outgrows the 2 ms constant. */
	p->ttl_lo = rng_chance(&rng, 0.15) ? 500 + (int64_t) rng_below(&rng, 2000) : 10 + (int64_t) rng_below(&rng, 150);
	p->ttl_hi = p->ttl_lo * (1 + (int64_t) rng_below(&rng, 3));
	p->retry_count = 1 + (int64_t) rng_below(&rng, 6);
	p->retry_delay = (int64_t) rng_below(&rng, 60);
	p->calls_per_client = 3 + (int) rng_below(&rng, 10);
	p->think_max = rng_range(&rng, 0, (double) p->ttl_lo);
	p->fast_lo = 0.02;
	p->fast_hi = rng_range(&rng, 0.1, 3);
	p->slow_conn_p = rng_chance(&rng, 0.5) ? rng_range(&rng, 0, 0.3) : 0;
	p->slow_lo = 2;
	p->slow_hi = rng_range(&rng, 5, 2.0 * (double) p->ttl_hi);
	p->spike_p = rng_chance(&rng, 0.6) ? rng_range(&rng, 0, 0.1) : 0;
	p->spike_max = rng_range(&rng, 1, 2.0 * (double) p->ttl_hi);
	p->connect_fail_p = rng_chance(&rng, 0.3) ? rng_range(&rng, 0, 0.05) : 0;
	p->extend_p = 0.25;
	p->validity_p = 0.25;
	p->no_unlock_p = 0.2;
	p->free_p = rng_chance(&rng, 0.5) ? rng_range(&rng, 0.2, 1) : 0;
}

static void dispatch(sim_world *w, const sim_event *ev)
{
	switch (ev->kind) {
	case EV_SYN:
		world_server_syn(w, ev->a);
		break;
	case EV_SERVER_RECV:
		world_server_recv(w, ev);
		break;
	case EV_CRASH:
		world_crash(w, ev->a);
		break;
	case EV_RESTART:
		w->servers[ev->a].down = 0;
		tracef(w, -1, "s%d restarts", ev->a);
		break;
	default:
		client_on_event(w, ev);
		break;
	}
}

/* Runs one schedule to its end; the overlapping pairs of holds. */
static size_t run_schedule(sim_world *w, uint64_t seed, const sim_flags *flags, size_t *a, size_t *b)
{
	sim_params p;
	sim_event ev;
	unsigned i;
	double span;

	draw_params(seed, &p);
	world_init(w, seed, &p, flags);
	w->policy.quorum = flags->quorum_minus_one ? p.servers / 2 : rl_quorum_for(p.servers);
	w->policy.drift_factor = flags->no_drift ? 0 : RL_DEFAULT_DRIFT_FACTOR;
	w->policy.retry_delay = p.retry_delay;
	w->policy.retry_count = p.retry_count;
	w->policy.call_bound_ms = w->call_bound;
	for (i = 0; i < p.clients; i++) {
		client_start(w, (int) i);
	}
	span = (double) p.calls_per_client * (2.0 * (double) p.ttl_hi + p.think_max);
	world_schedule_faults(w, span);
	while (world_pop(w, &ev)) {
		w->st.events++;
		dispatch(w, &ev);
		if (w->st.events > 50000000) {
			sim_bug(w, "no end after 50M events");
		}
	}
	for (i = 0; i < p.clients; i++) {
		if (w->clients[i].op != OP_DONE) {
			sim_bug(w, "a client never finished its calls");
		}
	}
	return segments_check(w, a, b);
}

static void print_flags(const sim_flags *f)
{
	printf("%s%s%s%s%s%s", f->shared_token ? " --shared-token" : "", f->quorum_minus_one ? " --quorum-minus-one" : "",
		f->no_drift ? " --no-drift" : "", f->crash_lose_keys ? " --crash-lose-keys" : "",
		f->fast_restart ? " --fast-restart" : "", f->from_attempt_start ? " --from-attempt-start" : "");
}

static void describe(const sim_world *w, size_t a, size_t b)
{
	const sim_segment *x = &w->segs[a], *y = &w->segs[b];
	const sim_params *p = &w->p;

	printf("  c%d (call %d, attempt %" PRId64 " started %.3f, granted at %.3f) may use it during [%.3f, %.3f]\n",
		x->client, x->call, x->attempt, x->attempt_start, x->decided, x->start, x->end);
	printf("  c%d (call %d, attempt %" PRId64 " started %.3f, granted at %.3f) may use it during [%.3f, %.3f]\n",
		y->client, y->call, y->attempt, y->attempt_start, y->decided, y->start, y->end);
	printf("  schedule: %u servers, %u clients, ttl %" PRId64 "-%" PRId64 " ms, %" PRId64 " attempts/call, retry "
		"delay %" PRId64 " ms, spikes p=%.3f up to %.1f ms, slow conns p=%.2f up to %.1f ms\n", p->servers,
		p->clients, p->ttl_lo, p->ttl_hi, p->retry_count, p->retry_delay, p->spike_p, p->spike_max, p->slow_conn_p,
		p->slow_hi);
}

/* Replays a schedule with the trace on; prints the lines of the two clients (and the servers'
 * crashes) up to the second hold's start, the last `lines` of them. */
static size_t replay(sim_world *w, uint64_t seed, const options *o)
{
	sim_flags flags = o->flags;
	size_t a = 0, b = 0, found, k, from, shown = 0;
	int ca, cb;
	double until;

	flags.trace = 1;
	found = run_schedule(w, seed, &flags, &a, &b);
	printf("replay of seed 0x%016" PRIx64 ":", seed);
	print_flags(&flags);
	printf(" -> %zu overlapping pairs\n", found);
	if (found == 0) {
		if (w->min_slack < HUGE_VAL) {
			printf("  closest call, %.3f ms apart:\n", w->min_slack);
			describe(w, w->slack_a, w->slack_b);
		}
		return 0;
	}
	describe(w, a, b);
	ca = w->segs[a].client, cb = w->segs[b].client;
	until = w->segs[a].decided > w->segs[b].decided ? w->segs[a].decided : w->segs[b].decided;
	for (k = 0, from = 0; k < w->ntrace && w->trace[k].at <= until; k++) {
		int who = w->trace[k].client;
		if (who == ca || who == cb || who == -1) {
			shown++;
		}
	}
	from = shown > (size_t) o->trace_lines ? shown - (size_t) o->trace_lines : 0;
	printf("  trace (c%d, c%d, crashes; last %zu of %zu lines up to the later decision, %.3f; lines with !! always):\n",
		ca, cb, shown - from, shown, until);
	for (k = 0, shown = 0; k < w->ntrace && w->trace[k].at <= until; k++) {
		int who = w->trace[k].client;
		int mine = who == ca || who == cb || who == -1;
		if ((mine && shown++ >= from) || (mine && w->trace[k].marked && shown <= from)) {
			printf("    %10.3f  %s\n", w->trace[k].at, w->trace[k].text);
		}
	}
	return found;
}

static int parse(int argc, char **argv, options *o)
{
	int i;

	memset(o, 0, sizeof(*o));
	o->seconds = 10;
	o->max_schedules = UINT64_MAX;
	o->base_seed = (uint64_t) time(NULL);
	o->trace_lines = 60;
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];
		const char *value = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(arg, "--shared-token")) {
			o->flags.shared_token = 1;
		} else if (!strcmp(arg, "--quorum-minus-one")) {
			o->flags.quorum_minus_one = 1;
		} else if (!strcmp(arg, "--no-drift")) {
			o->flags.no_drift = 1;
		} else if (!strcmp(arg, "--crash-lose-keys")) {
			o->flags.crash_lose_keys = 1;
		} else if (!strcmp(arg, "--fast-restart")) {
			o->flags.crash_lose_keys = 1;
			o->flags.fast_restart = 1;
		} else if (!strcmp(arg, "--from-attempt-start")) {
			o->flags.from_attempt_start = 1;
		} else if (value && !strcmp(arg, "--seconds")) {
			o->seconds = strtod(value, NULL), i++;
		} else if (value && !strcmp(arg, "--schedules")) {
			o->max_schedules = strtoull(value, NULL, 0), i++;
		} else if (value && !strcmp(arg, "--seed")) {
			o->base_seed = strtoull(value, NULL, 0), i++;
		} else if (value && !strcmp(arg, "--replay")) {
			o->replay_seed = strtoull(value, NULL, 0), o->replay = 1, i++;
		} else if (value && !strcmp(arg, "--stop-after")) {
			o->stop_after = strtoull(value, NULL, 0), i++;
		} else if (value && !strcmp(arg, "--trace-lines")) {
			o->trace_lines = atoi(value), i++;
		} else {
			fprintf(stderr, "usage: lock_sim [--seconds S] [--schedules N] [--seed BASE] [--stop-after K]\n"
				"  [--replay SEED] [--trace-lines N] [--shared-token] [--quorum-minus-one] [--no-drift]\n"
				"  [--crash-lose-keys] [--fast-restart] [--from-attempt-start]\n");
			return -1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	options o;
	sim_world w;
	sim_stats total;
	uint64_t schedules = 0, violating = 0, pairs = 0, first_seed = 0, state;
	double start, elapsed, min_slack = HUGE_VAL;
	uint64_t slack_seed = 0;

	if (parse(argc, argv, &o) != 0) {
		return 2;
	}
	memset(&w, 0, sizeof(w));
	if (o.replay) {
		size_t found = replay(&w, o.replay_seed, &o);
		world_free(&w);
		printf("RESULT schedules=1 violations=%d\n", found > 0);
		return found > 0 ? 3 : 0;
	}
	memset(&total, 0, sizeof(total));
	printf("lock_sim: base seed 0x%016" PRIx64 ",", o.base_seed);
	print_flags(&o.flags);
	printf(" up to %.0f s\n", o.seconds);
	fflush(stdout);
	state = o.base_seed;
	start = wall_seconds();
	while (schedules < o.max_schedules) {
		uint64_t seed = sim_splitmix(&state);
		size_t a = 0, b = 0, found;
		uint64_t *from = (uint64_t *) &w.st, *to = (uint64_t *) &total;
		size_t k;

		if ((schedules & 63) == 0 && wall_seconds() - start >= o.seconds) {
			break;
		}
		found = run_schedule(&w, seed, &o.flags, &a, &b);
		schedules++;
		if (w.min_slack < min_slack) {
			min_slack = w.min_slack;
			slack_seed = seed;
		}
		for (k = 0; k < sizeof(total) / sizeof(uint64_t); k++) {
			to[k] += from[k];
		}
		if (found) {
			pairs += found;
			if (violating++ == 0) {
				first_seed = seed;
			}
			if (violating <= 5) {
				printf("VIOLATION seed 0x%016" PRIx64 " (%zu overlapping pairs); replay: lock_sim --replay 0x%016"
					PRIx64, seed, found, seed);
				print_flags(&o.flags);
				printf("\n");
				describe(&w, a, b);
			}
			if (o.stop_after && violating >= o.stop_after) {
				break;
			}
		}
	}
	elapsed = wall_seconds() - start;
	if (violating) {
		replay(&w, first_seed, &o);
	}
	printf("schedules %" PRIu64 ", lock calls %" PRIu64 ", attempts %" PRIu64 ", won %" PRIu64 ", lost %" PRIu64
		", extend %" PRIu64 "/%" PRIu64 ", validity %" PRIu64 "/%" PRIu64 ", unlocks %" PRIu64 "\n", schedules,
		total.calls, total.attempts, total.wins, total.losses, total.extends_won, total.extends, total.validities_won,
		total.validities, total.unlocks);
	printf("connects %" PRIu64 ", closed as overdue %" PRIu64 ", rollback sends queued behind owed replies %" PRIu64
		", objects freed %" PRIu64 ", pool reused %" PRIu64 "/discarded %" PRIu64 ", crashes %" PRIu64
		", NOSCRIPT %" PRIu64 ", events %" PRIu64 "\n", total.connects, total.overdue_closes, total.queued_behind,
		total.frees, total.pool_reused, total.pool_discarded, total.crashes, total.noscripts, total.events);
	printf("%.1f s: %.0f schedules/min, %.0f attempts/min; closest call: a hold used to its end was followed "
		"by another client's %.3f ms later (seed 0x%016" PRIx64 ")\n", elapsed, schedules / elapsed * 60,
		total.attempts / elapsed * 60, min_slack, slack_seed);
	printf("RESULT schedules=%" PRIu64 " attempts=%" PRIu64 " violations=%" PRIu64 " pairs=%" PRIu64
		" foreign=%" PRIu64 " first=0x%016" PRIx64 "\n", schedules, total.attempts, violating, pairs,
		total.foreign_touches, first_seed);
	world_free(&w);
	return violating ? 3 : 0;
}
