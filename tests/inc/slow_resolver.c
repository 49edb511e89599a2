/* LD_PRELOAD shim for the resolver tests (5xx; built by tests/slow_resolver.inc into .run/bin/).
 * getaddrinfo() for names ending in ".slow.test" is made up from dash-separated words before
 * that suffix, the rest goes to the real one:
 *   msN-...        sleeps N ms first (then the words that follow, or 127.0.0.1)
 *   fail-...       EAI_NONAME
 *   v6first-...    ::1, then 127.0.0.1
 *   deadfirst-...  127.0.0.2 (nothing listens there in the tests), then 127.0.0.1
 * e.g. "ms1500-redis.slow.test", "ms60-deadfirst-x.slow.test". The family asked for in hints is
 * respected, as a real resolver does. SLOW_RESOLVER_LOG=FILE appends one line per made-up lookup:
 * "<name> <family asked for>".
 * PHP loads extensions with RTLD_DEEPBIND, which would bind their getaddrinfo to libc's ahead of
 * this one: dlopen() here drops that flag. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef int (*gai_fn)(const char *, const char *, const struct addrinfo *, struct addrinfo **);

static gai_fn real_getaddrinfo(void)
{
	static gai_fn real;
	if (real == NULL) {
		real = (gai_fn) dlsym(RTLD_NEXT, "getaddrinfo");
	}
	return real;
}

void *dlopen(const char *file, int mode)
{
	static void *(*real_dlopen)(const char *, int);
	if (real_dlopen == NULL) {
		real_dlopen = (void *(*)(const char *, int)) dlsym(RTLD_NEXT, "dlopen");
	}
	return real_dlopen(file, mode & ~RTLD_DEEPBIND);
}

static void log_lookup(const char *node, int family)
{
	const char *path = getenv("SLOW_RESOLVER_LOG");
	char line[512];
	int fd, len;

	if (path == NULL || *path == '\0') {
		return;
	}
	len = snprintf(line, sizeof(line), "%s %s\n", node,
		family == AF_INET ? "inet" : family == AF_INET6 ? "inet6" : "any");
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd >= 0) {
		if (write(fd, line, (size_t) len) != len) {
			/* a lost line makes the test that reads it fail: nothing else to do */
		}
		close(fd);
	}
}

/* Appends the real getaddrinfo's answer for a numeric address, unless hints exclude its family. */
static int append(struct addrinfo ***tail, const char *ip, const char *service, const struct addrinfo *hints)
{
	struct addrinfo h, *one = NULL;
	int rc;

	memset(&h, 0, sizeof(h));
	if (hints != NULL) {
		h = *hints;
	}
	h.ai_flags = (h.ai_flags & AI_NUMERICSERV) | AI_NUMERICHOST;
	h.ai_canonname = NULL;
	h.ai_addr = NULL;
	h.ai_next = NULL;
	rc = real_getaddrinfo()(ip, service, &h, &one);
	if (rc != 0) {
		return rc;
	}
	**tail = one; /* glibc's freeaddrinfo frees node by node: separate answers chain fine */
	while (one->ai_next != NULL) {
		one = one->ai_next;
	}
	*tail = &one->ai_next;
	return 0;
}

int getaddrinfo(const char *node, const char *service, const struct addrinfo *hints, struct addrinfo **res)
{
	static const char suffix[] = ".slow.test";
	size_t len = node != NULL ? strlen(node) : 0;
	struct addrinfo **tail = res;
	const char *word = node;
	const char *first = "127.0.0.1", *second = NULL;

	if (len < sizeof(suffix) - 1 || strcmp(node + len - (sizeof(suffix) - 1), suffix) != 0) {
		return real_getaddrinfo()(node, service, hints, res);
	}
	log_lookup(node, hints != NULL ? hints->ai_family : AF_UNSPEC);
	*res = NULL;
	for (;;) {
		if (strncmp(word, "ms", 2) == 0 && word[2] >= '0' && word[2] <= '9') {
			long ms = strtol(word + 2, NULL, 10);
			struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
			while (nanosleep(&ts, &ts) != 0) {
			}
		} else if (strncmp(word, "fail-", 5) == 0) {
			return EAI_NONAME;
		} else if (strncmp(word, "v6first-", 8) == 0) {
			first = "::1";
			second = "127.0.0.1";
		} else if (strncmp(word, "deadfirst-", 10) == 0) {
			first = "127.0.0.2";
			second = "127.0.0.1";
		} else {
			break;
		}
		word = strchr(word, '-');
		if (word == NULL) {
			break;
		}
		word++;
	}
	/* An address of a family hints exclude is skipped, as a real resolver would. */
	append(&tail, first, service, hints);
	if (second != NULL) {
		append(&tail, second, service, hints);
	}
	return *res != NULL ? 0 : EAI_NONAME;
}
