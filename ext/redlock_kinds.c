/* RedLock::lockSemaphore(), RedLock::lockShared(), lock() with fencing, and the fields these add
 * to a lock array ("limit" and "slot", "shared", "fence"). Zend glue only: the sequencing is in
 * rl_semaphore.c, rl_shared.c and rl_fence.c. */
#include "php.h"
#include "zend_exceptions.h"

#include "redlock_object.h"
#include "redlock_resource.h"
#include "core/rl_kinds.h"
#include "core/rl_scripts_kinds.h"

/* --- the array's kind fields ------------------------------------------------------------------ */

typedef enum { TOKEN_EXCLUSIVE, TOKEN_SHARED, TOKEN_SEMAPHORE } token_kind;

/* What the token's first character says (rl_kinds.h): only a token of our exact shape with
 * a kind mark counts as one; anything else is read as an exclusive lock's. */
static token_kind kind_of_token(const zend_string *token)
{
	const char *t = ZSTR_VAL(token);
	size_t i;

	if (ZSTR_LEN(token) != RL_TOKEN_LEN || (t[0] != RL_MARK_SHARED && t[0] != RL_MARK_SEMAPHORE)) {
		return TOKEN_EXCLUSIVE;
	}
	for (i = 1; i < RL_TOKEN_LEN; i++) {
		if (!((t[i] >= '0' && t[i] <= '9') || (t[i] >= 'a' && t[i] <= 'f'))) {
			return TOKEN_EXCLUSIVE;
		}
	}
	return t[0] == RL_MARK_SHARED ? TOKEN_SHARED : TOKEN_SEMAPHORE;
}

/* An int field: 1 found, 0 absent, -1 with a TypeError thrown. */
static int int_field(HashTable *lock, const char *name, uint32_t arg_num, zend_long *out)
{
	zval *value = zend_hash_str_find(lock, name, strlen(name));

	if (value == NULL) {
		return 0;
	}
	ZVAL_DEREF(value);
	if (Z_TYPE_P(value) != IS_LONG) {
		zend_argument_type_error(arg_num, "[\"%s\"] must be of type int, %s given", name, zend_zval_type_name(value));
		return -1;
	}
	*out = Z_LVAL_P(value);
	return 1;
}

static zend_result parse_semaphore(HashTable *lock, uint32_t arg_num, redlock_resource *resource, token_kind kind)
{
	int has_limit = int_field(lock, "limit", arg_num, &resource->kind.limit);
	int has_slot = has_limit < 0 ? -1 : int_field(lock, "slot", arg_num, &resource->kind.slot);
	char key[512];
	size_t len;

	if (has_limit < 0 || has_slot < 0) {
		return FAILURE;
	}
	if (!has_limit && !has_slot) {
		resource->kind.limit = 0;
		if (kind == TOKEN_SEMAPHORE) {
			zend_argument_value_error(arg_num, "[\"token\"] is a lockSemaphore() token: the array must carry its "
				"\"limit\" and \"slot\"");
			return FAILURE;
		}
		return SUCCESS;
	}
	if (kind != TOKEN_SEMAPHORE) {
		zend_argument_value_error(arg_num, "has \"limit\" or \"slot\" but [\"token\"] is not a lockSemaphore() token");
		return FAILURE;
	}
	if (!has_limit || !has_slot) {
		zend_argument_value_error(arg_num, "must carry both \"limit\" and \"slot\" (a lockSemaphore() lock)");
		return FAILURE;
	}
	if (resource->kind.limit < 1 || resource->kind.limit > RL_SEMAPHORE_MAX_LIMIT) {
		zend_argument_value_error(arg_num, "[\"limit\"] must be between 1 and %d", RL_SEMAPHORE_MAX_LIMIT);
		return FAILURE;
	}
	if (resource->kind.slot < 0 || resource->kind.slot >= resource->kind.limit) {
		zend_argument_value_error(arg_num, "[\"slot\"] must be between 0 and \"limit\" - 1");
		return FAILURE;
	}
	if (resource->multi) {
		zend_argument_value_error(arg_num, "[\"resource\"] of a lockSemaphore() lock must be a string");
		return FAILURE;
	}
	/* The semaphore's unlock(), extend() and validity() are the lock's, on the slot's key. */
	len = rl_semaphore_slot_key(key, sizeof(key), ZSTR_VAL(resource->one_key), ZSTR_LEN(resource->one_key),
		resource->kind.slot);
	if (len >= sizeof(key)) {
		zend_string *slot_key = strpprintf(0, "%s" RL_SLOT_SUFFIX ZEND_LONG_FMT, ZSTR_VAL(resource->one_key),
			resource->kind.slot);
		zend_string_release(resource->one_key);
		resource->one_key = slot_key;
	} else {
		zend_string_release(resource->one_key);
		resource->one_key = zend_string_init(key, len, 0);
	}
	resource->one_ptr = ZSTR_VAL(resource->one_key);
	resource->one_len = ZSTR_LEN(resource->one_key);
	return SUCCESS;
}

