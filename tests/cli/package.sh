#!/usr/bin/env bash
# tests/cli/package.sh - what a user installs: `cmake --install` of this
# build tree into a scratch prefix, and the Debian package CPack makes of
# it (cmake/package.cmake) in a scratch directory: its name, its files, its
# Depends, and the bstore and man page it holds, extracted into a scratch
# root and run on a sample. Nothing is installed on the machine. Without
# dpkg-deb and dpkg-shlibdeps (dpkg-dev) the package part is skipped, and
# without man the rendering of the installed page.
set -euo pipefail
. "$SRC/tests/lib.sh"
: "${BUILD:?}" "${CMAKE:?}" "${CPACK:?}"
need sqlite3

version=$("$BSTORE" --version | cut -d' ' -f2)

# check_bstore ROOT WHAT: ROOT/bin/bstore is this build's bstore and
# ingests and lists a sample into an archive of its own; ROOT's man page
# renders when man is installed.
check_bstore() {
	local root=$1 what=$2 db=$T/$2.db pages
	run "$root/bin/bstore" --version
	expect_rc 0 "$what: bstore --version"
	expect_eq "$(cat "$T/out")" "bstore $version" "$what: bstore --version"
	run "$root/bin/bstore" --db "$db" ingest \
		"$SAMPLES/bonnie++-2.00a-local-full.txt"
	expect_rc 0 "$what: bstore ingest"
	run "$root/bin/bstore" --db "$db" list
	expect_rc 0 "$what: bstore list"
	expect_in "$T/out" "labvm01          bonnie++ 2.00a         2G"
	pages=("$root"/share/man/man1/bstore.1*)
	if [ ! -s "${pages[0]}" ]; then
		fail "$what: no man page in $root/share/man/man1"
	elif have man; then
		run env MANWIDTH=80 man -l -P cat "${pages[0]}"
		expect_rc 0 "$what: man -l ${pages[0]}"
		expect_in "$T/out" "results database and report toolkit"
		expect_in "$T/out" "bstore ingest [OPTIONS] [FILE...]"
	else
		skip_part "'man -l' of the $what page: '$missing' is not installed"
	fi
}

# cmake --install into a prefix.
run "$CMAKE" --install "$BUILD" --prefix "$T/prefix"
expect_rc 0 "cmake --install"
for f in bin/bstore share/doc/bstore/README.md share/doc/bstore/schema.sql \
	share/doc/bstore/docs/formats.md share/doc/bstore/docs/schema.md; do
	[ -s "$T/prefix/$f" ] || fail "cmake --install: no $f"
done
check_bstore "$T/prefix" prefix

# The Debian package, built from this tree into a scratch directory.
if have dpkg-deb dpkg-shlibdeps dpkg; then
	run "$CPACK" --config "$BUILD/CPackConfig.cmake" -G DEB -B "$T/pkg"
	expect_rc 0 "cpack -G DEB"
	deb=$T/pkg/bstore_${version}_$(dpkg --print-architecture).deb
	if [ ! -s "$deb" ]; then
		fail "no $(basename "$deb"); cpack made: $(ls "$T/pkg")"
	else
		dpkg-deb -c "$deb" >"$T/contents"
		expect_in "$T/contents" " ./usr/bin/bstore"
		expect_in "$T/contents" " ./usr/share/man/man1/bstore.1"
		expect_in "$T/contents" " ./usr/share/doc/bstore/README.md"
		expect_eq "$(dpkg-deb -f "$deb" Package)" bstore "Package"
		expect_eq "$(dpkg-deb -f "$deb" Version)" "$version" "Version"
		dpkg-deb -f "$deb" Depends >"$T/depends"
		for lib in libsqlite3 libctemplate libcsv libnettle libc6; do
			expect_in "$T/depends" "$lib"
		done
		[ -n "$(dpkg-deb -f "$deb" Maintainer)" ] || fail "no Maintainer"
		dpkg-deb -f "$deb" Description >"$T/description"
		expect_in "$T/description" "disk benchmarks"
		dpkg-deb -x "$deb" "$T/root"
		check_bstore "$T/root/usr" package
	fi
else
	skip_part "the Debian package: '$missing' is not installed (dpkg-dev)"
fi
finish
