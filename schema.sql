-- schema.sql - the bstore archive, schema version 7. Embedded into the
-- binary at build time: bstore creates every table, index and view below
-- in a new archive and sets PRAGMA user_version = 7; an archive of
-- version 1 to 6 is upgraded in one transaction (store/migrate.c).
-- Meant to be queried directly with sqlite3 too (docs/schema.md), e.g.
--   sqlite3 bstore.db 'select name, size, put_block from bonnie'
--   sqlite3 bstore.db 'select run_id, metric, value, unit from results'
--
-- One row per run in `runs`: identity, provenance, the parameters and
-- results of the bonnie family (Bonnie, bonnie++, bstore run) as columns,
-- so that storing such a run is one INSERT. The parameters and results of
-- the other tools (sysbench, zcav, fio, dd, getc_putc) are rows of
-- run_params and run_results; curves (zcav's throughput by position) are
-- rows of series. Which metrics and parameters exist, with their units,
-- is in the tables metrics and params, which bstore fills from its
-- catalogue (core/metric.c, core/param.c).
--
-- A result has a status: 'ok'; 'too_fast' for bonnie's "+++++" (the test
-- ran under 0.5 s: no number, never 0); 'not_run' for an empty field. Its
-- value is NULL unless the status is 'ok'.

CREATE TABLE runs (
	id                 INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused after rm
	tool               TEXT NOT NULL,       -- 'bonnie++', 'bstore'
	tool_version       TEXT,                -- '1.03', '2.00a', '1.0x'
	format             TEXT NOT NULL,       -- 'bonnie++-csv-1.98', ...
	machine            TEXT NOT NULL,       -- may be '' (bonnie++ -m '')
	measured_at        INTEGER,             -- unix seconds, NULL if unknown
	stored_at          INTEGER NOT NULL,    -- unix seconds
	-- parameters of the bonnie family (NULL when unknown or not given)
	file_size_mib      INTEGER,
	io_chunk_bytes     INTEGER,
	seek_count         INTEGER,             -- number of seeks (-s ::N)
	seek_procs         INTEGER,
	per_char_mib       INTEGER,
	num_files          INTEGER,             -- units of 1024 files
	max_size           INTEGER,             -- bytes; -1 link, -2 symlink
	min_size           INTEGER,
	num_dirs           INTEGER,
	file_chunk_bytes   INTEGER,
	concurrency        INTEGER,
	seed               TEXT,
	-- bonnie++'s twelve tests (not_run for the other families)
	putc               REAL,    -- in the metric's unit; NULL unless ok
	putc_status        TEXT NOT NULL DEFAULT 'not_run' CHECK (putc_status = 'ok' OR putc_status = 'too_fast' OR putc_status = 'not_run'),
	putc_cpu           REAL,    -- CPU %
	putc_lat_us        REAL,    -- max latency, microseconds
	put_block          REAL,    -- in the metric's unit; NULL unless ok
	put_block_status   TEXT NOT NULL DEFAULT 'not_run' CHECK (put_block_status = 'ok' OR put_block_status = 'too_fast' OR put_block_status = 'not_run'),
	put_block_cpu      REAL,    -- CPU %
	put_block_lat_us   REAL,    -- max latency, microseconds
	rewrite            REAL,    -- in the metric's unit; NULL unless ok
	rewrite_status     TEXT NOT NULL DEFAULT 'not_run' CHECK (rewrite_status = 'ok' OR rewrite_status = 'too_fast' OR rewrite_status = 'not_run'),
	rewrite_cpu        REAL,    -- CPU %
	rewrite_lat_us     REAL,    -- max latency, microseconds
	getc               REAL,    -- in the metric's unit; NULL unless ok
	getc_status        TEXT NOT NULL DEFAULT 'not_run' CHECK (getc_status = 'ok' OR getc_status = 'too_fast' OR getc_status = 'not_run'),
	getc_cpu           REAL,    -- CPU %
	getc_lat_us        REAL,    -- max latency, microseconds
	get_block          REAL,    -- in the metric's unit; NULL unless ok
	get_block_status   TEXT NOT NULL DEFAULT 'not_run' CHECK (get_block_status = 'ok' OR get_block_status = 'too_fast' OR get_block_status = 'not_run'),
	get_block_cpu      REAL,    -- CPU %
	get_block_lat_us   REAL,    -- max latency, microseconds
	seeks              REAL,    -- in the metric's unit; NULL unless ok
	seeks_status       TEXT NOT NULL DEFAULT 'not_run' CHECK (seeks_status = 'ok' OR seeks_status = 'too_fast' OR seeks_status = 'not_run'),
	seeks_cpu          REAL,    -- CPU %
	seeks_lat_us       REAL,    -- max latency, microseconds
	seq_create         REAL,    -- in the metric's unit; NULL unless ok
	seq_create_status  TEXT NOT NULL DEFAULT 'not_run' CHECK (seq_create_status = 'ok' OR seq_create_status = 'too_fast' OR seq_create_status = 'not_run'),
	seq_create_cpu     REAL,    -- CPU %
	seq_create_lat_us  REAL,    -- max latency, microseconds
	seq_stat           REAL,    -- in the metric's unit; NULL unless ok
	seq_stat_status    TEXT NOT NULL DEFAULT 'not_run' CHECK (seq_stat_status = 'ok' OR seq_stat_status = 'too_fast' OR seq_stat_status = 'not_run'),
	seq_stat_cpu       REAL,    -- CPU %
	seq_stat_lat_us    REAL,    -- max latency, microseconds
	seq_del            REAL,    -- in the metric's unit; NULL unless ok
	seq_del_status     TEXT NOT NULL DEFAULT 'not_run' CHECK (seq_del_status = 'ok' OR seq_del_status = 'too_fast' OR seq_del_status = 'not_run'),
	seq_del_cpu        REAL,    -- CPU %
	seq_del_lat_us     REAL,    -- max latency, microseconds
	ran_create         REAL,    -- in the metric's unit; NULL unless ok
	ran_create_status  TEXT NOT NULL DEFAULT 'not_run' CHECK (ran_create_status = 'ok' OR ran_create_status = 'too_fast' OR ran_create_status = 'not_run'),
	ran_create_cpu     REAL,    -- CPU %
	ran_create_lat_us  REAL,    -- max latency, microseconds
	ran_stat           REAL,    -- in the metric's unit; NULL unless ok
	ran_stat_status    TEXT NOT NULL DEFAULT 'not_run' CHECK (ran_stat_status = 'ok' OR ran_stat_status = 'too_fast' OR ran_stat_status = 'not_run'),
	ran_stat_cpu       REAL,    -- CPU %
	ran_stat_lat_us    REAL,    -- max latency, microseconds
	ran_del            REAL,    -- in the metric's unit; NULL unless ok
	ran_del_status     TEXT NOT NULL DEFAULT 'not_run' CHECK (ran_del_status = 'ok' OR ran_del_status = 'too_fast' OR ran_del_status = 'not_run'),
	ran_del_cpu        REAL,    -- CPU %
	ran_del_lat_us     REAL,    -- max latency, microseconds
	-- provenance
	raw                TEXT NOT NULL,       -- the original text, verbatim
	sha256             BLOB NOT NULL CHECK (length(sha256) = 32),
	                                        -- of raw: a run is stored once
	source             TEXT NOT NULL,       -- file name or '<stdin>'
	source_line        INTEGER,
	parser_version     TEXT NOT NULL,
	warning            TEXT,
	-- which metrics and parameters apply: 'bonnie', 'sysbench', 'zcav',
	-- 'fio', 'dd', 'getc_putc' (last: version 1 archives gain it by
	-- ALTER TABLE); measure_key (version 4): a hash of what every
	-- printed form of the run shows alike, to find the same measurement
	-- read from other text (a CSV line and its table: docs/ingest.md,
	-- "One measurement, one run"), NULL for a run with no value to match
	family             TEXT NOT NULL DEFAULT 'bonnie',
	measure_key        INTEGER,
	-- (version 5) how a bonnie-family run measured: O_DIRECT (bonnie++'s
	-- -D) and an fsync after every write (-b): 0 or 1 or NULL when its
	-- output does not say (bonnie++'s never does; bstore run's always)
	direct             INTEGER,
	fsync              INTEGER,
	-- (version 6) the parameters the user supplied where the output
	-- left them out (ingest --param and bstore set): their keys in the
	-- family's order joined by commas ('direct' or 'rw' then 'bs' and
	-- so on) or NULL when every known value is the tool's own
	supplied           TEXT
) STRICT;

