/* The Lua scripts of lockShared(), lockSemaphore() and fencing (see docs/design/primitives.md for the
 * arguments). Every expiry is the server's: PX, PEXPIRE and redis.call('TIME'), never a client
 * clock. Keys derived from KEYS[1] inside a script (semaphore slots, fence counters) are fine on
 * independent masters; they would not be on Redis Cluster. */
#ifndef RL_SCRIPTS_PRIMITIVES_H
#define RL_SCRIPTS_PRIMITIVES_H

#include "core/rl_scripts.h" /* RL_NOTIFY_CHANNEL_PREFIX */

/* The suffixes of the derived keys: the slot keys "<key>:slot:<i>" and the fence counter
 * "<key>:fence". Also built in C (the slot key of unlock()/extend()/validity()). */
#define RL_SLOT_SUFFIX ":slot:"
#define RL_FENCE_SUFFIX ":fence"
/* The waiting writers of a resource: a sorted set "<key>:writers", member -> its expiry (server ms).
 * See RL_SCRIPT_WRITER_MARK. */
#define RL_WRITERS_SUFFIX ":writers"

/* Server time in ms, for the shared holders' deadlines. */
#define RL_LUA_NOW \
	"local t = redis.call('TIME')\n" \
	"local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)\n"

/* The shared holders (a hash token -> deadline) whose deadline has passed, or that hold no number,
 * are dropped, and latest (set before, by the script) is raised to the latest remaining deadline:
 * what lockShared() and unlocking a shared holder both do. On a key that is not there (HGETALL: an
 * empty list) it does nothing. */
#define RL_LUA_DROP_EXPIRED_HOLDERS \
	"local all = redis.call('HGETALL', KEYS[1])\n" \
	"for i = 1, #all, 2 do\n" \
	"    local d = tonumber(all[i + 1])\n" \
	"    if d == nil or d <= now then\n" \
	"        redis.call('HDEL', KEYS[1], all[i])\n" \
	"    elseif d > latest then\n" \
	"        latest = d\n" \
	"    end\n" \
	"end\n"

/* --- shared: the key is a hash token -> deadline (server ms); its PEXPIRE is the latest one ---- */

/* KEYS[1] = resource, ARGV[1] = token, ARGV[2] = ttl ms. Refuses (0) when the key is anything
 * but a hash (a lock() holder's string), or while a writer waits (a live member of the resource's
 * RL_WRITERS_SUFFIX set: writer preference, docs/design/primitives.md); drops expired holders, adds ours, and makes the key live
 * until the latest holder's deadline. 1 when added. */
#define RL_SCRIPT_SHARED_LOCK \
	RL_LUA_NOW \
	"local kind = redis.call('TYPE', KEYS[1])['ok']\n" \
	"if kind ~= 'none' and kind ~= 'hash' then\n" \
	"    return 0\n" \
	"end\n" \
	"if redis.call('ZCOUNT', KEYS[1] .. '" RL_WRITERS_SUFFIX "', '(' .. now, '+inf') > 0 then\n" \
	"    return 0\n" \
	"end\n" \
	"local deadline = now + tonumber(ARGV[2])\n" \
	"local latest = deadline\n" \
	RL_LUA_DROP_EXPIRED_HOLDERS \
	"redis.call('HSET', KEYS[1], ARGV[1], deadline)\n" \
	"redis.call('PEXPIRE', KEYS[1], latest - now)\n" \
	"return 1\n"

/* KEYS[1] = resource, ARGV[1] = token. Removes our holder; the key then lives until the latest
 * remaining deadline, or goes when none is left (announced to lock() waiters, as RL_SCRIPT_UNLOCK does). 1 when our holder was there and not expired. */
#define RL_SCRIPT_SHARED_UNLOCK \
	"if redis.call('TYPE', KEYS[1])['ok'] ~= 'hash' then\n" \
	"    return 0\n" \
	"end\n" \
	RL_LUA_NOW \
	"local mine = tonumber(redis.call('HGET', KEYS[1], ARGV[1]))\n" \
	"if mine == nil then\n" \
	"    return 0\n" \
	"end\n" \
	"redis.call('HDEL', KEYS[1], ARGV[1])\n" \
	"local latest = 0\n" \
	RL_LUA_DROP_EXPIRED_HOLDERS \
	"if latest <= now then\n" \
	"    redis.call('DEL', KEYS[1])\n" \
	RL_LUA_ANNOUNCE("KEYS[1]", "ARGV[1]") \
	"else\n" \
	"    redis.call('PEXPIRE', KEYS[1], latest - now)\n" \
	"end\n" \
	"if mine <= now then\n" \
	"    return 0\n" \
	"end\n" \
	"return 1\n"

