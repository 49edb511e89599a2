#!/usr/bin/env bash
# Follows the README's Install section as a new user would, on a fresh debootstrap root of a Debian
# suite (bookworm, trixie), and prints the transcript. As root; the result is in docs/install.md.
#   bash scripts/install-check.sh trixie [ROOT_DIR]
# Root steps run as root, the build as a normal user ("dev") who owns the source tree; then the
# PECL tarball; then scripts/setup.sh as root and scripts/test.sh as that user.
set -euo pipefail
cd "$(dirname "$0")/.."
suite=${1:?usage: install-check.sh SUITE [ROOT_DIR]}
root=${2:-/var/tmp/redlock-install/$suite}
[ "$(id -u)" -eq 0 ] || { echo "run as root" >&2; exit 2; }

if [ ! -f "$root/.redlock-root" ]; then
  rm -rf "$root"
  debootstrap --variant=minbase "$suite" "$root" "$(bash scripts/debian-mirror.sh)" >/dev/null
  printf '#!/bin/sh\nexit 101\n' > "$root/usr/sbin/policy-rc.d"; chmod +x "$root/usr/sbin/policy-rc.d"
  touch "$root/.redlock-root"
fi
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
for m in proc sys dev; do
  mountpoint -q "$root/$m" && continue
  if [ $m = proc ]; then mount -t proc proc "$root/proc"; else mount --rbind /$m "$root/$m"; mount --make-rslave "$root/$m"; fi
done
trap 'umount -R "$root/dev" "$root/sys" "$root/proc" 2>/dev/null || true' EXIT

# The source as a user gets it (the tracked files), owned by that user; a release tarball beside it.
chroot "$root" bash -c 'id dev >/dev/null 2>&1 || useradd -m -s /bin/bash dev'
rm -rf "$root/home/dev/redlock"; mkdir -p "$root/home/dev/redlock"
git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$root/home/dev/redlock"
chroot "$root" chown -R dev:dev /home/dev/redlock

as_root() { echo "# $*"; chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root DEBIAN_FRONTEND=noninteractive bash -c "$*" 2>&1; }
as_dev() { echo "\$ $*"; chroot "$root" runuser -u dev -- env -i PATH=/usr/bin:/bin HOME=/home/dev bash -c "cd ~/redlock && $*" 2>&1; }
quiet() { "$@" | { IFS= read -r command; echo "$command"; tail -n "${TAIL:-3}"; }; return "${PIPESTATUS[0]}"; }

echo "== Debian $suite: README Install, from source"
as_root 'apt-get update -q >/dev/null; apt-get install -y -q php-dev libhiredis-dev libssl-dev pkg-config make gcc >/dev/null && echo installed'
as_dev 'phpize >/dev/null && echo phpize ok'
TAIL=1 quiet as_dev './configure >/dev/null && echo configure ok'
TAIL=1 quiet as_dev 'make >/dev/null && echo make ok'
as_root 'apt-get install -y -q redis-server php-fpm gdb openssl >/dev/null && echo redis-server php-fpm gdb openssl installed'
TAIL=6 quiet as_dev "REDLOCK_TEST_PORT=${REDLOCK_TEST_PORT:-7301} make test NO_INTERACTION=1 | grep -E '^Tests (passed|failed|skipped)'" || true
as_root 'cd /home/dev/redlock && make install'
as_root 'v=$(php -r '\''echo PHP_MAJOR_VERSION, ".", PHP_MINOR_VERSION;'\''); echo "extension=redlock" > /etc/php/$v/mods-available/redlock.ini && phpenmod redlock && echo enabled for PHP $v'
as_dev 'php --ri redlock | head -n 5'
as_root 'phpdismod redlock && php -m | grep -c "^redlock$" || echo "disabled: php -m lists no redlock"'

echo "== Debian $suite: README Install, with PECL"
as_root 'apt-get install -y -q php-pear >/dev/null && echo php-pear installed'
TAIL=1 quiet as_dev 'pecl package 2>&1 | grep -E "^Package .* done" || pecl package | tail -n 2'
as_root 'cd /home/dev/redlock && printf "\n" | pecl install redlock-*.tgz | grep -E "^(install ok|ERROR)|configuration option"'
as_root 'phpenmod redlock && php --ri redlock | grep -E "support|version"'
as_root 'phpdismod redlock && pecl uninstall redlock | tail -n 1'

echo "== Debian $suite: the tests, setup as root, then as the user"
TAIL=1 quiet as_root 'cd /home/dev/redlock && make clean >/dev/null; bash scripts/setup.sh >/dev/null && echo "setup ok; files owned by root in the tree: $(find . -user root | wc -l)"'
TAIL=1 quiet as_dev "REDLOCK_TEST_PORT=${REDLOCK_TEST_PORT:-7301} bash scripts/test.sh"
