"""Results store: SQLite, one row per run (docs/sweep.md lists the columns)."""
import hashlib
import json
import os
import sqlite3
import time
import zlib

# Flattened key metrics: column -> path in the result JSON (docs/results.md).
LAT_STATS = ["mean", "min", "p50", "p90", "p95", "p99", "p99_9", "p99_99", "p99_999", "p99_9999", "max"]
METRICS = (
    [
        ("host_requests", "host.requests"),
        ("host_iops", "host.iops"),
        ("host_bandwidth_mib_s", "host.bandwidth_mib_s"),
        ("host_sim_time_s", "host.sim_time_s"),
    ]
    + [(f"lat_{c}_{s}_us", f"latency_us.{c}.{s}") for c in ("read", "write", "all") for s in LAT_STATS]
    + [
        ("flash_waf", "flash.waf"),
        ("flash_programs", "flash.programs"),
        ("flash_gc_page_moves", "flash.gc_page_moves"),
        ("flash_erases_gc", "flash.erases.gc"),
        ("flash_erases_wear_leveling", "flash.erases.wear_leveling"),
        ("flash_erases_read_refresh", "flash.erases.read_refresh"),
        ("flash_free_blocks_end", "flash.free_blocks_end"),
        ("cache_read_hit_ratio", "cache.read_hit_ratio"),
        ("cache_write_hit_ratio", "cache.write_hit_ratio"),
        ("fsp_lsb_share", "fsp.lsb_share"),
        ("integrity_mismatches", "integrity.mismatches"),
        ("sim_wall_s", "sim.wall_s"),
        ("sim_events", "sim.events"),
        ("sim_peak_rss_mib", "sim.peak_rss_mib"),
    ]
)
METRIC_COLUMNS = [c for c, _ in METRICS]

COLUMNS = [
    ("key", "TEXT PRIMARY KEY"),  # sha256 of the run's inputs
    ("sweep", "TEXT"),  # sweep (spec) name that last ran it
    ("label", "TEXT"),  # the varying parameters, human-readable
    ("params", "TEXT"),  # JSON: parameters as written in the spec
    ("args", "TEXT"),  # JSON: argv after the binary (outputs excluded)
    ("status", "TEXT"),  # pending | ok | failed
    ("error", "TEXT"),
    ("returncode", "INTEGER"),
    ("attempts", "INTEGER"),
    ("depends_on", "TEXT"),  # JSON: keys of the runs whose files it read (run:ID/OUTPUT)
    ("trace_path", "TEXT"),
    ("trace_sha256", "TEXT"),
    ("preset", "TEXT"),
    ("policy", "TEXT"),
    ("fsp_grouper", "TEXT"),
    ("gc_policy", "TEXT"),
    ("cache_mb", "REAL"),
    ("seed", "INTEGER"),
    ("tool_version", "TEXT"),
    ("binary_sha256", "TEXT"),
    ("config", "TEXT"),  # JSON: the fully resolved configuration (result.config)
    ("result", "TEXT"),  # JSON: the whole result
    ("wall_s", "REAL"),  # wall time of the run process
    ("host", "TEXT"),  # worker host name
    ("started_at", "TEXT"),
    ("finished_at", "TEXT"),
] + [(c, "REAL") for c in METRIC_COLUMNS]


def _get(d, path):
    for part in path.split("."):
        if not isinstance(d, dict) or part not in d:
            return None
        d = d[part]
    return d if isinstance(d, (int, float)) and not isinstance(d, bool) else None


def flatten(result):
    return {c: _get(result, p) for c, p in METRICS}


def sha256_file(path, bufsize=1 << 20):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while True:
            b = f.read(bufsize)
            if not b:
                break
            h.update(b)
    return h.hexdigest()


def _iso(t):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(t)) if t else None


