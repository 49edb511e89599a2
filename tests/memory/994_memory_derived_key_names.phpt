--TEST--
memory:// servers: the keys a script derives from a name (a semaphore's slots, a fair queue) keep the whole name, NUL bytes included, and a name too long for them is refused with an error; before, a name was cut at its first NUL byte ("job\0one" and "job\0two" were one semaphore) and a name over about 500 bytes was read and written past the store's buffers (a fair lock() waiting behind a holder crashed the process, a semaphore's unlock() failed)
--EXTENSIONS--
redlock
--FILE--
<?php
$servers = ['memory://a', 'memory://b', 'memory://c'];
$plain = new RedLock($servers, 200, 1);
$fair = new RedLock($servers, 200, 1, ['fair' => true, 'waitTimeout' => 300]);

$one = $plain->lockSemaphore("job\0one", 1, 5000);
$two = $plain->lockSemaphore("job\0two", 1, 5000);
echo 'two semaphores told apart after a NUL byte: ', var_export($one !== false && $two !== false, true), "\n";
$held = $plain->lock("q\0one", 5000);
$queued = $fair->lock("q\0one", 5000); // queues in "q\0one:fair"
$other = $fair->lock("q\0two", 5000);  // its queue is another one: taken at once
echo 'fair queues told apart: ', var_export($held !== false && $queued === false && $other !== false, true), "\n";

foreach ([400, 2000] as $n) {
    $name = str_repeat('n', $n);
    $slot = $plain->lockSemaphore($name, 2, 5000);
    echo "$n bytes: lockSemaphore ", var_export($slot !== false, true), ', unlock ', var_export($slot !== false && $plain->unlock($slot), true);
    $said = $slot !== false ? [] : array_values(array_filter($plain->getLastErrors(), fn ($e) => str_contains((string) $e, 'at most')));
    echo $slot === false ? ' (' . ($said[0] ?? json_encode($plain->getLastErrors())) . ')' : '', "\n";
    $holder = $plain->lock($name, 5000);
    $waiter = $fair->lock($name, 5000); // queued behind the holder, false after waitTimeout
    echo "$n bytes: a fair waiter behind a holder: ", var_export($holder !== false && $waiter === false, true), "\n";
    $plain->unlock($holder);
    $mine = $fair->lock($name, 5000);
    echo "$n bytes: fair lock() of the free name ", var_export($mine !== false, true), "\n";
}
?>
--EXPECT--
two semaphores told apart after a NUL byte: true
fair queues told apart: true
400 bytes: lockSemaphore true, unlock true
400 bytes: a fair waiter behind a holder: true
400 bytes: fair lock() of the free name true
2000 bytes: lockSemaphore false, unlock false (ERR memory:// keeps semaphores, fencing, shared locks and fair queues of names of at most 400 bytes)
2000 bytes: a fair waiter behind a holder: true
2000 bytes: fair lock() of the free name false
