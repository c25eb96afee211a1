-- schema.sql - the bstore archive. Embedded into the binary at build time;
-- bstore applies it to a new archive and sets PRAGMA user_version = 1.
-- Meant to be queried directly with sqlite3 too, e.g.
--   sqlite3 bstore.db 'select name, size, put_block from bonnie'
--
-- One row per run in `runs`: identity, parameters, provenance and the
-- twelve bonnie++ tests as columns (so storing a run is one INSERT). For
-- every test: the rate (NULL unless status is 'ok'), a status ('ok';
-- 'too_fast' for bonnie's "+++++", under 0.5 s and never 0; 'not_run' for
-- an empty field), the CPU percentage and the maximum latency in
-- microseconds. Units are as bonnie++ reports them: KiB/s for putc,
-- put_block, rewrite, getc, get_block; seeks/s; files/s (see `metrics`).

CREATE TABLE runs (
	id                 INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused after rm
	tool               TEXT NOT NULL,       -- 'bonnie++', 'bstore'
	tool_version       TEXT,                -- '1.03', '2.00a', '1.0x'
	format             TEXT NOT NULL,       -- 'bonnie++-csv-1.98', ...
	machine            TEXT NOT NULL,       -- may be '' (bonnie++ -m '')
	measured_at        INTEGER,             -- unix seconds, NULL if unknown
	stored_at          INTEGER NOT NULL,    -- unix seconds
	-- parameters (NULL when unknown)
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
	-- results
	putc               REAL,    -- rate in the metric's unit; NULL unless ok
	putc_status        TEXT NOT NULL DEFAULT 'not_run' CHECK (putc_status = 'ok' OR putc_status = 'too_fast' OR putc_status = 'not_run'),
	putc_cpu           REAL,    -- CPU %
	putc_lat_us        REAL,    -- max latency, microseconds
	put_block          REAL,    -- rate in the metric's unit; NULL unless ok
	put_block_status   TEXT NOT NULL DEFAULT 'not_run' CHECK (put_block_status = 'ok' OR put_block_status = 'too_fast' OR put_block_status = 'not_run'),
	put_block_cpu      REAL,    -- CPU %
	put_block_lat_us   REAL,    -- max latency, microseconds
	rewrite            REAL,    -- rate in the metric's unit; NULL unless ok
	rewrite_status     TEXT NOT NULL DEFAULT 'not_run' CHECK (rewrite_status = 'ok' OR rewrite_status = 'too_fast' OR rewrite_status = 'not_run'),
	rewrite_cpu        REAL,    -- CPU %
	rewrite_lat_us     REAL,    -- max latency, microseconds
	getc               REAL,    -- rate in the metric's unit; NULL unless ok
	getc_status        TEXT NOT NULL DEFAULT 'not_run' CHECK (getc_status = 'ok' OR getc_status = 'too_fast' OR getc_status = 'not_run'),
	getc_cpu           REAL,    -- CPU %
	getc_lat_us        REAL,    -- max latency, microseconds
	get_block          REAL,    -- rate in the metric's unit; NULL unless ok
	get_block_status   TEXT NOT NULL DEFAULT 'not_run' CHECK (get_block_status = 'ok' OR get_block_status = 'too_fast' OR get_block_status = 'not_run'),
	get_block_cpu      REAL,    -- CPU %
	get_block_lat_us   REAL,    -- max latency, microseconds
	seeks              REAL,    -- rate in the metric's unit; NULL unless ok
	seeks_status       TEXT NOT NULL DEFAULT 'not_run' CHECK (seeks_status = 'ok' OR seeks_status = 'too_fast' OR seeks_status = 'not_run'),
	seeks_cpu          REAL,    -- CPU %
	seeks_lat_us       REAL,    -- max latency, microseconds
	seq_create         REAL,    -- rate in the metric's unit; NULL unless ok
	seq_create_status  TEXT NOT NULL DEFAULT 'not_run' CHECK (seq_create_status = 'ok' OR seq_create_status = 'too_fast' OR seq_create_status = 'not_run'),
	seq_create_cpu     REAL,    -- CPU %
	seq_create_lat_us  REAL,    -- max latency, microseconds
	seq_stat           REAL,    -- rate in the metric's unit; NULL unless ok
	seq_stat_status    TEXT NOT NULL DEFAULT 'not_run' CHECK (seq_stat_status = 'ok' OR seq_stat_status = 'too_fast' OR seq_stat_status = 'not_run'),
	seq_stat_cpu       REAL,    -- CPU %
	seq_stat_lat_us    REAL,    -- max latency, microseconds
	seq_del            REAL,    -- rate in the metric's unit; NULL unless ok
	seq_del_status     TEXT NOT NULL DEFAULT 'not_run' CHECK (seq_del_status = 'ok' OR seq_del_status = 'too_fast' OR seq_del_status = 'not_run'),
	seq_del_cpu        REAL,    -- CPU %
	seq_del_lat_us     REAL,    -- max latency, microseconds
	ran_create         REAL,    -- rate in the metric's unit; NULL unless ok
	ran_create_status  TEXT NOT NULL DEFAULT 'not_run' CHECK (ran_create_status = 'ok' OR ran_create_status = 'too_fast' OR ran_create_status = 'not_run'),
	ran_create_cpu     REAL,    -- CPU %
	ran_create_lat_us  REAL,    -- max latency, microseconds
	ran_stat           REAL,    -- rate in the metric's unit; NULL unless ok
	ran_stat_status    TEXT NOT NULL DEFAULT 'not_run' CHECK (ran_stat_status = 'ok' OR ran_stat_status = 'too_fast' OR ran_stat_status = 'not_run'),
	ran_stat_cpu       REAL,    -- CPU %
	ran_stat_lat_us    REAL,    -- max latency, microseconds
	ran_del            REAL,    -- rate in the metric's unit; NULL unless ok
	ran_del_status     TEXT NOT NULL DEFAULT 'not_run' CHECK (ran_del_status = 'ok' OR ran_del_status = 'too_fast' OR ran_del_status = 'not_run'),
	ran_del_cpu        REAL,    -- CPU %
	ran_del_lat_us     REAL,    -- max latency, microseconds
	-- provenance
	raw                TEXT NOT NULL,       -- the original line, verbatim
	sha256             BLOB NOT NULL CHECK (length(sha256) = 32),
	                                        -- of raw: a run is stored once
	source             TEXT NOT NULL,       -- file name or '<stdin>'
	source_line        INTEGER,
	parser_version     TEXT NOT NULL,
	warning            TEXT
) STRICT;

