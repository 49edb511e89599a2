#!/usr/bin/env bash
# The Laravel cache store's tests: integrations/laravel/run-tests.sh [PHPUnit arguments...]
# Debian's php-laravel-framework (8.83) and phpunit (9.6), 3 redis-servers on 127.0.0.1:7821-7823 (integrations/phpunit.sh; REDLOCK_INTEGRATION_PORT=N starts them from N).
exec bash "$(dirname "$0")/../phpunit.sh" laravel 3 7821 /usr/share/php/Illuminate/Cache/autoload.php php-laravel-framework "$@"
