/* Unit test of ext/net/rl_resolve.c with an injected resolver (run by verify/unit/resolve_test.sh).
 * The resolver understands made-up names:
 *   msN-anything     sleeps N ms, then 127.0.0.1
 *   gate-anything    waits until the test opens the gate (set_gate), then 127.0.0.1
 *   fail-anything    EAI_NONAME at once
 *   v6first-anything ::1, then 127.0.0.1
 *   mixed-anything   ::1, ::2, 127.0.0.1, ::1 (again), 127.0.0.2: tests order and duplicates
 * Prints "FAIL" and why for each failed check and ends with "N passed, N failed"; exits 1 on any
 * failure. RL_TEST_SLOW=N (valgrind, sanitizers): time limits on our own code are multiplied by
 * N; the resolver's own delays are not. RL_TEST_NO_FORK=1 skips the fork test (for a tool that
 * cannot follow fork() in a threaded process). */
#define _GNU_SOURCE
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int test_getaddrinfo(const char *, const char *, const struct addrinfo *, struct addrinfo **);
#define RL_RESOLVE_GETADDRINFO test_getaddrinfo
#include "../../ext/net/rl_resolve.c"
#include "../../ext/net/rl_addresses.c"
#include "../../ext/net/rl_fork.c"

/* The test clock's offset lives in rl_conn.c, which this unit test does not link (rl_platform.h). */
int64_t rl_clock_offset_us;

/* The test's own pauses (threads of its own: blocking is what it wants; ext/ waits through rl_wait.h). */
static void rl_sleep_ms(int ms)
{
	poll(NULL, 0, ms);
}

static unsigned g_calls; /* test_getaddrinfo calls; __atomic: it runs on the lookup threads */
static pthread_mutex_t g_gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_gate_cond = PTHREAD_COND_INITIALIZER;
static int g_gate_open;
static int passed, failed;
static double slack = 1.0;

static unsigned calls(void)
{
	return __atomic_load_n(&g_calls, __ATOMIC_SEQ_CST);
}

#define CHECK(cond, ...) do { \
	if (cond) { passed++; } else { failed++; printf("FAIL %s:%d: %s: ", __func__, __LINE__, #cond); \
		printf(__VA_ARGS__); printf("\n"); } } while (0)

/* A copy of what the real getaddrinfo says about a numeric address, chained after *tail. */
static void append_numeric(struct addrinfo ***tail, const char *ip)
{
	struct addrinfo hints, *one = NULL;

	memset(&hints, 0, sizeof(hints));
	hints.ai_flags = AI_NUMERICHOST;
	hints.ai_socktype = SOCK_STREAM;
	if (getaddrinfo(ip, "9", &hints, &one) != 0) {
		abort();
	}
	**tail = one; /* glibc's freeaddrinfo frees node by node: a chain of separate results is fine */
	*tail = &one->ai_next;
}

static int test_getaddrinfo(const char *host, const char *service, const struct addrinfo *hints,
	struct addrinfo **res)
{
	struct addrinfo **tail = res;

	(void) service;
	(void) hints;
	__atomic_add_fetch(&g_calls, 1, __ATOMIC_SEQ_CST);
	*res = NULL;
	if (strncmp(host, "ms", 2) == 0) {
		rl_sleep_ms(atoi(host + 2));
		append_numeric(&tail, "127.0.0.1");
		return 0;
	}
	if (strncmp(host, "gate-", 5) == 0) {
		pthread_mutex_lock(&g_gate_lock);
		while (!g_gate_open) {
			pthread_cond_wait(&g_gate_cond, &g_gate_lock);
		}
		pthread_mutex_unlock(&g_gate_lock);
		append_numeric(&tail, "127.0.0.1");
		return 0;
	}
	if (strncmp(host, "v6first-", 8) == 0) {
		append_numeric(&tail, "::1");
		append_numeric(&tail, "127.0.0.1");
		return 0;
	}
	if (strncmp(host, "mixed-", 6) == 0) {
		const char *ips[] = {"::1", "::2", "127.0.0.1", "::1", "127.0.0.2"};
		size_t i;
		for (i = 0; i < 5; i++) {
			append_numeric(&tail, ips[i]);
		}
		return 0;
	}
	return EAI_NONAME;
}