-- bstore looks a line's SHA-256 up before storing it, so each run is
-- stored once. The index holds only the first 8 bytes of the digest: small
-- enough to stay in memory for millions of runs (a full-digest UNIQUE
-- index made ingesting 1,000,000 lines 3.7x slower than sqlite3's .import).
CREATE INDEX runs_sha256_prefix ON runs (substr(sha256, 1, 8));

-- The measure keys of runs read from bonnie++'s text tables only: a CSV
-- line looks its table up here, at the cost of one probe of a small
-- index; a table (rare) looks its line up by reading runs. An index of
-- every run's key made ingesting 1,000,000 CSV lines about 2x slower.
CREATE INDEX runs_measure_key ON runs (measure_key) WHERE measure_key IS NOT NULL AND format GLOB 'bonnie++-text*';

-- (version 4) Every change `bstore set` made to a run's machine or date,
-- oldest first, so that no old value is lost: old_value and new_value are
-- the machine's name (TEXT, '' unknown) or measured_at (INTEGER unix
-- seconds, NULL unknown).
CREATE TABLE run_history (
	id                 INTEGER PRIMARY KEY,
	run_id             INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	field              TEXT NOT NULL,       -- 'machine' or 'measured_at'
	old_value          ANY,
	new_value          ANY,
	changed_at         INTEGER NOT NULL     -- unix seconds
) STRICT;

