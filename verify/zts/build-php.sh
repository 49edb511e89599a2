#!/usr/bin/env bash
# Builds a thread-safe (ZTS) PHP from Debian's source package of the PHP this machine runs
# (php-config --version, e.g. 8.2; Debian's newest source of it), with the embed SAPI and what the suite needs, into
# /var/cache/redlock-zts-<x.y> (REDLOCK_ZTS_DIR), and reuses that build when it is already
# there. As root (apt-get build deps). Prints the prefix. Cost: see docs/evidence/platforms.md.
# The deb-src lines are made at run time from this machine's own apt sources, in a private apt
# state directory: the system's apt configuration is not changed.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)

version=$(php-config --version)
branch=${version%.*}                         # 8.2
prefix=${REDLOCK_ZTS_DIR:-/var/cache/redlock-zts-$branch}  # keyed by branch: one build per PHP x.y
config=(--prefix="$prefix" --with-config-file-path="$prefix/etc" --enable-zts --enable-embed
  --disable-all --enable-cli --enable-fpm --disable-cgi --disable-phpdbg --enable-pcntl --enable-posix
  --enable-ctype --enable-tokenizer --with-sodium --with-openssl --without-pear)
stamp="$prefix/.redlock-zts-build"
# Debian's patches leave a placeholder in phpize and php-config that its packaging fills in (a
# build by configure installs without the API level in its paths), and make phpize take libtool's
# files from the system (/usr/share/aclocal: php-dev's dependencies, which scripts/setup.sh installs).
debian_fixups() {
  local api
  api=$(sed -n 's/^#define PHP_API_VERSION \([0-9]*\).*/\1/p' "$prefix/include/php/main/php.h")
  sed -i -e "s|/@DEBIAN_PHP_API@||g; s|@DEBIAN_PHP_API@|$api|g" -e 's|^aclocaldir=.*|aclocaldir="/usr/share/aclocal"|' \
    "$prefix/bin/phpize" "$prefix/bin/php-config"
}
if [ -x "$prefix/bin/php" ] && [ "$(cat "$stamp" 2>/dev/null)" = "${config[*]}" ]; then
  debian_fixups
  echo "$prefix"; exit 0
fi

export DEBIAN_FRONTEND=noninteractive
need=""
for p in dpkg-dev libsodium-dev libssl-dev pkg-config gcc make xz-utils libtool shtool; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need="$need $p"
done
[ -z "$need" ] || apt-get install -y -q $need >&2

work=$(mktemp -d /var/tmp/redlock-zts.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/apt/lists/partial" "$work/src"
# deb-src twins of the Debian archive entries this machine already uses (one-line or deb822).
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
  [ -f "$f" ] || continue
  grep -Eq '/debian(-security)?/?([[:space:]]|$)' "$f" || continue
  case "$f" in
    *.sources) sed 's/^Types:.*/Types: deb-src/' "$f" > "$work/apt/$(basename "$f")" ;;
    *) grep -E '^[[:space:]]*deb[[:space:]].*/debian(-security)?/?[[:space:]]' "$f" \
         | sed 's/^[[:space:]]*deb[[:space:]]/deb-src /' > "$work/apt/$(basename "$f" .list).list" ;;
  esac
done
apt_opts=(-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$work/apt"
  -o Dir::State::Lists="$work/apt/lists" -o Acquire::Check-Valid-Until=false)
apt-get "${apt_opts[@]}" update -q >&2
cd "$work/src"
# The installed version first; the archive may hold only an older source of it (a security pool
# without sources): then the newest one that downloads.
versions=$( (dpkg-query -W -f='${Version}\n' "php$branch-cli"; apt-cache "${apt_opts[@]}" showsrc "php$branch" \
  | sed -n 's/^Version: //p' | sort -rV) | awk '!seen[$0]++')
for v in $versions; do
  apt-get "${apt_opts[@]}" source -q "php$branch=$v" >&2 && break
done
src=$(find . -maxdepth 1 -type d -name "php$branch-*" | head -n 1)
cd "$src"
start=$SECONDS
./configure -q "${config[@]}" >&2
make -j"$(nproc)" >/dev/null
rm -rf "$prefix"
make install >/dev/null
debian_fixups
mkdir -p "$prefix/etc"
: > "$prefix/etc/php.ini"
echo "${config[*]}" > "$stamp"
echo "built ZTS PHP $("$prefix/bin/php" -r 'echo PHP_VERSION;') in $((SECONDS - start)) s (configure + make -j$(nproc) + install)" >&2
echo "$prefix"
