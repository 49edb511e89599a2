/* inspect() and isLocked() of a RedLock object: core/rl_inspect.c over the client's servers, on a
 * lane of its own like every call (a coroutine may overlap it). Not a lease's business (nothing is
 * held), and not a call record: the observer and metrics() count acquisitions and what they hold. */
#include <string.h>

#include "client/rl_client.h"
#include "client/rl_client_private.h"

int rl_client_inspect(rl_client *client, const rl_lock_keys *keys, int64_t limit, rl_inspection *out)
{
	int busy;
	rl_lane *lane = rl_client_lend(client, NULL, 0, client->policy.call_bound_ms, &busy);
	int status;

	if (lane == NULL) {
		return busy ? 0 : -1;
	}
	status = rl_inspect(&lane->io, &client->policy, keys, limit, client->cluster->count, lane->outcomes, out);
	rl_client_give_back(client, lane);
	return status;
}
