/* What verify/'s C programs (the fuzzers, the simulation) share: a byte buffer's growth. Header-only. */
#ifndef VERIFY_BYTES_H
#define VERIFY_BYTES_H

#include <stdlib.h>

/* data, of capacity *cap, with room for need bytes: reallocated to twice need + 64 when short (*cap
 * updated). Aborts when memory runs out: a test tool has nothing better to do. */
static inline void *bytes_room(void *data, size_t *cap, size_t need)
{
	if (need > *cap) {
		*cap = need * 2 + 64;
		data = realloc(data, *cap);
		if (data == NULL) {
			abort();
		}
	}
	return data;
}

#endif