/* KEYS[1] = resource, ARGV[1] = token, ARGV[2] = ttl ms. Our holder, while alive, gets at least
 * ttl more (never less than it has), and the key lives at least as long. 1 when done. */
#define RL_SCRIPT_SHARED_EXTEND \
	"if redis.call('TYPE', KEYS[1])['ok'] ~= 'hash' then\n" \
	"    return 0\n" \
	"end\n" \
	RL_LUA_NOW \
	"local mine = tonumber(redis.call('HGET', KEYS[1], ARGV[1]))\n" \
	"if mine == nil or mine <= now then\n" \
	"    return 0\n" \
	"end\n" \
	"local ttl = tonumber(ARGV[2])\n" \
	"if now + ttl > mine then\n" \
	"    redis.call('HSET', KEYS[1], ARGV[1], now + ttl)\n" \
	"end\n" \
	"if redis.call('PTTL', KEYS[1]) < ttl then\n" \
	"    redis.call('PEXPIRE', KEYS[1], ARGV[2])\n" \
	"end\n" \
	"return 1\n"

/* KEYS[1] = resource, ARGV[1] = token. Ms our holder has left (bounded by the key's PTTL), or
 * -2 when it is gone. Sent with the no-writes flag, plain to a server without flags
 * (RL_SCRIPT_NO_WRITES, rl_scripts.h). */
#define RL_SCRIPT_SHARED_VALIDITY RL_SCRIPT_NO_WRITES RL_SCRIPT_SHARED_VALIDITY_PLAIN
#define RL_SCRIPT_SHARED_VALIDITY_PLAIN \
	"if redis.call('TYPE', KEYS[1])['ok'] ~= 'hash' then\n" \
	"    return -2\n" \
	"end\n" \
	RL_LUA_NOW \
	"local mine = tonumber(redis.call('HGET', KEYS[1], ARGV[1]))\n" \
	"if mine == nil or mine <= now then\n" \
	"    return -2\n" \
	"end\n" \
	"local left = mine - now\n" \
	"local pttl = redis.call('PTTL', KEYS[1])\n" \
	"if pttl < left then\n" \
	"    left = pttl\n" \
	"end\n" \
	"return left\n"

/* --- converting a held lock: promote() (shared -> exclusive), demote() (exclusive -> shared) ------ */

/* KEYS[1] = resource, ARGV[1] = the new exclusive token, ARGV[2] = ttl ms, ARGV[3] = our shared
 * token, ARGV[4] = '1' to count a fence. Only where our holder is the one live holder of the hash
 * (0 elsewhere: another reader, or ours gone): the hash becomes our exclusive key, as lock()'s SET
 * PX, and with a fence the resource's counter is INCRed as a fenced lock()'s is. 1, or the fence.
 * -1 when another live reader is itself a waiting promoter (its token a live member of the
 * writers' set) with a smaller token: the two would wait for each other, so the larger gives up at
 * once (rl_acquire_stop_if_refused) and the smaller goes on waiting. */
#define RL_SCRIPT_PROMOTE \
	"if redis.call('TYPE', KEYS[1])['ok'] ~= 'hash' then\n" \
	"    return 0\n" \
	"end\n" \
	RL_LUA_NOW \
	"local mine = false\n" \
	"local others = false\n" \
	"local all = redis.call('HGETALL', KEYS[1])\n" \
	"for i = 1, #all, 2 do\n" \
	"    local d = tonumber(all[i + 1])\n" \
	"    if d ~= nil and d > now then\n" \
	"        if all[i] ~= ARGV[3] then\n" \
	"            local w = tonumber(redis.call('ZSCORE', KEYS[1] .. '" RL_WRITERS_SUFFIX "', all[i]))\n" \
	"            if w ~= nil and w > now and all[i] < ARGV[3] then\n" \
	"                return -1\n" \
	"            end\n" \
	"            others = true\n" \
	"        else\n" \
	"            mine = true\n" \
	"        end\n" \
	"    end\n" \
	"end\n" \
	"if others or not mine then\n" \
	"    return 0\n" \
	"end\n" \
	"redis.call('DEL', KEYS[1])\n" \
	"redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])\n" \
	"if ARGV[4] == '1' then\n" \
	"    return redis.call('INCR', KEYS[1] .. '" RL_FENCE_SUFFIX "')\n" \
	"end\n" \
	"return 1\n"

