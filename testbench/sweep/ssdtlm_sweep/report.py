"""`ssdtlm report DB --html FILE`: a static HTML page (plots as PNG data URIs, tables) and
Markdown on stdout, from the results store.

How runs are arranged (spec `report:` section, all optional; defaults in brackets):
  series:   parameter whose values are the bars / lines      [gc, fsp, or the first varying one]
  baseline: series value the bars are normalised to           [the first value]
  facet:    parameter giving one chart per value              [none]
  group:    parameters naming a group of bars                 [the other varying ones]
  metrics:  store columns shown as normalised bars            [mean/p99/p99.99 latency, GC erases]
  cdf:      latency classes of the CDFs (read, write, all)    [all]
  columns:  store columns of the runs table                   [a few key metrics]
  where:    {parameter: value or [values]}: only these runs (null: parameter not set)  [all]
  sections: more sections, each {title, where, and the keys above}; runs that no section
            takes are listed in an "other runs" section            [none]
"""
import base64
import csv
import html
import io
import json
import math
import statistics
import sys

from . import plots
from .spec import short
from .store import METRIC_COLUMNS, Store

DEFAULT_METRICS = [
    "lat_all_mean_us",
    "lat_read_mean_us",
    "lat_all_p99_us",
    "lat_all_p99_99_us",
    "lat_all_p99_9999_us",
    "flash_erases_gc",
]
DEFAULT_COLUMNS = [
    "host_iops",
    "lat_read_mean_us",
    "lat_write_mean_us",
    "lat_all_p99_us",
    "lat_all_p99_9999_us",
    "flash_waf",
    "flash_erases_gc",
    "wall_s",
]
SERIES_CANDIDATES = ["gc", "fsp", "gc.policy", "fsp.grouper", "policy"]


def _fmt(v):
    if v is None:
        return "n/a"
    if isinstance(v, float):
        if math.isnan(v):
            return "n/a"
        if abs(v) >= 1e5:
            return f"{v:,.0f}"
        if v != 0 and abs(v) < 1e-3:
            return f"{v:.3g}"
        return f"{v:.3f}" if abs(v) < 10 else f"{v:.1f}"
    return str(v)


def gmean(xs):
    xs = [x for x in xs if x is not None and x > 0 and not math.isnan(x)]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