CREATE INDEX run_history_run ON run_history (run_id);

-- Results of the tools other than the bonnie family, one row per metric.
CREATE TABLE run_results (
	run_id             INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	metric             TEXT NOT NULL,       -- key in metrics, with the run's family
	value              REAL,                -- NULL unless ok
	status             TEXT NOT NULL CHECK (status = 'ok' OR status = 'too_fast' OR status = 'not_run'),
	cpu_pct            REAL,
	lat_us             REAL,
	PRIMARY KEY (run_id, metric)
) STRICT, WITHOUT ROWID;

-- Parameters of the tools other than the bonnie family: integers, reals
-- or text, as params.kind says.
CREATE TABLE run_params (
	run_id             INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	key                TEXT NOT NULL,       -- key in params
	value              ANY NOT NULL,
	PRIMARY KEY (run_id, key)
) STRICT, WITHOUT ROWID;

-- Curves: one row per point, in order. zcav: axis 'offset_gib', x the
-- position of the block, y its MiB/s (NULL when zcav printed "++++": too
-- fast to time), seconds the time it took.
CREATE TABLE series (
	run_id             INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	metric             TEXT NOT NULL,
	seq                INTEGER NOT NULL,    -- 0, 1, 2, ... along the curve
	axis               TEXT NOT NULL,       -- what x is: 'offset_gib', 'time_s'
	x                  REAL NOT NULL,
	y                  REAL,
	seconds            REAL,
	PRIMARY KEY (run_id, metric, seq)
) STRICT, WITHOUT ROWID;