zend_result redlock_lock_kind_parse(HashTable *lock, uint32_t arg_num, redlock_resource *resource,
	zend_string *token)
{
	token_kind kind = kind_of_token(token);
	zval *shared;
	int has_fence;
	uint32_t extra_keys = zend_hash_num_elements(lock) - 2; /* resource and token are there */

	if (zend_hash_str_exists(lock, "validity", sizeof("validity") - 1)) {
		extra_keys--;
	}
	if (extra_keys == 0 && kind == TOKEN_EXCLUSIVE) {
		return SUCCESS; /* lock()'s own array: no kind field to look for (the drop-in unlock() path) */
	}
	shared = zend_hash_str_find(lock, "shared", sizeof("shared") - 1);

	if (shared != NULL) {
		ZVAL_DEREF(shared);
		if (Z_TYPE_P(shared) != IS_TRUE && Z_TYPE_P(shared) != IS_FALSE) {
			zend_argument_type_error(arg_num, "[\"shared\"] must be of type bool, %s given", zend_zval_type_name(shared));
			return FAILURE;
		}
		resource->kind.shared = Z_TYPE_P(shared) == IS_TRUE;
	}
	if (resource->kind.shared && kind != TOKEN_SHARED) {
		zend_argument_value_error(arg_num, "[\"shared\"] is true but [\"token\"] is not a lockShared() token");
		return FAILURE;
	}
	if (!resource->kind.shared && kind == TOKEN_SHARED) {
		zend_argument_value_error(arg_num, "[\"token\"] is a lockShared() token: the array must carry "
			"\"shared\" => true");
		return FAILURE;
	}
	if (resource->kind.shared && resource->multi) {
		zend_argument_value_error(arg_num, "[\"resource\"] of a lockShared() lock must be a string");
		return FAILURE;
	}
	if (parse_semaphore(lock, arg_num, resource, kind) != SUCCESS) {
		return FAILURE;
	}
	has_fence = int_field(lock, "fence", arg_num, &resource->kind.fence);
	if (has_fence < 0) {
		return FAILURE;
	}
	if (has_fence && kind != TOKEN_EXCLUSIVE) {
		zend_argument_value_error(arg_num, "[\"fence\"] belongs to a lock() lock, not to a shared or semaphore one");
		return FAILURE;
	}
	resource->kind.fenced = has_fence;
	return SUCCESS;
}

void redlock_lock_kind_result(HashTable *result, const redlock_lock_kind *kind)
{
	zval value;

	if (kind->shared) {
		ZVAL_TRUE(&value);
		zend_hash_str_add_new(result, "shared", sizeof("shared") - 1, &value);
	}
	if (kind->limit) {
		ZVAL_LONG(&value, kind->limit);
		zend_hash_str_add_new(result, "limit", sizeof("limit") - 1, &value);
		ZVAL_LONG(&value, kind->slot);
		zend_hash_str_add_new(result, "slot", sizeof("slot") - 1, &value);
	}
	if (kind->fenced) {
		ZVAL_LONG(&value, kind->fence);
		zend_hash_str_add_new(result, "fence", sizeof("fence") - 1, &value);
	}
}

/* --- acquisitions ------------------------------------------------------------------------------ */

