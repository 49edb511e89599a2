/* run()'s registry: see redlock_running.h. */
#include "php.h"

#include "runtime/redlock_running.h"
#include "protocol/rl_list.h"

/* The objects with run() calls in progress on this PHP thread: the end of the request releases
 * what those whose stacks were abandoned still hold (redlock_running.h). */
ZEND_TLS redlock_object *running_objects;

void redlock_run_enter(redlock_object *intern)
{
	if (intern->running++ == 0 && !intern->run_listed) {
		intern->run_prev = NULL;
		intern->run_next = running_objects;
		if (running_objects) {
			running_objects->run_prev = intern;
		}
		running_objects = intern;
		intern->run_listed = true;
	}
}

static void running_unlist(redlock_object *intern)
{
	if (!intern->run_listed) {
		return;
	}
	RL_LIST_UNLINK(running_objects, intern, run_prev, run_next);
	intern->run_prev = intern->run_next = NULL;
	intern->run_listed = false;
}

void redlock_run_leave(redlock_object *intern)
{
	if (--intern->running == 0) {
		running_unlist(intern);
	}
}

/* Abandoned run() calls: their locks, of this process, released on the object's own servers. */
static void release_abandoned(redlock_object *intern)
{
	running_unlist(intern);
	if (intern->client.cluster != NULL) {
		(void) rl_client_release_pinned(&intern->client);
	}
}

void redlock_run_request_end(void)
{
	while (running_objects) {
		release_abandoned(running_objects);
	}
}

void redlock_run_object_free(redlock_object *intern)
{
	release_abandoned(intern);
}
