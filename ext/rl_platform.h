/* Platform shims shared by the plain-C layers: a monotonic clock and poll(). No Zend here. */
#ifndef RL_PLATFORM_H
#define RL_PLATFORM_H

#include <stdint.h>

#ifdef _WIN32
# include <winsock2.h>
# include <windows.h>
typedef SOCKET rl_socket;
# define rl_poll WSAPoll
typedef WSAPOLLFD rl_pollfd;
#else
# include <errno.h>
# include <poll.h>
# include <time.h>
typedef int rl_socket;
# define rl_poll poll
typedef struct pollfd rl_pollfd;
#endif

/* Milliseconds (with a fractional part) on a clock that never jumps: wall-clock steps
 * must not shorten or stretch a lock's validity. */
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
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec * 1000.0 + (double) ts.tv_nsec / 1e6;
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

static inline void rl_sleep_ms(int ms)
{
	if (ms <= 0) {
		return;
	}
#ifdef _WIN32
	Sleep((DWORD) ms);
#else
	poll(NULL, 0, ms);
#endif
}

#endif
