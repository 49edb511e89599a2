/* memory:// servers: see rl_memory_server.h.
 *
 * One thread serves every named server of the process. The PHP thread and it share the list of
 * servers, the stores and the clock offset under one mutex; the thread holds it only while it
 * runs a command. Sockets live in a directory made with mkdtemp() (mode 0700), removed at
 * MSHUTDOWN. A forked child inherits the listening sockets but not the thread: its connections
 * are served by the parent's thread, for as long as the parent runs. */
#ifndef _WIN32
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#endif

#include "memory/rl_memory_server.h"
#include "memory/rl_memory_store.h"
#include "net/rl_fork.h"
#include "net/rl_platform.h"
#include "net/rl_cluster.h" /* the test clock: rl_test_clock_set */

#ifdef _WIN32

int rl_memory_server_path(const char *name, size_t len, char path[RL_MEMORY_PATH_MAX], char *err, size_t err_size)
{
	(void) name;
	(void) len;
	(void) path;
	snprintf(err, err_size, "memory:// servers need unix sockets, which this platform lacks");
	return -1;
}
int rl_memory_server_set_mode(const char *name, size_t len, rl_memory_mode mode) { (void) name; (void) len; (void) mode; return -1; }
void rl_memory_server_advance(int64_t ms) { (void) ms; }
void rl_memory_server_reset(void) {}
long rl_memory_server_keys(const char *name, size_t len,
	void (*each)(void *arg, const char *key, size_t key_len, const char *kind, int64_t left), void *arg)
{
	(void) name; (void) len; (void) each; (void) arg;
	return -1;
}
void rl_memory_server_shutdown(void) {}

#else

/* Redis's own bound on a command's arguments: a renewal batch of 128 leases of many resources
 * each is one command of thousands (tests/renewal/726). */
#define MAX_ARGS (1024 * 1024)
#define MAX_PENDING (1 << 20)
#define FAILING "-ERR memory server failing on purpose (RedLockMemory::fail)\r\n" /* a client sending more unparsed bytes than this is cut off */

typedef struct mserver {
	struct mserver *next;
	char name[65];
	char path[RL_MEMORY_PATH_MAX];
	int listen_fd;        /* -1 while refusing */
	rl_memory_mode mode;
	rl_memory_store *store;
	int inherited;        /* a forked child's copy of its parent's server: the parent serves it */
} mserver;

typedef struct mclient {
	struct mclient *next;
	int fd;
	mserver *server;
	rl_memory_buf in, out;
	/* MULTI: the commands queued until EXEC, as they were sent (-1: no transaction) */
	long queued;
	rl_memory_buf transaction;
} mclient;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static mserver *servers;
static mclient *clients;          /* the thread's own */
static char directory[64];
static int wake_pipe[2] = {-1, -1};
static pthread_t thread;
static int running, stopping;
static long thread_pid;
static int64_t offset_ms;          /* the test clock's advance (also in rl_clock_offset_us) */

static int64_t store_now(void *arg)
{
	struct timespec ts;

	(void) arg;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000 + offset_ms;
}

static void wake(void)
{
	if (wake_pipe[1] >= 0) {
		ssize_t n = write(wake_pipe[1], "w", 1);
		(void) n;
	}
}

static int listen_on(mserver *s)
{
	struct sockaddr_un address;
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	if (fd < 0) {
		return -1;
	}
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	memset(&address, 0, sizeof(address));
	address.sun_family = AF_UNIX;
	memcpy(address.sun_path, s->path, strlen(s->path) + 1);
	unlink(s->path);
	if (bind(fd, (struct sockaddr *) &address, sizeof(address)) != 0 || listen(fd, 128) != 0) {
		close(fd);
		return -1;
	}
	s->listen_fd = fd;
	return 0;
}

static void client_free(mclient *c)
{
	close(c->fd);
	rl_memory_buf_free(&c->in);
	rl_memory_buf_free(&c->out);
	rl_memory_buf_free(&c->transaction);
	free(c);
}