static const char *text_of(const rl_addresses *a, size_t i)
{
	static char buf[4][64];
	static int k;
	socklen_t len;
	const struct sockaddr *sa = rl_addresses_get(a, i, &len);
	char *b = buf[k++ % 4];

	rl_address_text(sa, b, 64);
	return b;
}

static int port_of(const rl_addresses *a, size_t i)
{
	socklen_t len;
	const struct sockaddr *sa = rl_addresses_get(a, i, &len);

	return ntohs(sa->sa_family == AF_INET ? ((const struct sockaddr_in *) sa)->sin_port
		: ((const struct sockaddr_in6 *) sa)->sin6_port);
}

/* Waits (bounded) until the lookup's descriptor is readable; ms waited, or -1. */
static double wait_readable(rl_lookup *l, int limit_ms)
{
	double t0 = rl_now_ms();
	struct pollfd p;

	p.fd = rl_lookup_fd(l);
	p.events = POLLIN;
	p.revents = 0;
	if (poll(&p, 1, limit_ms) != 1 || !(p.revents & POLLIN)) {
		return -1;
	}
	return rl_now_ms() - t0;
}

static void wait_idle(void)
{
	double until = rl_now_ms() + 5000;

	while (rl_resolve_in_flight() > 0 && rl_now_ms() < until) {
		rl_sleep_ms(5);
	}
}

static void test_numeric(void)
{
	const char *v4[] = {"127.0.0.1", "127.1", "10.1.2.3"};
	rl_addresses *a = NULL;
	rl_lookup *l = NULL;
	char err[128] = "";
	unsigned before = calls();
	double t0;
	size_t i;
	int rc;

	for (i = 0; i < 3; i++) {
		rc = rl_resolve_start(v4[i], 7001, rl_now_ms(), &a, &l, err, sizeof(err));
		CHECK(rc == RL_RESOLVE_DONE && l == NULL && rl_addresses_count(a) == 1, "%s: rc %d", v4[i], rc);
		CHECK(a && rl_addresses_get(a, 0, &(socklen_t){0})->sa_family == AF_INET && port_of(a, 0) == 7001, "%s", v4[i]);
		rl_addresses_release(a);
	}
	rc = rl_resolve_start("::1", 7002, rl_now_ms(), &a, &l, err, sizeof(err));
	CHECK(rc == RL_RESOLVE_DONE && rl_addresses_count(a) == 1 && strcmp(text_of(a, 0), "::1") == 0
		&& port_of(a, 0) == 7002, "rc %d", rc);
	rl_addresses_release(a);
	rc = rl_resolve_start("fe80::1%lo", 7003, rl_now_ms(), &a, &l, err, sizeof(err));
	CHECK(rc == RL_RESOLVE_DONE && ((const struct sockaddr_in6 *) rl_addresses_get(a, 0, &(socklen_t){0}))->sin6_scope_id != 0,
		"scoped IPv6 literal: rc %d", rc);
	rl_addresses_release(a);
	rc = rl_resolve_start("LocalHost", 7004, rl_now_ms(), &a, &l, err, sizeof(err));
	CHECK(rc == RL_RESOLVE_DONE && rl_addresses_count(a) == 2 && strcmp(text_of(a, 0), "127.0.0.1") == 0
		&& strcmp(text_of(a, 1), "::1") == 0 && port_of(a, 1) == 7004, "localhost: rc %d", rc);
	rl_addresses_release(a);
	/* The hot path stays cheap: no lookup, no thread, nothing cached. */
	t0 = rl_now_ms();
	for (i = 0; i < 100000; i++) {
		rl_resolve_start("127.0.0.1", 6379, 0, &a, &l, err, sizeof(err));
		rl_addresses_release(a);
	}
	t0 = rl_now_ms() - t0;
	printf("numeric: %.0f ns per resolve+release of 127.0.0.1\n", t0 * 1e6 / 100000);
	CHECK(t0 < 200 * slack, "100000 numeric resolves took %.1f ms", t0);
	CHECK(calls() == before && g_cached == 0 && rl_resolve_in_flight() == 0, "calls %u cached %zu", calls() - before, g_cached);
}

