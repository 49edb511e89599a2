/* Waiting on several connections: the one poll() every caller uses (the fan-out, the renewal
 * thread through it, notified waiting), through rl_wait_poll (a coroutine yields there). See rl_conn.h. */
#include <math.h>

#include "net/rl_conn.h"
#include "net/rl_wait.h"

int rl_conn_poll_timeout(double wait_until, double now)
{
	double left;

	if (wait_until == HUGE_VAL) {
		return -1;
	}
	left = wait_until - now;
	if (left <= 0) {
		return 0;
	}
	if (left > 1e9) {
		return 1000000000; /* poll() takes an int: never past 2^31 ms */
	}
	{
		/* ceil() without the call into libm: a wait is rounded up, never cut short */
		int whole = (int) left;
		return whole < left ? whole + 1 : whole;
	}
}

int rl_conn_poll(rl_pollfd *fds, const size_t *owner, size_t used, const rl_conn *conns, double wait_until,
	double now)
{
	int timeout = rl_conn_poll_timeout(wait_until, now);
	int buffered = 0, ready;
	size_t k;

	if (used == 0) {
		rl_wait_sleep_ms(timeout);
		return 0;
	}
	for (k = 0; k < used; k++) {
		buffered |= rl_conn_buffered(&conns[owner[k]]);
	}
	ready = rl_wait_poll(fds, (unsigned long) used, buffered ? 0 : timeout);
	if (buffered && ready >= 0) {
		ready = 0;
		for (k = 0; k < used; k++) {
			if (rl_conn_buffered(&conns[owner[k]])) {
				fds[k].revents |= POLLIN;
			}
			ready += fds[k].revents != 0;
		}
	}
	return ready;
}
