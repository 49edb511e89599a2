--TEST--
Fair waiting ('fair' => true) on both cluster forms: on a cluster:// member (a hash-tagged resource, the queue's keys in its slot) and on RedLock::fromCluster() (each member's tag holds them together), three waiters in three processes, queued one after the other while the lock is held, get it in their order of arrival; inspect()['waiters'] counts them and is 0 after; without a hash tag a cluster member refuses the fair lock with the slot error (its queue keys beside the resource)
--EXTENSIONS--
redlock
pcntl
posix
--SKIPIF--
<?php require __DIR__ . '/../inc/cluster.inc'; echo cl_skip_reason();
--FILE--
<?php
require __DIR__ . '/../inc/cluster.inc';
$timeout = min(60.0, 2.0 * rt_time_scale());
$options = ['fair' => true, 'waitTimeout' => (int) (8000 * rt_time_scale())];
$forms = [
    'cluster member' => fn () => new RedLock([cl_uri("?timeout=$timeout")], 200, 3, $options),
    'fromCluster' => fn () => RedLock::fromCluster(getenv('REDLOCK_TEST_CLUSTER') . "?timeout=$timeout", 200, 3, $options),
];
foreach ($forms as $form => $make) {
    $key = '{fair}' . rt_key($form);
    $log = sys_get_temp_dir() . '/redlock-897-' . getmypid();
    @unlink($log);
    $holder = $make();
    $lock = $holder->lock($key, 30000);
    echo "$form: holder ", is_array($lock) ? 'held' : json_encode($holder->getLastErrors()), "\n";
    $pids = [];
    foreach (['a', 'b', 'c'] as $i => $name) {
        $pid = pcntl_fork();
        if ($pid === 0) {
            $r = $make();
            $l = $r->lock($key, 10000);
            file_put_contents($log, $name . ($l ? ' got' : ' none') . "\n", FILE_APPEND | LOCK_EX);
            $l && usleep(20000);
            $l && $r->unlock($l);
            posix_kill(getmypid(), SIGKILL);
        }
        $pids[] = $pid;
        // in the queue before the next one comes
        rt_eventually(fn () => ($holder->inspect($key)['waiters'] ?? -1) === $i + 1, 5.0 * rt_time_scale())
            || print('expected ' . ($i + 1) . ' waiters, inspect() says ' . json_encode($holder->inspect($key)) . "\n");
    }
    var_dump($holder->unlock($lock));
    foreach ($pids as $pid) {
        pcntl_waitpid($pid, $status);
    }
    echo '  order: ', trim(str_replace("\n", ' ', (string) file_get_contents($log))), "\n";
    echo '  after: waiters ', json_encode($holder->inspect($key)['waiters'] ?? null), "\n";
    @unlink($log);
}
$r = new RedLock([cl_uri("?timeout=$timeout")], 0, 0, ['fair' => true, 'waitTimeout' => 300]);
echo 'untagged on a cluster member: ', json_encode($r->lock(rt_key('untagged'), 1000)), ' ', json_encode($r->getLastErrors()), "\n";
?>
--EXPECT--
cluster member: holder held
bool(true)
  order: a got b got c got
  after: waiters 0
fromCluster: holder held
bool(true)
  order: a got b got c got
  after: waiters 0
untagged on a cluster member: false ["cluster: keys on different slots (several resources, or a kind's keys beside one): give them a hash tag, like {order}"]
