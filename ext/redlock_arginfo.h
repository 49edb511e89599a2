/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: 3776ad76245c55c3f6ca8e8c20adbc46da09b6cc */

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_RedLock___construct, 0, 0, 1)
	ZEND_ARG_TYPE_INFO(0, servers, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, retryDelay, IS_LONG, 0, "200")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, retryCount, IS_LONG, 0, "3")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_RedLock_fromCluster, 0, 1, RedLock, 0)
	ZEND_ARG_TYPE_MASK(0, seeds, MAY_BE_STRING|MAY_BE_ARRAY, NULL)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, retryDelay, IS_LONG, 0, "200")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, retryCount, IS_LONG, 0, "3")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_class_RedLock_lock, 0, 2, MAY_BE_ARRAY|MAY_BE_FALSE)
	ZEND_ARG_TYPE_MASK(0, resource, MAY_BE_STRING|MAY_BE_ARRAY, NULL)
	ZEND_ARG_TYPE_INFO(0, ttl, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_class_RedLock_lockSemaphore, 0, 3, MAY_BE_ARRAY|MAY_BE_FALSE)
	ZEND_ARG_TYPE_INFO(0, resource, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, limit, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, ttl, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_class_RedLock_lockShared, 0, 2, MAY_BE_ARRAY|MAY_BE_FALSE)
	ZEND_ARG_TYPE_INFO(0, resource, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, ttl, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_class_RedLock_promote, 0, 2, MAY_BE_ARRAY|MAY_BE_FALSE)
	ZEND_ARG_TYPE_INFO(0, lock, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, ttl, IS_LONG, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_RedLock_demote arginfo_class_RedLock_promote

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedLock_unlock, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, lock, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedLock_forceUnlock, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_MASK(0, resource, MAY_BE_STRING|MAY_BE_ARRAY, NULL)
ZEND_END_ARG_INFO()

#define arginfo_class_RedLock_extend arginfo_class_RedLock_promote

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_class_RedLock_validity, 0, 1, MAY_BE_DOUBLE|MAY_BE_FALSE)
	ZEND_ARG_TYPE_INFO(0, lock, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedLock_inspect, 0, 1, IS_ARRAY, 1)
	ZEND_ARG_TYPE_MASK(0, resource, MAY_BE_STRING|MAY_BE_ARRAY, NULL)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, limit, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedLock_isLocked, 0, 1, _IS_BOOL, 1)
	ZEND_ARG_TYPE_MASK(0, resource, MAY_BE_STRING|MAY_BE_ARRAY, NULL)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedLock_run, 0, 3, IS_MIXED, 0)
	ZEND_ARG_TYPE_MASK(0, resource, MAY_BE_STRING|MAY_BE_ARRAY, NULL)
	ZEND_ARG_TYPE_INFO(0, ttl, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, fn, IS_CALLABLE, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedLock_setObserver, 0, 1, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, observer, IS_CALLABLE, 1)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedLock_metrics, 0, 0, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_RedLock_getLastErrors arginfo_class_RedLock_metrics

#define arginfo_class_RedLock_getServerWarnings arginfo_class_RedLock_metrics

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedLockMemory_advance, 0, 1, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, ms, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedLockMemory_fail, 0, 1, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, server, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, how, IS_STRING, 0, "\"refuse\"")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedLockMemory_recover, 0, 1, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, server, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedLockMemory_reset, 0, 0, IS_VOID, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedLockMemory_keys, 0, 1, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, server, IS_STRING, 0)
ZEND_END_ARG_INFO()


ZEND_METHOD(RedLock, __construct);
ZEND_METHOD(RedLock, fromCluster);
ZEND_METHOD(RedLock, lock);
ZEND_METHOD(RedLock, lockSemaphore);
ZEND_METHOD(RedLock, lockShared);
ZEND_METHOD(RedLock, promote);
ZEND_METHOD(RedLock, demote);
ZEND_METHOD(RedLock, unlock);
ZEND_METHOD(RedLock, forceUnlock);
ZEND_METHOD(RedLock, extend);
ZEND_METHOD(RedLock, validity);
ZEND_METHOD(RedLock, inspect);
ZEND_METHOD(RedLock, isLocked);
ZEND_METHOD(RedLock, run);
ZEND_METHOD(RedLock, setObserver);
ZEND_METHOD(RedLock, metrics);
ZEND_METHOD(RedLock, getLastErrors);
ZEND_METHOD(RedLock, getServerWarnings);
ZEND_METHOD(RedLockMemory, advance);
ZEND_METHOD(RedLockMemory, fail);
ZEND_METHOD(RedLockMemory, recover);
ZEND_METHOD(RedLockMemory, reset);
ZEND_METHOD(RedLockMemory, keys);


