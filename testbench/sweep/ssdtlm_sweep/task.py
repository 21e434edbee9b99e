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

OUTPUT_FLAGS = {"csv": "--csv", "fsp-rewards": "--fsp-rewards", "rr-rewards": "--rr-rewards",
                "slc-series": "--slc-series"}


def run_one(job):
    """job: {key, bin, args, outputs, timeout_s}. Never raises for a failing run: returns
    {key, status ok|failed, error, returncode, result (JSON text), artifacts {name: bytes},
    wall_s, host, started_at, finished_at}."""
    tmp = tempfile.mkdtemp(prefix="ssdtlm-sweep-")
    out = {"key": job["key"], "status": "failed", "error": None, "returncode": None,
           "result": None, "artifacts": {}, "wall_s": None, "host": socket.gethostname(),
           "started_at": time.time(), "finished_at": None}
    try:  # which Dask worker ran it (when on Dask)
        from distributed import get_worker
        out["host"] += " " + get_worker().address
    except Exception:
        pass
    try:
        res_path = os.path.join(tmp, "result.json")
        argv = [job["bin"]] + list(job["args"]) + ["--out", res_path, "--quiet", "--no-progress"]
        for name in job.get("outputs") or []:
            argv += [OUTPUT_FLAGS[name], os.path.join(tmp, name + ".csv")]
        t0 = time.monotonic()
        try:
            p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               timeout=job.get("timeout_s"), cwd=tmp)
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