static void test_slow_never_blocks(void)
{
	rl_addresses *a = NULL;
	rl_lookup *l = NULL;
	char err[128] = "";
	double t0 = rl_now_ms(), took, waited;
	unsigned before;
	struct pollfd p;
	int rc;

	/* The process' first lookup also registers the fork handlers and pins the module, once. */
	rc = rl_resolve_start("ms0-first", 7010, t0, &a, &l, err, sizeof(err));
	printf("slow: the process' first rl_resolve_start took %.3f ms\n", rl_now_ms() - t0);
	rl_lookup_release(l);
	wait_idle();
	before = calls();
	t0 = rl_now_ms();
	rc = rl_resolve_start("ms300-slow", 7010, t0, &a, &l, err, sizeof(err));

	took = rl_now_ms() - t0;
	CHECK(rc == RL_RESOLVE_PENDING && l != NULL && a == NULL, "rc %d", rc);
	CHECK(took < 1.0 * slack, "start took %.3f ms", took);
	if (l == NULL) {
		return;
	}
	printf("slow: rl_resolve_start returned pending after %.3f ms\n", took);
	p.fd = rl_lookup_fd(l);
	p.events = POLLIN;
	CHECK(p.fd >= 0 && poll(&p, 1, 0) == 0, "fd %d readable at once", p.fd);
	CHECK(rl_lookup_finish(l, &a, err, sizeof(err)) == RL_RESOLVE_PENDING && a == NULL, "finished early");
	waited = wait_readable(l, 3000);
	CHECK(waited >= 0 && rl_now_ms() - t0 >= 290, "readable after %.1f ms", rl_now_ms() - t0);
	rc = rl_lookup_finish(l, &a, err, sizeof(err));
	CHECK(rc == RL_RESOLVE_DONE && rl_addresses_count(a) == 1 && strcmp(text_of(a, 0), "127.0.0.1") == 0
		&& port_of(a, 0) == 7010, "rc %d %s", rc, err);
	CHECK(wait_readable(l, 0) >= 0, "fd no longer readable after finish");
	rl_addresses_release(a);
	rl_lookup_release(l);
	CHECK(calls() - before == 1, "%u calls", calls() - before);

	/* The cache answers now, synchronously; another port is another entry. */
	before = calls();
	rc = rl_resolve_start("ms300-slow", 7010, rl_now_ms(), &a, &l, err, sizeof(err));
	CHECK(rc == RL_RESOLVE_DONE && l == NULL && port_of(a, 0) == 7010 && calls() == before, "cache hit: rc %d", rc);
	rl_addresses_release(a);
	rc = rl_resolve_start("ms300-slow", 7011, rl_now_ms(), &a, &l, err, sizeof(err));
	CHECK(rc == RL_RESOLVE_PENDING, "other port: rc %d", rc);
	rl_lookup_release(l);
	/* Expired: looked up again. */
	rc = rl_resolve_start("ms300-slow", 7010, rl_now_ms() + RL_RESOLVE_POSITIVE_MS + 1, &a, &l, err, sizeof(err));
	CHECK(rc == RL_RESOLVE_PENDING, "expired: rc %d", rc);
	rl_lookup_release(l);
	wait_idle();
	CHECK(calls() - before == 2, "%u calls", calls() - before);
}

static void *join_thread(void *arg)
{
	rl_lookup **slot = arg;
	rl_addresses *a;
	char err[128];

	if (rl_resolve_start("gate-join", 7020, rl_now_ms(), &a, slot, err, sizeof(err)) != RL_RESOLVE_PENDING) {
		rl_addresses_release(a);
		*slot = NULL;
	}
	return NULL;
}

static void set_gate(int open)
{
	pthread_mutex_lock(&g_gate_lock);
	g_gate_open = open;
	pthread_cond_broadcast(&g_gate_cond);
	pthread_mutex_unlock(&g_gate_lock);
}

static void test_joiners_share_one_lookup(void)
{
	rl_lookup *l[8];
	pthread_t threads[8];
	unsigned before = calls();
	int i, all_pending = 1, all_same = 1, all_done = 1;

	set_gate(0); /* the lookup lasts until every joiner is in */
	for (i = 0; i < 8; i++) {
		pthread_create(&threads[i], NULL, join_thread, &l[i]);
	}
	for (i = 0; i < 8; i++) {
		pthread_join(threads[i], NULL);
		all_pending &= l[i] != NULL;
		all_same &= l[i] == l[0];
	}
	CHECK(all_pending, "a joiner did not get a pending lookup");
	CHECK(all_same, "joiners got different lookups");
	CHECK(l[0] == NULL || wait_readable(l[0], 0) < 0, "readable before the lookup ended");
	set_gate(1);
	for (i = 0; i < 8; i++) {
		rl_addresses *a = NULL;
		char err[128];
		if (l[i] == NULL) {
			continue;
		}
		/* Every joiner polls the same descriptor: it stays readable for all of them. */
		all_done &= wait_readable(l[i], 3000) >= 0 && rl_lookup_finish(l[i], &a, err, sizeof(err)) == RL_RESOLVE_DONE
			&& port_of(a, 0) == 7020;
		rl_addresses_release(a);
		rl_lookup_release(l[i]);
	}
	CHECK(all_done, "a joiner did not get the result");
	CHECK(calls() - before == 1, "%u getaddrinfo calls for 8 joiners", calls() - before);
}

