/* Resources, keys and script requests. See redlock_resource.h. */
#include "php.h"
#include "zend_exceptions.h"

#include "arguments/redlock_resource.h"
#include "core/rl_scripts_kinds.h" /* RL_SLOT_SUFFIX */
#include "core/rl_token.h"

/* The keys of a $lock array, interned so that building and reading one hashes nothing. */
static zend_string *key_validity, *key_resource, *key_token;

void redlock_resource_startup(void)
{
	key_validity = zend_string_init_interned("validity", sizeof("validity") - 1, 1);
	key_resource = zend_string_init_interned("resource", sizeof("resource") - 1, 1);
	key_token = zend_string_init_interned("token", sizeof("token") - 1, 1);
}

/* "" for a method argument, "[\"resource\"] " for a field of a $lock array. Only for error
 * messages: formatting it on every call showed in the profile. */
static void field_label(char *out, size_t size, const char *field)
{
	if (field) {
		snprintf(out, size, "[\"%s\"] ", field);
	} else {
		out[0] = '\0';
	}
}

static zend_string *prefixed(zend_string *prefix, zend_string *name)
{
	if (prefix == NULL) {
		return zend_string_copy(name);
	}
	return zend_string_concat2(ZSTR_VAL(prefix), ZSTR_LEN(prefix), ZSTR_VAL(name), ZSTR_LEN(name));
}

static zend_result check_list(HashTable *names, uint32_t arg_num, const char *label)
{
	HashTable seen;
	zval *name;
	zend_result result = SUCCESS;

	if (zend_hash_num_elements(names) == 0) {
		zend_argument_value_error(arg_num, "%smust not be an empty array", label);
		return FAILURE;
	}
	if (!zend_array_is_list(names)) {
		zend_argument_value_error(arg_num, "%smust be a list of resource names", label);
		return FAILURE;
	}
	zend_hash_init(&seen, zend_hash_num_elements(names), NULL, NULL, 0);
	ZEND_HASH_FOREACH_VAL(names, name) {
		ZVAL_DEREF(name);
		if (Z_TYPE_P(name) != IS_STRING) {
			zend_argument_type_error(arg_num, "%smust contain only strings, %s given", label, zend_zval_type_name(name));
			result = FAILURE;
			break;
		}
		if (Z_STRLEN_P(name) == 0) {
			zend_argument_value_error(arg_num, "%smust not contain an empty resource name", label);
			result = FAILURE;
			break;
		}
		if (zend_hash_add_empty_element(&seen, Z_STR_P(name)) == NULL) {
			zend_argument_value_error(arg_num, "%smust not contain the resource \"%s\" twice", label, Z_STRVAL_P(name));
			result = FAILURE;
			break;
		}
	} ZEND_HASH_FOREACH_END();
	zend_hash_destroy(&seen);
	return result;
}

zend_result redlock_resource_init(redlock_resource *resource, zval *value, zend_string *prefix,
	uint32_t arg_num, const char *field)
{
	char label[64];
	zval *name;
	uint32_t i = 0;

	memset(&resource->kind, 0, sizeof(resource->kind));
	ZVAL_DEREF(value);
	if (Z_TYPE_P(value) == IS_STRING && Z_STRLEN_P(value) > 0) {
		ZVAL_STR_COPY(&resource->names, Z_STR_P(value));
		resource->multi = false;
		resource->count = 1;
		resource->one_key = prefixed(prefix, Z_STR_P(value));
		resource->keys = &resource->one_key;
		resource->one_ptr = ZSTR_VAL(resource->one_key);
		resource->one_len = ZSTR_LEN(resource->one_key);
		resource->key_ptrs = &resource->one_ptr;
		resource->key_lens = &resource->one_len;
		return SUCCESS;
	}
	field_label(label, sizeof(label), field);
	if (Z_TYPE_P(value) == IS_STRING) {
		zend_argument_value_error(arg_num, "%smust not be empty", label);
		return FAILURE;
	}
	if (Z_TYPE_P(value) != IS_ARRAY) {
		zend_argument_type_error(arg_num, "%smust be of type array|string, %s given", label, zend_zval_type_name(value));
		return FAILURE;
	}
	if (check_list(Z_ARRVAL_P(value), arg_num, label) != SUCCESS) {
		return FAILURE;
	}
	resource->multi = true;
	resource->count = zend_hash_num_elements(Z_ARRVAL_P(value));
	resource->keys = safe_emalloc(resource->count, sizeof(zend_string *), 0);
	resource->key_ptrs = safe_emalloc(resource->count, sizeof(const char *), 0);
	resource->key_lens = safe_emalloc(resource->count, sizeof(size_t), 0);
	array_init_size(&resource->names, resource->count);
	ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(value), name) {
		ZVAL_DEREF(name);
		add_next_index_str(&resource->names, zend_string_copy(Z_STR_P(name)));
		resource->keys[i] = prefixed(prefix, Z_STR_P(name));
		resource->key_ptrs[i] = ZSTR_VAL(resource->keys[i]);
		resource->key_lens[i] = ZSTR_LEN(resource->keys[i]);
		i++;
	} ZEND_HASH_FOREACH_END();
	return SUCCESS;
}