/* false with an exception pending when won < 0 or no random bytes could be had. */
static bool won_or_throw(int won)
{
	if (won < 0) {
		zend_throw_error(NULL, "Out of memory");
	}
	return won > 0;
}

/* waitTimeout for lock() with fencing: one fenced attempt at a time, woken by the lock's releases. */
typedef struct fence_wait_attempt {
	rl_lock_policy policy; /* one attempt per call */
	const rl_lock_keys *keys;
	int64_t ttl;
	size_t servers;
	rl_outcome *outcomes;
	rl_lock_result *result;
	int64_t *fence;
} fence_wait_attempt;

static int attempt_fenced(void *arg, const rl_lock_io *io)
{
	fence_wait_attempt *a = arg;
	int won = rl_fence_acquire(io, &a->policy, a->keys, a->ttl, a->servers, a->outcomes, a->result, a->fence);

	return won == 0 && a->result->no_random ? -1 : won;
}

bool redlock_acquire_fenced(redlock_object *intern, const redlock_resource *resource, zend_long ttl,
	zval *return_value, int64_t *attempts_made)
{
	rl_lock_keys keys = redlock_resource_keys(resource);
	rl_lock_result result;
	redlock_resource fenced = *resource; /* the same keys and names, with the fence */
	int64_t fence = 0;
	int won;

	if (intern->options.wait_timeout < 0) {
		won = rl_fence_acquire(&intern->io, &intern->policy, &keys, ttl, intern->cluster->count, intern->outcomes,
			&result, &fence);
	} else {
		fence_wait_attempt attempt = {intern->policy, &keys, ttl, intern->cluster->count, intern->outcomes, &result,
			&fence};

		attempt.policy.retry_count = 0;
		won = redlock_wait_for(intern, &keys, attempt_fenced, &attempt, &result);
	}

	if (attempts_made) {
		*attempts_made = won < 0 ? 0 : result.attempts;
	}
	if (!won_or_throw(won)) {
		return false;
	}
	fenced.kind.fenced = true;
	fenced.kind.fence = (zend_long) fence;
	redlock_lock_result(return_value, result.validity, &fenced, result.token, RL_TOKEN_LEN);
	return true;
}

/* The checks of lockSemaphore() and lockShared(): a non-empty string resource (#1) and ttl
 * (#ttl_arg). SUCCESS with *resource to release, or FAILURE with an exception thrown. */
static zend_result primitive_args(redlock_object *intern, zend_string *name, zend_long ttl, uint32_t ttl_arg,
	redlock_resource *resource)
{
	if (redlock_resource_from_args(resource, NULL, name, intern->options.prefix, 1) != SUCCESS) {
		return FAILURE;
	}
	if (ttl < 1) {
		redlock_resource_release(resource);
		zend_argument_value_error(ttl_arg, "must be greater than 0");
		return FAILURE;
	}
	return SUCCESS;
}

/* waitTimeout for lockSemaphore(): one attempt at a time, woken when any slot is released (each
 * slot's unlock() announces its own key, so the waiter listens on every slot's channel). */
typedef struct semaphore_wait_attempt {
	rl_lock_policy policy; /* one attempt per call */
	const redlock_resource *resource;
	int64_t limit, ttl;
	size_t servers;
	rl_outcome *outcomes;
	rl_lock_result *result;
	int64_t *slot;
} semaphore_wait_attempt;

static int attempt_semaphore(void *arg, const rl_lock_io *io)
{
	semaphore_wait_attempt *a = arg;
	int won = rl_semaphore_acquire(io, &a->policy, a->resource->one_ptr, a->resource->one_len, a->limit, a->ttl,
		a->servers, a->outcomes, a->result, a->slot);

	return won == 0 && a->result->no_random ? -1 : won;
}

