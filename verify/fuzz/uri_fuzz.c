/* libFuzzer harness for the server-URI parser (ext/net/rl_uri.c, present once the URI support is
 * merged): arbitrary bytes, with several error-buffer sizes. Checks a success is a usable
 * endpoint, a failure leaves *out empty with a bounded, printable reason, and freeing twice is
 * safe. Build and run: verify/fuzz/run.sh (skipped where ext/net/rl_uri.c does not exist). */
#include <assert.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "net/rl_uri.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t error_sizes[] = {RL_URI_ERROR_MAX, 16, 1};
	size_t e;

	for (e = 0; e < sizeof(error_sizes) / sizeof(error_sizes[0]); e++) {
		char error[RL_URI_ERROR_MAX];
		rl_uri uri;
		size_t i, len;

		memset(&uri, 0x5a, sizeof(uri));
		memset(error, 0x5a, sizeof(error));
		int parsed = rl_uri_parse((const char *) data, size, &uri, error, error_sizes[e]);

		if (parsed == 0 && uri.sentinel) {
			/* sentinel://: the sentinels and the master's name, no host of its own */
			assert(uri.host == NULL && uri.sentinel_count >= 1 && uri.sentinel_count <= RL_URI_SENTINELS_MAX);
			for (i = 0; i < uri.sentinel_count; i++) {
				assert(uri.sentinel_hosts[i] != NULL && uri.sentinel_hosts[i][0] != '\0' && uri.sentinel_hosts[i][0] != '/');
				assert(uri.sentinel_ports[i] >= 1 && uri.sentinel_ports[i] <= 65535);
			}
			assert(uri.master_name != NULL && rl_uri_master_name_ok(uri.master_name, strlen(uri.master_name)));
			assert(uri.database >= 0);
		} else if (parsed == 0) {
			assert(uri.host != NULL && uri.host[0] != '\0');
			if (uri.host[0] == '/') {
				assert(uri.port == 0);
			} else {
				assert(uri.port >= 1 && uri.port <= 65535);
			}
			assert(uri.database >= 0);
			assert(!uri.has_timeout || (isfinite(uri.timeout_ms) && uri.timeout_ms >= 0));
			assert(strlen(uri.host) <= size); /* NUL-free, and never longer than the input */
		} else {
			assert(uri.host == NULL && uri.username == NULL && uri.password == NULL && uri.master_name == NULL
				&& uri.sentinel_count == 0 && uri.sentinel_password == NULL);
			len = strnlen(error, error_sizes[e]);
			assert(len < error_sizes[e]);
			for (i = 0; i < len; i++) {
				assert((unsigned char) error[i] >= 0x20 && (unsigned char) error[i] != 0x7f);
			}
		}
		rl_uri_free(&uri);
		rl_uri_free(&uri);
	}
	return 0;
}
