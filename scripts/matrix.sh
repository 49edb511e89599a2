#!/usr/bin/env bash
# The platform matrix: the whole phpt suite (and a short chaos run) on other platforms than this
# machine's, each in a debootstrap root of another Debian suite (its own PHP, hiredis and servers;
# loopback is shared), plus a thread-safe PHP built here. As root. Results: docs/evidence/platforms.md.
#   bash scripts/matrix.sh                 every leg below but host
#   bash scripts/matrix.sh trixie zts      the legs named
# Legs:
#   host           scripts/test.sh on this machine (Debian 12: PHP 8.2, hiredis 0.14, Redis 7.0)
#   trixie         Debian 13: PHP 8.4, hiredis 1.2, Redis 8.0
#   trixie-valkey  the same root against Valkey 8.1 in place of Redis
#   trixie-frameworks  the Laravel, Symfony and php-lock integrations on Debian 13's frameworks
#   php8.5         experimental: PHP 8.5, Redis 8.6 (on sid: hiredis 1.2)
#   php8.6         experimental: PHP 8.6 RC, Redis 8.6; allowed to fail: reported, not counted
#   zts            thread-safe PHP (verify/zts/build-php.sh) on this machine: the suite, then the
#                  threaded embed test (verify/zts/run-threads.sh)
# Environment:
#   REDLOCK_MATRIX_DIR=/var/cache/redlock-matrix   roots and logs, kept for the next run
#   REDLOCK_TEST_PORT=7301                         first port of every leg (legs run one at a time)
#   REDLOCK_MATRIX_CHAOS="--preset=short"          verify/chaos/run.php arguments per leg; empty: no chaos
# Each leg prints "[leg] N passed, N failed, N skipped"; the summary lists every leg with its
# time. Exits non-zero when a leg that must pass failed.
set -uo pipefail
cd "$(dirname "$0")/.."
tree=$PWD

dir=${REDLOCK_MATRIX_DIR:-/var/cache/redlock-matrix}
port=${REDLOCK_TEST_PORT:-7301}
chaos=${REDLOCK_MATRIX_CHAOS---preset=short}
all_legs="trixie trixie-valkey trixie-frameworks php8.5 php8.6 zts"
legs=${*:-$all_legs}
[ "$(id -u)" -eq 0 ] || { echo "scripts/matrix.sh runs as root (debootstrap, chroot)" >&2; exit 2; }
mkdir -p "$dir/logs"

mounted=()
cleanup() {
  local m
  for m in "${mounted[@]}"; do umount -R "$m" 2>/dev/null || umount -lR "$m" 2>/dev/null || true; done
}
trap cleanup EXIT

# A root of the Debian suite, made once with debootstrap from this machine's own mirror, with
# /proc, /sys and /dev mounted (as slaves: unmounting them never touches the host's). Sets $root
# (not in a subshell: the mounts are recorded for the cleanup).
root_of() { # NAME SUITE
  local suite=$2 mirror
  root=$dir/$1
  if [ ! -f "$root/.redlock-root" ]; then
    command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null
    mirror=$(bash scripts/debian-mirror.sh) || return 1
    rm -rf "$root.tmp"
    local base=$suite; [ "$suite" = experimental ] && base=sid
    debootstrap --variant=minbase "$base" "$root.tmp" "$mirror" > "$dir/logs/debootstrap-$1.log" 2>&1 \
      || { echo "debootstrap $base failed: see $dir/logs/debootstrap-$1.log" >&2; return 1; }
    [ "$suite" = experimental ] && echo "deb $mirror experimental main" > "$root.tmp/etc/apt/sources.list.d/experimental.list"
    # Snapshots of sid/experimental outlive their Release files' Valid-Until; no services in a root.
    echo 'Acquire::Check-Valid-Until "false";' > "$root.tmp/etc/apt/apt.conf.d/99redlock"
    printf '#!/bin/sh\nexit 101\n' > "$root.tmp/usr/sbin/policy-rc.d"; chmod +x "$root.tmp/usr/sbin/policy-rc.d"
    touch "$root.tmp/.redlock-root"
    mv "$root.tmp" "$root"
  fi
  cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
  local m
  for m in proc sys dev; do
    mountpoint -q "$root/$m" && continue
    case $m in
      proc) mount -t proc proc "$root/proc" ;;
      *) mount --rbind "/$m" "$root/$m" && mount --make-rslave "$root/$m" ;;
    esac
    mounted+=("$root/$m")
  done
}

in_root() { # ROOT COMMAND...: as root inside, with a clean environment
  local root=$1; shift
  chroot "$root" env -i PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin HOME=/root LANG=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive "$@"
}

