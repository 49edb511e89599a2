/* Telemetry (redlock_telemetry.c): RedLock::metrics(), setObserver(), getServerWarnings() and the
 * phpinfo() rows. The observer's array and call are the runtime's (runtime/redlock_observe.h). */
#ifndef REDLOCK_TELEMETRY_H
#define REDLOCK_TELEMETRY_H

/* phpinfo() rows of the per-process counters. */
void redlock_metrics_info(void);

#endif
