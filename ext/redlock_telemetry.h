/* Telemetry glue (redlock_telemetry.c): the observer's array and call, RedLock::metrics() and the
 * phpinfo() rows. Converts what the client recorded (rl_client.last, services/rl_metrics.h);
 * decides nothing. */
#ifndef REDLOCK_TELEMETRY_H
#define REDLOCK_TELEMETRY_H

#include "php.h"
#include "redlock_object.h"

/* Calls the object's observer, when it has one, with the array of its last call (client.last):
 * call is the public method's name, names the resource as the caller gave it. After the result is
 * known, before the method returns. An exception the observer throws is swallowed and counted
 * (metrics()['observer_errors']); one pending before is kept. Not reentrant: calls the observer
 * makes on the same object are not observed. */
void redlock_observe(redlock_object *intern, const char *call, const zval *names);

/* Server i's warning (getServerWarnings(), the observer's 'warning'): its maxmemory-policy can evict
 * lock keys, or is unknown; else null. From what the object's connections learnt. */
void redlock_server_warning(zval *into, const rl_cluster *cluster, size_t i);

/* phpinfo() rows of the per-process counters. */
void redlock_metrics_info(void);

#endif
