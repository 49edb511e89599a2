/* Arrays of named keys read through a table: see redlock_keys.h. */
#include "php.h"
#include "zend_smart_str.h"

#include "arguments/redlock_keys.h"

zend_string *redlock_keys_known(const redlock_key *rows)
{
	smart_str out = {0};
	const redlock_key *row;

	for (row = rows; row->name != NULL; row++) {
		if (row != rows) {
			smart_str_appends(&out, ", ");
		}
		smart_str_appends(&out, row->name);
	}
	smart_str_0(&out);
	return out.s != NULL ? out.s : ZSTR_EMPTY_ALLOC();
}

static const redlock_key *find(const redlock_key *rows, const zend_string *name)
{
	const redlock_key *row;

	for (row = rows; row->name != NULL; row++) {
		if (ZSTR_LEN(name) == strlen(row->name) && memcmp(ZSTR_VAL(name), row->name, ZSTR_LEN(name)) == 0) {
			return row;
		}
	}
	return NULL;
}

/* An integer key (name NULL: its index) or an unknown name: the array's own wording. */
static zend_result unknown(const redlock_key *rows, uint32_t arg_num, size_t owner, const zend_string *name,
	zend_ulong index)
{
	zend_string *known = redlock_keys_known(rows);

	if (owner == REDLOCK_KEYS_OPTIONS && name == NULL) {
		zend_argument_value_error(arg_num, "contains an unknown option " ZEND_ULONG_FMT " (options are named: %s)",
			index, ZSTR_VAL(known));
	} else if (owner == REDLOCK_KEYS_OPTIONS) {
		zend_argument_value_error(arg_num, "contains an unknown option \"%s\" (known: %s)", ZSTR_VAL(name),
			ZSTR_VAL(known));
	} else if (name == NULL) {
		zend_argument_value_error(arg_num, "server #%zu must not mix list items with the keys %s", owner,
			ZSTR_VAL(known));
	} else {
		zend_argument_value_error(arg_num, "server #%zu has an unknown key \"%s\" (known: %s)", owner, ZSTR_VAL(name),
			ZSTR_VAL(known));
	}
	zend_string_release(known);
	return FAILURE;
}

zend_result redlock_keys_read(const redlock_key *rows, HashTable *array, uint32_t arg_num, size_t owner, zval **slots,
	void *ctx)
{
	zend_string *name;
	zend_ulong index;
	zval *value;

	ZEND_HASH_FOREACH_KEY_VAL(array, index, name, value) {
		const redlock_key *row;

		ZVAL_DEREF(value);
		if (name == NULL || (row = find(rows, name)) == NULL) {
			return unknown(rows, arg_num, owner, name, index);
		}
		if (slots != NULL) {
			slots[row - rows] = value;
		}
		if (row->parse != NULL && row->parse(value, arg_num, ctx) != SUCCESS) {
			return FAILURE;
		}
	} ZEND_HASH_FOREACH_END();
	return SUCCESS;
}
