/* The servers a learnt member asks: see rl_seeds.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/rl_seeds.h"
#include "net/rl_uri.h"
#include "net/rl_net_private.h"

rl_endpoint *rl_seeds_create(const rl_seeds_spec *spec)
{
	rl_endpoint *seeds = calloc(spec->count ? spec->count : 1, sizeof(*seeds));
	size_t i;

	for (i = 0; seeds != NULL && i < spec->count; i++) {
		if (rl_endpoint_set(&seeds[i], spec->hosts[i], spec->ports[i], spec->timeout_ms, spec->username,
				spec->password, spec->tls) != 0) {
			rl_seeds_free(seeds, i + 1);
			return NULL;
		}
	}
	return seeds;
}

void rl_seeds_free(rl_endpoint *seeds, size_t count)
{
	size_t i;

	for (i = 0; seeds != NULL && i < count; i++) {
		free(seeds[i].host);
		free(seeds[i].username);
		rl_secret_free(seeds[i].password);
		rl_tls_config_free(seeds[i].tls);
	}
	free(seeds);
}

char *rl_seeds_identity(const rl_endpoint *seeds, size_t count, size_t extra, size_t *at)
{
	size_t i, len = extra + 1;
	char *text;

	for (i = 0; i < count; i++) {
		len += strlen(seeds[i].host) + 10;
	}
	if ((text = malloc(len)) == NULL) {
		return NULL;
	}
	text[0] = '\0';
	*at = 0;
	for (i = 0; i < count; i++) {
		*at += (size_t) snprintf(text + *at, len - *at, strchr(seeds[i].host, ':') ? "%s[%s]:%d" : "%s%s:%d",
			i ? "," : "", seeds[i].host, seeds[i].port);
	}
	return text;
}

void rl_seeds_spec_of(const rl_endpoint *seeds, size_t count, const char **hosts, int *ports, rl_seeds_spec *spec)
{
	size_t i;

	memset(spec, 0, sizeof(*spec));
	for (i = 0; i < count && i < RL_URI_SENTINELS_MAX; i++) {
		hosts[i] = seeds[i].host;
		ports[i] = seeds[i].port;
	}
	spec->count = i;
	spec->hosts = hosts;
	spec->ports = ports;
	if (count > 0) {
		spec->username = seeds[0].username;
		spec->password = seeds[0].password;
		spec->timeout_ms = seeds[0].timeout_ms;
		spec->tls = seeds[0].tls;
	}
}
