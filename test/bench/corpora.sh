#!/usr/bin/env bash
# test/bench/corpora.sh — fetch the benchmark corpora and the ctags reference tool.
#
# What it does (idempotent: each step is skipped when its result is already there):
#   1. Installs Debian's `universal-ctags` (apt-get install -y universal-ctags) if `ctags`
#      is not on PATH, and Debian's `time` if /usr/bin/time is missing (for `time -v`).
#   2. Into ${ALLOT_BENCH_DIR:-<project>/bench-data} (bench-data/ is gitignored):
#        - `apt-get download python3-django python3-sympy`, then `dpkg -x` each .deb into
#          bench-data/django and bench-data/sympy (Python sources, no install into the system);
#        - `npm pack rxjs@7.8.2` into a temp dir, untar it and keep `package/src` as
#          bench-data/rxjs-src (TypeScript sources).
#   3. Prints the corpus roots, one per line, as NAME=PATH:
#        django=<dir>/django/usr/lib/python3/dist-packages/django
#        sympy=<dir>/sympy/usr/lib/python3/dist-packages/sympy
#        rxjs=<dir>/rxjs-src
#
# Needs: root (or sudo) for apt-get, Debian's package repositories and the npm registry.
# Usage: bash test/bench/corpora.sh        (ALLOT_BENCH_DIR=/some/dir to put them elsewhere)
# Re-fetch a corpus by deleting its folder under the bench dir.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PROJECT_DIR="$(cd "$SCRIPT_DIR/../.." && pwd)"
BENCH_DIR="${ALLOT_BENCH_DIR:-$PROJECT_DIR/bench-data}"
RXJS_VERSION="7.8.2"

log() { printf '[corpora] %s\n' "$*" >&2; }

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    log "warning: not root and no sudo; apt-get install steps may fail"
  fi
fi

APT_UPDATED=0
apt_update_once() {
  if [ "$APT_UPDATED" -eq 0 ]; then
    log "apt-get update"
    $SUDO apt-get update -qq
    APT_UPDATED=1
  fi
}

apt_install() {
  apt_update_once
  log "apt-get install -y $*"
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >&2
}

# --- 1. tools -------------------------------------------------------------------------
if command -v ctags >/dev/null 2>&1; then
  log "ctags present: $(command -v ctags) ($(ctags --version 2>/dev/null | head -n1))"
else
  log "ctags missing"
  apt_install universal-ctags
fi
if ! ctags --version 2>/dev/null | grep -q 'Universal Ctags'; then
  log "warning: $(command -v ctags) is not Universal Ctags; figures will not match the reference"
fi
if [ -x /usr/bin/time ]; then
  log "/usr/bin/time present"
else
  log "/usr/bin/time missing"
  apt_install time
fi

mkdir -p "$BENCH_DIR"
BENCH_DIR="$(cd "$BENCH_DIR" && pwd)"
log "bench dir: $BENCH_DIR"

# --- 2a. Debian Python packages -------------------------------------------------------
# fetch_deb PACKAGE DEST: download PACKAGE's .deb and unpack it into DEST.
fetch_deb() {
  local pkg="$1" dest="$2" tmp deb
  if [ -d "$dest/usr" ]; then
    log "$pkg: already unpacked in $dest, skipping"
    return
  fi
  tmp="$(mktemp -d)"
  # apt-get download runs as the _apt user where it can; let it write into the temp dir.
  chmod 0777 "$tmp"
  log "$pkg: apt-get download (into $tmp)"
  if ! (cd "$tmp" && apt-get download -q "$pkg" >&2); then
    log "$pkg: download failed, refreshing package lists and retrying"
    apt_update_once
    (cd "$tmp" && apt-get download -q "$pkg" >&2)
  fi
  deb="$(find "$tmp" -maxdepth 1 -name "${pkg}_*.deb" | head -n1)"
  if [ -z "$deb" ]; then
    log "$pkg: no .deb found after download"; rm -rf "$tmp"; exit 1
  fi
  log "$pkg: dpkg -x $(basename "$deb") $dest"
  rm -rf "$dest.partial"
  mkdir -p "$dest.partial"
  dpkg -x "$deb" "$dest.partial"
  mv "$dest.partial" "$dest"
  rm -rf "$tmp"
}

fetch_deb python3-django "$BENCH_DIR/django"
fetch_deb python3-sympy "$BENCH_DIR/sympy"

# --- 2b. rxjs TypeScript sources from npm ----------------------------------------------
RXJS_DEST="$BENCH_DIR/rxjs-src"
if [ -d "$RXJS_DEST" ]; then
  log "rxjs: already in $RXJS_DEST, skipping"
else
  tmp="$(mktemp -d)"
  log "rxjs: npm pack rxjs@$RXJS_VERSION (into $tmp)"
  tgz="$(cd "$tmp" && npm pack --silent "rxjs@$RXJS_VERSION" | tail -n1)"
  log "rxjs: untar $tgz, keep package/src"
  tar -xzf "$tmp/$tgz" -C "$tmp"
  if [ ! -d "$tmp/package/src" ]; then
    log "rxjs: package/src not found in $tgz"; rm -rf "$tmp"; exit 1
  fi
  rm -rf "$RXJS_DEST.partial"
  mv "$tmp/package/src" "$RXJS_DEST.partial"
  mv "$RXJS_DEST.partial" "$RXJS_DEST"
  rm -rf "$tmp"
fi

# --- 3. roots --------------------------------------------------------------------------
DJANGO_ROOT="$BENCH_DIR/django/usr/lib/python3/dist-packages/django"
SYMPY_ROOT="$BENCH_DIR/sympy/usr/lib/python3/dist-packages/sympy"
RXJS_ROOT="$RXJS_DEST"
for root in "$DJANGO_ROOT" "$SYMPY_ROOT" "$RXJS_ROOT"; do
  if [ ! -d "$root" ]; then log "expected corpus root missing: $root"; exit 1; fi
done
log "corpus roots:"
echo "django=$DJANGO_ROOT"
echo "sympy=$SYMPY_ROOT"
echo "rxjs=$RXJS_ROOT"
