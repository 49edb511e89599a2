/* clockshim: moves a process's wall clock (CLOCK_REALTIME) by an offset read from a file, at run time.
 * For a redis-server in the chaos runs (issue 33): Kleppmann's first counterexample to Redlock, a
 * server's clock jumping forward, so that its keys expire early. libfaketime deadlocks with Debian's
 * jemalloc build of redis-server (its dlsym() allocates while jemalloc initialises), so this shim
 * calls the kernel directly and allocates nothing.
 *
 *   cc -O2 -shared -fPIC -o clockshim.so verify/chaos/clockshim.c
 *   CLOCKSHIM_FILE=/path/offset LD_PRELOAD=$PWD/clockshim.so redis-server ...
 *   echo 60000 > /path/offset       # the clock is now 60 s ahead (read again within 10 ms)
 *
 * The file holds signed milliseconds (missing, empty or unreadable: 0). clock_gettime() (CLOCK_REALTIME
 * and CLOCK_REALTIME_COARSE; every other clock untouched), gettimeofday() and time() are moved.
 * Tested by verify/chaos/clockshim_test.php. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define REREAD_NS 10000000LL /* the file is read again at most every 10 ms */

static _Atomic long long g_offset_ns;
static _Atomic long long g_next_read_ns;

static int raw_clock(clockid_t id, struct timespec *ts)
{
	return (int) syscall(SYS_clock_gettime, id, ts);
}

static long long parse_ms(const char *s)
{
	long long v = 0;
	int neg = 0;

	while (*s == ' ' || *s == '\t') {
		s++;
	}
	if (*s == '-' || *s == '+') {
		neg = *s == '-';
		s++;
	}
	while (*s >= '0' && *s <= '9') {
		v = v * 10 + (*s - '0');
		s++;
	}
	return neg ? -v : v;
}

static long long offset_ns(void)
{
	struct timespec m;
	long long now;
	const char *path;

	if (raw_clock(CLOCK_MONOTONIC, &m) != 0) {
		return atomic_load(&g_offset_ns);
	}
	now = (long long) m.tv_sec * 1000000000LL + m.tv_nsec;
	if (now >= atomic_load(&g_next_read_ns)) {
		atomic_store(&g_next_read_ns, now + REREAD_NS);
		path = getenv("CLOCKSHIM_FILE");
		if (path != NULL) {
			char buf[64];
			int fd = open(path, O_RDONLY | O_CLOEXEC);
			long long ms = 0;

			if (fd >= 0) {
				ssize_t n = read(fd, buf, sizeof(buf) - 1);

				close(fd);
				if (n > 0) {
					buf[n] = '\0';
					ms = parse_ms(buf);
				}
			}
			atomic_store(&g_offset_ns, ms * 1000000LL);
		}
	}
	return atomic_load(&g_offset_ns);
}

static void shift(struct timespec *ts)
{
	long long ns = (long long) ts->tv_sec * 1000000000LL + ts->tv_nsec + offset_ns();

	ts->tv_sec = (time_t) (ns / 1000000000LL);
	ts->tv_nsec = (long) (ns % 1000000000LL);
	if (ts->tv_nsec < 0) {
		ts->tv_sec--;
		ts->tv_nsec += 1000000000L;
	}
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
	int r = raw_clock(id, ts);

	if (r == 0 && (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE)) {
		shift(ts);
	}
	return r;
}

int gettimeofday(struct timeval *tv, void *tz)
{
	struct timespec ts;

	(void) tz;
	if (raw_clock(CLOCK_REALTIME, &ts) != 0) {
		return -1;
	}
	shift(&ts);
	tv->tv_sec = ts.tv_sec;
	tv->tv_usec = ts.tv_nsec / 1000;
	return 0;
}

time_t time(time_t *t)
{
	struct timespec ts;
	time_t now;

	raw_clock(CLOCK_REALTIME, &ts);
	shift(&ts);
	now = ts.tv_sec;
	if (t != NULL) {
		*t = now;
	}
	return now;
}
