# Sourced by bench/run.sh with --tls: the N=5 row over TLS. Starts 5 TLS-only redis-servers on
# 127.0.0.1:7521-7525 (certificates made here with openssl) and runs the extension over them and over
# the 5 plain servers 7501-7505 side by side, interleaved, one RedLock reused and a new one per cycle
# (the pool keeps the TLS session: no handshake per cycle). Writes $out/tls.tsv, prints a table.
tls_base=7521
tls_dir=$out/tls
mkdir -p "$tls_dir"
rm -f "$out/tls.tsv"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$tls_dir/ca.key" \
  -out "$tls_dir/ca.crt" -subj /CN=bench-ca -days 2 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$tls_dir/server.key" \
  -out "$tls_dir/server.csr" -subj /CN=localhost 2>/dev/null
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' > "$tls_dir/server.ext"
openssl x509 -req -in "$tls_dir/server.csr" -CA "$tls_dir/ca.crt" -CAkey "$tls_dir/ca.key" -CAcreateserial \
  -out "$tls_dir/server.crt" -days 2 -extfile "$tls_dir/server.ext" 2>/dev/null
tls_pids=()
for i in 0 1 2 3 4; do
  redis-server --port 0 --tls-port $((tls_base + i)) --bind 127.0.0.1 --tls-cert-file "$tls_dir/server.crt" \
    --tls-key-file "$tls_dir/server.key" --tls-ca-cert-file "$tls_dir/ca.crt" --tls-auth-clients no \
    --save '' --appendonly no --logfile "$tls_dir/redis-$i.log" &
  tls_pids+=($!)
done
trap 'kill "${tls_pids[@]}" 2>/dev/null || true; cleanup' EXIT
sleep 0.5
echo "TLS: N=5 loopback, extension over TLS and plain side by side, $rounds round(s) x ${seconds}s"
for round in $(seq 1 "$rounds"); do
  for mode in reused percycle; do
    order=(tls plain); [ $((round % 2)) = 0 ] && order=(plain tls)
    for kind in "${order[@]}"; do
      if [ $kind = tls ]; then
        line=$(BENCH_TLS_CA="$tls_dir/ca.crt" "${php_ext[@]}" bench/cycle.php ext "$mode" "$(server_list 5 $tls_base)" "$seconds")
      else
        line=$("${php_ext[@]}" bench/cycle.php ext "$mode" "$(server_list 5 $redis_base)" "$seconds")
      fi
      printf '%s\t%s\t%s\t%s\n' "$round" "$mode" "$kind" "$line" >> "$out/tls.tsv"
    done
  done
done
php -n -r '
$rows = [];
foreach (file($argv[1], FILE_IGNORE_NEW_LINES) as $l) {
    [$round, $mode, $kind, $line] = explode("\t", $l);
    preg_match("/cycles=(\d+) seconds=([\d.]+) p50_us=([\d.]+).*cpu_us=(\d+)/", $line, $m);
    $rows[$mode][$kind][] = [$m[1] / $m[2], (float) $m[3], $m[4] / max(1, $m[1])];
}
$med = function ($xs, $i) { $v = array_column($xs, $i); sort($v); return $v[intdiv(count($v) - 1, 2)]; };
echo "| N=5 loopback | cycles/s plain | TLS | p50 us plain | TLS | TLS / plain | client CPU us/cycle plain | TLS | TLS / plain |\n";
echo "|---|---|---|---|---|---|---|---|---|\n";
foreach ($rows as $mode => $k) {
    printf("| %s | %.0f | %.0f | %.0f | %.0f | %.2fx | %.0f | %.0f | %.2fx |\n", $mode, $med($k["plain"], 0), $med($k["tls"], 0),
        $med($k["plain"], 1), $med($k["tls"], 1), $med($k["tls"], 1) / $med($k["plain"], 1),
        $med($k["plain"], 2), $med($k["tls"], 2), $med($k["tls"], 2) / $med($k["plain"], 2));
}' "$out/tls.tsv" | tee "$out/tls.md"
kill "${tls_pids[@]}" 2>/dev/null || true