class Section:
    """One sweep's runs arranged for the report."""

    def __init__(self, title, rows, cfg, spec=None):
        self.title = title
        self.rows = rows
        self.cfg = cfg or {}
        for r in rows:
            r["_params"] = json.loads(r["params"]) if r.get("params") else {}
            r["_result"] = None
        self.ok = [r for r in rows if r["status"] == "ok"]
        self.failed = [r for r in rows if r["status"] == "failed"]
        self.pending = [r for r in rows if r["status"] not in ("ok", "failed")]
        keys = []
        for r in rows:
            for k in r["_params"]:
                if k not in keys:
                    keys.append(k)
        self.varying = [
            k
            for k in keys
            if len({json.dumps(r["_params"].get(k), sort_keys=True, default=str) for r in rows}) > 1
        ]
        self.series = self.cfg.get("series")
        if self.series is None:
            self.series = next(
                (k for k in SERIES_CANDIDATES if k in self.varying),
                next((k for k in self.varying if k != "seed"), None),
            )
        self.facet = self.cfg.get("facet") if self.cfg.get("facet") in self.varying else None
        self.group_keys = self.cfg.get("group") or [
            k for k in self.varying if k not in (self.series, self.facet, "seed")
        ]
        vals = []
        for r in rows:
            v = self.sval(r)
            if v not in vals:
                vals.append(v)
        order = self.cfg.get("order")
        if not order and self.series:  # the spec's order of the series values
            order = []
            for b in [spec or {}] + list((spec or {}).get("blocks") or []):
                g = (b.get("grid") or {}).get(self.series)
                for v in g if isinstance(g, list) else [g] if g is not None else []:
                    if short(v) not in order:
                        order.append(short(v))
        order = [short(v) for v in order or []]
        if order:
            vals = [v for v in order if v in vals] + [v for v in vals if v not in order]
        self.series_values = vals
        b = self.cfg.get("baseline")
        self.baseline = str(b) if b is not None and str(b) in vals else (vals[0] if vals else None)

    def result(self, r):
        if r["_result"] is None and r.get("result"):
            r["_result"] = json.loads(r["result"])
        return r["_result"]

    def sval(self, r):
        return short(r["_params"].get(self.series)) if self.series else "run"

    def gval(self, r):
        return (
            " ".join(short(r["_params"].get(k)) for k in self.group_keys if r["_params"].get(k) is not None)
            or "all"
        )

    def fval(self, r):
        return f"{self.facet}={short(r['_params'].get(self.facet))}" if self.facet else ""

    def groups(self, rows):
        out = []
        for r in rows:
            g = self.gval(r)
            if g not in out:
                out.append(g)
        return out

    def facets(self):
        out = []
        for r in self.ok:
            f = self.fval(r)
            if f not in out:
                out.append(f)
        return out or [""]

    def cells(self, metric, facet):
        """{(group, series): [values over seeds]}"""
        cells = {}
        for r in self.ok:
            if self.fval(r) != facet:
                continue
            v = r.get(metric)
            if v is None:
                res = self.result(r)
                v = _path(res, metric) if res else None
            if v is None:
                continue
            cells.setdefault((self.gval(r), self.sval(r)), []).append(float(v))
        return cells

    def normalised(self, metric, facet):
        """(groups, {(g, s): mean normalised}, {(g, s): std}, gmean per series)"""
        cells = self.cells(metric, facet)
        groups = self.groups([r for r in self.ok if self.fval(r) == facet])
        means, errs = {}, {}
        for g in groups:
            base = cells.get((g, self.baseline))
            b = statistics.mean(base) if base else None
            for s in self.series_values:
                vs = cells.get((g, s))
                if not vs or not b:
                    continue
                norm = [v / b for v in vs]
                means[(g, s)] = statistics.mean(norm)
                errs[(g, s)] = statistics.pstdev(norm) if len(norm) > 1 else 0.0
        gm = {s: gmean([means.get((g, s)) for g in groups]) for s in self.series_values}
        return groups, means, errs, gm


def _path(d, path):
    for p in path.split("."):
        if not isinstance(d, dict) or p not in d:
            return None
        d = d[p]
    return d if isinstance(d, (int, float)) and not isinstance(d, bool) else None


def _md_cell(c):
    lines = [ln.strip() for ln in str(c).replace("|", "/").splitlines()]
    return "<br>".join(ln for ln in lines if ln)


def _md_table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    # A cell stays on its row: line breaks become <br> (a multi-line error would end the table).
    out += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows]
    return out