static const zend_function_entry class_RedLock_methods[] = {
	ZEND_ME(RedLock, __construct, arginfo_class_RedLock___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(RedLock, fromCluster, arginfo_class_RedLock_fromCluster, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(RedLock, lock, arginfo_class_RedLock_lock, ZEND_ACC_PUBLIC)
	ZEND_ME(RedLock, lockSemaphore, arginfo_class_RedLock_lockSemaphore, ZEND_ACC_PUBLIC)
	ZEND_ME(RedLock, lockShared, arginfo_class_RedLock_lockShared, ZEND_ACC_PUBLIC)
	ZEND_ME(RedLock, promote, arginfo_class_RedLock_promote, ZEND_ACC_PUBLIC)
	ZEND_ME(RedLock, demote, arginfo_class_RedLock_demote, ZEND_ACC_PUBLIC)
	ZEND_ME(RedLock, unlock, arginfo_class_RedLock_unlock, ZEND_ACC_PUBLIC)
	ZEND_ME(RedLock, forceUnlock, arginfo_class_RedLock_forceUnlock, ZEND_ACC_PUBLIC)
	ZEND_ME(RedLock, extend, arginfo_class_RedLock_extend, ZEND_ACC_PUBLIC)
	ZEND_ME(RedLock, validity, arginfo_class_RedLock_validity, ZEND_ACC_PUBLIC)
	ZEND_ME(RedLock, inspect, arginfo_class_RedLock_inspect, ZEND_ACC_PUBLIC)
	ZEND_ME(RedLock, isLocked, arginfo_class_RedLock_isLocked, ZEND_ACC_PUBLIC)
	ZEND_ME(RedLock, run, arginfo_class_RedLock_run, ZEND_ACC_PUBLIC)
	ZEND_ME(RedLock, setObserver, arginfo_class_RedLock_setObserver, ZEND_ACC_PUBLIC)
	ZEND_ME(RedLock, metrics, arginfo_class_RedLock_metrics, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(RedLock, getLastErrors, arginfo_class_RedLock_getLastErrors, ZEND_ACC_PUBLIC)
	ZEND_ME(RedLock, getServerWarnings, arginfo_class_RedLock_getServerWarnings, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};


static const zend_function_entry class_RedLockMemory_methods[] = {
	ZEND_ME(RedLockMemory, advance, arginfo_class_RedLockMemory_advance, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(RedLockMemory, fail, arginfo_class_RedLockMemory_fail, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(RedLockMemory, recover, arginfo_class_RedLockMemory_recover, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(RedLockMemory, reset, arginfo_class_RedLockMemory_reset, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(RedLockMemory, keys, arginfo_class_RedLockMemory_keys, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_FE_END
};


static const zend_function_entry class_RedLockException_methods[] = {
	ZEND_FE_END
};

static void register_redlock_symbols(int module_number)
{
	REGISTER_STRING_CONSTANT("PHP_REDLOCK_VERSION", PHP_REDLOCK_VERSION, CONST_PERSISTENT);
}

static zend_class_entry *register_class_RedLock(void)
{
	zend_class_entry ce, *class_entry;

	INIT_CLASS_ENTRY(ce, "RedLock", class_RedLock_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_NOT_SERIALIZABLE;
#if (PHP_VERSION_ID >= 80200)


	zend_add_parameter_attribute(zend_hash_str_find_ptr(&class_entry->function_table, "__construct", sizeof("__construct") - 1), 0, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);

	zend_add_parameter_attribute(zend_hash_str_find_ptr(&class_entry->function_table, "fromcluster", sizeof("fromcluster") - 1), 0, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);
#endif

	return class_entry;
}

static zend_class_entry *register_class_RedLockMemory(void)
{
	zend_class_entry ce, *class_entry;

	INIT_CLASS_ENTRY(ce, "RedLockMemory", class_RedLockMemory_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL;

	return class_entry;
}

static zend_class_entry *register_class_RedLockException(zend_class_entry *class_entry_RuntimeException)
{
	zend_class_entry ce, *class_entry;

	INIT_CLASS_ENTRY(ce, "RedLockException", class_RedLockException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_RuntimeException);

	return class_entry;
}
