"""Workspace index at scale: 1,000 generated documents (workflows and the workloops that hatch them),
indexed the way the server does at start, in a fresh process; prints time, peak memory and the
contract check of every document.

    .venv/bin/python bench/workspace_index.py [--documents 1000]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

WORKFLOW = """//! Archive item {i}.
workflow archive_{i}
  input key: String
  input size: Int
  outcome done: type Receipt, route success
  outcome refused: type Receipt, route failure

type Receipt {{ key: String, ok: Bool }}

worker vault_{i}
  action copy(key: String) -> Bool
  action verify(key: String, size: Int) -> Bool

step copy_it
  copy(key: key) -> copied

step check
  verify(key: key, size: size) -> verified
  outcome good: when verified, route done(key: key, ok: true)
  outcome bad: otherwise, route refused(key: key, ok: false)
"""

WORKLOOP = """//! Watch bucket {i}; hatch one archive run per object.
workloop watch_{i}
  every 15m
  input bucket: String
  carry cursor: String = ""

type Listing {{ keys: [String], next: String }}

worker store_{i}
  action list_objects(bucket: String, after: String) -> Listing

detached archive_{i}(key: String, size: Int)

step scan
  list_objects(bucket: bucket, after: cursor) -> listing
  fork key in listing.keys
    hatch archive_{i}(key: key, size: 0) key key
  join
  route start(cursor: listing.next)

retire
  list_objects(bucket: bucket, after: cursor)
"""

CHILD = """
from pathlib import Path
import resource, sys, time
from awl_lsp.workspace import WorkspaceIndex, contract_problems
root = Path(sys.argv[1])
t0 = time.perf_counter()
index = WorkspaceIndex([root])
count = index.scan()
t1 = time.perf_counter()
problems = sum(len(contract_problems(e.path, e.summary, index)) for e in index.entries.values())
t2 = time.perf_counter()
# VmHWM restarts at exec (ru_maxrss would include the parent's size from before the fork)
status = Path("/proc/self/status")
hwm = [l for l in status.read_text().splitlines() if l.startswith("VmHWM")] if status.exists() else []
peak = int(hwm[0].split()[1]) / 1024 if hwm else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{count} {t1 - t0:.3f} {t2 - t1:.3f} {peak:.0f} {problems}")
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--documents", type=int, default=1000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        half = args.documents // 2
        for i in range(half):
            (root / f"flows/archive_{i}.awl").parent.mkdir(parents=True, exist_ok=True)
            (root / f"flows/archive_{i}.awl").write_text(WORKFLOW.format(i=i))
            (root / f"loops/watch_{i}.awl").parent.mkdir(parents=True, exist_ok=True)
            (root / f"loops/watch_{i}.awl").write_text(WORKLOOP.format(i=i))
        lines = sum(p.read_text().count("\n") for p in root.rglob("*.awl"))
        cmd = [sys.executable, "-c", CHILD, str(root)]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True)
        count, scan, check, peak, problems = out.stdout.split()
    print(f"workspace index: {count} documents ({lines:,} lines), fresh process")
    print("| measure | value | target |")
    print("|---|---|---|")
    print(f"| index every document (read, parse, model, summary) | {float(scan):.2f} s | ≤ 5 s |")
    print(f"| contracts of every document against the index | {float(check) * 1000:.0f} ms | |")
    print(f"| peak memory of the process (RSS) | {peak} MB | ≤ 200 MB |")
    print(f"| contract problems found (the generated workspace is consistent) | {problems} | 0 |")


if __name__ == "__main__":
    main()
