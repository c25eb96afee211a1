#!/usr/bin/env bash
# tests/pg/cluster.sh - a throwaway PostgreSQL cluster for one test or one
# benchmark: Debian's server (/usr/lib/postgresql/*/bin), initdb in a
# scratch directory of its own, run by a user who is not root, listening
# only on a unix socket in that directory (no TCP), one database, stopped
# and removed when the shell that started it exits, even on failure.
# Several run at once (ctest -j): each has its own directory, socket and
# data, nothing shared but the binaries.
#
# Sourced (by a test after tests/lib.sh, or by a bench script):
#
#   . "$SRC/tests/pg/cluster.sh"
#   pg_cluster [DBNAME]    starts it (DBNAME: bstore); sets
#       PG_URL     postgresql:///DBNAME?host=DIR&user=postgres, the
#                  superuser's URL (trusted on the socket, no password)
#       PG_DIR     the scratch directory; the socket is in it
#       PG_DATA    its data directory; PG_LOG the server's log
#       PG_BIN     Debian's bin directory (initdb, pg_ctl, psql, pg_dump)
#       PG_OSUSER  the operating-system user the server runs as
#     Other roles log in with a password (scram-sha-256) only, so a test
#     can check that bstore passes one; pg_url ROLE [PASSWORD] [DBNAME]
#     makes their URLs.
#   pg_sql SQL...          runs SQL as the superuser in DBNAME (psql,
#                          stops at the first error, prints rows bare)
#   pg_ctl_as ARGS...      pg_ctl on this cluster as its user (e.g. to
#                          stop it mid-test: pg_ctl_as stop -m immediate)
#   pg_cluster_stop        stops and removes it (done on EXIT; a test that
#                          sets its own EXIT trap calls it there)
#
# Run as a command, it starts a cluster, runs CMD with PG_URL and
# BSTORE_DB set to its URL (default: prints the URL and waits for a line
# on standard input), then removes it:
#
#   tests/pg/cluster.sh [CMD ARGS...]
#
# Where the server is not installed, root installs it (Debian package
# postgresql, through scripts/deps.sh); anyone else, or when that fails,
# exits 77 (ctest: Skipped) saying so.

