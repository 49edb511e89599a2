--TEST--
Constructor $options: every option accepted, unknown keys, bad values and wrong types rejected by name
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$s = rt_servers(5, 3.0);
$cases = [
    'all valid' => ['quorum' => 3, 'driftFactor' => 0.05, 'prefix' => 'app:', 'persistent' => false, 'maxExtensions' => 4],
    'int driftFactor, null cap, empty prefix' => ['driftFactor' => 0, 'maxExtensions' => null, 'prefix' => ''],
    'unknown key' => ['quorom' => 3],
    'integer key' => [3],
    'quorum 0' => ['quorum' => 0],
    'quorum above servers' => ['quorum' => 6],
    'quorum string' => ['quorum' => '3'],
    'quorum float' => ['quorum' => 3.0],
    'driftFactor negative' => ['driftFactor' => -0.01],
    'driftFactor 1' => ['driftFactor' => 1.0],
    'driftFactor NAN' => ['driftFactor' => NAN],
    'driftFactor string' => ['driftFactor' => '0.1'],
    'prefix int' => ['prefix' => 5],
    'persistent int' => ['persistent' => 1],
    'maxExtensions negative' => ['maxExtensions' => -1],
    'maxExtensions float' => ['maxExtensions' => 1.5],
    'evictingServers warn' => ['evictingServers' => 'warn'],
    'evictingServers refuse' => ['evictingServers' => 'refuse'],
    'evictingServers unknown' => ['evictingServers' => 'ignore'],
    'evictingServers case' => ['evictingServers' => 'Refuse'],
    'evictingServers bool' => ['evictingServers' => true],
    'maxConnectionSets 1' => ['maxConnectionSets' => 1],
    'maxConnectionSets 0' => ['maxConnectionSets' => 0],
    'maxConnectionSets above 1024' => ['maxConnectionSets' => 1025],
    'maxConnectionSets null' => ['maxConnectionSets' => null],
    'fair with waitTimeout' => ['fair' => true, 'waitTimeout' => 1000],
    'fair false alone' => ['fair' => false],
    'fair int' => ['fair' => 1, 'waitTimeout' => 1000],
    'fair without waitTimeout' => ['fair' => true],
];
foreach ($cases as $name => $options) {
    echo str_pad($name, 40), rt_throws(fn () => new RedLock($s, 200, 3, $options)), "\n";
}
// Named argument, and the drop-in 1-3 argument forms stay as they were.
echo rt_throws(fn () => new RedLock($s, options: ['quorum' => 5])), "\n";
echo rt_throws(fn () => new RedLock($s)), "\n";
echo rt_throws(fn () => new RedLock($s, 10, 2)), "\n";
// A second constructor call, with bad options or not, leaves an object constructed before intact.
$r = new RedLock($s);
echo rt_throws(fn () => $r->__construct($s, 200, 3, ['nope' => 1])), "\n";
$lock = $r->lock(rt_key(), 1000);
var_dump(is_array($lock), $r->unlock($lock));
?>
--EXPECT--
all valid                               no exception
int driftFactor, null cap, empty prefix no exception
unknown key                             ValueError: RedLock::__construct(): Argument #4 ($options) contains an unknown option "quorom" (known: quorum, driftFactor, prefix, persistent, maxExtensions, fencing, autoExtend, abortOnLoss, waitTimeout, fair, observer, onLoss, scripts, evictingServers, maxConnectionSets)
integer key                             ValueError: RedLock::__construct(): Argument #4 ($options) contains an unknown option 0 (options are named: quorum, driftFactor, prefix, persistent, maxExtensions, fencing, autoExtend, abortOnLoss, waitTimeout, fair, observer, onLoss, scripts, evictingServers, maxConnectionSets)
quorum 0                                ValueError: RedLock::__construct(): Argument #4 ($options) option "quorum" must be between 1 and 5 (the number of servers)
quorum above servers                    ValueError: RedLock::__construct(): Argument #4 ($options) option "quorum" must be between 1 and 5 (the number of servers)
quorum string                           TypeError: RedLock::__construct(): Argument #4 ($options) option "quorum" must be of type int, string given
quorum float                            TypeError: RedLock::__construct(): Argument #4 ($options) option "quorum" must be of type int, float given
driftFactor negative                    ValueError: RedLock::__construct(): Argument #4 ($options) option "driftFactor" must be at least 0 and less than 1
driftFactor 1                           ValueError: RedLock::__construct(): Argument #4 ($options) option "driftFactor" must be at least 0 and less than 1
driftFactor NAN                         ValueError: RedLock::__construct(): Argument #4 ($options) option "driftFactor" must be at least 0 and less than 1
driftFactor string                      TypeError: RedLock::__construct(): Argument #4 ($options) option "driftFactor" must be of type float, string given
prefix int                              TypeError: RedLock::__construct(): Argument #4 ($options) option "prefix" must be of type string, int given
persistent int                          TypeError: RedLock::__construct(): Argument #4 ($options) option "persistent" must be of type bool, int given
maxExtensions negative                  ValueError: RedLock::__construct(): Argument #4 ($options) option "maxExtensions" must be greater than or equal to 0, or null
maxExtensions float                     TypeError: RedLock::__construct(): Argument #4 ($options) option "maxExtensions" must be of type ?int, float given
evictingServers warn                    no exception
evictingServers refuse                  no exception
evictingServers unknown                 ValueError: RedLock::__construct(): Argument #4 ($options) option "evictingServers" must be "warn" or "refuse"
evictingServers case                    ValueError: RedLock::__construct(): Argument #4 ($options) option "evictingServers" must be "warn" or "refuse"
evictingServers bool                    TypeError: RedLock::__construct(): Argument #4 ($options) option "evictingServers" must be of type string, bool given
maxConnectionSets 1                     no exception
maxConnectionSets 0                     ValueError: RedLock::__construct(): Argument #4 ($options) option "maxConnectionSets" must be between 1 and 1024
maxConnectionSets above 1024            ValueError: RedLock::__construct(): Argument #4 ($options) option "maxConnectionSets" must be between 1 and 1024
maxConnectionSets null                  TypeError: RedLock::__construct(): Argument #4 ($options) option "maxConnectionSets" must be of type int, null given
fair with waitTimeout                   no exception
fair false alone                        no exception
fair int                                TypeError: RedLock::__construct(): Argument #4 ($options) option "fair" must be of type bool, int given
fair without waitTimeout                ValueError: RedLock::__construct(): Argument #4 ($options) option "fair" needs "waitTimeout" > 0 (ms to wait in the queue)
no exception
no exception
no exception
Error: Cannot call constructor twice
bool(true)
bool(true)
