/* The Lua scripts the servers run. Each is atomic on its server, which is what makes
 * "delete only if it is still ours" safe. GET goes through redis.pcall: on a key of another type
 * (a lockShared() hash) it gives an error table, which is never our token, so the vote is a clean
 * "no" rather than WRONGTYPE. The scripts of lockShared(), lockSemaphore() and fencing are in
 * rl_scripts_kinds.h. */
#ifndef RL_SCRIPTS_H
#define RL_SCRIPTS_H

/* Where a release is announced to waiters ('waitTimeout', rl_notify.h): this prefix + the key. */
#define RL_NOTIFY_CHANNEL_PREFIX "redlock:released:"

/* A release announced to waiters (x: a Lua expression, the key or a fair waiter's "key:fair:w:id").
 * First SPUBLISH on the channel in x's slot -- the prefix and x when x has a hash tag, the prefix and
 * "{x}" when x holds no '}' (none otherwise) --, which a cluster member's waiter SSUBSCRIBEs to on
 * the key's master: the message stays in the key's shard. Then PUBLISH on the prefix and x as always,
 * which the other waiters SUBSCRIBE to (plain members, keys of several slots, older versions, a waiter
 * refused SSUBSCRIBE or whose sharded channel was dropped, rl_notify.c), only when that reached nobody
 * (0, or an error: a server before 7.0, an ACL without it) or when this node has a subscriber of that
 * channel (PUBSUB NUMSUB: a sharded waiter heard is no reason to leave a plain one of the same key
 * unwoken; most SUBSCRIBE on the key's master, where the release runs). A plain
 * server's release pays one more lookup of a channel nobody listens to (measured in
 * docs/design/cluster.md#sharded-wake-ups). pcall: a refused announcement never fails the release.
 * m (a Lua expression) is the message: the token whose key went (ARGV[1] mostly), '' where no token
 * went (forceUnlock(), a writer's mark, a fair waiter's own channel). A waiter ignores a message
 * carrying the token of its own attempt (its rollback: rl_notify.h) and wakes on any other, the empty
 * message of an older version included. */
#define RL_LUA_ANNOUNCE(x, m) \
	"do local x,p,m=" x ",'" RL_NOTIFY_CHANNEL_PREFIX "'," m "\n" \
	"local o=x:find('{',1,true) local c=o and x:find('}',o+1,true)\n" \
	"local s=c and c>o+1 and x or not x:find('}',1,true) and '{'..x..'}'\n" \
	"local n=s and redis.pcall('SPUBLISH',p..s,m) p=p..x\n" \
	"if type(n)~='number' or n==0 or (redis.pcall('PUBSUB','NUMSUB',p)[2] or 1)~=0 then redis.pcall('PUBLISH',p,m) end end\n"

/* KEYS[1] = resource, ARGV[1] = token. Deletes the key only while it still holds our token, and
 * then announces it to waiters in the same round trip (a PUBLISH nobody listens to is a lookup).
 * pcall: an ACL user without access to the channel (Redis 7's default for new users) still
 * releases; its waiters then wake by their backoff only. */
#define RL_SCRIPT_UNLOCK \
	"if redis.pcall('GET', KEYS[1]) == ARGV[1] then\n" \
	"    redis.call('DEL', KEYS[1])\n" \
	RL_LUA_ANNOUNCE("KEYS[1]", "ARGV[1]") \
	"    return 1\n" \
	"else\n" \
	"    return 0\n" \
	"end\n"

/* KEYS = resources, ARGV[1] = token, ARGV[2] = ttl ms. All keys or none on this server:
 * when any key exists (whoever holds it) nothing is written. Returns 1 when all were set. */
#define RL_SCRIPT_LOCK_MULTI \
	"for i = 1, #KEYS do\n" \
	"    if redis.call('EXISTS', KEYS[i]) == 1 then\n" \
	"        return 0\n" \
	"    end\n" \
	"end\n" \
	"for i = 1, #KEYS do\n" \
	"    redis.call('SET', KEYS[i], ARGV[1], 'PX', ARGV[2])\n" \
	"end\n" \
	"return 1\n"

/* KEYS = resources, ARGV[1] = token. Deletes every key that still holds our token (a release
 * frees what it can) and announces each to waiters. Returns how many it deleted when that is
 * every key, else 0: a server released the lock only where it still held all of it, as a single
 * key's release counts only where the key held our token (docs/guide/multi-resource.md). */
#define RL_SCRIPT_UNLOCK_MULTI \
	"local released = 0\n" \
	"for i = 1, #KEYS do\n" \
	"    if redis.pcall('GET', KEYS[i]) == ARGV[1] then\n" \
	"        released = released + redis.call('DEL', KEYS[i])\n" \
	RL_LUA_ANNOUNCE("KEYS[i]", "ARGV[1]") \
	"    end\n" \
	"end\n" \
	"if released < #KEYS then\n" \
	"    return 0\n" \
	"end\n" \
	"return released\n"

/* KEYS = resources, ARGV[1] = token, ARGV[2] = ttl ms. Only when every key still holds our
 * token are they all given at least the new ttl (returns 1); otherwise nothing changes (returns
 * 0), so an expired lock or one another client now holds is never prolonged. A key is never
 * shortened: an extend() delayed on the network and arriving after a later, longer one must not
 * cut short the validity the later one promised. PEXPIRE gets ARGV[2] as sent: a Lua number
 * above 10^16 or so becomes "1e+17", which Redis refuses. */