-- (version 7) Latency distributions: one row per histogram of a run (fio
-- json+'s clat/slat/lat bins per direction, sysbench's and bstore
-- fileio's latency histogram), in place of one series row per bin. bins
-- packs the nbins (x, count) pairs by scheme (core/dist.h):
--   'fio'   varint pairs (fio bin index delta, count): x is fio's bin
--           value (plat_idx_to_val), its edges fio's (FIO_IO_U_PLAT_BITS 6)
--   'milli' varint pairs (delta of x * 1000 >= 0, count): sysbench's and
--           fileio's ms, printed with 3 decimals
--   'dec4'  the same in ten-thousandths: bstore fileio's 4 decimals
--   'raw'   x, count, seconds as 8-byte little-endian doubles per bin
-- A varint is LEB128, 7 bits a byte, low first; the first delta is from 0.
CREATE TABLE distributions (
	run_id             INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	metric             TEXT NOT NULL,       -- 'read_clat_hist', 'latency_histogram'
	direction          TEXT NOT NULL,       -- 'read', 'write', 'trim'; '' for none
	kind               TEXT NOT NULL,       -- 'clat', 'slat', 'lat'
	scheme             TEXT NOT NULL,       -- 'fio', 'milli', 'dec4', 'raw'
	axis               TEXT NOT NULL,       -- what x is: 'ns', 'latency_ms'
	nbins              INTEGER NOT NULL,    -- bins that counted (sparse)
	bins               BLOB NOT NULL,
	PRIMARY KEY (run_id, metric)
) STRICT, WITHOUT ROWID;

-- Latency distribution of tests run by `bstore run` (histogram-based).
CREATE TABLE latency (
	run_id             INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	metric             TEXT NOT NULL,
	mean_us            REAL,
	p50_us             REAL,
	p99_us             REAL,
	PRIMARY KEY (run_id, metric)
) STRICT, WITHOUT ROWID;

-- Free key=value labels: raid=10, array=EMC CX500; host.* from bstore run.
CREATE TABLE tags (
	run_id             INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	key                TEXT NOT NULL CHECK (key <> ''),
	value              TEXT NOT NULL,
	PRIMARY KEY (run_id, key)
) STRICT, WITHOUT ROWID;

CREATE INDEX tags_key_value ON tags (key, value);

-- Lines that looked like results but could not be parsed, kept verbatim.
CREATE TABLE rejects (
	id                 INTEGER PRIMARY KEY,
	source             TEXT NOT NULL,
	line               INTEGER,
	reason             TEXT NOT NULL,
	raw                TEXT NOT NULL,       -- cut to 64 KiB if longer
	truncated          INTEGER NOT NULL DEFAULT 0 CHECK (truncated = 0 OR truncated = 1),
	sha256             TEXT NOT NULL,       -- of raw
	stored_at          INTEGER NOT NULL,
	UNIQUE (source, line, sha256)
) STRICT;

-- The metric catalogue, filled by bstore from core/metric.c: every metric
-- of every tool family with its label, unit, which way is better and
-- category. bstore adds and updates rows, never removes one, so that an
-- archive opened by bstores of several releases keeps the newest rows;
-- position is the order within one release's catalogue.
CREATE TABLE metrics (
	family             TEXT NOT NULL,
	key                TEXT NOT NULL,
	position           INTEGER NOT NULL,
	label              TEXT NOT NULL,
	unit               TEXT NOT NULL,
	better             TEXT CHECK (better IS NULL OR better = 'higher' OR better = 'lower'),
	category           TEXT NOT NULL,       -- sequential, random, metadata, latency, io, other
	cpu_latency        INTEGER NOT NULL,    -- 1: results carry cpu_pct and latency_us
	in_runs            INTEGER NOT NULL,    -- 1: stored in runs' own columns
	PRIMARY KEY (family, key)
) STRICT, WITHOUT ROWID;

-- The parameter table, filled by bstore from its family rows as metrics
-- is. A key may be a parameter of several families (direct, O_DIRECT:
-- version 5 keys the table by family and key).
CREATE TABLE params (
	key                TEXT NOT NULL,
	family             TEXT NOT NULL,
	position           INTEGER NOT NULL,
	kind               TEXT NOT NULL,       -- int, size, bool, real, text
	label              TEXT NOT NULL,
	unit               TEXT NOT NULL,
	runs_column        TEXT,                -- its column of runs, or NULL: run_params
	PRIMARY KEY (family, key)
) STRICT, WITHOUT ROWID;

-- Comparisons saved with `bstore report --save NAME` (version 3): the
-- report's options and selectors, one argument a row, in order, which
-- `bstore site` renders again as compare/NAME.html. A name is a file name
-- in any file system and URL: letters, digits, '.', '_', '-', starting
-- with a letter or digit, at most 64 bytes. Saving a name again replaces
-- its arguments.
CREATE TABLE saved_reports (
	name               TEXT PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 64
	                   AND name GLOB '[A-Za-z0-9]*'
	                   AND name NOT GLOB '*[^A-Za-z0-9._-]*'),
	saved_at           INTEGER NOT NULL     -- unix seconds
) STRICT, WITHOUT ROWID;

CREATE TABLE saved_report_args (
	report             TEXT NOT NULL REFERENCES saved_reports (name) ON DELETE CASCADE,
	position           INTEGER NOT NULL CHECK (position >= 0),
	arg                TEXT NOT NULL,
	PRIMARY KEY (report, position)
) STRICT, WITHOUT ROWID;

-- Facts about the archive itself: 'catalogue' is a fingerprint of the
-- catalogue that filled metrics and params.
CREATE TABLE meta (
	key                TEXT PRIMARY KEY,
	value              TEXT NOT NULL
) STRICT, WITHOUT ROWID;