static void test_negative_cache(void)
{
	rl_addresses *a = NULL;
	rl_lookup *l = NULL;
	char err[128] = "";
	unsigned before = calls();
	int rc = rl_resolve_start("fail-nx", 7030, rl_now_ms(), &a, &l, err, sizeof(err));

	CHECK(rc == RL_RESOLVE_PENDING, "rc %d", rc);
	if (rc != RL_RESOLVE_PENDING) {
		return;
	}
	CHECK(wait_readable(l, 3000) >= 0, "never readable");
	rc = rl_lookup_finish(l, &a, err, sizeof(err));
	CHECK(rc == RL_RESOLVE_FAILED && a == NULL && strcmp(err, "resolve: Name or service not known") == 0, "rc %d err '%s'", rc, err);
	rl_lookup_release(l);
	err[0] = '\0';
	rc = rl_resolve_start("fail-nx", 7030, rl_now_ms(), &a, &l, err, sizeof(err));
	CHECK(rc == RL_RESOLVE_FAILED && l == NULL && strncmp(err, "resolve: ", 9) == 0 && calls() - before == 1,
		"cached failure: rc %d err '%s' calls %u", rc, err, calls() - before);
	rc = rl_resolve_start("fail-nx", 7030, rl_now_ms() + RL_RESOLVE_NEGATIVE_MS + 1, &a, &l, err, sizeof(err));
	CHECK(rc == RL_RESOLVE_PENDING, "failure not forgotten after %.0f ms: rc %d", RL_RESOLVE_NEGATIVE_MS, rc);
	rl_lookup_release(l);
	wait_idle();
	CHECK(calls() - before == 2, "%u calls", calls() - before);
}

static void test_release_before_done(void)
{
	rl_addresses *a = NULL;
	rl_lookup *l = NULL;
	char err[128] = "";
	int rc = rl_resolve_start("ms200-gone", 7040, rl_now_ms(), &a, &l, err, sizeof(err));

	CHECK(rc == RL_RESOLVE_PENDING, "rc %d", rc);
	rl_lookup_release(l); /* the caller timed out */
	CHECK(rl_resolve_in_flight() == 1, "in flight %zu", rl_resolve_in_flight());
	wait_idle();
	rc = rl_resolve_start("ms200-gone", 7040, rl_now_ms(), &a, &l, err, sizeof(err));
	CHECK(rc == RL_RESOLVE_DONE && port_of(a, 0) == 7040, "the abandoned lookup did not fill the cache: rc %d", rc);
	rl_addresses_release(a);
	rl_lock();
	l = find_locked("ms200-gone", 7040);
	CHECK(l != NULL && l->fd[0] == -1 && l->fd[1] == -1, "a cached, finished lookup kept its pipe");
	rl_unlock();

	/* Released while in flight and pushed out of the cache: freed by its thread alone. */
	rc = rl_resolve_start("ms100-orphan", 7041, rl_now_ms(), &a, &l, err, sizeof(err));
	CHECK(rc == RL_RESOLVE_PENDING, "rc %d", rc);
	rl_resolve_shutdown();
	rl_lookup_release(l);
	wait_idle();
	CHECK(g_lookups == NULL, "a lookup outlived its thread");
}