-- bstore looks a line's SHA-256 up before storing it, so each run is
-- stored once. The index holds only the first 8 bytes of the digest: small
-- enough to stay in memory for millions of runs (a full-digest UNIQUE
-- index made ingesting 1,000,000 lines 3.7x slower than sqlite3's .import).
CREATE INDEX runs_sha256_prefix ON runs (substr(sha256, 1, 8));

-- Latency distribution of tests run by `bstore run` (histogram-based).
CREATE TABLE latency (
	run_id             INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	metric             TEXT NOT NULL REFERENCES metrics (key),
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

-- The twelve bonnie++ tests: key, label, unit, and which way is better.
CREATE TABLE metrics (
	key                TEXT PRIMARY KEY,
	position           INTEGER NOT NULL UNIQUE,
	label              TEXT NOT NULL,
	unit               TEXT NOT NULL
) STRICT, WITHOUT ROWID;

INSERT INTO metrics (key, position, label, unit) VALUES
	('putc', 0, 'Per-char write', 'KiB/s'),
	('put_block', 1, 'Block write', 'KiB/s'),
	('rewrite', 2, 'Rewrite', 'KiB/s'),
	('getc', 3, 'Per-char read', 'KiB/s'),
	('get_block', 4, 'Block read', 'KiB/s'),
	('seeks', 5, 'Random seeks', 'seeks/s'),
	('seq_create', 6, 'Seq. create', 'files/s'),
	('seq_stat', 7, 'Seq. read', 'files/s'),
	('seq_del', 8, 'Seq. delete', 'files/s'),
	('ran_create', 9, 'Random create', 'files/s'),
	('ran_stat', 10, 'Random read', 'files/s'),
	('ran_del', 11, 'Random delete', 'files/s');

-- One row per run with bonnie++'s CSV column names: rates as numbers,
-- '+++++' where bonnie++ printed it, NULL where the test did not run.
CREATE VIEW bonnie AS
SELECT
	r.id AS id,
	r.machine AS name,
	r.tool AS tool,
	r.tool_version AS version,
	CASE WHEN r.file_size_mib IS NULL THEN NULL
	     WHEN r.file_size_mib % 1024 = 0 THEN (r.file_size_mib / 1024) || 'G'
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
	CASE r.putc_status WHEN 'too_fast' THEN '+++++' ELSE CASE WHEN r.putc = CAST(r.putc AS INTEGER) THEN CAST(r.putc AS INTEGER) ELSE r.putc END END AS putc,
	CASE WHEN r.putc_cpu = CAST(r.putc_cpu AS INTEGER) THEN CAST(r.putc_cpu AS INTEGER) ELSE r.putc_cpu END AS putc_cpu,
	CASE r.put_block_status WHEN 'too_fast' THEN '+++++' ELSE CASE WHEN r.put_block = CAST(r.put_block AS INTEGER) THEN CAST(r.put_block AS INTEGER) ELSE r.put_block END END AS put_block,
	CASE WHEN r.put_block_cpu = CAST(r.put_block_cpu AS INTEGER) THEN CAST(r.put_block_cpu AS INTEGER) ELSE r.put_block_cpu END AS put_block_cpu,
	CASE r.rewrite_status WHEN 'too_fast' THEN '+++++' ELSE CASE WHEN r.rewrite = CAST(r.rewrite AS INTEGER) THEN CAST(r.rewrite AS INTEGER) ELSE r.rewrite END END AS rewrite,
	CASE WHEN r.rewrite_cpu = CAST(r.rewrite_cpu AS INTEGER) THEN CAST(r.rewrite_cpu AS INTEGER) ELSE r.rewrite_cpu END AS rewrite_cpu,
	CASE r.getc_status WHEN 'too_fast' THEN '+++++' ELSE CASE WHEN r.getc = CAST(r.getc AS INTEGER) THEN CAST(r.getc AS INTEGER) ELSE r.getc END END AS getc,
	CASE WHEN r.getc_cpu = CAST(r.getc_cpu AS INTEGER) THEN CAST(r.getc_cpu AS INTEGER) ELSE r.getc_cpu END AS getc_cpu,
	CASE r.get_block_status WHEN 'too_fast' THEN '+++++' ELSE CASE WHEN r.get_block = CAST(r.get_block AS INTEGER) THEN CAST(r.get_block AS INTEGER) ELSE r.get_block END END AS get_block,
	CASE WHEN r.get_block_cpu = CAST(r.get_block_cpu AS INTEGER) THEN CAST(r.get_block_cpu AS INTEGER) ELSE r.get_block_cpu END AS get_block_cpu,
	CASE r.seeks_status WHEN 'too_fast' THEN '+++++' ELSE CASE WHEN r.seeks = CAST(r.seeks AS INTEGER) THEN CAST(r.seeks AS INTEGER) ELSE r.seeks END END AS seeks,
	CASE WHEN r.seeks_cpu = CAST(r.seeks_cpu AS INTEGER) THEN CAST(r.seeks_cpu AS INTEGER) ELSE r.seeks_cpu END AS seeks_cpu,
	CASE r.seq_create_status WHEN 'too_fast' THEN '+++++' ELSE CASE WHEN r.seq_create = CAST(r.seq_create AS INTEGER) THEN CAST(r.seq_create AS INTEGER) ELSE r.seq_create END END AS seq_create,
	CASE WHEN r.seq_create_cpu = CAST(r.seq_create_cpu AS INTEGER) THEN CAST(r.seq_create_cpu AS INTEGER) ELSE r.seq_create_cpu END AS seq_create_cpu,
	CASE r.seq_stat_status WHEN 'too_fast' THEN '+++++' ELSE CASE WHEN r.seq_stat = CAST(r.seq_stat AS INTEGER) THEN CAST(r.seq_stat AS INTEGER) ELSE r.seq_stat END END AS seq_stat,
	CASE WHEN r.seq_stat_cpu = CAST(r.seq_stat_cpu AS INTEGER) THEN CAST(r.seq_stat_cpu AS INTEGER) ELSE r.seq_stat_cpu END AS seq_stat_cpu,
	CASE r.seq_del_status WHEN 'too_fast' THEN '+++++' ELSE CASE WHEN r.seq_del = CAST(r.seq_del AS INTEGER) THEN CAST(r.seq_del AS INTEGER) ELSE r.seq_del END END AS seq_del,
	CASE WHEN r.seq_del_cpu = CAST(r.seq_del_cpu AS INTEGER) THEN CAST(r.seq_del_cpu AS INTEGER) ELSE r.seq_del_cpu END AS seq_del_cpu,
	CASE r.ran_create_status WHEN 'too_fast' THEN '+++++' ELSE CASE WHEN r.ran_create = CAST(r.ran_create AS INTEGER) THEN CAST(r.ran_create AS INTEGER) ELSE r.ran_create END END AS ran_create,
	CASE WHEN r.ran_create_cpu = CAST(r.ran_create_cpu AS INTEGER) THEN CAST(r.ran_create_cpu AS INTEGER) ELSE r.ran_create_cpu END AS ran_create_cpu,
	CASE r.ran_stat_status WHEN 'too_fast' THEN '+++++' ELSE CASE WHEN r.ran_stat = CAST(r.ran_stat AS INTEGER) THEN CAST(r.ran_stat AS INTEGER) ELSE r.ran_stat END END AS ran_stat,
	CASE WHEN r.ran_stat_cpu = CAST(r.ran_stat_cpu AS INTEGER) THEN CAST(r.ran_stat_cpu AS INTEGER) ELSE r.ran_stat_cpu END AS ran_stat_cpu,
	CASE r.ran_del_status WHEN 'too_fast' THEN '+++++' ELSE CASE WHEN r.ran_del = CAST(r.ran_del AS INTEGER) THEN CAST(r.ran_del AS INTEGER) ELSE r.ran_del END END AS ran_del,
	CASE WHEN r.ran_del_cpu = CAST(r.ran_del_cpu AS INTEGER) THEN CAST(r.ran_del_cpu AS INTEGER) ELSE r.ran_del_cpu END AS ran_del_cpu,
	CASE WHEN r.putc_lat_us = CAST(r.putc_lat_us AS INTEGER) THEN CAST(r.putc_lat_us AS INTEGER) ELSE r.putc_lat_us END AS putc_latency_us,
	CASE WHEN r.put_block_lat_us = CAST(r.put_block_lat_us AS INTEGER) THEN CAST(r.put_block_lat_us AS INTEGER) ELSE r.put_block_lat_us END AS put_block_latency_us,
	CASE WHEN r.rewrite_lat_us = CAST(r.rewrite_lat_us AS INTEGER) THEN CAST(r.rewrite_lat_us AS INTEGER) ELSE r.rewrite_lat_us END AS rewrite_latency_us,
	CASE WHEN r.getc_lat_us = CAST(r.getc_lat_us AS INTEGER) THEN CAST(r.getc_lat_us AS INTEGER) ELSE r.getc_lat_us END AS getc_latency_us,
	CASE WHEN r.get_block_lat_us = CAST(r.get_block_lat_us AS INTEGER) THEN CAST(r.get_block_lat_us AS INTEGER) ELSE r.get_block_lat_us END AS get_block_latency_us,
	CASE WHEN r.seeks_lat_us = CAST(r.seeks_lat_us AS INTEGER) THEN CAST(r.seeks_lat_us AS INTEGER) ELSE r.seeks_lat_us END AS seeks_latency_us,
	CASE WHEN r.seq_create_lat_us = CAST(r.seq_create_lat_us AS INTEGER) THEN CAST(r.seq_create_lat_us AS INTEGER) ELSE r.seq_create_lat_us END AS seq_create_latency_us,
	CASE WHEN r.seq_stat_lat_us = CAST(r.seq_stat_lat_us AS INTEGER) THEN CAST(r.seq_stat_lat_us AS INTEGER) ELSE r.seq_stat_lat_us END AS seq_stat_latency_us,
	CASE WHEN r.seq_del_lat_us = CAST(r.seq_del_lat_us AS INTEGER) THEN CAST(r.seq_del_lat_us AS INTEGER) ELSE r.seq_del_lat_us END AS seq_del_latency_us,
	CASE WHEN r.ran_create_lat_us = CAST(r.ran_create_lat_us AS INTEGER) THEN CAST(r.ran_create_lat_us AS INTEGER) ELSE r.ran_create_lat_us END AS ran_create_latency_us,
	CASE WHEN r.ran_stat_lat_us = CAST(r.ran_stat_lat_us AS INTEGER) THEN CAST(r.ran_stat_lat_us AS INTEGER) ELSE r.ran_stat_lat_us END AS ran_stat_latency_us,
	CASE WHEN r.ran_del_lat_us = CAST(r.ran_del_lat_us AS INTEGER) THEN CAST(r.ran_del_lat_us AS INTEGER) ELSE r.ran_del_lat_us END AS ran_del_latency_us,
	datetime(r.measured_at, 'unixepoch') AS measured_at,
	r.source AS source,
	r.source_line AS source_line
FROM runs AS r;

-- Every test of every run as a row: handy for ad-hoc queries.
CREATE VIEW results AS
SELECT id AS run_id, 'putc' AS metric, putc AS value, 'KiB/s' AS unit,
	putc_cpu AS cpu_pct, putc_lat_us AS latency_us, putc_status AS status FROM runs
UNION ALL
SELECT id AS run_id, 'put_block' AS metric, put_block AS value, 'KiB/s' AS unit,
	put_block_cpu AS cpu_pct, put_block_lat_us AS latency_us, put_block_status AS status FROM runs
UNION ALL
SELECT id AS run_id, 'rewrite' AS metric, rewrite AS value, 'KiB/s' AS unit,
	rewrite_cpu AS cpu_pct, rewrite_lat_us AS latency_us, rewrite_status AS status FROM runs
UNION ALL
SELECT id AS run_id, 'getc' AS metric, getc AS value, 'KiB/s' AS unit,
	getc_cpu AS cpu_pct, getc_lat_us AS latency_us, getc_status AS status FROM runs
UNION ALL
SELECT id AS run_id, 'get_block' AS metric, get_block AS value, 'KiB/s' AS unit,
	get_block_cpu AS cpu_pct, get_block_lat_us AS latency_us, get_block_status AS status FROM runs
UNION ALL
SELECT id AS run_id, 'seeks' AS metric, seeks AS value, 'seeks/s' AS unit,
	seeks_cpu AS cpu_pct, seeks_lat_us AS latency_us, seeks_status AS status FROM runs
UNION ALL
SELECT id AS run_id, 'seq_create' AS metric, seq_create AS value, 'files/s' AS unit,
	seq_create_cpu AS cpu_pct, seq_create_lat_us AS latency_us, seq_create_status AS status FROM runs
UNION ALL
SELECT id AS run_id, 'seq_stat' AS metric, seq_stat AS value, 'files/s' AS unit,
	seq_stat_cpu AS cpu_pct, seq_stat_lat_us AS latency_us, seq_stat_status AS status FROM runs
UNION ALL
SELECT id AS run_id, 'seq_del' AS metric, seq_del AS value, 'files/s' AS unit,
	seq_del_cpu AS cpu_pct, seq_del_lat_us AS latency_us, seq_del_status AS status FROM runs
UNION ALL
SELECT id AS run_id, 'ran_create' AS metric, ran_create AS value, 'files/s' AS unit,
	ran_create_cpu AS cpu_pct, ran_create_lat_us AS latency_us, ran_create_status AS status FROM runs
UNION ALL
SELECT id AS run_id, 'ran_stat' AS metric, ran_stat AS value, 'files/s' AS unit,
	ran_stat_cpu AS cpu_pct, ran_stat_lat_us AS latency_us, ran_stat_status AS status FROM runs
UNION ALL
SELECT id AS run_id, 'ran_del' AS metric, ran_del AS value, 'files/s' AS unit,
	ran_del_cpu AS cpu_pct, ran_del_lat_us AS latency_us, ran_del_status AS status FROM runs;