/* KEYS[1] = resource, ARGV[1] = the exclusive token, ARGV[2] = ttl ms, ARGV[3] = the shared token.
 * Only where the key holds the exclusive token: it becomes a hash whose one holder is the shared
 * token for ttl, and readers waiting on the key are woken. 1 when done. demote(), and the
 * rollback of a promote() attempt (its own new token back to our shared holder). */
#define RL_SCRIPT_DEMOTE \
	"if redis.pcall('GET', KEYS[1]) ~= ARGV[1] then\n" \
	"    return 0\n" \
	"end\n" \
	RL_LUA_NOW \
	"redis.call('DEL', KEYS[1])\n" \
	"redis.call('HSET', KEYS[1], ARGV[3], now + tonumber(ARGV[2]))\n" \
	"redis.call('PEXPIRE', KEYS[1], ARGV[2])\n" \
	RL_LUA_ANNOUNCE("KEYS[1]", "ARGV[1]") \
	"return 1\n"

/* KEYS[1] = resource, ARGV[1] = the exclusive token, ARGV[2] = ttl (unused), ARGV[3] = the shared
 * token. The rollback of a demote() that failed: whichever form of ours the server has goes (the
 * exclusive key, or our holder in the hash; an empty hash with it). 1 when something was ours. */
#define RL_SCRIPT_DEMOTE_ROLLBACK \
	"local kind = redis.call('TYPE', KEYS[1])['ok']\n" \
	"local gone = 0\n" \
	"if kind == 'string' and redis.call('GET', KEYS[1]) == ARGV[1] then\n" \
	"    redis.call('DEL', KEYS[1])\n" \
	"    gone = 1\n" \
	"elseif kind == 'hash' then\n" \
	"    gone = redis.call('HDEL', KEYS[1], ARGV[3])\n" \
	"    if redis.call('HLEN', KEYS[1]) > 0 then\n" \
	"        return gone\n" \
	"    end\n" \
	"    redis.call('DEL', KEYS[1])\n" \
	"end\n" \
	"if gone == 1 then\n" \
	RL_LUA_ANNOUNCE("KEYS[1]", "ARGV[3]") \
	"end\n" \
	"return gone\n"

/* --- writer preference: a waiting lock() or promote() keeps new readers out ------------------- */

/* One key's mark (key, member, ms and now set before): ms > 0: the writer's mark in the key's set of
 * waiting writers, expiring ms from now (server time); only where the key holds readers (a hash) or
 * the mark is there already, so that writers waiting for writers leave nothing. ms = 0: the mark
 * goes; when no live mark is left and no lock() holds the key, readers waiting on it are woken (as
 * RL_SCRIPT_UNLOCK wakes them). Expired marks are dropped and the set lives as long as its latest. */
#define RL_LUA_WRITER_MARK_ONE \
	"local w = key .. '" RL_WRITERS_SUFFIX "'\n" \
	"local gone = 0\n" \
	"if ms > 0 then\n" \
	"    if redis.call('TYPE', key)['ok'] == 'hash' or redis.call('ZSCORE', w, member) then\n" \
	"        redis.call('ZADD', w, now + ms, member)\n" \
	"    end\n" \
	"else\n" \
	"    gone = redis.call('ZREM', w, member)\n" \
	"end\n" \
	"redis.call('ZREMRANGEBYSCORE', w, '-inf', now)\n" \
	"local last = redis.call('ZRANGE', w, -1, -1, 'WITHSCORES')\n" \
	"if last[2] then\n" \
	"    redis.call('PEXPIRE', w, tonumber(last[2]) - now)\n" \
	"elseif gone == 1 and redis.call('TYPE', key)['ok'] ~= 'string' then\n" \
	RL_LUA_ANNOUNCE("key", "''") \
	"end\n"

/* KEYS = resources, ARGV[1] = the waiting writer (random bytes of a lock(), the shared token of a
 * promote()), ARGV[2] = ms: RL_LUA_WRITER_MARK_ONE on each key. Sent without waiting; 1. */