/* The thread's clients of s are closed (it refuses now). Lock held. */
static void drop_clients_of(const mserver *s)
{
	mclient **at = &clients;

	while (*at) {
		mclient *c = *at;
		if (c->server == s) {
			*at = c->next;
			shutdown(c->fd, SHUT_RDWR); /* the client sees it closed now, not when poll() wakes */
			client_free(c);
		} else {
			at = &c->next;
		}
	}
}

static int add_text(mclient *c, const char *text)
{
	return rl_memory_buf_add(&c->out, text, strlen(text));
}

static int is_command(const char *arg, size_t len, const char *name)
{
	return len == strlen(name) && strncasecmp(arg, name, len) == 0;
}

/* The argument arrays of the command being served, grown to the largest one seen (at most
 * MAX_ARGS): one pair for every client, under the lock. */
static struct {
	const char **v;
	size_t *lens;
	size_t cap;
} args;

/* Makes room for the arguments the command at bytes declares. 0, or -1: out of memory, or more
 * than MAX_ARGS (the parser then refuses the command). */
static int args_fit(const char *bytes, size_t len)
{
	long n = len > 1 && bytes[0] == '*' ? strtol(bytes + 1, NULL, 10) : 0;
	size_t want = n > 16 ? (size_t) n : 16;
	const char **v;
	size_t *lens;

	if (want <= args.cap || n > MAX_ARGS) {
		return args.cap > 0 ? 0 : -1;
	}
	if ((v = realloc(args.v, want * sizeof(*v))) == NULL) {
		return -1;
	}
	args.v = v;
	if ((lens = realloc(args.lens, want * sizeof(*lens))) == NULL) {
		return -1;
	}
	args.lens = lens;
	args.cap = want;
	return 0;
}

/* MULTI, EXEC, DISCARD, and the commands queued between (validity() without scripts sends
 * MULTI; GET; PTTL; EXEC): 1 when it was one of those (answered), 0 when not, -1 out of memory.
 * EXEC runs the queue under the lock the whole serve() holds: atomic, as Redis's. */
static int transaction(mclient *c, int argc, const char **argv, const size_t *lens, const char *raw, size_t raw_len)
{
	if (is_command(argv[0], lens[0], "MULTI")) {
		if (c->queued >= 0) {
			return add_text(c, "-ERR MULTI calls can not be nested\r\n") != 0 ? -1 : 1;
		}
		c->queued = 0;
		c->transaction.len = 0;
		return add_text(c, "+OK\r\n") != 0 ? -1 : 1;
	}
	if (is_command(argv[0], lens[0], "DISCARD") || is_command(argv[0], lens[0], "EXEC")) {
		int exec = is_command(argv[0], lens[0], "EXEC");
		char head[32];
		size_t at = 0;
		int qargc;
		long used;

		if (c->queued < 0) {
			return add_text(c, exec ? "-ERR EXEC without MULTI\r\n" : "-ERR DISCARD without MULTI\r\n") != 0 ? -1 : 1;
		}
		if (!exec) {
			c->queued = -1;
			return add_text(c, "+OK\r\n") != 0 ? -1 : 1;
		}
		snprintf(head, sizeof(head), "*%ld\r\n", c->queued);
		if (rl_memory_buf_add(&c->out, head, strlen(head)) != 0) {
			return -1;
		}
		while (at < c->transaction.len && (used = rl_memory_parse_command(c->transaction.bytes + at,
				c->transaction.len - at, (int) args.cap, &qargc, args.v, args.lens)) > 0) {
			/* argv, the EXEC's own, is not read again: its arrays serve the queued commands */
			if (rl_memory_store_execute(c->server->store, qargc, args.v, args.lens, &c->out) < 0) {
				return -1;
			}
			at += (size_t) used;
		}
		c->queued = -1;
		c->transaction.len = 0;
		return 1;
	}
	if (c->queued < 0) {
		return 0;
	}
	if (c->transaction.len > MAX_PENDING) {
		return -1; /* a queue that never ends: closed, as too long an input is */
	}
	c->queued++;
	return rl_memory_buf_add(&c->transaction, raw, raw_len) != 0 || add_text(c, "+QUEUED\r\n") != 0
		? -1 : 1;
}

