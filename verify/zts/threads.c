/* The extension on a thread-safe PHP, threaded as FrankenPHP runs it: one process, the embed SAPI,
 * every thread with its own TSRM resources (ts_resource) and its own requests
 * (php_request_startup/shutdown), all locking the same resource on the same servers.
 *
 *   threads SERVERS THREADS ROUNDS REQUESTS LOCKS
 *     SERVERS "127.0.0.1:7301,127.0.0.1:7302,..."; ROUNDS batches of THREADS threads, started
 *     after the previous batch ended (threads coming and going); each thread runs REQUESTS
 *     requests of LOCKS lock()/unlock() each.
 *
 * Checks, and exits 1 when one fails:
 *   exclusion: a counter of holders, raised after lock() returned a lock and lowered before
 *     unlock(), never exceeds 1;
 *   every unlock() of a lock we hold succeeds (a connection shared between two threads would
 *     cross their replies: wrong votes, failed unlocks, protocol errors);
 *   the servers see one connection per thread and server, however many requests a thread runs
 *     (each thread's pool is its own and outlives its requests), and none of them once the
 *     threads are gone (a thread's pool closes with it).
 * Leaks: run it under valgrind (verify/zts/run-threads.sh does). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sapi/embed/php_embed.h>

static const char *servers;
static int requests, locks;
static atomic_int holders, violations, lock_failures, unlock_failures, acquired, eval_errors;

static int eval_bool(const char *code)
{
	zval rv;
	int result = 0;

	ZVAL_UNDEF(&rv);
	zend_try {
		if (zend_eval_string((char *) code, &rv, "threads") == SUCCESS) {
			result = zend_is_true(&rv);
		} else {
			atomic_fetch_add(&eval_errors, 1);
		}
	} zend_catch {
		atomic_fetch_add(&eval_errors, 1);
	} zend_end_try();
	zval_ptr_dtor(&rv);
	return result;
}

static void *worker(void *arg)
{
	char setup[4096];
	int r, i;

	(void) arg;
	(void) ts_resource(0); /* this thread's globals: the extension's GINIT makes its pool */
	for (r = 0; r < requests; r++) {
		if (php_request_startup() == FAILURE) {
			atomic_fetch_add(&eval_errors, 1);
			continue;
		}
		snprintf(setup, sizeof(setup),
			"($GLOBALS['r'] = new RedLock(array_map(fn ($s) => [explode(':', $s)[0], (int) explode(':', $s)[1], 5.0],"
			" explode(',', '%s')), 1000, 2)) !== null", servers);
		eval_bool(setup);
		for (i = 0; i < locks; i++) {
			if (!eval_bool("is_array($GLOBALS['l'] = $GLOBALS['r']->lock('redlock-threads', 10000))")) {
				atomic_fetch_add(&lock_failures, 1); /* contention: retries ran out; not an error */
				continue;
			}
			atomic_fetch_add(&acquired, 1);
			if (atomic_fetch_add(&holders, 1) != 0) {
				atomic_fetch_add(&violations, 1);
			}
			usleep(200);
			atomic_fetch_sub(&holders, 1);
			if (!eval_bool("$GLOBALS['r']->unlock($GLOBALS['l'])")) {
				atomic_fetch_add(&unlock_failures, 1);
			}
		}
		php_request_shutdown(NULL);
	}
	ts_free_thread(); /* GSHUTDOWN: the thread's pool closes its connections */
	return NULL;
}

/* connected_clients and total_connections_received summed over the servers, read in the main
 * thread's request with a socket of its own (counted out again). */
static void server_counts(long *connected, long *accepted)
{
	char code[4096];
	zval rv;

	snprintf(code, sizeof(code),
		"(function () { $c = 0; $a = 0; foreach (explode(',', '%s') as $s) {"
		" $f = stream_socket_client('tcp://' . $s, $e, $m, 5); fwrite($f, \"INFO\\r\\n\");"
		" $n = (int) substr(fgets($f), 1); $info = ''; while (strlen($info) < $n + 2) { $info .= fread($f, $n + 2 - strlen($info)); }"
		" fclose($f); preg_match('/connected_clients:(\\d+)/', $info, $m1); preg_match('/total_connections_received:(\\d+)/', $info, $m2);"
		" $c += $m1[1] - 1; $a += $m2[1]; } return $c . ' ' . $a; })()", servers);
	ZVAL_UNDEF(&rv);
	*connected = *accepted = -1;
	if (zend_eval_string(code, &rv, "counts") == SUCCESS && Z_TYPE(rv) == IS_STRING) {
		sscanf(Z_STRVAL(rv), "%ld %ld", connected, accepted);
	}
	zval_ptr_dtor(&rv);
}

int main(int argc, char **argv)
{
	int threads, rounds, t, round, count = 1, failed = 0;
	long connected0, accepted0, connected1, accepted1, per_round;
	pthread_t *ids;

	if (argc != 6) {
		fprintf(stderr, "usage: threads SERVERS THREADS ROUNDS REQUESTS LOCKS\n");
		return 2;
	}
	servers = argv[1];
	threads = atoi(argv[2]);
	rounds = atoi(argv[3]);
	requests = atoi(argv[4]);
	locks = atoi(argv[5]);
	for (const char *p = servers; *p; p++) {
		count += *p == ',';
	}
	ids = calloc((size_t) threads, sizeof(*ids));

	php_embed_init(0, NULL); /* the main thread's module startup and request */
	if (!zend_hash_str_exists(&module_registry, "redlock", sizeof("redlock") - 1)) {
		fprintf(stderr, "the redlock extension is not loaded (PHPRC?)\n");
		return 2;
	}
	server_counts(&connected0, &accepted0);
	for (round = 0; round < rounds; round++) {
		for (t = 0; t < threads; t++) {
			pthread_create(&ids[t], NULL, worker, NULL);
		}
		for (t = 0; t < threads; t++) {
			pthread_join(ids[t], NULL);
		}
		server_counts(&connected1, &accepted1);
		per_round = accepted1 - accepted0 - (long) count; /* our own INFO connections: one per server */
		printf("round %d: %d threads came and went: connections accepted %ld (%d threads x %d servers), left open %ld\n",
			round + 1, threads, per_round, threads, count, connected1 - connected0);
		/* Every thread connects to every server, and its pool keeps the connections across its
		 * requests: fewer than one set per request. Not exactly one set: a connection whose reply owed
		 * from an earlier call is still silent past its timeout is closed and opened anew
		 * (rl_conn_begin_call), which threads under valgrind on a loaded machine did (45 of 40). */
		failed |= connected1 != connected0 || per_round < (long) threads * count
			|| (requests > 1 && per_round >= (long) threads * count * requests);
		accepted0 = accepted1;
	}
	printf("locks acquired %d, not acquired (contention) %d, exclusion violations %d, failed unlocks %d, eval errors %d\n",
		atomic_load(&acquired), atomic_load(&lock_failures), atomic_load(&violations),
		atomic_load(&unlock_failures), atomic_load(&eval_errors));
	failed |= atomic_load(&violations) || atomic_load(&unlock_failures) || atomic_load(&eval_errors)
		|| atomic_load(&acquired) == 0;
	php_embed_shutdown();
	free(ids);
	printf("%s\n", failed ? "threads: FAILED" : "threads: ok");
	return failed ? 1 : 0;
}