#define RL_SCRIPT_WRITER_MARK \
	RL_LUA_NOW \
	"local ms = tonumber(ARGV[2])\n" \
	"local member = ARGV[1]\n" \
	"for i = 1, #KEYS do\n" \
	"    local key = KEYS[i]\n" \
	RL_LUA_WRITER_MARK_ONE \
	"end\n" \
	"return 1\n"

/* KEYS[1] = resource, ARGV[1] = the attempt's token, ARGV[2] = the waiting writer, ARGV[3] = ms. The
 * rollback of a failed lock() attempt of one resource that carries the writer's mark (no command
 * more than without it): RL_SCRIPT_UNLOCK's release of our key, then RL_LUA_WRITER_MARK_ONE. 1 when
 * our key was there. */
#define RL_SCRIPT_ROLLBACK_MARK \
	"local released = 0\n" \
	"local held = redis.pcall('GET', KEYS[1])\n" \
	"if held == ARGV[1] then\n" \
	"    redis.call('DEL', KEYS[1])\n" \
	RL_LUA_ANNOUNCE("KEYS[1]", "ARGV[1]") \
	"    released = 1\n" \
	"end\n" \
	RL_LUA_NOW \
	"local ms = tonumber(ARGV[3])\n" \
	"local member = ARGV[2]\n" \
	"local key = KEYS[1]\n" \
	RL_LUA_WRITER_MARK_ONE \
	"return released\n"

/* --- semaphore: slots "<key>:slot:0" .. "<key>:slot:<limit-1>", each an ordinary lock key ------- */

/* KEYS[1] = resource, ARGV[1] = token, ARGV[2] = ttl ms, limit set. Takes the first free
 * slot, starting at one picked by the token (hex characters 2-7: the first is the token's kind
 * mark), so that every server tries the slots in the same order for this attempt. slot + 1, or
 * 0 when all are taken. */
#define RL_LUA_SEMAPHORE_TAKE_SLOT \
	"local start = tonumber(string.sub(ARGV[1], 2, 7), 16) % limit\n" \
	"for i = 0, limit - 1 do\n" \
	"    local slot = (start + i) % limit\n" \
	"    if redis.call('SET', KEYS[1] .. '" RL_SLOT_SUFFIX "' .. slot, ARGV[1], 'NX', 'PX', ARGV[2]) then\n" \
	"        return slot + 1\n" \
	"    end\n" \
	"end\n" \
	"return 0\n"

/* The plain semaphore's lock: the slot taken as above, limit from ARGV[3] (the fair one decides first). */
#define RL_SCRIPT_SEMAPHORE_LOCK \
	"local limit = tonumber(ARGV[3])\n" \
	RL_LUA_SEMAPHORE_TAKE_SLOT

/* limit, keep and released set before: every slot key but keep's that holds our token (ARGV[1]) deleted,
 * counted in released (the plain and the fair semaphore's release). */
#define RL_LUA_SEMAPHORE_RELEASE_OURS \
	"for slot = 0, limit - 1 do\n" \
	"    if slot ~= keep then\n" \
	"        local key = KEYS[1] .. '" RL_SLOT_SUFFIX "' .. slot\n" \
	"        if redis.pcall('GET', key) == ARGV[1] then\n" \
	"            released = released + redis.call('DEL', key)\n" \
	"        end\n" \
	"    end\n" \
	"end\n"

/* KEYS[1] = resource, ARGV[1] = token, ARGV[2] = limit, ARGV[3] = a slot to keep (-1: none).
 * Deletes every other slot key holding our token: the rollback of an attempt, and after a win
 * the slots this attempt took on servers that voted for another slot. How many it deleted. */
#define RL_SCRIPT_SEMAPHORE_RELEASE \
	"local limit = tonumber(ARGV[2])\n" \
	"local keep = tonumber(ARGV[3])\n" \
	"local released = 0\n" \
	RL_LUA_SEMAPHORE_RELEASE_OURS \
	"return released\n"

/* --- fencing: a counter "<key>:fence" per resource, never expiring ---------------------------- */

/* KEYS = resources, ARGV[1] = token, ARGV[2] = ttl ms. The lock of RL_SCRIPT_LOCK_MULTI (all or
 * none; for one key the same as SET NX PX) plus INCR of each key's counter: the largest counter,
 * or 0 when a key was taken. */
