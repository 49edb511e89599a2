/* Calling the application's callables (redlock_callable.c). Zend glue, below every method's file. */
#ifndef REDLOCK_CALLABLE_H
#define REDLOCK_CALLABLE_H

#include "php.h"

/* An option that takes a callable or null: FAILURE with a TypeError naming argument arg_num and the
 * option otherwise. */
zend_result redlock_callable_check(zval *value, uint32_t arg_num, const char *option);

/* Calls callable with argc arguments; what it throws is swallowed and counted under errors_metric
 * (an rl_metric); an exception pending before is kept. */
void redlock_call_quietly(zval *callable, uint32_t argc, zval *argv, int errors_metric);

#endif
