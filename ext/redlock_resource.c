/* Resources, keys and script requests. See redlock_resource.h. */
#include "php.h"
#include "zend_exceptions.h"

#include "redlock_resource.h"

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

void redlock_lock_result(zval *return_value, double validity, const redlock_resource *resource,
	const char *token, size_t token_len)
{

	HashTable *result;
	zval value;

	array_init_size(return_value, 3);
	result = Z_ARRVAL_P(return_value);
	ZVAL_DOUBLE(&value, validity);
	zend_hash_add_new(result, key_validity, &value);
	ZVAL_COPY(&value, &resource->names);
	zend_hash_add_new(result, key_resource, &value);
	ZVAL_STRINGL(&value, token, token_len);
	zend_hash_add_new(result, key_token, &value);
	if (UNEXPECTED(resource->kind.shared || resource->kind.limit || resource->kind.fenced)) {
		redlock_lock_kind_result(result, &resource->kind);
	}
}
