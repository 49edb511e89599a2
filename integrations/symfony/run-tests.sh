#!/usr/bin/env bash
# The Symfony Lock store's tests: integrations/symfony/run-tests.sh [PHPUnit arguments...]
# Debian's php-symfony-lock (5.4) and phpunit (9.6), 5 redis-servers on 127.0.0.1:7801-7805 (integrations/phpunit.sh; REDLOCK_INTEGRATION_PORT=N starts them from N).
exec bash "$(dirname "$0")/../phpunit.sh" symfony 5 7801 /usr/share/php/Symfony/Component/Lock/autoload.php php-symfony-lock "$@"
