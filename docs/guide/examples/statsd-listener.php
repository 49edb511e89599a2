<?php
// A stand-in for a StatsD daemon: prints every UDP datagram it receives on 127.0.0.1:PORT.
//   php statsd-listener.php [PORT=8125] [SECONDS=5]
$port = (int) ($argv[1] ?? 8125);
$seconds = (float) ($argv[2] ?? 5);
$socket = stream_socket_server("udp://127.0.0.1:$port", $errno, $errstr, STREAM_SERVER_BIND)
    or exit("cannot listen on udp 127.0.0.1:$port: $errstr\n");
$until = microtime(true) + $seconds;
while (microtime(true) < $until) {
    $read = [$socket];
    $write = $except = null;
    if (stream_select($read, $write, $except, 0, 100000)) {
        echo stream_socket_recvfrom($socket, 65535), "\n";
    }
}
