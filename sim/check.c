/* The safety checker: every success (lock won, extend won, validity confirmed) gives its client
 * the interval [when the call returned, that + the validity it returned] to use the resource (the
 * validity is what is left then: the elapsed time is already off); a client stops at the latest
 * when it starts unlock(). No two clients' intervals may overlap. See sim.h. */
#include <math.h>
#include <stdlib.h>

#include "sim.h"

int segment_add(sim_world *w, int client, double start, double end)
{
	sim_segment *seg;

	if (w->nsegs == w->capsegs) {
		w->capsegs = w->capsegs ? 2 * w->capsegs : 256;
		w->segs = realloc(w->segs, w->capsegs * sizeof(*w->segs));
		if (w->segs == NULL) {
			abort();
		}
	}
	seg = &w->segs[w->nsegs];
	seg->client = client;
	seg->call = w->clients[client].call;
	seg->start = start;
	seg->end = end;
	seg->decided = w->now;
	seg->full = 1;
	seg->attempt_start = w->clients[client].acquire.attempt_start;
	seg->attempt = w->clients[client].acquire.attempt;
	tracef(w, client, "c%d may use the resource during [%.3f, %.3f]", client, start, end);
	return (int) w->nsegs++;
}

void segments_clip(sim_world *w, sim_client *c, double at)
{
	int k;

	for (k = 0; k < c->nseg; k++) {
		sim_segment *seg = &w->segs[c->seg[k]];
		if (seg->end > at || c->will_unlock) {
			seg->full = 0; /* ended early, or by unlock(): not a test of the expiry */
		}
		if (seg->end > at) {
			seg->end = at;
		}
	}
	c->nseg = 0;
}

static int by_start(const void *x, const void *y)
{
	const sim_segment *a = x, *b = y;
	return a->start < b->start ? -1 : a->start > b->start ? 1 : a->client - b->client;
}

size_t segments_check(sim_world *w, size_t *first_a, size_t *first_b)
{
	size_t i, j, found = 0;

	w->min_slack = HUGE_VAL;
	/* Run once at the end of a schedule: sorting reorders what clients' seg[] point at. */
	qsort(w->segs, w->nsegs, sizeof(*w->segs), by_start);
	for (i = 0; i < w->nsegs; i++) {
		const sim_segment *a = &w->segs[i];
		if (a->end <= a->start) {
			continue;
		}
		/* How close the schedules come to the edge: the checker's margin, for the report. */
		for (j = i + 1; a->full && j < w->nsegs; j++) {
			if (w->segs[j].client != a->client && w->segs[j].start >= a->end) {
				if (w->segs[j].start - a->end < w->min_slack) {
					w->min_slack = w->segs[j].start - a->end;
					w->slack_a = i, w->slack_b = j;
				}
				break;
			}
		}
		for (j = i + 1; j < w->nsegs && w->segs[j].start < a->end; j++) {
			const sim_segment *b = &w->segs[j];
			if (b->client != a->client && b->end > b->start) {
				if (found++ == 0) {
					*first_a = i;
					*first_b = j;
				}
			}
		}
	}
	return found;
}
