--TEST--
lockSemaphore(), lockShared(), fencing with servers that refuse connections: 2 of 5 dead are tolerated (and unlock/extend/validity work), 3 of 5 dead give false with the reasons in getLastErrors(), never an exception
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$live = rt_servers(3, 3.0);
$dead = fn () => ['127.0.0.1', rt_free_port(), 3.0];
$kinds = [
    'semaphore' => fn ($r, $k) => $r->lockSemaphore($k, 2, 10000),
    'shared' => fn ($r, $k) => $r->lockShared($k, 10000),
    'fenced' => fn ($r, $k) => $r->lock($k, 10000),
];
foreach ([2, 3] as $down) {
    $servers = array_merge(array_slice($live, 0, 5 - $down), array_map(fn () => $dead(), range(1, $down)));
    $r = new RedLock($servers, 10, 1, ['fencing' => true]);
    foreach ($kinds as $name => $acquire) {
        $key = rt_key("$name$down");
        $lock = $acquire($r, $key);
        // a dead server's entry: its connect error, or "no reply needed" when the live ones decided first
        $errors = array_filter($r->getLastErrors(), fn ($e) => is_string($e) && (str_starts_with($e, 'connect')
            || ($e === 'no reply needed' && is_array($lock))));
        echo "$down dead, $name: ", is_array($lock) ? 'locked' : 'false', ', ', count($errors), " dead servers' entries\n";
        if (is_array($lock)) {
            echo '  validity ', var_export($r->validity($lock) > 0, true), ', extend ',
                var_export(is_array($r->extend($lock, 10000)), true), ', unlock ', var_export($r->unlock($lock), true),
                ', validity after ', var_export($r->validity($lock), true), "\n";
        }
    }
}
?>
--EXPECT--
2 dead, semaphore: locked, 2 dead servers' entries
  validity true, extend true, unlock true, validity after false
2 dead, shared: locked, 2 dead servers' entries
  validity true, extend true, unlock true, validity after false
2 dead, fenced: locked, 2 dead servers' entries
  validity true, extend true, unlock true, validity after false
3 dead, semaphore: false, 3 dead servers' entries
3 dead, shared: false, 3 dead servers' entries
3 dead, fenced: false, 3 dead servers' entries