#define RL_SCRIPT_LOCK_FENCED \
	"for i = 1, #KEYS do\n" \
	"    if redis.call('EXISTS', KEYS[i]) == 1 then\n" \
	"        return 0\n" \
	"    end\n" \
	"end\n" \
	"local fence = 0\n" \
	"for i = 1, #KEYS do\n" \
	"    redis.call('SET', KEYS[i], ARGV[1], 'PX', ARGV[2])\n" \
	"    local n = redis.call('INCR', KEYS[i] .. '" RL_FENCE_SUFFIX "')\n" \
	"    if n > fence then\n" \
	"        fence = n\n" \
	"    end\n" \
	"end\n" \
	"return fence\n"

/* KEYS = resources, ARGV[1] = token, ARGV[2] = fence. Only where every key still holds our token:
 * raises each counter to at least the fence (1). Elsewhere nothing (0): a write-back to a server
 * we do not hold could land after a later holder's INCR there and is not counted. */
#define RL_SCRIPT_FENCE_WRITEBACK \
	"for i = 1, #KEYS do\n" \
	"    if redis.pcall('GET', KEYS[i]) ~= ARGV[1] then\n" \
	"        return 0\n" \
	"    end\n" \
	"end\n" \
	"local fence = tonumber(ARGV[2])\n" \
	"for i = 1, #KEYS do\n" \
	"    local counter = KEYS[i] .. '" RL_FENCE_SUFFIX "'\n" \
	"    if tonumber(redis.call('GET', counter) or '0') < fence then\n" \
	"        redis.call('SET', counter, ARGV[2])\n" \
	"    end\n" \
	"end\n" \
	"return 1\n"

/* --- fair waiting ('fair' => true, core/rl_fair.c, docs/design/fair.md) -------------------------
 * Per resource key K, on every server: the queue "K:fair" (a sorted set: score the waiter's ticket,
 * member its id), the ticket counter "K:fair:ticket", and per waiter a heartbeat key "K:fair:w:<id>"
 * (PX a heartbeat) that the waiter's every attempt sets again. A waiter whose heartbeat key is gone
 * is dead: whoever reads the queue's head removes it. A live head is woken on the channel
 * RL_NOTIFY_CHANNEL_PREFIX "K:fair:w:<id>". The queue and the counter expire RL_FAIR_IDLE_MS after
 * the last enqueue (an abandoned queue goes away). */
#define RL_FAIR_SUFFIX ":fair"
#define RL_FAIR_WAITER_SUFFIX ":fair:w:"
#define RL_FAIR_IDLE_TEXT "600000"

/* The first live waiter of the queue, dead ones removed on the way: head (false when none). */
#define RL_LUA_FAIR_HEAD \
	"local q = KEYS[1] .. '" RL_FAIR_SUFFIX "'\n" \
	"local w = KEYS[1] .. '" RL_FAIR_WAITER_SUFFIX "'\n" \
	"local head = false\n" \
	"while true do\n" \
	"    local first = redis.call('ZRANGE', q, 0, 0)\n" \
	"    if #first == 0 then\n" \
	"        break\n" \
	"    end\n" \
	"    if redis.call('EXISTS', w .. first[1]) == 1 then\n" \
	"        head = first[1]\n" \
	"        break\n" \
	"    end\n" \
	"    redis.call('ZREM', q, first[1])\n" \
	"end\n"

/* Wakes the live head, if any (its own channel only), unless it is me (set before: the waiter whose
 * own rollback this is, false for none). A waiter woken by its own rollback attempted again at once,
 * won the same minority, rolled back and woke itself again: a loop for as long as the lock stayed held
 * elsewhere (test 637). It attempts again by its heartbeat instead, as it would had it not won there. */
#define RL_LUA_FAIR_WAKE_HEAD \
	RL_LUA_FAIR_HEAD \
	"if head and head ~= me then\n" \
	RL_LUA_ANNOUNCE("w .. head", "''") \
	"end\n"

/* KEYS[1] = resource. A ticket: the counter incremented (its largest value over a quorum is the
 * waiter's ticket, written back by RL_SCRIPT_FAIR_LOCK). */
