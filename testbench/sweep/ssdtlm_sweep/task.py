"""One sweep run on a worker: `ssdtlm run ... --out` in a scratch folder, outputs returned.

Standard library only: this module is shipped to Dask workers by value (cloudpickle), so a
remote worker needs the ssdtlm binary and the traces at the same paths, not this package.
"""
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

OUTPUT_FLAGS = {
    "csv": "--csv",
    "fsp-rewards": "--fsp-rewards",
    "rr-rewards": "--rr-rewards",
    "slc-series": "--slc-series",
    "slc-rl-table": "--slc-rl-save",
    "rl-table": "--rl-save",
}


def _dep_files(job, after, tmp):
    """Write the files this run reads from other runs (job["deps"]) into tmp; return
    ({placeholder: path}, None) or (None, error)."""
    answers = {a.get("key"): a for a in after}
    paths = {}
    for i, d in enumerate(job.get("deps") or []):
        data = (job.get("inputs") or {}).get(d["placeholder"])
        if data is None:
            a = answers.get(d["key"])
            if a is None:
                return None, f"dependency {d['name']} is not available (failed in the store and not retried)"
            if a.get("status") != "ok":
                err = (a.get("error") or "").strip().splitlines()
                return None, f"dependency {d['name']} failed" + (f": {err[0]}" if err else "")
            data = (a.get("artifacts") or {}).get(d["output"])
            if data is None:
                return None, f"dependency {d['name']} wrote no {d['output']}"
        path = os.path.join(tmp, f"in-{i}-{d['output']}")
        with open(path, "wb") as f:
            f.write(data)
        paths[d["placeholder"]] = path
    return paths, None


def run_one(job, *after):
    """job: {key, bin, args, outputs, timeout_s[, deps, inputs]}; after: the answers of the runs
    this one waits for (Dask passes them as the results of the futures it was given). Never
    raises for a failing run: returns {key, status ok|failed, error, returncode, result (JSON
    text), artifacts {name: bytes}, wall_s, host, started_at, finished_at}.
    deps: [{placeholder run:ID/OUTPUT, key, output, name}]: each placeholder in args becomes a
    file holding that run's OUTPUT, from job["inputs"] (stored earlier) or from `after`."""
    tmp = tempfile.mkdtemp(prefix="ssdtlm-sweep-")
    out = {
        "key": job["key"],
        "status": "failed",
        "error": None,
        "returncode": None,
        "result": None,
        "artifacts": {},
        "wall_s": None,
        "host": socket.gethostname(),
        "started_at": time.time(),
        "finished_at": None,
    }
    try:  # which Dask worker ran it (when on Dask)
        from distributed import get_worker

        out["host"] += " " + get_worker().address
    except Exception:
        pass
    try:
        res_path = os.path.join(tmp, "result.json")
        paths, dep_error = _dep_files(job, after, tmp)
        if dep_error:
            out["error"] = dep_error
            return out
        argv = (
            [job["bin"]]
            + [paths.get(a, a) for a in job["args"]]
            + ["--out", res_path, "--quiet", "--no-progress"]
        )
        for name in job.get("outputs") or []:
            argv += [OUTPUT_FLAGS[name], os.path.join(tmp, name + ".csv")]
        t0 = time.monotonic()
        try:
            p = subprocess.run(
                argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=job.get("timeout_s"), cwd=tmp
            )
            out["returncode"] = p.returncode
            stderr = p.stderr.decode("utf-8", "replace")
        except subprocess.TimeoutExpired:
            out["error"] = f"timed out after {job.get('timeout_s')} s"
            stderr = ""
        except OSError as e:
            out["error"] = f"cannot start {job['bin']}: {e}"
            stderr = ""
        out["wall_s"] = time.monotonic() - t0
        if os.path.exists(res_path):
            with open(res_path, encoding="utf-8") as f:
                out["result"] = f.read()
        for name in job.get("outputs") or []:
            p_out = os.path.join(tmp, name + ".csv")
            if os.path.exists(p_out):
                with open(p_out, "rb") as f:
                    out["artifacts"][name] = f.read()
        if out["error"] is None:
            if out["returncode"] == 0 and out["result"]:
                out["status"] = "ok"
            else:
                tail = "\n".join(stderr.strip().splitlines()[-20:])
                rc = out["returncode"]
                if rc is not None and rc < 0:
                    try:
                        why = f"killed by signal {-rc} ({signal.Signals(-rc).name})"
                    except ValueError:
                        why = f"killed by signal {-rc}"
                else:
                    why = f"exit code {rc}" if rc != 0 else "no result JSON"
                out["error"] = f"{why}: {tail}" if tail else why
    except Exception as e:  # a worker-side problem is a failed run, never a lost one
        out["error"] = f"{type(e).__name__}: {e}"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        out["finished_at"] = time.time()
    return out
