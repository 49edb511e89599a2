/* The Lua scripts the servers run. Each is atomic on its server, which is what makes
 * "delete only if it is still ours" safe. */
#ifndef RL_SCRIPTS_H
#define RL_SCRIPTS_H

/* KEYS[1] = resource, ARGV[1] = token. Deletes the key only while it still holds our token. */
#define RL_SCRIPT_UNLOCK \
	"if redis.call('GET', KEYS[1]) == ARGV[1] then\n" \
	"    return redis.call('DEL', KEYS[1])\n" \
	"else\n" \
	"    return 0\n" \
	"end\n"

#endif