#define RL_SCRIPT_FAIR_TICKET \
	"local c = KEYS[1] .. '" RL_FAIR_SUFFIX ":ticket'\n" \
	"local n = redis.call('INCR', c)\n" \
	"redis.call('PEXPIRE', c, " RL_FAIR_IDLE_TEXT ")\n" \
	"return n\n"

/* KEYS[1] = resource, ARGV = token, ttl ms, waiter id ('' = not queued: the first attempt), ticket,
 * heartbeat ms. A queued waiter's place is (re)written: its ticket raises the counter (so that a
 * waiter arriving later draws a larger one), its heartbeat is set again, it joins the queue at its
 * ticket (again, after a server lost it). The key is set (SET PX, as lock()) only when it is free
 * and the queue's live head is us, or there is no live waiter and we are not queued. A waiter that
 * won here stays queued: the attempt may still be lost on the others (no quorum, no validity left),
 * and a waiter taken off here would be passed by the next one until its next attempt; it leaves
 * with RL_SCRIPT_FAIR_LEAVE once the attempt is won (core/rl_fair.c). 1 when set. */
#define RL_SCRIPT_FAIR_LOCK \
	"local me = ARGV[3]\n" \
	"if me ~= '' then\n" \
	"    local c = KEYS[1] .. '" RL_FAIR_SUFFIX ":ticket'\n" \
	"    if (tonumber(redis.call('GET', c)) or 0) < tonumber(ARGV[4]) then\n" \
	"        redis.call('SET', c, ARGV[4])\n" \
	"    end\n" \
	"    redis.call('PEXPIRE', c, " RL_FAIR_IDLE_TEXT ")\n" \
	"    redis.call('SET', KEYS[1] .. '" RL_FAIR_WAITER_SUFFIX "' .. me, '1', 'PX', ARGV[5])\n" \
	"    redis.call('ZADD', KEYS[1] .. '" RL_FAIR_SUFFIX "', ARGV[4], me)\n" \
	"    redis.call('PEXPIRE', KEYS[1] .. '" RL_FAIR_SUFFIX "', " RL_FAIR_IDLE_TEXT ")\n" \
	"end\n" \
	RL_LUA_FAIR_HEAD \
	"if redis.call('EXISTS', KEYS[1]) == 1 or (head and head ~= me) then\n" \
	"    return 0\n" \
	"end\n" \
	"redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])\n" \
	"return 1\n"

/* KEYS[1] = resource, ARGV[1] = token, ARGV[2] (a fair waiter's rollback only) = the waiter's id.
 * RL_SCRIPT_UNLOCK, and then the queue's live head is woken on its own channel: the hand-over (the
 * other waiters sleep on); a waiter rolling back its attempt is not woken by it (RL_LUA_FAIR_WAKE_HEAD). */
#define RL_SCRIPT_FAIR_UNLOCK \
	"if redis.pcall('GET', KEYS[1]) ~= ARGV[1] then\n" \
	"    return 0\n" \
	"end\n" \
	"redis.call('DEL', KEYS[1])\n" \
	RL_LUA_ANNOUNCE("KEYS[1]", "ARGV[1]") \
	"local me = ARGV[2] or false\n" \
	"local base = string.byte(ARGV[1], 1) == 109 and string.match(KEYS[1], '^(.*)" RL_SLOT_SUFFIX "%d+$')\n" \
	"if base then\n" \
	RL_LUA_FAIR_SEM_UNLOCK_WAKE \
	"    return 1\n" \
	"end\n" \
	RL_LUA_FAIR_WAKE_HEAD \
	"return 1\n"

/* KEYS[1] = resource, ARGV[1] = waiter id. The waiter leaves the queue (won, waitTimeout over,
 * cancelled); when the key is free the new live head is woken (we may have been woken for it). */
#define RL_SCRIPT_FAIR_LEAVE \
	"local me = ARGV[1]\n" \
	"redis.call('ZREM', KEYS[1] .. '" RL_FAIR_SUFFIX "', ARGV[1])\n" \
	"redis.call('DEL', KEYS[1] .. '" RL_FAIR_WAITER_SUFFIX "' .. ARGV[1])\n" \
	"if redis.call('EXISTS', KEYS[1]) == 0 then\n" \
	RL_LUA_FAIR_WAKE_HEAD \
	"end\n" \
	"return 1\n"


