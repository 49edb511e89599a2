<?php
/* A tiny blocking RESP client for the chaos script: the guard server and health checks.
 * Kept free of phpredis so the script runs wherever the extension builds. */

final class Resp
{
    /** @var resource */
    private $link;

    private function __construct($link)
    {
        $this->link = $link;
    }

    public static function connect(int $port, float $timeout = 2.0): ?self
    {
        $link = @stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, $timeout);
        if ($link === false) {
            return null;
        }
        stream_set_timeout($link, (int) ceil($timeout), 0);
        stream_set_write_buffer($link, 0);
        return new self($link);
    }

    /** One command on a new connection, for the harness's own health checks and faults: null when the
     * server is down or did not answer within $timeout. On a loaded machine a slow answer means "not known
     * yet" to callers that ask again until their own deadline; a thrown timeout stopped run.php (a CI
     * rehearsal at load 25). */
    public static function ask(int $port, float $timeout, string ...$args): mixed
    {
        $c = self::connect($port, $timeout);
        try {
            return $c?->call(...$args);
        } catch (RuntimeException) {
            return null;
        } finally {
            $c?->close();
        }
    }

    /** One command; returns string|int|null|array, or a RuntimeException for an error reply. */
    public function call(string ...$args): mixed
    {
        $out = '*' . count($args) . "\r\n";
        foreach ($args as $a) {
            $out .= '$' . strlen($a) . "\r\n" . $a . "\r\n";
        }
        if (@fwrite($this->link, $out) !== strlen($out)) {
            throw new RuntimeException('write failed');
        }
        return $this->read();
    }

    private function read(): mixed
    {
        $line = fgets($this->link);
        if ($line === false) {
            throw new RuntimeException('connection closed or timed out');
        }
        $body = substr($line, 1, -2);
        switch ($line[0]) {
            case '+': return $body;
            case '-': return new RuntimeException($body);
            case ':': return (int) $body;
            case '$':
                if ((int) $body < 0) {
                    return null;
                }
                $want = (int) $body + 2;
                $data = '';
                while (strlen($data) < $want) {
                    $chunk = fread($this->link, $want - strlen($data));
                    if ($chunk === false || $chunk === '') {
                        throw new RuntimeException('short read');
                    }
                    $data .= $chunk;
                }
                return substr($data, 0, -2);
            case '*':
                $items = [];
                for ($i = 0; $i < (int) $body; $i++) {
                    $items[] = $this->read();
                }
                return $items;
        }
        throw new RuntimeException("bad reply line: $line");
    }

    public function close(): void
    {
        fclose($this->link);
    }
}