void redlock_resource_release(redlock_resource *resource)
{
	uint32_t i;

	for (i = 0; i < resource->count; i++) {
		zend_string_release(resource->keys[i]);
	}
	if (resource->keys != &resource->one_key) {
		efree(resource->keys);
		efree(resource->key_ptrs);
		efree(resource->key_lens);
	}
	resource->key_ptrs = NULL;
	resource->key_lens = NULL;
	resource->keys = NULL;
	resource->count = 0;
	zval_ptr_dtor(&resource->names);
	ZVAL_UNDEF(&resource->names);
}

zend_result redlock_resource_from_args(redlock_resource *resource, HashTable *names, zend_string *name,
	zend_string *prefix, uint32_t arg_num)
{
	zval value;

	if (name) {
		ZVAL_STR(&value, name);
	} else {
		ZVAL_ARR(&value, names);
	}
	return redlock_resource_init(resource, &value, prefix, arg_num, NULL);
}

zend_result redlock_lock_parse(HashTable *lock, zend_string *prefix, uint32_t arg_num,
	redlock_resource *resource, zend_string **token)
{
	zval *names = zend_hash_find_known_hash(lock, key_resource);
	zval *value;

	if (names != NULL) {
		ZVAL_DEREF(names);
	} else {
		zend_argument_value_error(arg_num, "must contain the key \"resource\"");
		return FAILURE;
	}
	if (redlock_resource_init(resource, names, prefix, arg_num, "resource") != SUCCESS) {
		return FAILURE;
	}
	value = zend_hash_find_known_hash(lock, key_token);
	if (value != NULL) {
		ZVAL_DEREF(value);
	}
	if (value == NULL) {
		zend_argument_value_error(arg_num, "must contain the key \"token\"");
	} else if (Z_TYPE_P(value) != IS_STRING) {
		zend_argument_type_error(arg_num, "[\"token\"] must be of type string, %s given", zend_zval_type_name(value));
	} else if (Z_STRLEN_P(value) == 0) {
		zend_argument_value_error(arg_num, "[\"token\"] must not be empty");
	} else {
		*token = Z_STR_P(value);
		return SUCCESS;
	}
	redlock_resource_release(resource);
	return FAILURE;
}

/* --- the kind fields: "shared", "limit" and "slot", "fence" --------------------------------------- */

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