/* --- fair semaphores ('fair' => true with lockSemaphore(), docs/design/fair.md#fair-semaphores) ---------
 * The same queue, under names of their own: "K:semfair" (the queue), "K:semfair:ticket" (the counter),
 * "K:semfair:w:<id>" (a waiter's heartbeat, its value the waiter's limit), the channel
 * RL_NOTIFY_CHANNEL_PREFIX "K:semfair:w:<id>". lock("K") and lockSemaphore("K", n) are two locks on one
 * name (the semaphore never writes K): their queues must not mix, and no plain lock's queue name
 * (ending ":fair", ":fair:ticket", ":fair:w:<id>") is one of these. Each script names KEYS[1] .. a
 * suffix (on a cluster member the derived keys need a hash tag: net/rl_shards.c). A waiter is admitted to a free slot
 * when it is among the first F live waiters of the queue, F the free slots on that server. */
#define RL_FAIR_SEM_SUFFIX ":semfair"
/* RL_SEMAPHORE_MAX_LIMIT (core/rl_kinds.h) as text: the largest limit a heartbeat may carry (checked in rl_fair.c) */
#define RL_SEMAPHORE_MAX_LIMIT_TEXT "1024"
#define RL_FAIR_SEM_WAITER_SUFFIX ":semfair:w:"

/* base (the semaphore's key) and limit set before: q, w, and free, the slots free on this server. */
#define RL_LUA_FAIR_SEM_FREE \
	"local q = base .. '" RL_FAIR_SEM_SUFFIX "'\n" \
	"local w = base .. '" RL_FAIR_SEM_WAITER_SUFFIX "'\n" \
	"local free = 0\n" \
	"for i = 0, limit - 1 do\n" \
	"    if redis.call('EXISTS', base .. '" RL_SLOT_SUFFIX "' .. i) == 0 then\n" \
	"        free = free + 1\n" \
	"    end\n" \
	"end\n"

/* The first free (at most) live waiters of the queue in order, dead ones met on the way removed: live
 * (a list), admitted (me is among them). */
#define RL_LUA_FAIR_SEM_LIVE \
	"local live = {}\n" \
	"local admitted = false\n" \
	"local at = 0\n" \
	"while #live < free do\n" \
	"    local m = redis.call('ZRANGE', q, at, at)\n" \
	"    if #m == 0 then\n" \
	"        break\n" \
	"    end\n" \
	"    if redis.call('EXISTS', w .. m[1]) == 1 then\n" \
	"        live[#live + 1] = m[1]\n" \
	"        admitted = admitted or m[1] == me\n" \
	"        at = at + 1\n" \
	"    else\n" \
	"        redis.call('ZREM', q, m[1])\n" \
	"    end\n" \
	"end\n"

/* Wakes the first free live waiters, each on its own channel (those a free slot is owed to), but me
 * (set before: the waiter whose own rollback or trim this is, false for none; RL_LUA_FAIR_WAKE_HEAD's
 * reason). */
#define RL_LUA_FAIR_SEM_WAKE \
	RL_LUA_FAIR_SEM_LIVE \
	"for i = 1, #live do\n" \
	"    if live[i] ~= me then\n" \
	RL_LUA_ANNOUNCE("w .. live[i]", "''") \
	"    end\n" \
	"end\n"

/* KEYS[1] = resource. A ticket of the semaphore's queue (RL_SCRIPT_FAIR_TICKET's, its counter). */
#define RL_SCRIPT_FAIR_SEM_TICKET \
	"local c = KEYS[1] .. '" RL_FAIR_SEM_SUFFIX ":ticket'\n" \
	"local n = redis.call('INCR', c)\n" \
	"redis.call('PEXPIRE', c, " RL_FAIR_IDLE_TEXT ")\n" \
	"return n\n"

/* KEYS[1] = resource, ARGV = token, ttl ms, limit, waiter id ('' = not queued: the first attempt),
 * ticket, heartbeat ms. A queued waiter's place is (re)written as RL_SCRIPT_FAIR_LOCK writes it (its
 * heartbeat holds its limit). A slot is taken (RL_SCRIPT_SEMAPHORE_LOCK's walk) only when we are among
 * the first F live waiters, F the free slots, or, not queued, when fewer than F live waiters queue; the
 * winner stays queued until its leave (RL_SCRIPT_FAIR_LOCK's reason). slot + 1, or 0. */
