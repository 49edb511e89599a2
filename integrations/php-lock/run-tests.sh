#!/usr/bin/env bash
# The php-lock/lock mutex's tests: integrations/php-lock/run-tests.sh [PHPUnit arguments...]
# Debian's php-malkusch-lock (2.2) and phpunit (9.6), 3 redis-servers on 127.0.0.1:7811-7813 (integrations/phpunit.sh).
exec bash "$(dirname "$0")/../phpunit.sh" php-lock 3 7811 /usr/share/php/Malkusch/Lock/autoload.php php-malkusch-lock "$@"
