<?php

declare(strict_types=1);

namespace RedLock\PhpLock;

/*
 * The library's base class of a mutex that locks and unlocks, under the name of the major that is
 * loaded: Malkusch\Lock\Mutex\AbstractLockMutex (php-lock/lock 3.x) or malkusch\lock\mutex\LockMutex
 * (2.x). Both call the same two methods, lock() and unlock(), from synchronized() and check()->then().
 */
if (class_exists(\Malkusch\Lock\Mutex\AbstractLockMutex::class)) {
    /** @internal */
    abstract class LockMutexBase extends \Malkusch\Lock\Mutex\AbstractLockMutex
    {
        /** The library's major: 2 or 3. */
        public const LIBRARY_MAJOR = 3;
    }
} else {
    /** @internal */
    abstract class LockMutexBase extends \malkusch\lock\mutex\LockMutex
    {
        /** The library's major: 2 or 3. */
        public const LIBRARY_MAJOR = 2;
    }
}