# The tracked files as they are in this work tree (edits included) into ROOT/src/NAME.
copy_tree() {
  local dest=$1
  rm -rf "$dest"; mkdir -p "$dest"
  git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$dest"
}

leg_sh() { # ROOT COMMAND: a shell command inside ROOT, or here when ROOT is empty
  if [ -n "$1" ]; then in_root "$1" bash -c "$2"; else bash -c "$2"; fi
}

# Runs the suite (and chaos) in SRC inside ROOT (here when empty) with ENV, and records
# "[leg] N passed, N failed, N skipped" and the time. OPTIONAL=yes: a failure is reported only.
results=()
failed_legs=0
run_leg() {
  local leg=$1 root=$2 src=$3 env=$4 optional=$5 log=$dir/logs/$1.log line status note="" platform
  # $start: set when the leg began, so that its time includes making its root or its PHP.
  echo "== [$leg]"
  leg_sh "$root" "cd $src && REDLOCK_MATRIX_LEG=$leg $env bash scripts/test.sh" > "$log" 2>&1
  status=$?
  platform=$(leg_sh "$root" "cd $src && $env bash scripts/platform.sh" 2>/dev/null)
  echo "[$leg] $platform"
  # run-tests.php colours its lines; without the colours, every test that did not pass, and the diffs and
  # unexplained skips scripts/test.sh prints at its end (CI keeps this lane's log, not the leg's)
  sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -aE '^(FAIL|BORK|LEAK) ' | sed "s/^/[$leg] /"
  sed 's/\x1b\[[0-9;]*m//g' "$log" | sed -n '/^== /,$p' | sed '$d' | head -n 80 | sed "s/^/[$leg] /"
  line=$(tail -n 1 "$log")
  case $line in *passed*) ;; *) line="0 passed, 1 failed (no summary: see $log)"; status=1 ;; esac
  echo "[$leg] $line"
  if [ -n "$chaos" ]; then
    if leg_sh "$root" "cd $src && $env php\${REDLOCK_PHP_VERSION:-} verify/chaos/run.php $chaos --port-base=$((port + 50))" \
        > "$dir/logs/$leg-chaos.log" 2>&1; then
      note="; chaos ok"
    else
      note="; chaos FAILED ($dir/logs/$leg-chaos.log)"; status=1
    fi
    echo "[$leg] chaos: $(tail -n 1 "$dir/logs/$leg-chaos.log")"
  fi
  if [ "$status" -ne 0 ]; then
    if [ "$optional" = yes ]; then note="$note (allowed to fail)"; else failed_legs=$((failed_legs + 1)); fi
  fi
  results+=("$(printf '%-14s %s: %s%s; %d s' "$leg" "$platform" "$line" "$note" $((SECONDS - start)))")
}