static zend_result parse_semaphore(HashTable *lock, uint32_t arg_num, redlock_resource *resource, rl_token_kind kind)
{
	int has_limit = int_field(lock, "limit", arg_num, &resource->kind.limit);
	int has_slot = has_limit < 0 ? -1 : int_field(lock, "slot", arg_num, &resource->kind.slot);
	zend_string *slot_key;
	size_t len;

	if (has_limit < 0 || has_slot < 0) {
		return FAILURE;
	}
	if (!has_limit && !has_slot) {
		resource->kind.limit = 0;
		if (kind == RL_TOKEN_SEMAPHORE) {
			zend_argument_value_error(arg_num, "[\"token\"] is a lockSemaphore() token: the array must carry its "
				"\"limit\" and \"slot\"");
			return FAILURE;
		}
		return SUCCESS;
	}
	if (kind != RL_TOKEN_SEMAPHORE) {
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
	len = rl_semaphore_slot_key(NULL, 0, ZSTR_VAL(resource->one_key), ZSTR_LEN(resource->one_key),
		resource->kind.slot);
	slot_key = zend_string_alloc(len, 0);
	rl_semaphore_slot_key(ZSTR_VAL(slot_key), len + 1, ZSTR_VAL(resource->one_key), ZSTR_LEN(resource->one_key),
		resource->kind.slot);
	zend_string_release(resource->one_key);
	resource->one_key = slot_key;
	resource->one_ptr = ZSTR_VAL(resource->one_key);
	resource->one_len = ZSTR_LEN(resource->one_key);
	return SUCCESS;
}

/* ["shared"]: a bool, true exactly for a lockShared() token, whose resource is one string. */
static zend_result parse_shared(HashTable *lock, uint32_t arg_num, redlock_resource *resource, rl_token_kind kind)
{
	zval *shared = zend_hash_str_find(lock, "shared", sizeof("shared") - 1);

	if (shared != NULL) {
		ZVAL_DEREF(shared);
		if (Z_TYPE_P(shared) != IS_TRUE && Z_TYPE_P(shared) != IS_FALSE) {
			zend_argument_type_error(arg_num, "[\"shared\"] must be of type bool, %s given", zend_zval_type_name(shared));
			return FAILURE;
		}
		resource->kind.shared = Z_TYPE_P(shared) == IS_TRUE;
	}
	if (resource->kind.shared && kind != RL_TOKEN_SHARED) {
		zend_argument_value_error(arg_num, "[\"shared\"] is true but [\"token\"] is not a lockShared() token");
		return FAILURE;
	}
	if (!resource->kind.shared && kind == RL_TOKEN_SHARED) {
		zend_argument_value_error(arg_num, "[\"token\"] is a lockShared() token: the array must carry "
			"\"shared\" => true");
		return FAILURE;
	}
	if (resource->kind.shared && resource->multi) {
		zend_argument_value_error(arg_num, "[\"resource\"] of a lockShared() lock must be a string");
		return FAILURE;
	}
	return SUCCESS;
}

/* ["fence"]: an integer, on a lock() lock only. */
static zend_result parse_fence(HashTable *lock, uint32_t arg_num, redlock_resource *resource, rl_token_kind kind)
{
	int has_fence = int_field(lock, "fence", arg_num, &resource->kind.fence);

	if (has_fence < 0) {
		return FAILURE;
	}
	if (has_fence && kind != RL_TOKEN_EXCLUSIVE) {
		zend_argument_value_error(arg_num, "[\"fence\"] belongs to a lock() lock, not to a shared or semaphore one");
		return FAILURE;
	}
	resource->kind.fenced = has_fence;
	return SUCCESS;
}

zend_result redlock_lock_kind_parse(HashTable *lock, uint32_t arg_num, redlock_resource *resource,
	zend_string *token)
{
	rl_token_kind kind = rl_token_kind_of(ZSTR_VAL(token), ZSTR_LEN(token));
	uint32_t extra_keys = zend_hash_num_elements(lock) - 2; /* resource and token are there */

	if (zend_hash_find_known_hash(lock, key_validity) != NULL) {
		extra_keys--;
	}
	if (extra_keys == 0 && kind == RL_TOKEN_EXCLUSIVE) {
		return SUCCESS; /* lock()'s own array: no kind field to look for (the drop-in unlock() path) */
	}
	if (rl_token_older_kind(ZSTR_VAL(token), ZSTR_LEN(token))) {
		zend_argument_value_error(arg_num, "[\"token\"] is a lockShared() or lockSemaphore() token of an older version"
			" (32 characters; tokens now carry the lock's ttl): take the lock again");
		return FAILURE;
	}
	if (parse_shared(lock, arg_num, resource, kind) != SUCCESS
		|| parse_semaphore(lock, arg_num, resource, kind) != SUCCESS) {
		return FAILURE;
	}
	return parse_fence(lock, arg_num, resource, kind);
}

static void lock_kind_result(HashTable *result, const redlock_lock_kind *kind)
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

void redlock_lock_kind_set(redlock_lock_kind *kind, const rl_held_lock *held, zend_long limit)
{
	memset(kind, 0, sizeof(*kind));
	switch (held->kind) {
	case RL_KIND_SHARED:
		kind->shared = true;
		break;
	case RL_KIND_SEMAPHORE:
		kind->limit = limit;
		kind->slot = (zend_long) held->slot;
		break;
	case RL_KIND_FENCED:
		kind->fenced = true;
		kind->fence = (zend_long) held->fence;
		break;
	case RL_KIND_EXCLUSIVE:
	default:
		break;
	}
}

void redlock_lock_result(zval *return_value, double validity, const redlock_resource *resource,
	const char *token, size_t token_len)
{

	HashTable *result;
	zval value;

	array_init_size(return_value, 3);
	result = Z_ARRVAL_P(return_value);
	/* A fresh hash and three interned keys: appended, no lookup (zend_hash_add_new looks). */
	zend_hash_real_init_mixed(result);
	ZVAL_DOUBLE(&value, validity);
	_zend_hash_append_ex(result, key_validity, &value, 1);
	ZVAL_COPY(&value, &resource->names);
	_zend_hash_append_ex(result, key_resource, &value, 1);
	ZVAL_STRINGL(&value, token, token_len);
	_zend_hash_append_ex(result, key_token, &value, 1);
	if (UNEXPECTED(resource->kind.shared || resource->kind.limit || resource->kind.fenced)) {
		lock_kind_result(result, &resource->kind);
	}
}

zend_result redlock_resource_slots_fit(const redlock_resource *resource, zend_long limit)
{
	size_t longest = rl_semaphore_key_max((int64_t) limit);
	uint32_t i;

	for (i = 0; i < resource->count; i++) {
		if (resource->key_lens[i] > longest) {
			zend_argument_value_error(1, "must be at most %zu bytes (prefix included) for " ZEND_LONG_FMT " slots: each"
				" slot is a key of its own, and a semaphore's slot keys take at most %d bytes together", longest, limit,
				RL_SLOT_KEYS_MAX_BYTES);
			return FAILURE;
		}
	}
	return SUCCESS;
}