-- One row per bonnie-family run with bonnie++'s CSV column names. Rates,
-- CPU and latencies are numbers only, as bonnie++ prints them (whole
-- KiB/s, files/s, CPU % and microseconds; seeks/s to one decimal) and
-- NULL unless the test's status, in its own column, is 'ok'; so avg(),
-- max() and ORDER BY work.
CREATE VIEW bonnie AS
SELECT
	r.id AS id,
	r.machine AS name,
	r.tool AS tool,
	r.tool_version AS version,
	CASE WHEN r.file_size_mib IS NULL OR r.file_size_mib <= 0 THEN NULL
	     WHEN r.file_size_mib % 1024 = 0
	     THEN (r.file_size_mib / 1024) || 'G'
	     ELSE r.file_size_mib || 'M' END AS size,
	r.file_size_mib AS file_size_mib,
	r.io_chunk_bytes AS io_chunk_size,
	r.concurrency AS concurrency,
	r.seed AS seed,
	r.seek_count AS seek_count,
	r.seek_procs AS seek_proc_count,
	r.num_files AS num_files,
	CASE r.max_size WHEN -1 THEN 'link' WHEN -2 THEN 'symlink'
	     ELSE r.max_size END AS max_size,
	r.min_size AS min_size,
	r.num_dirs AS num_dirs,
	r.file_chunk_bytes AS file_chunk_size,
	CAST(r.putc AS INTEGER) AS putc,
	r.putc_status AS putc_status,
	CAST(r.putc_cpu AS INTEGER) AS putc_cpu,
	CAST(r.put_block AS INTEGER) AS put_block,
	r.put_block_status AS put_block_status,
	CAST(r.put_block_cpu AS INTEGER) AS put_block_cpu,
	CAST(r.rewrite AS INTEGER) AS rewrite,
	r.rewrite_status AS rewrite_status,
	CAST(r.rewrite_cpu AS INTEGER) AS rewrite_cpu,
	CAST(r.getc AS INTEGER) AS getc,
	r.getc_status AS getc_status,
	CAST(r.getc_cpu AS INTEGER) AS getc_cpu,
	CAST(r.get_block AS INTEGER) AS get_block,
	r.get_block_status AS get_block_status,
	CAST(r.get_block_cpu AS INTEGER) AS get_block_cpu,
	CASE WHEN r.seeks = CAST(r.seeks AS INTEGER) THEN CAST(r.seeks AS INTEGER)
	     ELSE round(r.seeks, 1) END AS seeks,
	r.seeks_status AS seeks_status,
	CAST(r.seeks_cpu AS INTEGER) AS seeks_cpu,
	CAST(r.seq_create AS INTEGER) AS seq_create,
	r.seq_create_status AS seq_create_status,
	CAST(r.seq_create_cpu AS INTEGER) AS seq_create_cpu,
	CAST(r.seq_stat AS INTEGER) AS seq_stat,
	r.seq_stat_status AS seq_stat_status,
	CAST(r.seq_stat_cpu AS INTEGER) AS seq_stat_cpu,
	CAST(r.seq_del AS INTEGER) AS seq_del,
	r.seq_del_status AS seq_del_status,
	CAST(r.seq_del_cpu AS INTEGER) AS seq_del_cpu,
	CAST(r.ran_create AS INTEGER) AS ran_create,
	r.ran_create_status AS ran_create_status,
	CAST(r.ran_create_cpu AS INTEGER) AS ran_create_cpu,
	CAST(r.ran_stat AS INTEGER) AS ran_stat,
	r.ran_stat_status AS ran_stat_status,
	CAST(r.ran_stat_cpu AS INTEGER) AS ran_stat_cpu,
	CAST(r.ran_del AS INTEGER) AS ran_del,
	r.ran_del_status AS ran_del_status,
	CAST(r.ran_del_cpu AS INTEGER) AS ran_del_cpu,
	CAST(r.putc_lat_us AS INTEGER) AS putc_latency_us,
	CAST(r.put_block_lat_us AS INTEGER) AS put_block_latency_us,
	CAST(r.rewrite_lat_us AS INTEGER) AS rewrite_latency_us,
	CAST(r.getc_lat_us AS INTEGER) AS getc_latency_us,
	CAST(r.get_block_lat_us AS INTEGER) AS get_block_latency_us,
	CAST(r.seeks_lat_us AS INTEGER) AS seeks_latency_us,
	CAST(r.seq_create_lat_us AS INTEGER) AS seq_create_latency_us,
	CAST(r.seq_stat_lat_us AS INTEGER) AS seq_stat_latency_us,
	CAST(r.seq_del_lat_us AS INTEGER) AS seq_del_latency_us,
	CAST(r.ran_create_lat_us AS INTEGER) AS ran_create_latency_us,
	CAST(r.ran_stat_lat_us AS INTEGER) AS ran_stat_latency_us,
	CAST(r.ran_del_lat_us AS INTEGER) AS ran_del_latency_us,
	datetime(r.measured_at, 'unixepoch') AS measured_at,
	r.source AS source,
	r.source_line AS source_line
