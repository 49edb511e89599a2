/* The flag and the VM interrupt: see redlock_runtime_private.h. The platform branches (atomics, the
 * engine's vm_interrupt before and after PHP 8.2) are written here and nowhere else. */
#include "php.h"

#include "runtime/redlock_runtime_private.h"

#if PHP_VERSION_ID >= 80200
typedef zend_atomic_bool vm_flag;
#else
typedef zend_bool volatile vm_flag;
#endif

/* The one store into a vm_interrupt. */
static void vm_interrupt_set(vm_flag *vm_interrupt)
{
#if PHP_VERSION_ID >= 80200
	zend_atomic_bool_store(vm_interrupt, true);
#else
	*vm_interrupt = 1;
#endif
}

void redlock_interrupt_bind(redlock_interrupt *in)
{
	in->flag = 0;
	in->vm_interrupt = &EG(vm_interrupt);
}

void redlock_interrupt_flag(redlock_interrupt *in)
{
#ifndef _WIN32
	__atomic_store_n(&in->flag, 1, __ATOMIC_SEQ_CST);
#else
	in->flag = 1;
#endif
}

void redlock_interrupt_raise(redlock_interrupt *in)
{
	redlock_interrupt_flag(in); /* first: the interrupt finds it set */
	vm_interrupt_set(in->vm_interrupt);
}

void redlock_interrupt_here(void)
{
	vm_interrupt_set(&EG(vm_interrupt));
}

/* References whose release may run PHP code, kept for the next opcode boundary. */
ZEND_TLS HashTable *deferred;

void redlock_release_later(zend_object *obj)
{
	zval held;

	if (GC_REFCOUNT(obj) > 1) {
		GC_DELREF(obj); /* someone else holds it: nothing is freed */
		return;
	}
	if (deferred == NULL) {
		ALLOC_HASHTABLE(deferred);
		zend_hash_init(deferred, 1, NULL, ZVAL_PTR_DTOR, 0);
	}
	ZVAL_OBJ(&held, obj);
	zend_hash_next_index_insert(deferred, &held);
	redlock_interrupt_here();
}

void redlock_release_deferred(void)
{
	HashTable *ht = deferred;

	if (ht != NULL) {
		deferred = NULL; /* a destructor's own waits may defer more: a table of their own */
		zend_hash_destroy(ht);
		FREE_HASHTABLE(ht);
	}
}

bool redlock_interrupt_flagged(const redlock_interrupt *in)
{
#ifndef _WIN32
	return __atomic_load_n(&in->flag, __ATOMIC_SEQ_CST) != 0;
#else
	return in->flag != 0;
#endif
}

bool redlock_interrupt_take(redlock_interrupt *in)
{
#ifndef _WIN32
	return __atomic_exchange_n(&in->flag, 0, __ATOMIC_SEQ_CST) != 0;
#else
	bool flagged = in->flag != 0;

	in->flag = 0;
	return flagged;
#endif
}