/* DEBUG SLEEP <seconds> (at most 10), as Redis's: the server is busy meanwhile, the thread holding the
 * lock as it does for any command (a fork in that window: tests/memory/995). 1 when it was that
 * command (answered), 0 when not, -1 out of memory. */
static int debug_sleep(mclient *c, int argc, const char **argv, const size_t *lens)
{
	char number[32];
	double seconds;
	struct timespec pause;

	if (!is_command(argv[0], lens[0], "DEBUG") || argc != 3 || !is_command(argv[1], lens[1], "SLEEP")) {
		return 0;
	}
	if (lens[2] == 0 || lens[2] >= sizeof(number)) {
		return add_text(c, "-ERR DEBUG SLEEP takes seconds\r\n") != 0 ? -1 : 1;
	}
	memcpy(number, argv[2], lens[2]);
	number[lens[2]] = '\0';
	seconds = strtod(number, NULL);
	seconds = seconds > 10.0 ? 10.0 : seconds < 0.0 ? 0.0 : seconds;
	pause.tv_sec = (time_t) seconds;
	pause.tv_nsec = (long) ((seconds - (double) pause.tv_sec) * 1e9);
	while (nanosleep(&pause, &pause) != 0 && errno == EINTR) {
	}
	return add_text(c, "+OK\r\n") != 0 ? -1 : 1;
}

/* Parses and answers what c sent. Lock held. -1: close it. */
static int serve(mclient *c)
{
	int argc;
	long used;

	if (c->server->mode == RL_MEMORY_SILENT) {
		/* a hung server: what it reads waits, and is answered in order once it recovers */
		return c->in.len > MAX_PENDING ? -1 : 0;
	}
	for (;;) {
		const char **argv;
		const size_t *lens;
		int rc = 0;

		if (args_fit(c->in.bytes, c->in.len) != 0) {
			return -1;
		}
		if ((used = rl_memory_parse_command(c->in.bytes, c->in.len, (int) args.cap, &argc, args.v, args.lens)) <= 0) {
			break;
		}
		argv = args.v;
		lens = args.lens;

		switch (c->server->mode) {
		case RL_MEMORY_ERROR:
			rc = rl_memory_buf_add(&c->out, FAILING, sizeof(FAILING) - 1);
			break;
		default:
			rc = c->queued < 0 ? debug_sleep(c, argc, argv, lens) : 0;
			if (rc == 0) {
				rc = transaction(c, argc, argv, lens, c->in.bytes, (size_t) used);
			}
			if (rc == 0) {
				rc = rl_memory_store_execute(c->server->store, argc, argv, lens, &c->out) < 0 ? -1 : 0;
			} else {
				rc = rc < 0 ? -1 : 0;
			}
		}
		rl_memory_buf_drop(&c->in, (size_t) used);
		if (rc != 0) {
			return -1;
		}
	}
	return used < 0 || c->in.len > MAX_PENDING ? -1 : 0;
}

static int flush(mclient *c)
{
	while (c->out.len > 0) {
		ssize_t n = send(c->fd, c->out.bytes, c->out.len, MSG_NOSIGNAL);
		if (n < 0) {
			return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
		}
		rl_memory_buf_drop(&c->out, (size_t) n);
	}
	return 0;
}

/* Unlinks c from the clients and frees it. Under the lock. */
static void drop_client(mclient *c)
{
	mclient **at;

	for (at = &clients; *at != c; at = &(*at)->next) {
	}
	*at = c->next;
	client_free(c);
}

/* The wake pipe: drained, and what a server that recovered held is answered. Under the lock. */
static void on_wake(void)
{
	char drain[64];
	mclient **at = &clients;

	while (read(wake_pipe[0], drain, sizeof(drain)) > 0) {
	}
	while (*at) { /* a server that recovered answers what it held */
		mclient *c = *at;
		if (c->in.len > 0 && (serve(c) != 0 || flush(c) != 0)) {
			*at = c->next;
			client_free(c);
		} else {
			at = &c->next;
		}
	}
}

