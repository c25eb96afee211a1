#!/usr/bin/env bash
# scripts/deps.sh - installs the Debian packages bstore needs to build and
# test, when they are missing. Run as root (or with sudo available).
# Extra package names given as arguments are installed too.
set -euo pipefail

pkgs=(cmake pkg-config gcc g++ make libsqlite3-dev sqlite3 libcsv-dev
	libctemplate-dev libcmocka-dev libjansson-dev libgsl-dev nettle-dev
	libpq-dev postgresql python3 "$@")

missing=()
for p in "${pkgs[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		grep -q 'install ok installed'; then
		missing+=("$p")
	fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "bstore: installing Debian packages: ${missing[*]}" >&2
sudo=()
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		sudo=(sudo)
	else
		echo "bstore: need root to install: ${missing[*]}" >&2
		exit 1
	fi
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
