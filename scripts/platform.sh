#!/usr/bin/env bash
# One line naming the platform the suite runs on here: "PHP 8.4.24 NTS, hiredis 1.2.0, Redis 8.0.2".
php=php${REDLOCK_PHP_VERSION:-}
printf 'PHP %s, hiredis %s, %s\n' "$("$php" -r 'echo PHP_VERSION, PHP_ZTS ? " ZTS" : " NTS";')" \
  "$(dpkg-query -W -f='${Version}' libhiredis-dev 2>/dev/null | sed 's/-.*//')" \
  "$(redis-server --version | cut -d' ' -f1,3 | sed 's/v=//; s/^redis/Redis/I; s/^valkey/Valkey/I')"