#define RL_SCRIPT_FAIR_SEMAPHORE_LOCK \
	"local base = KEYS[1]\n" \
	"local limit = tonumber(ARGV[3])\n" \
	"local me = ARGV[4]\n" \
	RL_LUA_FAIR_SEM_FREE \
	"if me ~= '' then\n" \
	"    local c = q .. ':ticket'\n" \
	"    if (tonumber(redis.call('GET', c)) or 0) < tonumber(ARGV[5]) then\n" \
	"        redis.call('SET', c, ARGV[5])\n" \
	"    end\n" \
	"    redis.call('PEXPIRE', c, " RL_FAIR_IDLE_TEXT ")\n" \
	"    redis.call('SET', w .. me, ARGV[3], 'PX', ARGV[6])\n" \
	"    redis.call('ZADD', q, ARGV[5], me)\n" \
	"    redis.call('PEXPIRE', q, " RL_FAIR_IDLE_TEXT ")\n" \
	"end\n" \
	RL_LUA_FAIR_SEM_LIVE \
	"if not admitted and (me ~= '' or #live >= free) then\n" \
	"    return 0\n" \
	"end\n" \
	RL_LUA_SEMAPHORE_TAKE_SLOT

/* KEYS[1] = resource, ARGV[1] = token, ARGV[2] = limit, ARGV[3] = a slot to keep (-1: none),
 * ARGV[4] = the waiter's id ('' on its first attempt, not queued). RL_SCRIPT_SEMAPHORE_RELEASE, and
 * when it freed a slot, the live waiters owed one are woken, but the waiter itself. */
#define RL_SCRIPT_FAIR_SEMAPHORE_RELEASE \
	"local me = ARGV[4] or false\n" \
	"local limit = tonumber(ARGV[2])\n" \
	"local keep = tonumber(ARGV[3])\n" \
	"local released = 0\n" \
	"local base = KEYS[1]\n" \
	RL_LUA_SEMAPHORE_RELEASE_OURS \
	"if released > 0 then\n" \
	RL_LUA_FAIR_SEM_FREE \
	RL_LUA_FAIR_SEM_WAKE \
	"end\n" \
	"return released\n"

/* KEYS[1] = resource, ARGV[1] = waiter id, ARGV[2] = limit. The waiter leaves the semaphore's queue;
 * the live waiters owed a free slot are woken (we may have been woken for one). */
#define RL_SCRIPT_FAIR_SEMAPHORE_LEAVE \
	"local me = ARGV[1]\n" \
	"local base = KEYS[1]\n" \
	"local limit = tonumber(ARGV[2])\n" \
	RL_LUA_FAIR_SEM_FREE \
	"redis.call('ZREM', KEYS[1] .. '" RL_FAIR_SEM_SUFFIX "', ARGV[1])\n" \
	"redis.call('DEL', w .. ARGV[1])\n" \
	RL_LUA_FAIR_SEM_WAKE \
	"return 1\n"

/* A fair object's unlock() of a semaphore's slot (its token's first character the semaphore's mark
 * 'm', the key "<base>:slot:<n>"): the base's queue, the limit its first live waiter asked with (its
 * heartbeat's value), and the waiters owed a free slot woken. base set before, with the slot's key,
 * and me (false: an unlock() is nobody's rollback). */
#define RL_LUA_FAIR_SEM_UNLOCK_WAKE \
	"local first = false\n" \
	"local hq = base .. '" RL_FAIR_SEM_SUFFIX "'\n" \
	"local hw = base .. '" RL_FAIR_SEM_WAITER_SUFFIX "'\n" \
	"while true do\n" \
	"    local m = redis.call('ZRANGE', hq, 0, 0)\n" \
	"    if #m == 0 then\n" \
	"        break\n" \
	"    end\n" \
	"    first = tonumber(redis.call('GET', hw .. m[1]))\n" \
	"    if first then\n" \
	"        break\n" \
	"    end\n" \
	"    redis.call('ZREM', hq, m[1])\n" \
	"end\n" \
	"if first and first >= 1 and first <= " RL_SEMAPHORE_MAX_LIMIT_TEXT " then\n" \
	"    local limit = first\n" \
	RL_LUA_FAIR_SEM_FREE \
	RL_LUA_FAIR_SEM_WAKE \
	"end\n"

#endif