#define RL_SCRIPT_EXTEND \
	"for i = 1, #KEYS do\n" \
	"    if redis.pcall('GET', KEYS[i]) ~= ARGV[1] then\n" \
	"        return 0\n" \
	"    end\n" \
	"end\n" \
	"local ttl = tonumber(ARGV[2])\n" \
	"for i = 1, #KEYS do\n" \
	"    if redis.call('PTTL', KEYS[i]) < ttl then\n" \
	"        redis.call('PEXPIRE', KEYS[i], ARGV[2])\n" \
	"    end\n" \
	"end\n" \
	"return 1\n"

/* RL_SCRIPT_EXTEND for many locks in one call (the renewal's batch, rl_lock_extend_many_init):
 * KEYS = every lock's keys one lock after the other; ARGV = per lock three: how many of KEYS are its,
 * its token, its ttl ms. Each lock judged and extended exactly as RL_SCRIPT_EXTEND judges one (every
 * key ours, or nothing touched; a key never shortened). The reply is a status line, one character
 * per lock in ARGV's order: '1' extended, '0' not ours (RL_SCRIPT_EXTEND's 1 and 0); an error from a
 * command fails the whole call, as it fails one lock's. */
#define RL_SCRIPT_EXTEND_MANY \
	"local out, first = {}, 1\n" \
	"for j = 1, #ARGV, 3 do\n" \
	"    local last, ours = first + tonumber(ARGV[j]) - 1, '1'\n" \
	"    for i = first, last do\n" \
	"        if redis.pcall('GET', KEYS[i]) ~= ARGV[j + 1] then\n" \
	"            ours = '0'\n" \
	"            break\n" \
	"        end\n" \
	"    end\n" \
	"    if ours == '1' then\n" \
	"        local ttl = tonumber(ARGV[j + 2])\n" \
	"        for i = first, last do\n" \
	"            if redis.call('PTTL', KEYS[i]) < ttl then\n" \
	"                redis.call('PEXPIRE', KEYS[i], ARGV[j + 2])\n" \
	"            end\n" \
	"        end\n" \
	"    end\n" \
	"    out[#out + 1] = ours\n" \
	"    first = last + 1\n" \
	"end\n" \
	"return redis.status_reply(table.concat(out))\n"

/* validity() reads and writes nothing, and its scripts say so to the server: a script with the
 * no-writes flag is a read, which a master answers with its writes paused (CLIENT PAUSE WRITE, a
 * failover, min-replicas-to-write) or at its memory limit (OOM under noeviction), where an EVAL
 * without flags waits for the pause to end (past the call's bound) and a MULTI of plain reads is
 * refused with OOM (Redis 7.0.15, docs/design/acquisition-path.md#validity-a-read-to-the-server).
 * The flag is the script's first line, a shebang, which Redis < 7 cannot compile: such a server
 * gets the same script plain (the _PLAIN twins; core/rl_dialect_scripts.c, rl_scripted_held). */
#define RL_SCRIPT_NO_WRITES "#!lua flags=no-writes\n"

/* KEYS = resources, ARGV[1] = token. The smallest PTTL of the keys while every one still holds
 * our token; -2 as soon as one does not (a key without expiry gives -1: never a positive vote). */
#define RL_SCRIPT_VALIDITY RL_SCRIPT_NO_WRITES RL_SCRIPT_VALIDITY_PLAIN
#define RL_SCRIPT_VALIDITY_PLAIN \
	"local least = -2\n" \
	"for i = 1, #KEYS do\n" \
	"    if redis.pcall('GET', KEYS[i]) ~= ARGV[1] then\n" \
	"        return -2\n" \
	"    end\n" \
	"    local left = redis.call('PTTL', KEYS[i])\n" \
	"    if i == 1 or left < least then\n" \
	"        least = left\n" \
	"    end\n" \
	"end\n" \
	"return least\n"

/* KEYS = resources. forceUnlock(): deletes the keys whoever holds them (an administrative
 * release, as Laravel's forceRelease()), and announces each to waiters. Always 1. */
#define RL_SCRIPT_FORCE_UNLOCK \
	"for i = 1, #KEYS do\n" \
	"    redis.call('DEL', KEYS[i])\n" \
	RL_LUA_ANNOUNCE("KEYS[i]", "''") \
	"end\n" \
	"return 1\n"

/* The scripts of every kind, for the driver (core/rl_lock.h's rl_script_set; all sent as EVAL). */
struct rl_script_set;
const struct rl_script_set *rl_scripts(void);
/* The same with RL_SCRIPT_FAIR_UNLOCK as unlock: the set of an object with 'fair' (its releases and
 * rollbacks wake the queue's head). */
const struct rl_script_set *rl_scripts_fair(void);

/* Encodes each script's "EVAL source 1" once (rl_script.eval1_head), before any thread uses the
 * set (MINIT); without it every command is encoded whole, as before. Shutdown frees them. */
void rl_scripts_startup(void);
void rl_scripts_shutdown(void);

#endif