/* A connection on s's socket: a new client, non-blocking. Under the lock. */
static void accept_client(mserver *s)
{
	int fd = accept(s->listen_fd, NULL, NULL);
	mclient *nc;

	if (fd < 0) {
		return;
	}
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	if ((nc = calloc(1, sizeof(*nc))) == NULL) {
		close(fd);
		return;
	}
	nc->fd = fd;
	nc->server = s;
	nc->queued = -1;
	nc->next = clients;
	clients = nc;
}

#define READ_CHUNK 16384

/* Client c's events: its bytes read and served, its replies flushed; dropped on an error or EOF.
 * Under the lock. 1: more may wait to be read; 0: not; -1: c was dropped (freed). */
static int on_client(mclient *c, short revents)
{
	ssize_t got = 0;

	if (revents & (POLLIN | POLLHUP | POLLERR)) {
		char chunk[READ_CHUNK];
		got = recv(c->fd, chunk, sizeof(chunk), 0);
		if (got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
			|| (got > 0 && (rl_memory_buf_add(&c->in, chunk, (size_t) got) != 0 || serve(c) != 0))) {
			drop_client(c);
			return -1;
		}
	}
	if (flush(c) != 0) {
		drop_client(c);
		return -1;
	}
	return got == READ_CHUNK ? 1 : 0;
}

#define POLL_MAX (1 + 64 + 1024)

/* The descriptors to poll: the wake pipe first, then the servers' sockets, then the clients. Under
 * the lock. Their count. */
static size_t poll_set(struct pollfd *fds, void **owner)
{
	size_t n = 0;
	mserver *s;
	mclient *c;

	fds[n].fd = wake_pipe[0];
	fds[n].events = POLLIN;
	owner[n++] = NULL;
	for (s = servers; s && n < 1 + 64; s = s->next) {
		if (s->listen_fd >= 0) {
			fds[n].fd = s->listen_fd;
			fds[n].events = POLLIN;
			owner[n++] = s;
		}
	}
	for (c = clients; c && n < POLL_MAX; c = c->next) {
		fds[n].fd = c->fd;
		fds[n].events = (short) (POLLIN | (c->out.len > 0 ? POLLOUT : 0));
		owner[n++] = c;
	}
	return n;
}

/* The descriptor of owner turned ready: a server's socket or a client still open. Under the lock. */
static void on_ready(void *owner, short revents)
{
	mserver *s;
	mclient *c;

	for (s = servers; s; s = s->next) {
		if (owner == s) {
			accept_client(s);
			return;
		}
	}
	for (c = clients; c && c != owner; c = c->next) {
	}
	if (c != NULL) { /* else closed meanwhile */
		(void) on_client(c, revents);
	}
}

static void *server_thread(void *arg)
{
	(void) arg;
	pthread_mutex_lock(&lock);
	while (!stopping) {
		struct pollfd fds[POLL_MAX];
		void *owner[POLL_MAX];
		size_t n = poll_set(fds, owner), i;

		pthread_mutex_unlock(&lock);
		if (poll(fds, (nfds_t) n, 1000) < 0 && errno != EINTR) {
			pthread_mutex_lock(&lock);
			continue;
		}
		pthread_mutex_lock(&lock);
		if (fds[0].revents) {
			on_wake();
			continue; /* the lists may have changed: build the set again */
		}
		for (i = 1; i < n && !stopping; i++) {
			if (fds[i].revents != 0) {
				on_ready(owner[i], fds[i].revents);
			}
		}
	}
	while (clients) {
		mclient *c = clients;
		clients = c->next;
		client_free(c);
	}
	pthread_mutex_unlock(&lock);
	return NULL;
}

/* Lock held. */
static mserver *find_server(const char *name, size_t len)
{
	mserver *s;

	for (s = servers; s; s = s->next) {
		if (strlen(s->name) == len && memcmp(s->name, name, len) == 0) {
			return s;
		}
	}
	return NULL;
}

/* No thread holds the lock across fork(): the thread holds it while it runs a command, and a child
 * forked then inherited it locked, so its exit (rl_memory_server_shutdown) waited for ever
 * (tests/memory/995). */
static void lock_for_fork(void)
{
	pthread_mutex_lock(&lock);
}
static void unlock_after_fork(void)
{
	pthread_mutex_unlock(&lock);
}
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
static void guard_fork(void)
{
	rl_fork_guard(lock_for_fork, unlock_after_fork, unlock_after_fork);
}