class Store:
    def __init__(self, path):
        self.path = path
        d = os.path.dirname(os.path.abspath(path))
        os.makedirs(d, exist_ok=True)
        self.db = sqlite3.connect(path, timeout=60)
        self.db.row_factory = sqlite3.Row
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self._schema()

    def _schema(self):
        cols = ", ".join(f"{n} {t}" for n, t in COLUMNS)
        self.db.execute(f"CREATE TABLE IF NOT EXISTS runs ({cols})")
        have = {r[1] for r in self.db.execute("PRAGMA table_info(runs)")}
        for n, t in COLUMNS:  # a newer tool adds columns to an older store
            if n not in have:
                self.db.execute(f"ALTER TABLE runs ADD COLUMN {n} {t.replace(' PRIMARY KEY', '')}")
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS artifacts (key TEXT, name TEXT, data BLOB, "
            "PRIMARY KEY (key, name))"
        )
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS sweeps (name TEXT PRIMARY KEY, spec TEXT, "
            "spec_path TEXT, quick INTEGER, runs INTEGER, started_at TEXT, finished_at TEXT, "
            "wall_s REAL, backend TEXT)"
        )
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS sweep_runs (sweep TEXT, key TEXT, pos INTEGER, "
            "PRIMARY KEY (sweep, key))"
        )
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS file_hashes (path TEXT PRIMARY KEY, size INTEGER, "
            "mtime_ns INTEGER, sha256 TEXT)"
        )
        self.db.commit()

    # ---- file hashes (cached by path, size and mtime) ----
    def file_hash(self, path):
        st = os.stat(path)
        r = self.db.execute("SELECT size, mtime_ns, sha256 FROM file_hashes WHERE path=?", (path,)).fetchone()
        if r and r["size"] == st.st_size and r["mtime_ns"] == st.st_mtime_ns:
            return r["sha256"]
        h = sha256_file(path)
        self.db.execute(
            "INSERT OR REPLACE INTO file_hashes VALUES (?,?,?,?)", (path, st.st_size, st.st_mtime_ns, h)
        )
        self.db.commit()
        return h

    # ---- sweeps ----
    def begin_sweep(self, name, spec, spec_path, quick, keys, backend, keep_times=False):
        """Record a sweep's spec and runs. keep_times: nothing will run (every run is stored), so
        the times and backend of the invocation that ran them stay."""
        old = self.db.execute(
            "SELECT started_at, finished_at, wall_s, backend FROM sweeps WHERE name=?", (name,)
        ).fetchone()
        self.db.execute(
            "INSERT OR REPLACE INTO sweeps (name, spec, spec_path, quick, runs, started_at, backend) "
            "VALUES (?,?,?,?,?,?,?)",
            (name, json.dumps(spec), spec_path, int(bool(quick)), len(keys), _iso(time.time()), backend),
        )
        if keep_times and old is not None and old["finished_at"]:
            self.db.execute(
                "UPDATE sweeps SET started_at=?, finished_at=?, wall_s=?, backend=? WHERE name=?",
                (old["started_at"], old["finished_at"], old["wall_s"], old["backend"], name),
            )
        self.db.execute("DELETE FROM sweep_runs WHERE sweep=?", (name,))
        self.db.executemany(
            "INSERT OR REPLACE INTO sweep_runs VALUES (?,?,?)", [(name, k, i) for i, k in enumerate(keys)]
        )
        self.db.commit()

    def end_sweep(self, name, wall_s, keep_times=False):
        if (
            keep_times
            and self.db.execute("SELECT finished_at FROM sweeps WHERE name=?", (name,)).fetchone()[0]
        ):
            return
        self.db.execute(
            "UPDATE sweeps SET finished_at=?, wall_s=? WHERE name=?", (_iso(time.time()), wall_s, name)
        )
        self.db.commit()

    def sweeps(self):
        return [dict(r) for r in self.db.execute("SELECT * FROM sweeps ORDER BY started_at")]

    # ---- runs ----
    def status(self, key):
        r = self.db.execute("SELECT status FROM runs WHERE key=?", (key,)).fetchone()
        return r["status"] if r else None

    def add_pending(self, sweep, run, key, inputs, depends_on=None):
        """Record a run before it starts (status pending) unless it is already there."""
        deps = json.dumps(depends_on) if depends_on else None
        self.db.execute(
            "INSERT OR IGNORE INTO runs (key, sweep, label, params, args, status, attempts, depends_on, "
            "trace_path, trace_sha256, seed, tool_version, binary_sha256) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                key,
                sweep,
                run.label,
                json.dumps(run.params, default=str),
                json.dumps(run.args),
                "pending",
                0,
                deps,
                run.trace,
                inputs.get("trace_sha256"),
                _int(run.seed),
                inputs["tool_version"],
                inputs["binary_sha256"],
            ),
        )
        self.db.execute(
            "UPDATE runs SET sweep=?, label=?, params=?, depends_on=? WHERE key=?",
            (sweep, run.label, json.dumps(run.params, default=str), deps, key),
        )

    def commit(self):
        self.db.commit()

    def record(self, out, run=None):
        """Store a finished run (task.run_one's answer)."""
        result = None
        if out.get("result"):
            try:
                result = json.loads(out["result"])
            except json.JSONDecodeError as e:
                out["status"] = "failed"
                out["error"] = (out.get("error") or "") + f" result JSON unreadable: {e}"
        vals = {
            "status": out["status"],
            "error": out.get("error"),
            "returncode": out.get("returncode"),
            "wall_s": out.get("wall_s"),
            "host": out.get("host"),
            "started_at": _iso(out.get("started_at")),
            "finished_at": _iso(out.get("finished_at")),
            "result": out.get("result"),
        }
        if result is not None:
            cfg = result.get("config") or {}
            vals["config"] = json.dumps(cfg, sort_keys=True)
            vals["preset"] = cfg.get("preset")
            vals["fsp_grouper"] = (cfg.get("fsp") or {}).get("grouper")
            vals["gc_policy"] = (cfg.get("gc") or {}).get("policy")
            vals["cache_mb"] = (cfg.get("cache") or {}).get("size_mib")
            vals["tool_version"] = (result.get("tool") or {}).get("version")
            vals["policy"] = policy_of(run.params if run else {}, cfg)
            vals.update(flatten(result))
        else:
            vals.update({c: None for c in METRIC_COLUMNS})
        sets = ", ".join(f"{k}=?" for k in vals)
        self.db.execute(
            f"UPDATE runs SET {sets}, attempts=COALESCE(attempts,0)+1 WHERE key=?",
            list(vals.values()) + [out["key"]],
        )
        self.db.execute("DELETE FROM artifacts WHERE key=?", (out["key"],))
        for name, data in (out.get("artifacts") or {}).items():
            self.db.execute(
                "INSERT INTO artifacts VALUES (?,?,?)", (out["key"], name, zlib.compress(data, 6))
            )
        self.db.commit()

    def runs(self, sweep=None):
        if sweep:
            q = (
                "SELECT runs.* FROM runs JOIN sweep_runs ON runs.key = sweep_runs.key "
                "WHERE sweep_runs.sweep=? ORDER BY sweep_runs.pos"
            )
            return [dict(r) for r in self.db.execute(q, (sweep,))]
        return [dict(r) for r in self.db.execute("SELECT * FROM runs ORDER BY rowid")]

    def artifact(self, key, name):
        r = self.db.execute("SELECT data FROM artifacts WHERE key=? AND name=?", (key, name)).fetchone()
        return zlib.decompress(r["data"]) if r else None

    def close(self):
        self.db.close()


def _int(v):
    try:
        return int(v)
    except (TypeError, ValueError):
        return None


def policy_of(params, cfg):
    """The policy a run exercises: the spec's gc/fsp choice, else the configured ones."""
    parts = []
    for opt, key in (("gc", "gc.policy"), ("fsp", "fsp.grouper")):
        v = params.get(opt, params.get(key, (params.get("set") or {}).get(key)))
        if v is not None:
            parts.append(f"{opt}:{v}")
    if parts:
        return " ".join(parts)
    g = (cfg.get("fsp") or {}).get("grouper")
    p = (cfg.get("gc") or {}).get("policy")
    return " ".join(x for x in (f"gc:{p}" if p else None, f"fsp:{g}" if g else None) if x) or None