static void test_order(void)
{
	rl_addresses *a = NULL;
	rl_lookup *l = NULL;
	char err[128] = "";
	int rc = rl_resolve_start("mixed-1", 7050, rl_now_ms(), &a, &l, err, sizeof(err));

	if (rc == RL_RESOLVE_PENDING) {
		wait_readable(l, 3000);
		rc = rl_lookup_finish(l, &a, err, sizeof(err));
		rl_lookup_release(l);
	}
	CHECK(rc == RL_RESOLVE_DONE && rl_addresses_count(a) == 4, "rc %d count %zu", rc, a ? rl_addresses_count(a) : 0);
	if (a && rl_addresses_count(a) == 4) {
		CHECK(strcmp(text_of(a, 0), "::1") == 0 && strcmp(text_of(a, 1), "127.0.0.1") == 0
			&& strcmp(text_of(a, 2), "::2") == 0 && strcmp(text_of(a, 3), "127.0.0.2") == 0,
			"order %s %s %s %s", text_of(a, 0), text_of(a, 1), text_of(a, 2), text_of(a, 3));
	}
	rl_addresses_release(a);
	rc = rl_resolve_start("v6first-1", 7051, rl_now_ms(), &a, &l, err, sizeof(err));
	if (rc == RL_RESOLVE_PENDING) {
		wait_readable(l, 3000);
		rc = rl_lookup_finish(l, &a, err, sizeof(err));
		rl_lookup_release(l);
	}
	CHECK(rc == RL_RESOLVE_DONE && rl_addresses_count(a) == 2 && strcmp(text_of(a, 0), "::1") == 0
		&& strcmp(text_of(a, 1), "127.0.0.1") == 0 && port_of(a, 1) == 7051, "v6first rc %d", rc);
	rl_addresses_release(a);
}

static void test_cache_bound(void)
{
	rl_lookup *held[RL_RESOLVE_CACHE_MAX], *extra;
	rl_addresses *a;
	char err[128], name[32];
	int i, rc, pending = 0;

	rl_resolve_shutdown();
	set_gate(0);
	for (i = 0; i < RL_RESOLVE_CACHE_MAX; i++) {
		snprintf(name, sizeof(name), "gate-bound%d", i);
		pending += rl_resolve_start(name, 7060, rl_now_ms(), &a, &held[i], err, sizeof(err)) == RL_RESOLVE_PENDING;
	}
	CHECK(pending == RL_RESOLVE_CACHE_MAX && g_cached == RL_RESOLVE_CACHE_MAX, "%d pending", pending);
	rc = rl_resolve_start("gate-one-too-many", 7060, rl_now_ms(), &a, &extra, err, sizeof(err));
	CHECK(rc == RL_RESOLVE_FAILED && extra == NULL && strcmp(err, "resolve: too many lookups in flight") == 0,
		"rc %d", rc);
	for (i = 0; i < RL_RESOLVE_CACHE_MAX; i++) {
		rl_lookup_release(held[i]);
	}
	set_gate(1);
	wait_idle();
	/* Full of finished entries: a new name pushes the one that expires first out. */
	rc = rl_resolve_start("ms1-newcomer", 7060, rl_now_ms(), &a, &extra, err, sizeof(err));
	CHECK(rc == RL_RESOLVE_PENDING && g_cached == RL_RESOLVE_CACHE_MAX, "rc %d cached %zu", rc, g_cached);
	rl_lookup_release(extra);
	wait_idle();
}

/* The child of a fork() during a lookup must not wait for the parent's thread: it restarts the
 * lookup it holds, and forgets one nobody holds. The parent's lookup (400 ms) completes 200 ms
 * after the fork, the child's own 400 ms after it: the child must see the later one. */
