/* inspect() and isLocked() of a RedLock object: core/rl_inspect.c over the client's servers. Not
 * a lease's business (nothing is held), and not a call record: the observer and metrics() count
 * acquisitions and what they hold. */
#include "client/rl_client.h"

int rl_client_inspect(rl_client *client, const rl_lock_keys *keys, int64_t limit, rl_inspection *out)
{
	return rl_inspect(&client->io, &client->policy, keys, limit, client->cluster->count, client->outcomes, out);
}
