/* Platform shims shared by the plain-C layers: a monotonic clock and poll(). No Zend here. */
#ifndef RL_PLATFORM_H
#define RL_PLATFORM_H

#include <stdint.h>

#ifdef _WIN32
# include <winsock2.h>
# include <windows.h>
# include <process.h>
typedef SOCKET rl_socket;
# define rl_poll WSAPoll
typedef WSAPOLLFD rl_pollfd;
#else
# include <errno.h>
# include <poll.h>
# include <time.h>
# include <sys/types.h>
# include <sys/socket.h>
# include <unistd.h>
typedef int rl_socket;
# define rl_poll poll
typedef struct pollfd rl_pollfd;
#endif

/* For the few functions of the hot path whose inlining the compiler's heuristics may drop after an
 * unrelated edit (rl_fanout_queue_private.h's rl_fanout_prepare(): about 400 instructions a drop-in cycle
 * when it did). */
#if defined(__GNUC__)
# define RL_ALWAYS_INLINE inline __attribute__((always_inline))
#elif defined(_MSC_VER)
# define RL_ALWAYS_INLINE __forceinline
#else
# define RL_ALWAYS_INLINE inline
#endif

/* This process' id: a forked child must not use the sockets it shares with its parent. */
static inline long rl_process_id(void)
{
#ifdef _WIN32
	return (long) _getpid();
#else
	return (long) getpid();
#endif
}

/* send() that never raises SIGPIPE (a dead server must not kill PHP). Bytes taken, or -1. */
static inline long rl_send(rl_socket fd, const char *bytes, size_t len)
{
#ifdef _WIN32
	return send(fd, bytes, (int) len, 0);
#elif defined(MSG_NOSIGNAL)
	return (long) send(fd, bytes, len, MSG_NOSIGNAL);
#else
	return (long) send(fd, bytes, len, 0);
#endif
}

/* recv() of what is there: bytes read, 0 at end of file, -1 (see rl_socket_would_block). */
static inline long rl_recv(rl_socket fd, char *into, size_t room)
{
#ifdef _WIN32
	return recv(fd, into, (int) room, 0);
#else
	return (long) recv(fd, into, room, 0);
#endif
}

/* After rl_recv returned -1: true when that only meant "nothing to read yet". */
static inline int rl_socket_would_block(void)
{
#ifdef _WIN32
	return WSAGetLastError() == WSAEWOULDBLOCK;
#else
	return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
#endif
}

#ifdef POLLRDHUP
# define RL_POLL_PEER_CLOSED POLLRDHUP /* Linux: tells the server's end-of-file from its data */
#else
# define RL_POLL_PEER_CLOSED 0
#endif

/* Milliseconds (with a fractional part) on a clock that never jumps: wall-clock steps
 * must not shorten or stretch a lock's validity. On Linux CLOCK_BOOTTIME, which keeps counting
 * while the system is suspended, as the servers' expiry does: CLOCK_MONOTONIC stops, and a lock
 * would look valid for as long as the laptop slept. */
/* The test clock (memory:// servers' advance(), memory/rl_memory_server.h): µs added to every
 * reading, 0 unless a test moved it. Defined in net/rl_conn.c. */
extern int64_t rl_clock_offset_us;

static inline double rl_now_ms(void)
{
#ifdef _WIN32
	static LARGE_INTEGER freq;
	LARGE_INTEGER now;
	if (freq.QuadPart == 0) {
		QueryPerformanceFrequency(&freq);
	}
	QueryPerformanceCounter(&now);
	return (double) now.QuadPart * 1000.0 / (double) freq.QuadPart;
#else
	struct timespec ts;
# ifdef CLOCK_BOOTTIME
	clock_gettime(CLOCK_BOOTTIME, &ts);
# else
	clock_gettime(CLOCK_MONOTONIC, &ts);
# endif
	{
		int64_t offset = __atomic_load_n(&rl_clock_offset_us, __ATOMIC_RELAXED);
		double ms = (double) ts.tv_sec * 1000.0 + (double) ts.tv_nsec / 1e6;
		return offset == 0 ? ms : ms + (double) offset / 1000.0;
	}
#endif
}

/* True when the last poll() failed only because a signal interrupted it. */
static inline int rl_poll_interrupted(void)
{
#ifdef _WIN32
	return WSAGetLastError() == WSAEINTR;
#else
	return errno == EINTR;
#endif
}

#endif