/* In a forked child, the first time it touches the servers: the parent's thread serves the parent's
 * sockets, the child's only the servers made here. The child's copies of the listening sockets are
 * closed: both threads accepting on one socket sent some of the child's connections to the child's copy
 * of the store, whose changes the parent never saw (tests/combinations/977, another process). Its
 * servers are the parent's (inherited: set_mode_locked leaves them alone), its list of clients the
 * parent thread's, never touched: a shutdown() of an inherited socket shuts the parent's too
 * (tests/memory/996). Lock held. */
static void adopt_if_forked_locked(void)
{
	mserver *s;

	if (!running || thread_pid == rl_process_id()) {
		return;
	}
	for (s = servers; s; s = s->next) {
		if (s->listen_fd >= 0) {
			close(s->listen_fd);
			s->listen_fd = -1;
		}
		s->inherited = 1;
	}
	running = 0;
	clients = NULL;
}

/* The directory, the wake pipe and the thread, once per process. Lock held. */
static int start_locked(char *err, size_t err_size)
{
	if (running && thread_pid == rl_process_id()) {
		return 0;
	}
	adopt_if_forked_locked();
	if (directory[0] == '\0') {
		const char *tmp = getenv("TMPDIR");
		snprintf(directory, sizeof(directory), "%s/redlock-memory.XXXXXX", tmp && strlen(tmp) < 32 ? tmp : "/tmp");
		if (mkdtemp(directory) == NULL) {
			directory[0] = '\0';
			snprintf(err, err_size, "memory:// servers: cannot create their socket directory (%s)", strerror(errno));
			return -1;
		}
	}
	if (wake_pipe[0] < 0) {
		int i;
		if (pipe(wake_pipe) != 0) {
			snprintf(err, err_size, "memory:// servers: no pipe (%s)", strerror(errno));
			return -1;
		}
		for (i = 0; i < 2; i++) {
			fcntl(wake_pipe[i], F_SETFD, FD_CLOEXEC);
			fcntl(wake_pipe[i], F_SETFL, fcntl(wake_pipe[i], F_GETFL) | O_NONBLOCK);
		}
	}
	stopping = 0;
	pthread_once(&fork_once, guard_fork);
	if (pthread_create(&thread, NULL, server_thread, NULL) != 0) {
		snprintf(err, err_size, "memory:// servers: no thread");
		return -1;
	}
	running = 1;
	thread_pid = rl_process_id();
	return 0;
}

int rl_memory_server_path(const char *name, size_t len, char path[RL_MEMORY_PATH_MAX], char *err, size_t err_size)
{
	mserver *s;
	int rc = -1;

	if (len == 0 || len > 64) {
		snprintf(err, err_size, "memory server name must be 1 to 64 characters");
		return -1;
	}
	pthread_mutex_lock(&lock);
	if (start_locked(err, err_size) != 0) {
		goto done;
	}
	s = find_server(name, len);
	if (s == NULL) {
		if ((s = calloc(1, sizeof(*s))) == NULL || (s->store = rl_memory_store_create(store_now, NULL)) == NULL) {
			free(s);
			snprintf(err, err_size, "out of memory");
			goto done;
		}
		rl_memory_store_set_delifeq(s->store, 1); /* as Valkey 9: unlock() without a script */
		memcpy(s->name, name, len);
		s->name[len] = '\0';
		snprintf(s->path, sizeof(s->path), "%s/%s", directory, s->name);
		s->listen_fd = -1;
		if (listen_on(s) != 0) {
			snprintf(err, err_size, "memory:// server %s: cannot listen (%s)", s->name, strerror(errno));
			rl_memory_store_destroy(s->store);
			free(s);
			goto done;
		}
		s->next = servers;
		servers = s;
		wake();
	}
	memcpy(path, s->path, strlen(s->path) + 1);
	rc = 0;
done:
	pthread_mutex_unlock(&lock);
	return rc;
}

