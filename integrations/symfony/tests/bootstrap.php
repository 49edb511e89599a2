<?php

declare(strict_types=1);

// Debian's php-symfony-lock installs its own autoloader; composer users get vendor/autoload.php.
$vendor = __DIR__.'/../vendor/autoload.php';
if (is_file($vendor)) {
    require $vendor;
} else {
    require_once '/usr/share/php/Symfony/Component/Lock/autoload.php';
}

spl_autoload_register(static function (string $class): void {
    foreach (['RedLock\\Symfony\\Tests\\' => __DIR__.'/', 'RedLock\\Symfony\\' => __DIR__.'/../src/'] as $prefix => $dir) {
        if (0 === strncmp($class, $prefix, \strlen($prefix))) {
            $file = $dir.str_replace('\\', '/', substr($class, \strlen($prefix))).'.php';
            if (is_file($file)) {
                require $file;
            }

            return;
        }
    }
});

require_once __DIR__ . '/../../bootstrap.php';
\RedLock\Integrations\requireExtensionAndServers('symfony');
