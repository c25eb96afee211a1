-- schema-pg.sql - the bstore archive on PostgreSQL, schema version 4: the
-- tables, indexes and views of schema.sql, column for column and in the
-- same order, in PostgreSQL's types. Embedded into the binary at build
-- time: bstore runs it in an empty database (store/migrate.c) and records
-- the version as meta's row 'schema_version'. tests/pg/schema.sh checks
-- that both files make the same tables and views with the same columns;
-- docs/schema.md says how the types map and what differs.
--   psql "$URL" -c 'select name, size, put_block from bonnie'
--
-- The types: INTEGER is BIGINT (SQLite's integers are 64-bit), REAL is
-- DOUBLE PRECISION, BLOB is BYTEA, and a column of ANY type (run_params'
-- value, run_history's old and new values) is TEXT holding the value's
-- text (a number in the shortest form that reads back as the same
-- number); ids are identity columns, never reused.
--
-- No function is added: what the store's SQL needs works on both engines
-- as written (store/db.h says how the store writes it), and a selector's
-- glob is a regular expression here (store/db_pg.c).

CREATE TABLE runs (
	id                 BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, -- never reused after rm
	tool               TEXT NOT NULL,       -- 'bonnie++', 'bstore'
	tool_version       TEXT,                -- '1.03', '2.00a', '1.0x'
	format             TEXT NOT NULL,       -- 'bonnie++-csv-1.98', ...
	machine            TEXT NOT NULL,       -- may be '' (bonnie++ -m '')
	measured_at        BIGINT,             -- unix seconds, NULL if unknown
	stored_at          BIGINT NOT NULL,    -- unix seconds
	-- parameters of the bonnie family (NULL when unknown or not given)
	file_size_mib      BIGINT,
	io_chunk_bytes     BIGINT,
	seek_count         BIGINT,             -- number of seeks (-s ::N)
	seek_procs         BIGINT,
	per_char_mib       BIGINT,
	num_files          BIGINT,             -- units of 1024 files
	max_size           BIGINT,             -- bytes; -1 link, -2 symlink
	min_size           BIGINT,
	num_dirs           BIGINT,
	file_chunk_bytes   BIGINT,
	concurrency        BIGINT,
	seed               TEXT,
	-- bonnie++'s twelve tests (not_run for the other families)
	putc               DOUBLE PRECISION,    -- in the metric's unit; NULL unless ok
	putc_status        TEXT NOT NULL DEFAULT 'not_run' CHECK (putc_status = 'ok' OR putc_status = 'too_fast' OR putc_status = 'not_run'),
	putc_cpu           DOUBLE PRECISION,    -- CPU %
	putc_lat_us        DOUBLE PRECISION,    -- max latency, microseconds
	put_block          DOUBLE PRECISION,    -- in the metric's unit; NULL unless ok
	put_block_status   TEXT NOT NULL DEFAULT 'not_run' CHECK (put_block_status = 'ok' OR put_block_status = 'too_fast' OR put_block_status = 'not_run'),
	put_block_cpu      DOUBLE PRECISION,    -- CPU %
	put_block_lat_us   DOUBLE PRECISION,    -- max latency, microseconds
	rewrite            DOUBLE PRECISION,    -- in the metric's unit; NULL unless ok
	rewrite_status     TEXT NOT NULL DEFAULT 'not_run' CHECK (rewrite_status = 'ok' OR rewrite_status = 'too_fast' OR rewrite_status = 'not_run'),
	rewrite_cpu        DOUBLE PRECISION,    -- CPU %
	rewrite_lat_us     DOUBLE PRECISION,    -- max latency, microseconds
	getc               DOUBLE PRECISION,    -- in the metric's unit; NULL unless ok
	getc_status        TEXT NOT NULL DEFAULT 'not_run' CHECK (getc_status = 'ok' OR getc_status = 'too_fast' OR getc_status = 'not_run'),
	getc_cpu           DOUBLE PRECISION,    -- CPU %
	getc_lat_us        DOUBLE PRECISION,    -- max latency, microseconds
	get_block          DOUBLE PRECISION,    -- in the metric's unit; NULL unless ok
	get_block_status   TEXT NOT NULL DEFAULT 'not_run' CHECK (get_block_status = 'ok' OR get_block_status = 'too_fast' OR get_block_status = 'not_run'),
	get_block_cpu      DOUBLE PRECISION,    -- CPU %
	get_block_lat_us   DOUBLE PRECISION,    -- max latency, microseconds
	seeks              DOUBLE PRECISION,    -- in the metric's unit; NULL unless ok
	seeks_status       TEXT NOT NULL DEFAULT 'not_run' CHECK (seeks_status = 'ok' OR seeks_status = 'too_fast' OR seeks_status = 'not_run'),
	seeks_cpu          DOUBLE PRECISION,    -- CPU %
	seeks_lat_us       DOUBLE PRECISION,    -- max latency, microseconds
	seq_create         DOUBLE PRECISION,    -- in the metric's unit; NULL unless ok
	seq_create_status  TEXT NOT NULL DEFAULT 'not_run' CHECK (seq_create_status = 'ok' OR seq_create_status = 'too_fast' OR seq_create_status = 'not_run'),
	seq_create_cpu     DOUBLE PRECISION,    -- CPU %
	seq_create_lat_us  DOUBLE PRECISION,    -- max latency, microseconds
	seq_stat           DOUBLE PRECISION,    -- in the metric's unit; NULL unless ok
	seq_stat_status    TEXT NOT NULL DEFAULT 'not_run' CHECK (seq_stat_status = 'ok' OR seq_stat_status = 'too_fast' OR seq_stat_status = 'not_run'),
	seq_stat_cpu       DOUBLE PRECISION,    -- CPU %
	seq_stat_lat_us    DOUBLE PRECISION,    -- max latency, microseconds
	seq_del            DOUBLE PRECISION,    -- in the metric's unit; NULL unless ok
	seq_del_status     TEXT NOT NULL DEFAULT 'not_run' CHECK (seq_del_status = 'ok' OR seq_del_status = 'too_fast' OR seq_del_status = 'not_run'),
	seq_del_cpu        DOUBLE PRECISION,    -- CPU %
	seq_del_lat_us     DOUBLE PRECISION,    -- max latency, microseconds
	ran_create         DOUBLE PRECISION,    -- in the metric's unit; NULL unless ok
	ran_create_status  TEXT NOT NULL DEFAULT 'not_run' CHECK (ran_create_status = 'ok' OR ran_create_status = 'too_fast' OR ran_create_status = 'not_run'),
	ran_create_cpu     DOUBLE PRECISION,    -- CPU %
	ran_create_lat_us  DOUBLE PRECISION,    -- max latency, microseconds
	ran_stat           DOUBLE PRECISION,    -- in the metric's unit; NULL unless ok
	ran_stat_status    TEXT NOT NULL DEFAULT 'not_run' CHECK (ran_stat_status = 'ok' OR ran_stat_status = 'too_fast' OR ran_stat_status = 'not_run'),
	ran_stat_cpu       DOUBLE PRECISION,    -- CPU %
	ran_stat_lat_us    DOUBLE PRECISION,    -- max latency, microseconds
	ran_del            DOUBLE PRECISION,    -- in the metric's unit; NULL unless ok
	ran_del_status     TEXT NOT NULL DEFAULT 'not_run' CHECK (ran_del_status = 'ok' OR ran_del_status = 'too_fast' OR ran_del_status = 'not_run'),
	ran_del_cpu        DOUBLE PRECISION,    -- CPU %
	ran_del_lat_us     DOUBLE PRECISION,    -- max latency, microseconds
	-- provenance
	raw                TEXT NOT NULL,       -- the original text, verbatim
	sha256             BYTEA NOT NULL CHECK (length(sha256) = 32),
	                                        -- of raw: a run is stored once
	source             TEXT NOT NULL,       -- file name or '<stdin>'
	source_line        BIGINT,
	parser_version     TEXT NOT NULL,
	warning            TEXT,
	-- which metrics and parameters apply: 'bonnie', 'sysbench', 'zcav',
	-- 'fio', 'dd', 'getc_putc' (last: version 1 archives gain it by
	-- ALTER TABLE); measure_key (version 4): a hash of what every
	-- printed form of the run shows alike, to find the same measurement
	-- read from other text (a CSV line and its table: docs/ingest.md,
	-- "One measurement, one run"), NULL for a run with no value to match
	family             TEXT NOT NULL DEFAULT 'bonnie',
	measure_key        BIGINT
);

-- bstore looks a line's SHA-256 up before storing it, so each run is
-- stored once. The index holds only the first 8 bytes of the digest: small
-- enough to stay in memory for millions of runs (a full-digest UNIQUE
-- index made ingesting 1,000,000 lines 3.7x slower than sqlite3's .import).
-- (PostgreSQL: the same index; writers take turns, store/db_pg.c.)
CREATE INDEX runs_sha256_prefix ON runs (substr(sha256, 1, 8));

-- The measure keys of runs read from bonnie++'s text tables only: a CSV
-- line looks its table up here, at the cost of one probe of a small
-- index; a table (rare) looks its line up by reading runs. An index of
-- every run's key made ingesting 1,000,000 CSV lines about 2x slower.
-- (PostgreSQL: format GLOB 'bonnie++-text*' as the store writes it here, a
-- regular expression, so that the planner finds the index for the query.)
CREATE INDEX runs_measure_key ON runs (measure_key) WHERE measure_key IS NOT NULL AND format ~ '^bonnie\+\+\-text.*$';

-- (version 4) Every change `bstore set` made to a run's machine or date,
-- oldest first, so that no old value is lost: old_value and new_value are
-- the machine's name (TEXT, '' unknown) or measured_at (BIGINT unix
-- seconds, NULL unknown).
CREATE TABLE run_history (
	id                 BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	run_id             BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	field              TEXT NOT NULL,       -- 'machine' or 'measured_at'
	old_value          TEXT,
	new_value          TEXT,
	changed_at         BIGINT NOT NULL     -- unix seconds
);

CREATE INDEX run_history_run ON run_history (run_id);

-- Results of the tools other than the bonnie family, one row per metric.
CREATE TABLE run_results (
	run_id             BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	metric             TEXT NOT NULL,       -- key in metrics, with the run's family
	value              DOUBLE PRECISION,                -- NULL unless ok
	status             TEXT NOT NULL CHECK (status = 'ok' OR status = 'too_fast' OR status = 'not_run'),
	cpu_pct            DOUBLE PRECISION,
	lat_us             DOUBLE PRECISION,
	PRIMARY KEY (run_id, metric)
);

-- Parameters of the tools other than the bonnie family: integers, reals
-- or text, as params.kind says.
CREATE TABLE run_params (
	run_id             BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	key                TEXT NOT NULL,       -- key in params
	value              TEXT NOT NULL,
	PRIMARY KEY (run_id, key)
);

-- Curves: one row per point, in order. zcav: axis 'offset_gib', x the
-- position of the block, y its MiB/s (NULL when zcav printed "++++": too
-- fast to time), seconds the time it took.
CREATE TABLE series (
	run_id             BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	metric             TEXT NOT NULL,
	seq                BIGINT NOT NULL,    -- 0, 1, 2, ... along the curve
	axis               TEXT NOT NULL,       -- what x is: 'offset_gib', 'time_s'
	x                  DOUBLE PRECISION NOT NULL,
	y                  DOUBLE PRECISION,
	seconds            DOUBLE PRECISION,
	PRIMARY KEY (run_id, metric, seq)
);

-- Latency distribution of tests run by `bstore run` (histogram-based).
CREATE TABLE latency (
	run_id             BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	metric             TEXT NOT NULL,
	mean_us            DOUBLE PRECISION,
	p50_us             DOUBLE PRECISION,
	p99_us             DOUBLE PRECISION,
	PRIMARY KEY (run_id, metric)
);

-- Free key=value labels: raid=10, array=EMC CX500; host.* from bstore run.
CREATE TABLE tags (
	run_id             BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	key                TEXT NOT NULL CHECK (key <> ''),
	value              TEXT NOT NULL,
	PRIMARY KEY (run_id, key)
);

CREATE INDEX tags_key_value ON tags (key, value);

-- Lines that looked like results but could not be parsed, kept verbatim.
CREATE TABLE rejects (
	id                 BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	source             TEXT NOT NULL,
	line               BIGINT,
	reason             TEXT NOT NULL,
	raw                TEXT NOT NULL,       -- cut to 64 KiB if longer
	truncated          BIGINT NOT NULL DEFAULT 0 CHECK (truncated = 0 OR truncated = 1),
	sha256             TEXT NOT NULL,       -- of raw
	stored_at          BIGINT NOT NULL,
	UNIQUE (source, line, sha256)
);

-- The metric catalogue, filled by bstore from core/metric.c: every metric
-- of every tool family with its label, unit, which way is better and
-- category. bstore adds and updates rows, never removes one, so that an
-- archive opened by bstores of several releases keeps the newest rows;
-- position is the order within one release's catalogue.
CREATE TABLE metrics (
	family             TEXT NOT NULL,
	key                TEXT NOT NULL,
	position           BIGINT NOT NULL,
	label              TEXT NOT NULL,
	unit               TEXT NOT NULL,
	better             TEXT CHECK (better IS NULL OR better = 'higher' OR better = 'lower'),
	category           TEXT NOT NULL,       -- sequential, random, metadata, latency, io, other
	cpu_latency        BIGINT NOT NULL,    -- 1: results carry cpu_pct and latency_us
	in_runs            BIGINT NOT NULL,    -- 1: stored in runs' own columns
	PRIMARY KEY (family, key)
);

-- The parameter table, filled by bstore from core/param.c as metrics is.
CREATE TABLE params (
	key                TEXT PRIMARY KEY,
	family             TEXT NOT NULL,
	position           BIGINT NOT NULL,
	kind               TEXT NOT NULL,       -- int, size, bool, real, text
	label              TEXT NOT NULL,
	unit               TEXT NOT NULL,
	runs_column        TEXT                 -- its column of runs, or NULL: run_params
);

-- Comparisons saved with `bstore report --save NAME` (version 3): the
-- report's options and selectors, one argument a row, in order, which
-- `bstore site` renders again as compare/NAME.html. A name is a file name
-- in any file system and URL: letters, digits, '.', '_', '-', starting
-- with a letter or digit, at most 64 bytes. Saving a name again replaces
-- its arguments.
CREATE TABLE saved_reports (
	name               TEXT PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 64
	                   AND name ~ '^[A-Za-z0-9][A-Za-z0-9._-]*$'),
	saved_at           BIGINT NOT NULL     -- unix seconds
);

CREATE TABLE saved_report_args (
	report             TEXT NOT NULL REFERENCES saved_reports (name) ON DELETE CASCADE,
	position           BIGINT NOT NULL CHECK (position >= 0),
	arg                TEXT NOT NULL,
	PRIMARY KEY (report, position)
);

-- Facts about the archive itself: 'catalogue' is a fingerprint of the
-- catalogue that filled metrics and params.
CREATE TABLE meta (
	key                TEXT PRIMARY KEY,
	value              TEXT NOT NULL
);

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
	     ELSE CAST(r.max_size AS TEXT) END AS max_size,
	r.min_size AS min_size,
	r.num_dirs AS num_dirs,
	r.file_chunk_bytes AS file_chunk_size,
	CAST(trunc(r.putc) AS BIGINT) AS putc,
	r.putc_status AS putc_status,
	CAST(trunc(r.putc_cpu) AS BIGINT) AS putc_cpu,
	CAST(trunc(r.put_block) AS BIGINT) AS put_block,
	r.put_block_status AS put_block_status,
	CAST(trunc(r.put_block_cpu) AS BIGINT) AS put_block_cpu,
	CAST(trunc(r.rewrite) AS BIGINT) AS rewrite,
	r.rewrite_status AS rewrite_status,
	CAST(trunc(r.rewrite_cpu) AS BIGINT) AS rewrite_cpu,
	CAST(trunc(r.getc) AS BIGINT) AS getc,
	r.getc_status AS getc_status,
	CAST(trunc(r.getc_cpu) AS BIGINT) AS getc_cpu,
	CAST(trunc(r.get_block) AS BIGINT) AS get_block,
	r.get_block_status AS get_block_status,
	CAST(trunc(r.get_block_cpu) AS BIGINT) AS get_block_cpu,
	CASE WHEN r.seeks = trunc(r.seeks) THEN CAST(r.seeks AS NUMERIC)
	     ELSE round(CAST(r.seeks AS NUMERIC), 1) END AS seeks,
	r.seeks_status AS seeks_status,
	CAST(trunc(r.seeks_cpu) AS BIGINT) AS seeks_cpu,
	CAST(trunc(r.seq_create) AS BIGINT) AS seq_create,
	r.seq_create_status AS seq_create_status,
	CAST(trunc(r.seq_create_cpu) AS BIGINT) AS seq_create_cpu,
	CAST(trunc(r.seq_stat) AS BIGINT) AS seq_stat,
	r.seq_stat_status AS seq_stat_status,
	CAST(trunc(r.seq_stat_cpu) AS BIGINT) AS seq_stat_cpu,
	CAST(trunc(r.seq_del) AS BIGINT) AS seq_del,
	r.seq_del_status AS seq_del_status,
	CAST(trunc(r.seq_del_cpu) AS BIGINT) AS seq_del_cpu,
	CAST(trunc(r.ran_create) AS BIGINT) AS ran_create,
	r.ran_create_status AS ran_create_status,
	CAST(trunc(r.ran_create_cpu) AS BIGINT) AS ran_create_cpu,
	CAST(trunc(r.ran_stat) AS BIGINT) AS ran_stat,
	r.ran_stat_status AS ran_stat_status,
	CAST(trunc(r.ran_stat_cpu) AS BIGINT) AS ran_stat_cpu,
	CAST(trunc(r.ran_del) AS BIGINT) AS ran_del,
	r.ran_del_status AS ran_del_status,
	CAST(trunc(r.ran_del_cpu) AS BIGINT) AS ran_del_cpu,
	CAST(trunc(r.putc_lat_us) AS BIGINT) AS putc_latency_us,
	CAST(trunc(r.put_block_lat_us) AS BIGINT) AS put_block_latency_us,
	CAST(trunc(r.rewrite_lat_us) AS BIGINT) AS rewrite_latency_us,
	CAST(trunc(r.getc_lat_us) AS BIGINT) AS getc_latency_us,
	CAST(trunc(r.get_block_lat_us) AS BIGINT) AS get_block_latency_us,
	CAST(trunc(r.seeks_lat_us) AS BIGINT) AS seeks_latency_us,
	CAST(trunc(r.seq_create_lat_us) AS BIGINT) AS seq_create_latency_us,
	CAST(trunc(r.seq_stat_lat_us) AS BIGINT) AS seq_stat_latency_us,
	CAST(trunc(r.seq_del_lat_us) AS BIGINT) AS seq_del_latency_us,
	CAST(trunc(r.ran_create_lat_us) AS BIGINT) AS ran_create_latency_us,
	CAST(trunc(r.ran_stat_lat_us) AS BIGINT) AS ran_stat_latency_us,
	CAST(trunc(r.ran_del_lat_us) AS BIGINT) AS ran_del_latency_us,
	to_char(to_timestamp(r.measured_at) AT TIME ZONE 'UTC',
		'YYYY-MM-DD HH24:MI:SS') AS measured_at,
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
