/* Calling the application's callables from the extension (the observer, onLoss): the option's
 * check, and a call whose exceptions cannot break the lock call. See redlock_callable.h. */
#include "php.h"
#include "zend_exceptions.h"

#include "redlock_callable.h"
#include "services/rl_metrics.h"

zend_result redlock_callable_check(zval *value, uint32_t arg_num, const char *option)
{
	if (Z_TYPE_P(value) == IS_NULL || zend_is_callable(value, 0, NULL)) {
		return SUCCESS;
	}
	zend_argument_type_error(arg_num, "option \"%s\" must be a valid callback or null, %s given", option,
		zend_zval_type_name(value));
	return FAILURE;
}

void redlock_call_quietly(zval *callable, uint32_t argc, zval *argv, int errors_metric)
{
	zval retval;
	/* An exception already on its way (run()'s $fn threw, the CSPRNG failed) is set aside and put
	 * back unchanged: the callable runs with none pending, and cannot replace it. */
	zend_object *pending = EG(exception);
	const zend_op *pending_opline = EG(opline_before_exception);

	EG(exception) = NULL;
	if (call_user_function(NULL, NULL, callable, &retval, argc, argv) == SUCCESS) {
		zval_ptr_dtor(&retval);
	}
	if (EG(exception)) {
		/* Swallowed, never thrown from the lock call: see docs/guide/telemetry.md. */
		zend_object *thrown = EG(exception);

		rl_metrics_add((rl_metric) errors_metric, 1);
		EG(exception) = NULL;
		OBJ_RELEASE(thrown);
	}
	if (pending) {
		EG(exception) = pending;
		EG(opline_before_exception) = pending_opline;
	}
}