FROM runs AS r
WHERE r.family = 'bonnie';

-- Every result of every run as a row, whatever the tool: the bonnie
-- family's columns and run_results, with the unit from metrics.
CREATE VIEW results AS
SELECT x.run_id AS run_id, r.family AS family, x.metric AS metric,
	x.value AS value, m.unit AS unit, x.status AS status,
	x.cpu_pct AS cpu_pct, x.latency_us AS latency_us
FROM (
	SELECT id AS run_id, 'putc' AS metric, putc AS value, putc_cpu AS cpu_pct,
		putc_lat_us AS latency_us, putc_status AS status
	FROM runs WHERE family = 'bonnie'
	UNION ALL
	SELECT id AS run_id, 'put_block' AS metric, put_block AS value, put_block_cpu AS cpu_pct,
		put_block_lat_us AS latency_us, put_block_status AS status
	FROM runs WHERE family = 'bonnie'
	UNION ALL
	SELECT id AS run_id, 'rewrite' AS metric, rewrite AS value, rewrite_cpu AS cpu_pct,
		rewrite_lat_us AS latency_us, rewrite_status AS status
	FROM runs WHERE family = 'bonnie'
	UNION ALL
	SELECT id AS run_id, 'getc' AS metric, getc AS value, getc_cpu AS cpu_pct,
		getc_lat_us AS latency_us, getc_status AS status
	FROM runs WHERE family = 'bonnie'
	UNION ALL
	SELECT id AS run_id, 'get_block' AS metric, get_block AS value, get_block_cpu AS cpu_pct,
		get_block_lat_us AS latency_us, get_block_status AS status
	FROM runs WHERE family = 'bonnie'
	UNION ALL
	SELECT id AS run_id, 'seeks' AS metric, seeks AS value, seeks_cpu AS cpu_pct,
		seeks_lat_us AS latency_us, seeks_status AS status
	FROM runs WHERE family = 'bonnie'
	UNION ALL
	SELECT id AS run_id, 'seq_create' AS metric, seq_create AS value, seq_create_cpu AS cpu_pct,
		seq_create_lat_us AS latency_us, seq_create_status AS status
	FROM runs WHERE family = 'bonnie'
	UNION ALL
	SELECT id AS run_id, 'seq_stat' AS metric, seq_stat AS value, seq_stat_cpu AS cpu_pct,
		seq_stat_lat_us AS latency_us, seq_stat_status AS status
	FROM runs WHERE family = 'bonnie'
	UNION ALL
	SELECT id AS run_id, 'seq_del' AS metric, seq_del AS value, seq_del_cpu AS cpu_pct,
		seq_del_lat_us AS latency_us, seq_del_status AS status
	FROM runs WHERE family = 'bonnie'
	UNION ALL
	SELECT id AS run_id, 'ran_create' AS metric, ran_create AS value, ran_create_cpu AS cpu_pct,
		ran_create_lat_us AS latency_us, ran_create_status AS status
	FROM runs WHERE family = 'bonnie'
	UNION ALL
	SELECT id AS run_id, 'ran_stat' AS metric, ran_stat AS value, ran_stat_cpu AS cpu_pct,
		ran_stat_lat_us AS latency_us, ran_stat_status AS status
	FROM runs WHERE family = 'bonnie'
	UNION ALL
	SELECT id AS run_id, 'ran_del' AS metric, ran_del AS value, ran_del_cpu AS cpu_pct,
		ran_del_lat_us AS latency_us, ran_del_status AS status
	FROM runs WHERE family = 'bonnie'
	UNION ALL
	SELECT run_id, metric, value, cpu_pct, lat_us AS latency_us, status
	FROM run_results
) AS x
JOIN runs AS r ON r.id = x.run_id
LEFT JOIN metrics AS m ON m.family = r.family AND m.key = x.metric;