static void set_mode_locked(mserver *s, rl_memory_mode mode)
{
	adopt_if_forked_locked(); /* a child that made no server yet: never the parent's sockets */
	if (s->inherited) {
		return; /* the parent's server: only the parent changes how it fails */
	}
	if (mode == RL_MEMORY_REFUSE && s->listen_fd >= 0) {
		/* The path stays: connecting to it is "Connection refused". close() alone is not enough:
		 * the thread's poll() holds the socket until it wakes, and a connect() in between is
		 * queued, then reset ("read: Connection reset by peer", tests/memory/991 under load).
		 * A shut-down listener refuses at once. Never in a forked child (inherited: shared). */
		shutdown(s->listen_fd, SHUT_RDWR);
		close(s->listen_fd);
		s->listen_fd = -1;
		drop_clients_of(s);
	} else if (mode != RL_MEMORY_REFUSE && s->listen_fd < 0) {
		listen_on(s);
	}
	s->mode = mode;
}

int rl_memory_server_set_mode(const char *name, size_t len, rl_memory_mode mode)
{
	mserver *s;

	pthread_mutex_lock(&lock);
	s = find_server(name, len);
	if (s != NULL) {
		set_mode_locked(s, mode);
		wake();
	}
	pthread_mutex_unlock(&lock);
	return s != NULL ? 0 : -1;
}

long rl_memory_server_advance(int64_t ms)
{
	long real = 0;

	pthread_mutex_lock(&lock);
	if (rl_test_clock_set((offset_ms + ms) * 1000, &real) == 0) {
		offset_ms += ms;
	}
	pthread_mutex_unlock(&lock);
	return real;
}

void rl_memory_server_reset(void)
{
	mserver *s;

	pthread_mutex_lock(&lock);
	for (s = servers; s; s = s->next) {
		rl_memory_store_clear(s->store);
		set_mode_locked(s, RL_MEMORY_UP);
	}
	offset_ms = 0;
	rl_test_clock_set(0, NULL); /* back to the real clock: always allowed */
	wake();
	pthread_mutex_unlock(&lock);
}

/* What s's clients already sent is served now, by the caller: a call returns once a quorum
 * answered, so the last server's command may still wait in its socket when a test reads s's keys
 * (tests/memory/990 under load). Lock held. */
static void catch_up(const mserver *s)
{
	mclient *c, *next;

	for (c = clients; c; c = next) {
		struct pollfd ready = {c->fd, POLLIN, 0};

		next = c->next; /* on_client() may free c */
		while (c->server == s && poll(&ready, 1, 0) > 0 && on_client(c, ready.revents) == 1) {
		}
	}
}

long rl_memory_server_keys(const char *name, size_t len,
	void (*each)(void *arg, const char *key, size_t key_len, const char *kind, int64_t left), void *arg)
{
	mserver *s;
	long n = -1;

	pthread_mutex_lock(&lock);
	s = find_server(name, len);
	if (s != NULL) {
		catch_up(s);
		n = (long) rl_memory_store_keys(s->store, each, arg);
	}
	pthread_mutex_unlock(&lock);
	return n;
}

void rl_memory_server_shutdown(void)
{
	pthread_mutex_lock(&lock);
	if (running && thread_pid == rl_process_id()) {
		stopping = 1;
		wake();
		pthread_mutex_unlock(&lock);
		pthread_join(thread, NULL);
		pthread_mutex_lock(&lock);
	}
	running = 0;
	free(args.v);
	free(args.lens);
	args.v = NULL;
	args.lens = NULL;
	args.cap = 0;
	while (servers) {
		mserver *s = servers;
		servers = s->next;
		if (s->listen_fd >= 0) {
			close(s->listen_fd);
		}
		if (thread_pid == rl_process_id()) {
			unlink(s->path);
		}
		rl_memory_store_destroy(s->store);
		free(s);
	}
	if (directory[0] && thread_pid == rl_process_id()) {
		rmdir(directory);
	}
	directory[0] = '\0';
	if (wake_pipe[0] >= 0) {
		close(wake_pipe[0]);
		close(wake_pipe[1]);
		wake_pipe[0] = wake_pipe[1] = -1;
	}
	pthread_mutex_unlock(&lock);
}

#endif