for leg in $legs; do
  start=$SECONDS
  case $leg in
    host)
      run_leg host "" "$tree" "" no ;;
    trixie|trixie-valkey)
      root_of trixie trixie || { results+=("$leg: no root"); failed_legs=$((failed_legs + 1)); continue; }
      # One copy of the tree for both legs, made by whichever runs first.
      [ "${trixie_copied:-}" = yes ] || { copy_tree "$root/src/redlock"; trixie_copied=yes; }
      # Valkey in place of Redis: the suite and chaos start "redis-server"/"redis-cli" from PATH.
      in_root "$root" bash -c 'dpkg-query -W valkey-server valkey-tools >/dev/null 2>&1 || apt-get install -y -q valkey-server valkey-tools >/dev/null 2>&1
        mkdir -p /opt/valkey-as-redis/bin && ln -sf /usr/bin/valkey-server /opt/valkey-as-redis/bin/redis-server \
        && ln -sf /usr/bin/valkey-cli /opt/valkey-as-redis/bin/redis-cli'
      env="REDLOCK_TEST_PORT=$port"
      [ "$leg" = trixie-valkey ] && env="$env PATH=/opt/valkey-as-redis/bin:\$PATH REDLOCK_TEST_REDIS_SERVER=valkey-server"
      run_leg "$leg" "$root" /src/redlock "$env" no ;;
    trixie-frameworks)
      # The three integrations on Debian 13's newer frameworks (Laravel 10, Symfony Lock 6.4,
      # php-lock 2.3, PHPUnit 11): each run-tests.sh installs its packages and builds the extension
      # in the root. Its own ports (the suite's + 100), its own copy of the tree.
      root_of trixie trixie || { results+=("$leg: no root"); failed_legs=$((failed_legs + 1)); continue; }
      copy_tree "$root/src/redlock-frameworks"
      echo "== [$leg]"
      in_root "$root" bash -c "apt-get install -y -q php-laravel-framework php-symfony-lock php-symfony-console \
        php-malkusch-lock phpunit php-redis redis-server >/dev/null 2>&1 || { apt-get update -q >/dev/null \
        && apt-get install -y -q php-laravel-framework php-symfony-lock php-symfony-console php-malkusch-lock \
        phpunit php-redis redis-server >/dev/null; }" > "$dir/logs/$leg-apt.log" 2>&1
      versions=$(in_root "$root" dpkg-query -W -f '${Package} ${Version}, ' php-laravel-framework php-symfony-lock php-malkusch-lock phpunit 2>/dev/null)
      echo "[$leg] ${versions%, }"
      passed=0 failed=0
      for integration in laravel symfony php-lock; do
        first=$((port + 100 + 20 * passed + 20 * failed))
        if in_root "$root" bash -c "cd /src/redlock-frameworks && sed -i 's/ 78[0-9][0-9] / $first /' integrations/$integration/run-tests.sh \
            && bash integrations/$integration/run-tests.sh" > "$dir/logs/$leg-$integration.log" 2>&1; then
          passed=$((passed + 1))
        else
          failed=$((failed + 1))
          echo "[$leg] $integration FAILED: see $dir/logs/$leg-$integration.log"
        fi
        echo "[$leg] $integration: $(grep -E '^(OK|Tests:|FAILURES)' "$dir/logs/$leg-$integration.log" | tail -n 1)"
      done
      line="$passed passed, $failed failed (integrations)"
      echo "[$leg] $line"
      [ "$failed" -eq 0 ] || failed_legs=$((failed_legs + 1))
      results+=("$(printf '%-14s %s: %s; %d s' "$leg" "${versions%, }" "$line" $((SECONDS - start)))") ;;
    php8.5|php8.6)
      # A root each: experimental's php-common for 8.6 breaks 8.5's, which needs unstable's.
      root_of "$leg" experimental || { results+=("$leg: no root"); failed_legs=$((failed_legs + 1)); continue; }
      v=${leg#php}
      common=unstable; [ "$v" = 8.6 ] && common=experimental
      copy_tree "$root/src/redlock-$leg"
      optional=no; [ "$leg" = php8.6 ] && optional=yes
      if ! in_root "$root" bash -c "apt-get update -q >/dev/null && apt-get install -y -q php$v-dev/experimental \
          php$v-cli/experimental php$v-fpm/experimental redis-server/experimental redis-tools/experimental \
          php-common/$common" > "$dir/logs/$leg-apt.log" 2>&1; then
        echo "[$leg] 0 passed, 1 failed: PHP $v not installable (see $dir/logs/$leg-apt.log)"
        results+=("$(printf '%-14s %s' "$leg" "not installable")"); [ "$optional" = no ] && failed_legs=$((failed_legs + 1))
        continue
      fi
      run_leg "$leg" "$root" "/src/redlock-$leg" "REDLOCK_TEST_PORT=$port REDLOCK_PHP_VERSION=$v" "$optional" ;;
    zts)
      prefix=$(bash verify/zts/build-php.sh 2> "$dir/logs/zts-build.log") \
        || { echo "[zts] 0 passed, 1 failed: the ZTS build failed (see $dir/logs/zts-build.log)"; results+=("zts: build failed"); failed_legs=$((failed_legs + 1)); continue; }
      echo "[zts] PHP built or reused in $prefix ($((SECONDS - start)) s)"
      copy_tree "$dir/zts-src"
      run_leg zts "" "$dir/zts-src" "PATH=$prefix/bin:$prefix/sbin:\$PATH REDLOCK_TEST_PORT=$port" no
      start=$SECONDS
      if (cd "$dir/zts-src" && PATH=$prefix/bin:$prefix/sbin:$PATH REDLOCK_TEST_PORT=$port bash verify/zts/run-threads.sh) > "$dir/logs/zts-threads.log" 2>&1; then
        line=$(tail -n 1 "$dir/logs/zts-threads.log")
      else
        line="FAILED: $(tail -n 1 "$dir/logs/zts-threads.log") (see $dir/logs/zts-threads.log)"; failed_legs=$((failed_legs + 1))
      fi
      echo "[zts-threads] $line"
      results+=("$(printf '%-14s %s: %s; %d s' zts-threads "embed SAPI, 8 threads" "$line" $((SECONDS - start)))") ;;
    *)
      echo "unknown leg $leg (legs: host $all_legs)" >&2; exit 2 ;;
  esac
done

echo "== matrix summary"
printf '%s\n' "${results[@]}"
[ "$failed_legs" -eq 0 ]
