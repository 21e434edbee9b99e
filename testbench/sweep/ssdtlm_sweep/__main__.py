"""Entry point: /usr/bin/python3 -m ssdtlm_sweep sweep|report ... (what `ssdtlm sweep` and
`ssdtlm report` exec; SSDTLM_BIN names the ssdtlm binary)."""
import argparse
import sys


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    prog = "ssdtlm"
    if not argv or argv[0] not in ("sweep", "report"):
        print(
            "usage: ssdtlm sweep SPEC [--workers N] [--scheduler ADDR] [--db FILE] [--quick]\n"
            "       ssdtlm report DB [--html FILE] [--sweep NAME]\n"
            "       ssdtlm report RESULT.json... [--html FILE] [--plot FILE.png]",
            file=sys.stderr,
        )
        return 2
    cmd, rest = argv[0], argv[1:]
    if cmd == "sweep":
        ap = argparse.ArgumentParser(
            prog=f"{prog} sweep",
            description=(
                "Run every `ssdtlm run` of a sweep spec (YAML or JSON; docs/sweep.md) on a local Dask "
                "cluster (default: all cores), an existing Dask scheduler, or a local pool; results go "
                "to a SQLite store, one row per run. Unchanged runs are skipped; an interrupted sweep "
                "resumes when run again."
            ),
        )
        ap.add_argument("spec", help="sweep spec (.yaml/.yml/.json)")
        ap.add_argument("--workers", type=int, help="local workers (default: all cores)")
        ap.add_argument("--scheduler", metavar="ADDR", help="existing Dask scheduler, e.g. tcp://HOST:8786")
        ap.add_argument("--db", help="results store (default: results/NAME.sqlite beside the spec)")
        ap.add_argument(
            "--quick", action="store_true", help="smoke-sized version of the sweep (spec quick: section)"
        )
        ap.add_argument(
            "--backend",
            choices=["auto", "dask", "pool"],
            default="auto",
            help="auto: Dask when installed, else a local pool (default auto)",
        )
        ap.add_argument("--skip-failed", action="store_true", help="do not retry runs that failed before")
        ap.add_argument("--bin", help="ssdtlm binary to run (default: the one that was invoked, $SSDTLM_BIN)")
        ap.add_argument("--worker-bin", help="ssdtlm path on the workers when it differs from this one")
        ap.add_argument(
            "--no-binary-hash",
            action="store_true",
            help="identify the binary by its version only (a rebuild does not invalidate runs)",
        )
        ap.add_argument("--dry-run", action="store_true", help="list the runs and exit")
        a = ap.parse_args(rest)
        if a.workers is not None and a.workers < 1:
            print("ssdtlm sweep: --workers: must be at least 1", file=sys.stderr)
            return 2
        import sqlite3
        from . import runner
        from .spec import SpecError

        try:
            return runner.sweep(
                a.spec,
                db=a.db,
                binp=a.bin,
                workers=a.workers,
                scheduler=a.scheduler,
                quick=a.quick,
                backend=a.backend,
                retry_failed=not a.skip_failed,
                worker_bin=a.worker_bin,
                dry_run=a.dry_run,
                hash_binary=not a.no_binary_hash,
            )
        except (SpecError, OSError) as e:
            print(f"ssdtlm sweep: {e}", file=sys.stderr)
            return 1
        except sqlite3.DatabaseError as e:  # --db names a file that is not a results store
            print(f"ssdtlm sweep: {a.db}: not a results store ({e})", file=sys.stderr)
            return 1
    return report_main(prog, rest)


def report_main(prog, rest):
    ap = argparse.ArgumentParser(
        prog=f"{prog} report",
        description=(
            "Report of a results store: Markdown on stdout and, with --html, a static HTML page with "
            "latency CDFs, normalised bar charts, reward and free-block curves, and tables. Given "
            "result JSON files of `ssdtlm run --out` instead: their latency tables and a CDF plot of "
            "the runs from the results' histogram bins (--plot, --html)."
        ),
    )
    ap.add_argument("db", nargs="+", help="results store written by `ssdtlm sweep`, or result JSON files")
    ap.add_argument("--html", metavar="FILE", help="write the HTML report here")
    ap.add_argument("--sweep", help="only this sweep of the store")
    ap.add_argument("--plot", metavar="FILE", help="result JSONs: write the latency CDF plot here (PNG)")
    a = ap.parse_args(rest)
    import os

    for p in a.db:
        if not os.path.exists(p):
            print(f"ssdtlm report: {p}: no such file", file=sys.stderr)
            return 1
    import sqlite3
    from .loader import is_json

    stores = [p for p in a.db if not is_json(p)]
    if stores and len(a.db) > 1:
        print(
            f"ssdtlm report: give one results store ({stores[0]}) or result JSON files, not both "
            "or several stores",
            file=sys.stderr,
        )
        return 2
    if not stores:
        if a.sweep:
            print("ssdtlm report: --sweep needs a results store, not result JSON files", file=sys.stderr)
            return 2
        from .report_json import report_jsons

        try:
            return report_jsons(a.db, a.html, a.plot)
        except (ValueError, OSError) as e:
            print(f"ssdtlm report: {e}", file=sys.stderr)
            return 1
    if a.plot:
        print(
            "ssdtlm report: --plot is for result JSON files; a store's plots are in --html", file=sys.stderr
        )
        return 2
    from . import report

    try:
        return report.report(a.db[0], a.html, a.sweep)
    except sqlite3.DatabaseError as e:  # a file that is not a results store: no traceback
        print(f"ssdtlm report: {a.db[0]}: not a results store ({e})", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