static void test_fork(void)
{
	rl_addresses *a = NULL;
	rl_lookup *l = NULL, *other = NULL;
	char err[128] = "";
	unsigned before = calls();
	double forked;
	pid_t pid;
	int status = -1, rc;

	rl_resolve_shutdown();
	rc = rl_resolve_start("ms400-fork", 7070, rl_now_ms(), &a, &l, err, sizeof(err));
	rl_resolve_start("ms400-unheld", 7071, rl_now_ms(), &a, &other, err, sizeof(err));
	rl_lookup_release(other); /* only the cache and its thread hold this one */
	CHECK(rc == RL_RESOLVE_PENDING, "rc %d", rc);
	rl_sleep_ms(200);
	forked = rl_now_ms();
	pid = fork();
	if (pid == 0) {
		double waited = wait_readable(l, 3000);
		int bad = 0;

		rc = rl_lookup_finish(l, &a, err, sizeof(err));
		if (waited < 0 || rl_now_ms() - forked < 350 || rc != RL_RESOLVE_DONE || port_of(a, 0) != 7070) {
			printf("FAIL fork child: waited %.1f, %.1f ms after fork, rc %d\n", waited, rl_now_ms() - forked, rc);
			bad = 1;
		}
		rl_addresses_release(a);
		rl_lookup_release(l);
		rc = rl_resolve_start("ms400-unheld", 7071, rl_now_ms(), &a, &other, err, sizeof(err));
		if (rc != RL_RESOLVE_PENDING || wait_readable(other, 3000) < 0
			|| rl_lookup_finish(other, &a, err, sizeof(err)) != RL_RESOLVE_DONE) {
			printf("FAIL fork child: the unheld lookup: rc %d\n", rc);
			bad = 1;
		}
		rl_addresses_release(a);
		rl_lookup_release(other);
		wait_idle();
		if (calls() - before != 4) { /* the parent's 2 before the fork, the child's 2 */
			printf("FAIL fork child: %u calls\n", calls() - before);
			bad = 1;
		}
		rl_resolve_shutdown();
		_exit(bad || g_lookups != NULL ? 1 : 0);
	}
	CHECK(pid > 0, "fork failed");
	CHECK(wait_readable(l, 3000) >= 0 && rl_lookup_finish(l, &a, err, sizeof(err)) == RL_RESOLVE_DONE,
		"parent: lookup did not finish");
	rl_addresses_release(a);
	rl_lookup_release(l);
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %d", status);
	wait_idle();
	CHECK(calls() - before == 2, "parent: %u calls", calls() - before);
}

/* Many threads at once (for ThreadSanitizer / helgrind): joins, hits, failures, cache flushes. */
static void *stress_thread(void *arg)
{
	const char *names[] = {"ms1-s0", "ms2-s1", "ms0-s2", "fail-s3", "127.0.0.1", "mixed-s4"};
	unsigned seed = (unsigned) (size_t) arg;
	long bad = 0;
	int i;

	for (i = 0; i < 300; i++) {
		const char *name = names[rand_r(&seed) % 6];
		rl_addresses *a = NULL;
		rl_lookup *l = NULL;
		char err[128];
		int rc = rl_resolve_start(name, 7080, rl_now_ms(), &a, &l, err, sizeof(err));

		if (rc == RL_RESOLVE_PENDING) {
			if (rand_r(&seed) % 4 == 0) { /* gives up */
				rl_lookup_release(l);
				continue;
			}
			wait_readable(l, 3000);
			rc = rl_lookup_finish(l, &a, err, sizeof(err));
			rl_lookup_release(l);
		}
		if ((name[0] == 'f') != (rc == RL_RESOLVE_FAILED) || (rc == RL_RESOLVE_DONE && port_of(a, 0) != 7080)) {
			bad++;
		}
		rl_addresses_release(a);
		if (rand_r(&seed) % 50 == 0) {
			rl_resolve_shutdown();
		}
	}
	return (void *) bad;
}

static void test_threads(void)
{
	pthread_t threads[8];
	long bad = 0;
	int i;

	for (i = 0; i < 8; i++) {
		pthread_create(&threads[i], NULL, stress_thread, (void *) (size_t) (i + 1));
	}
	for (i = 0; i < 8; i++) {
		void *r;
		pthread_join(threads[i], &r);
		bad += (long) r;
	}
	CHECK(bad == 0, "%ld wrong results", bad);
	wait_idle();
}

int main(void)
{
	double t0 = rl_now_ms();

	setvbuf(stdout, NULL, _IONBF, 0);
	if (getenv("RL_TEST_SLOW") && atoi(getenv("RL_TEST_SLOW")) > 1) {
		slack = atoi(getenv("RL_TEST_SLOW"));
	}
	test_numeric();
	test_slow_never_blocks();
	test_joiners_share_one_lookup();
	test_negative_cache();
	test_release_before_done();
	test_order();
	test_cache_bound();
	if (!(getenv("RL_TEST_NO_FORK") && atoi(getenv("RL_TEST_NO_FORK")))) {
		test_fork();
	} else {
		printf("fork test skipped (RL_TEST_NO_FORK)\n");
	}
	test_threads();
	wait_idle();
	rl_resolve_shutdown();
	CHECK(g_lookups == NULL && g_cached == 0 && g_running == 0, "left behind after shutdown");
	rl_sleep_ms(20); /* detached threads finish returning after their last unlock */
	printf("resolve_test: %.1f s\n", (rl_now_ms() - t0) / 1000);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