# pg_find_bin: sets PG_BIN to the newest /usr/lib/postgresql/N/bin that
# has initdb; false when none.
pg_find_bin() {
	local d best=
	for d in /usr/lib/postgresql/*/bin; do
		if ! [ -x "$d/initdb" ] || ! [ -x "$d/pg_ctl" ] ||
			! [ -x "$d/postgres" ]; then
			continue
		fi
		if [ -z "$best" ] || [ "$(basename "$(dirname "$d")")" -gt \
			"$(basename "$(dirname "$best")")" ] 2>/dev/null; then
			best=$d
		fi
	done
	[ -n "$best" ] || return 1
	PG_BIN=$best
}

# pg_need: the server is here, or installed by root; otherwise skipped.
pg_need() {
	local src
	pg_find_bin && return 0
	src=${SRC:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		# One installer at a time when several tests start together.
		flock "${TMPDIR:-/tmp}/bstore-pg-install.lock" \
			"$src/scripts/deps.sh" postgresql >&2 || true
		pg_find_bin && return 0
	fi
	echo "$(basename "$0"): skipped: postgresql not installed (Debian package postgresql)"
	exit 77
}

# pg_need_backend: the bstore under test was linked with libpq; otherwise
# skipped. (ldd's output whole: grep -q would end it early, and pipefail
# count its SIGPIPE.)
pg_need_backend() {
	case $(ldd "$BSTORE" 2>/dev/null) in
	*libpq.*) ;;
	*)
		echo "$(basename "$0"): skipped: this bstore has no PostgreSQL backend (not linked with libpq)"
		exit 77
		;;
	esac
}

# pg_as CMD...: CMD as the cluster's operating-system user.
pg_as() {
	if [ "$(id -u)" = 0 ]; then
		runuser -u "$PG_OSUSER" -- "$@"
	else
		"$@"
	fi
}

# pg_pick_user: root runs the server as Debian's postgres user, or else as
# a system user of bstore's own (created once); others as themselves.
pg_pick_user() {
	if [ "$(id -u)" != 0 ]; then
		PG_OSUSER=$(id -un)
		return
	fi
	for PG_OSUSER in postgres bstore-pg; do
		getent passwd "$PG_OSUSER" >/dev/null && return
	done
	PG_OSUSER=bstore-pg
	# Another test may create it at the same moment: then it exists.
	useradd --system --no-create-home --home-dir /nonexistent \
		--shell /usr/sbin/nologin "$PG_OSUSER" 2>/dev/null ||
		getent passwd "$PG_OSUSER" >/dev/null
}

pg_cluster() {
	local db=${1:-bstore}
	pg_need
	pg_pick_user
	PG_DBNAME=$db
	# Under /tmp, not the build tree: a socket's path has at most 107
	# bytes, and the server's user must reach the directory.
	PG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/bstore-pg.XXXXXX")
	PG_DATA=$PG_DIR/data
	PG_LOG=$PG_DIR/log
	trap 'pg_cluster_stop' EXIT
	trap 'pg_cluster_stop; exit 130' INT
	trap 'pg_cluster_stop; exit 143' TERM
	chmod 0755 "$PG_DIR"
	[ "$(id -u)" != 0 ] || chown "$PG_OSUSER:" "$PG_DIR"
	# C locale: text sorts by bytes, as in SQLite. The superuser is
	# trusted on the socket; every other role gives its password.
	if ! pg_as "$PG_BIN/initdb" --no-sync --no-instructions -E UTF8 \
		--locale=C -U postgres -A trust -D "$PG_DATA" \
		>"$PG_DIR/initdb.log" 2>&1; then
		cat "$PG_DIR/initdb.log" >&2
		echo "pg_cluster: initdb failed" >&2
		return 1
	fi
	pg_as tee "$PG_DATA/pg_hba.conf" >/dev/null <<-EOF
		local all postgres trust
		local all all scram-sha-256
	EOF
	# Throwaway data: nothing waits for the disk.
	pg_as tee -a "$PG_DATA/postgresql.conf" >/dev/null <<-EOF
		listen_addresses = ''
		unix_socket_directories = '$PG_DIR'
		fsync = off
		synchronous_commit = off
		full_page_writes = off
		max_connections = 150
		shared_buffers = 32MB
		dynamic_shared_memory_type = mmap
		max_wal_size = 1GB
		logging_collector = off
	EOF
	if ! pg_ctl_as start -w -t 60 -l "$PG_LOG" >/dev/null; then
		cat "$PG_LOG" >&2 2>/dev/null || true
		echo "pg_cluster: the server did not start" >&2
		return 1
	fi
	PG_URL="postgresql:///$db?host=$PG_DIR&user=postgres"
	"$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$PG_DIR" -U postgres \
		-d postgres -c "CREATE DATABASE \"$db\"" >/dev/null
}

# pg_url ROLE [PASSWORD] [DBNAME]: the URL ROLE logs in with.
pg_url() {
	local cred=$1
	[ -z "${2:-}" ] || cred=$1:$2
	echo "postgresql://$cred@/${3:-$PG_DBNAME}?host=$PG_DIR"
}

pg_sql() {
	"$PG_BIN/psql" -X -q -A -t -v ON_ERROR_STOP=1 -h "$PG_DIR" \
		-U postgres -d "$PG_DBNAME" "$@" | sed '/^$/d'
}

pg_ctl_as() {
	pg_as "$PG_BIN/pg_ctl" -D "$PG_DATA" "$@"
}

pg_cluster_stop() {
	[ -n "${PG_DIR:-}" ] && [ -d "$PG_DIR" ] || return 0
	if [ -f "$PG_DATA/postmaster.pid" ]; then
		pg_ctl_as stop -m immediate -w -t 30 >/dev/null 2>&1 || true
	fi
	rm -rf "$PG_DIR"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -euo pipefail
	pg_cluster bstore
	export PG_URL BSTORE_DB=$PG_URL
	if [ $# -eq 0 ]; then
		echo "$PG_URL"
		echo "cluster.sh: up; press Enter to stop and remove it" >&2
		read -r _ || true
	else
		"$@"
	fi
fi