static int semaphore_wait(redlock_object *intern, const rl_lock_policy *policy, const redlock_resource *resource,
	zend_long limit, zend_long ttl, rl_lock_result *result, int64_t *slot)
{
	semaphore_wait_attempt attempt = {*policy, resource, limit, ttl, intern->cluster->count, intern->outcomes, result, slot};
	size_t key_size = resource->one_len + sizeof(RL_SLOT_SUFFIX) + 21;
	char *names = safe_emalloc((size_t) limit, key_size, 0);
	const char **keys = safe_emalloc((size_t) limit, sizeof(*keys), 0);
	size_t *lens = safe_emalloc((size_t) limit, sizeof(*lens), 0);
	rl_lock_keys channels = {(size_t) limit, keys, lens, 1};
	zend_long i;
	int won;

	for (i = 0; i < limit; i++) {
		keys[i] = names + (size_t) i * key_size;
		lens[i] = rl_semaphore_slot_key(names + (size_t) i * key_size, key_size, resource->one_ptr,
			resource->one_len, (int64_t) i);
	}
	attempt.policy.retry_count = 0;
	won = redlock_wait_for(intern, &channels, attempt_semaphore, &attempt, result);
	efree(lens);
	efree(keys);
	efree(names);
	return won;
}

PHP_METHOD(RedLock, lockSemaphore)
{
	zend_string *name;
	zend_long limit, ttl;
	redlock_object *intern;
	redlock_resource resource;
	rl_lock_policy policy;
	rl_lock_result result;
	int64_t slot = -1;
	int won;

	ZEND_PARSE_PARAMETERS_START(3, 3)
		Z_PARAM_STR(name)
		Z_PARAM_LONG(limit)
		Z_PARAM_LONG(ttl)
	ZEND_PARSE_PARAMETERS_END();

	if ((intern = redlock_ready(ZEND_THIS)) == NULL) {
		RETURN_THROWS();
	}
	if (limit < 1 || limit > RL_SEMAPHORE_MAX_LIMIT) {
		zend_argument_value_error(2, "must be between 1 and %d", RL_SEMAPHORE_MAX_LIMIT);
		RETURN_THROWS();
	}
	if (primitive_args(intern, name, ttl, 3, &resource) != SUCCESS) {
		RETURN_THROWS();
	}
	policy = intern->policy;
	policy.token_mark = RL_MARK_SEMAPHORE;
	won = intern->options.wait_timeout < 0
		? rl_semaphore_acquire(&intern->io, &policy, resource.one_ptr, resource.one_len, limit, ttl,
			intern->cluster->count, intern->outcomes, &result, &slot)
		: semaphore_wait(intern, &policy, &resource, limit, ttl, &result, &slot);
	if (!won_or_throw(won)) {
		redlock_resource_release(&resource);
		if (EG(exception)) {
			RETURN_THROWS();
		}
		RETURN_FALSE;
	}
	resource.kind.limit = limit;
	resource.kind.slot = (zend_long) slot;
	redlock_lock_result(return_value, result.validity, &resource, result.token, RL_TOKEN_LEN);
	redlock_resource_release(&resource);
}

PHP_METHOD(RedLock, lockShared)
{
	zend_string *name;
	zend_long ttl;
	redlock_object *intern;
	redlock_resource resource;
	rl_lock_keys keys;
	rl_lock_result result;
	int won;

	ZEND_PARSE_PARAMETERS_START(2, 2)
		Z_PARAM_STR(name)
		Z_PARAM_LONG(ttl)
	ZEND_PARSE_PARAMETERS_END();

	if ((intern = redlock_ready(ZEND_THIS)) == NULL) {
		RETURN_THROWS();
	}
	if (primitive_args(intern, name, ttl, 2, &resource) != SUCCESS) {
		RETURN_THROWS();
	}
	keys = redlock_resource_keys(&resource);
	keys.multi = 1; /* the shared script in the multi-key slot: see rl_shared_policy() */
	won = intern->options.wait_timeout < 0
		? rl_lock_acquire(&intern->io, &intern->shared_policy, &keys, ttl, intern->outcomes, &result)
		: redlock_wait_acquire(intern, &intern->shared_policy, &keys, ttl, &result);
	if (!won_or_throw(won)) {
		redlock_resource_release(&resource);
		if (EG(exception)) {
			RETURN_THROWS();
		}
		RETURN_FALSE;
	}
	resource.kind.shared = true;
	redlock_lock_result(return_value, result.validity, &resource, result.token, RL_TOKEN_LEN);
	redlock_resource_release(&resource);
}