def _html_table(header, rows, cls=""):
    h = "".join(f"<th>{html.escape(str(c))}</th>" for c in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    return f'<table class="{cls}"><thead><tr>{h}</tr></thead><tbody>{body}</tbody></table>'


class Doc:
    def __init__(self):
        self.md = []
        self.html = []

    def heading(self, text, level=2):
        self.md += ["#" * level + " " + text, ""]
        self.html.append(f"<h{level}>{html.escape(text)}</h{level}>")

    def para(self, text):
        self.md += [text, ""]
        self.html.append(f"<p>{html.escape(text)}</p>")

    def table(self, header, rows, cls=""):
        self.md += _md_table(header, rows) + [""]
        self.html.append(_html_table(header, rows, cls))

    def image(self, title, png):
        if not png:
            return
        self.md += [f"*plot: {title} (in the HTML report)*", ""]
        uri = "data:image/png;base64," + base64.b64encode(png).decode()
        self.html.append(
            f'<figure><img alt="{html.escape(title)}" src="{uri}">'
            f"<figcaption>{html.escape(title)}</figcaption></figure>"
        )


def matches(row, where):
    """Does a store row's params match a report `where:` mapping?"""
    if not where:
        return True
    params = json.loads(row["params"]) if row.get("params") else {}
    for k, want in where.items():
        have = params.get(k)
        opts = want if isinstance(want, list) else [want]
        if not any(
            (have is None) if w is None else (have is not None and short(have) == short(w)) for w in opts
        ):
            return False
    return True


def sections(name, rows, spec):
    """The report sections of one sweep: report: (with where:), report.sections, other runs."""
    cfg = dict(spec.get("report") or {})
    extra = cfg.pop("sections", None) or []
    out, taken = [], set()
    for title, c in [(f"sweep {name}", cfg)] + [
        (f"sweep {name}: {e.get('title', 'section')}", e) for e in extra if isinstance(e, dict)
    ]:
        sel = [r for r in rows if matches(r, c.get("where"))]
        taken.update(r["key"] for r in sel)
        if sel or not out:
            out.append(Section(title, sel, c, spec))
    rest = [r for r in rows if r["key"] not in taken]
    if rest:
        out.append(Section(f"sweep {name}: other runs", rest, {"table_only": True}, spec))
    return out


def render_section(doc, sec, store):
    doc.heading(sec.title, 2)
    doc.para(
        f"{len(sec.rows)} runs: {len(sec.ok)} ok, {len(sec.failed)} failed, {len(sec.pending)} not run yet. "
        f"Varying: {', '.join(sec.varying) or 'nothing'}; series: {sec.series}; baseline: {sec.baseline}"
        + (f"; one chart per {sec.facet}" if sec.facet else "")
        + "."
    )
    if sec.cfg.get("table_only"):
        _runs_tables(doc, sec)
        return
    # ---- normalised metrics ----
    metrics = sec.cfg.get("metrics") or [
        m for m in DEFAULT_METRICS if any((r.get(m) or 0) > 0 for r in sec.ok)
    ]
    if sec.series and len(sec.series_values) > 1:
        for m in metrics:
            for f in sec.facets():
                groups, means, errs, gm = sec.normalised(m, f)
                if not means:
                    continue
                title = f"{m} normalised to {sec.baseline}" + (f" ({f})" if f else "")
                doc.heading(title, 3)
                vals = dict(means)
                for s, v in gm.items():
                    if v is not None:
                        vals[("geomean", s)] = v
                doc.image(
                    title,
                    plots.normalised_bars(
                        title,
                        groups + ["geomean"],
                        sec.series_values,
                        vals,
                        errs,
                        sec.baseline,
                        ylabel=f"{m} / {sec.baseline}",
                    ),
                )
                rows = [[g] + [_fmt(means.get((g, s))) for s in sec.series_values] for g in groups]
                rows.append(["geomean"] + [_fmt(gm.get(s)) for s in sec.series_values])
                doc.table([" / ".join(sec.group_keys) or "group"] + sec.series_values, rows, "norm")
    # ---- latency CDFs (first seed of each configuration) ----
    for cls in sec.cfg.get("cdf") or ["all"]:
        for f in sec.facets():
            panels = {}
            seen = set()
            for r in sec.ok:
                if sec.fval(r) != f:
                    continue
                g, s = sec.gval(r), sec.sval(r)
                if (g, s) in seen:
                    continue
                seen.add((g, s))
                res = sec.result(r)
                lat = ((res or {}).get("latency_us") or {}).get(cls)
                if lat and lat.get("count"):
                    panels.setdefault(g, []).append((s, lat))
            title = f"{cls} latency CDF, log scale to the 99.9999th percentile" + (f" ({f})" if f else "")
            png = plots.latency_cdf(list(panels.items()), cls)
            if png:
                doc.heading(title, 3)
                doc.image(title, png)
    # ---- reward per episode ----
    panels = {}
    for r in sec.ok:
        eps = _rewards(r, sec, store)
        if eps:
            rest = " ".join(
                x
                for x in (
                    sec.sval(r) if sec.series else "",
                    sec.fval(r),
                    f"seed={r['_params'].get('seed')}" if r["_params"].get("seed") is not None else "",
                )
                if x
            )
            panels.setdefault(sec.gval(r), []).append((rest or "run", list(range(len(eps))), eps))
    png = plots.lines(list(panels.items()), "episode", "average reward")
    if png:
        doc.heading("RL reward per episode", 3)
        doc.image("RL reward per episode", png)
    # ---- time series ----
    ts = {}
    # Free blocks from the run CSV; SLC size, theta and the L1 share from --slc-series.
    series = (
        ("csv", lambda c: c == "free_blocks" or c.startswith("slc")),
        ("slc-series", lambda c: c in ("slc_blocks", "theta_kib", "l1_share")),
    )
    for r, (art, want) in ((r, a) for r in sec.ok for a in series):
        data = store.artifact(r["key"], art)
        if not data:
            continue
        rows = list(csv.DictReader(io.StringIO(data.decode("utf-8", "replace"))))
        if not rows:
            continue
        cols = [c for c in rows[0] if want(c)]
        for c in cols:
            try:
                xs = [float(x["time_ms"]) / 1000 for x in rows]
                ys = [float(x[c]) for x in rows]
            except (KeyError, ValueError):
                continue
            label = " ".join(x for x in (sec.sval(r) if sec.series else "", sec.fval(r)) if x) or "run"
            ts.setdefault(c, {}).setdefault(sec.gval(r), []).append((label, xs, ys))
    for c, panels in ts.items():
        title = {
            "free_blocks": "free blocks over time",
            "slc_blocks": "SLC size (blocks) over time",
            "theta_kib": "hot/cold threshold θ (KiB) over time",
            "l1_share": "L1 share of the SLC region over time",
        }.get(c, f"{c} over time")
        png = plots.lines(list(panels.items()), "simulated time (s)", c)
        if png:
            doc.heading(title, 3)
            doc.image(title, png)
    _runs_tables(doc, sec)


def operating_point(res):
    """'SATURATED: reasons' or the busiest die's utilisation, from a result's operating_point
    section (docs/results.md); '' for results without one."""
    op = (res or {}).get("operating_point")
    if not op:
        return ""
    if op.get("saturated"):
        return "SATURATED: " + "; ".join(op.get("saturation_reasons") or [])
    die = (op.get("die_utilisation") or {}).get("max")
    return f"die {die:.0%}" if isinstance(die, (int, float)) else ""


def training(res):
    """The RL units' training effort in a result (their "training" objects, docs/results.md):
    'UNTRAINED' when a unit made no q-table update, else 'N decisions / M updates'; '' without
    an RL unit."""
    found = []

    def walk(o):
        if isinstance(o, dict):
            t = o.get("training")
            if isinstance(t, dict) and "trained" in t:
                found.append(t)
            for v in o.values():
                walk(v)

    walk(res or {})
    if not found:
        return ""
    if not all(t.get("trained") for t in found):
        return "UNTRAINED"
    return "; ".join(f"{t.get('decisions', 0)} decisions / {t.get('updates', 0)} updates" for t in found)


def _runs_tables(doc, sec):
    cols = sec.cfg.get("columns") or DEFAULT_COLUMNS
    doc.heading("Runs", 3)
    ops = {id(r): operating_point(sec.result(r)) for r in sec.ok}
    sat = [r for r in sec.ok if ops[id(r)].startswith("SATURATED")]
    if sat:
        doc.para(
            f"{len(sat)} of {len(sec.ok)} runs are saturated (a die, channel, the DRAM, the "
            "controller or the PCIe link busy more than 90% of the time, commands waiting longer "
            "for a host-queue entry than their service, or host flash operations waiting above "
            "10x service time): their latencies measure the queue, not the policy. Saturated: "
            + ", ".join(r["label"] for r in sat)
            + "."
        )
    trn = {id(r): training(sec.result(r)) for r in sec.ok}
    untrained = [r for r in sec.ok if trn[id(r)] == "UNTRAINED"]
    if untrained:
        doc.para(
            f"{len(untrained)} of {len(sec.ok)} runs have an RL unit that made no q-table "
            "update: their figures are those of an untrained agent (exploration and the initial "
            "table's tie-break), not of a learnt policy. Untrained: "
            + ", ".join(r["label"] for r in untrained)
            + "."
        )
    rows = [
        [r["label"], r["status"], ops.get(id(r), ""), trn.get(id(r), "")] + [_fmt(r.get(c)) for c in cols]
        for r in sec.rows
    ]
    doc.table(["run", "status", "operating point", "RL training"] + cols, rows, "runs")
    if sec.failed:
        doc.heading("Failed runs", 3)
        doc.table(
            ["run", "error", "args"],
            [
                [r["label"], (r["error"] or "")[:500], " ".join(json.loads(r["args"] or "[]"))]
                for r in sec.failed
            ],
            "failed",
        )


def _rewards(r, sec, store):
    data = store.artifact(r["key"], "fsp-rewards")
    if data:
        out = []
        for row in csv.DictReader(io.StringIO(data.decode("utf-8", "replace"))):
            try:
                out.append(float(row.get("avg_reward")))
            except (TypeError, ValueError):
                pass
        if out:
            return out
    res = sec.result(r) or {}
    for sect in ("fsp", "gc", "rl"):
        eps = (res.get(sect) or {}).get("episode_rewards")
        if isinstance(eps, list) and eps:
            return eps
    return None


CSS = """body{font-family:system-ui,sans-serif;margin:2em;max-width:1400px;color:#222}
table{border-collapse:collapse;margin:0.5em 0 1.5em;font-size:13px}
th,td{border:1px solid #bbb;padding:2px 6px;text-align:right}
th{background:#eee}td:first-child,th:first-child{text-align:left}
table.failed td{text-align:left;white-space:pre-wrap}
figure{margin:0.5em 0}img{max-width:100%;border:1px solid #ddd}figcaption{font-size:12px;color:#555}"""


# Marks the page once loaded: data-images (count) and data-broken-images (failed to decode), so a
# headless browser's dumped DOM shows that every plot rendered (tests/sweep).
LOAD_CHECK = (
    "<script>addEventListener('load',function(){var n=0,b=0;for(var i of document.images)"
    "{n++;if(!(i.complete&&i.naturalWidth>0))b++;}document.body.dataset.images=n;"
    "document.body.dataset.brokenImages=b;});</script>\n"
)


def report(db, html_path=None, sweep=None, out=sys.stdout):
    store = Store(db)
    sweeps = store.sweeps()
    if sweep:
        sweeps = [s for s in sweeps if s["name"] == sweep]
        if not sweeps:
            raise SystemExit(f"ssdtlm report: no sweep '{sweep}' in {db}")
    doc = Doc()
    doc.heading(f"ssdtlm sweep report: {db}", 1)
    n = 0
    if not sweeps:
        rows = store.runs()
        if rows:
            render_section(doc, Section("all runs", rows, {}), store)
            n += len(rows)
    for s in sweeps:
        rows = store.runs(s["name"])
        spec = json.loads(s["spec"] or "{}")
        try:  # the spec file's current report: section, when it is still there
            from .spec import load

            cur = load(s["spec_path"], quick=bool(s["quick"])).data
            spec["report"] = cur.get("report") or spec.get("report")
        except Exception:
            pass
        secs = sections(s["name"], rows, spec)
        if spec.get("description"):
            doc.para(str(spec["description"]).strip())
        doc.para(
            f"Spec {s['spec_path']}"
            + (" (--quick)" if s["quick"] else "")
            + f"; started {s['started_at']}, finished {s['finished_at'] or 'not yet'}"
            + (f", {s['wall_s']:.1f} s on {s['backend']}" if s["wall_s"] is not None else "")
            + "."
        )
        for sec in secs:
            render_section(doc, sec, store)
        n += len(rows)
    if n == 0:
        doc.para("The store holds no runs.")
    out.write("\n".join(doc.md) + "\n")
    if html_path:
        page = (
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<link rel="icon" href="data:,">'
            f"<title>ssdtlm report</title><style>{CSS}</style></head><body>\n"
            + "\n".join(doc.html)
            + "\n"
            + LOAD_CHECK
            + "</body></html>\n"
        )
        with open(html_path, "w", encoding="utf-8") as f:
            f.write(page)
    store.close()
    return 0


__all__ = ["report", "METRIC_COLUMNS"]
