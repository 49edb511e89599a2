--TEST--
validity() on servers without script flags (Redis < 7, faked): the no-writes shebang does not compile there ("Error compiling script"), so the same script is sent plain and its answer counts (issue 32, item 13's fallback)
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$old = [
    ['on' => 'SHEBANG', 'reply' => "-ERR Error compiling script (new function): user_script:1: unexpected symbol near '#'\r\n"],
    ['on' => 'EVAL', 'reply' => ":50000\r\n"],
];
$ports = [rt_spawn_fake_redis($old), rt_spawn_fake_redis($old), rt_spawn_fake_redis($old)];
$r = new RedLock(array_map(fn ($p) => ['127.0.0.1', $p, 2.0 * rt_time_scale()], $ports), 0, 1);
$lock = $r->lock('v348', 60000);
if (!is_array($lock)) {
    rt_fatal('lock() on the fake servers: ' . json_encode($r->getLastErrors()));
}
$v = $r->validity($lock);
echo "locked: ", var_export(is_array($lock), true), ", validity from the plain script: ",
    var_export(is_float($v) && $v > 40000 && $v <= 50000, true), "\n";
?>
--EXPECT--
locked: true, validity from the plain script: true
