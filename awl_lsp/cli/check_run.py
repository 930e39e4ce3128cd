"""What `awl check` does to a set of files: each file checked on its own — in worker processes when
there are many (`file_jobs`) — and the cross-document problems joined here, from every file's summary.

The work on one file is a function of its text alone, so one process or many report the same:

- a file checked is read and analysed once: its own findings become records (with their fixes),
  and its summary (what it offers and expects of other documents) comes back with them;
- a file only indexed (with `--workspace`, the documents around those checked) is read and
  summarised.

This process files the summaries in a `WorkspaceIndex` (no document is parsed twice for it) and
asks, for each checked file, what its contracts say against the others (`detached`/`child`
declarations against the workflows they bind to). Only a file that has such a problem is analysed
again here, for those records' positions and fixes.

`--fix` / `--diff`: then the files that have a fix to apply (a preferred one, safe unless
`--unsafe-fixes`) are fixed, each on its own — `fix_text`, its passes until nothing more applies —
in workers that see the index of the files as they were read, so a fix that would bring a contract
problem is given up. Every file is fixed against that same set, whatever order the files came in.
The set is then checked again as fixed: the cross-document problems reported are those of the
fixed files against each other (with `--diff`, of the files as they would be).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from awl_lsp.checks import Problem, Severity, parallel
from awl_lsp.cli.check_report import EditRecord, FixRecord, Record
from awl_lsp.cli.file_jobs import run_jobs, workers_for
from awl_lsp.cli.file_reads import decode_source
from awl_lsp.features.documents import analyse_text
from awl_lsp.features.findings import findings
from awl_lsp.features.snapshot import Snapshot
from awl_lsp.syntax import Encoding
from awl_lsp.workspace import WorkspaceIndex, awl_files, contract_problems
from awl_lsp.workspace.files import document_text, read_document
from awl_lsp.workspace.summary import DocumentSummary, summarize


class Task(NamedTuple):
    path: Path  # as the user named it (what the report says)
    key: Path  # resolved
    check: bool  # report its problems (else: only file it in the index)
    indexed: bool  # file it in the workspace index


@dataclass(repr=False, eq=False)
class Options:
    """What every file's work needs to know (the context `file_jobs` hands each worker)."""

    workspace: Path | None  # --workspace, resolved
    roots: tuple[Path, ...]  # the index's folders
    fix: bool = False
    diff: bool = False
    unsafe: bool = False
    every_fix: bool = True  # list each problem's every fix (JSON, SARIF), else only its preferred one
    index: WorkspaceIndex | None = None  # the files as read (for the fixes)


@dataclass(repr=False, eq=False)
class Checked:
    """What checking (and with --fix, fixing) one file gave."""

    path: Path
    text: str | None = None  # the text checked: with --fix as fixed (--diff: as it would be)
    unreadable: str | None = None  # why the file could not be read (then nothing else is set)
    records: list[Record] = field(default_factory=list)  # its own problems
    cross: list[Record] = field(default_factory=list)  # its problems against the other documents
    summary: DocumentSummary | None = None
    indexed: bool = False  # `text` (and `summary`) belong in the index
    fixed: list[str] = field(default_factory=list)  # titles of the fixes applied (--diff: to apply)
    diff: str = ""  # --diff: the fixes as a unified diff
    notes: list[str] = field(default_factory=list)  # for stderr: fixes given up, a failed write
    write_failed: bool = False

    @property
    def all_records(self) -> list[Record]:
        return [*self.records, *self.cross]


# ---- the work ----------------------------------------------------------------------------------


def plan(
    paths: Sequence[str], files: list[Path], workspace: Path | None
) -> tuple[list[Task], tuple[Path, ...]]:
    """The work: the files checked (in order), then the documents only indexed; and the index's
    folders. The documents `awl check` sees together are every `*.awl` below the folders given
    (or below `--workspace`) and the files given by name."""
    resolved: dict[Path, Path] = {}  # (each path resolved once: that reads every folder on its way)

    def resolve(p: Path) -> Path:
        if p not in resolved:
            resolved[p] = p.resolve()
        return resolved[p]

    given = [Path(p) for p in paths if Path(p).exists()]
    folders = [resolve(p) for p in given if p.is_dir()]
    named = [resolve(p) for p in given if p.is_file()]
    roots = tuple([workspace] if workspace else folders + sorted({f.parent for f in named}))
    around = [resolve(p) for p in awl_files([workspace] if workspace else folders)]
    folders_in = set(roots)  # (resolved, as every path here: a parent test is `inside` for them)
    indexed = {p for p in [*around, *([] if workspace else named)] if not folders_in.isdisjoint(p.parents)}
    keys = [resolve(f) for f in files]
    tasks = [Task(f, key, True, key in indexed) for f, key in zip(files, keys, strict=True)]
    checked = {t.key for t in tasks}
    tasks += [Task(p, p, False, True) for p in dict.fromkeys(around) if p not in checked and p in indexed]
    return tasks, roots


# ---- one file ---------------------------------------------------------------------------------


def _summary(snap: Snapshot) -> DocumentSummary:
    summary = snap.derived("summary", lambda s: summarize(s.model))
    summary.settle()  # built now, so it travels between processes without the model's facts
    return summary


def _analyse(options: Options, task: Task, text: str) -> Snapshot:
    return analyse_text(text, task.key, options.workspace or task.key.parent)


def check_one(options: Options, task: Task) -> Checked:
    """One file's own part of `awl check` (a worker's job)."""
    if not task.check:
        text, _ = read_document(task.key, options.roots)  # as the index would read it, or skipped
        if text is None:
            return Checked(task.path)
        return Checked(task.path, text, summary=_summary(_analyse(options, task, text)), indexed=True)
    try:
        data = task.path.read_bytes()
        text = decode_source(data)
    except (OSError, ValueError) as exc:
        return Checked(task.path, unreadable=str(exc))
    snap = _analyse(options, task, text)
    indexed = task.indexed and document_text(data)[0] is not None  # not too large, not binary
    own = snap.derived("findings", findings)
    found = records(task.path, snap, own, options.every_fix)
    return Checked(task.path, text, records=found, summary=_summary(snap), indexed=indexed)


def _cross_problems(path: Path, summary: DocumentSummary, index: WorkspaceIndex) -> list[Problem]:
    """Cross-document problems of one file (a contract against the workflow it names); the hint that
    a contract's workflow is not among the files checked is for editors, not for CI output."""
    found = contract_problems(path, summary, index)
    return [c.problem for c in found if c.problem.severity is not Severity.HINT]


def fix_one(options: Options, item: tuple[Task, str]) -> Checked:
    """Fix one file on its own, against the index of the files as read (a worker's job); with --diff
    only say how. Its records are its own problems that remain."""
    from awl_lsp.cli.file_writes import write_text
    from awl_lsp.features.fixes import fix_text

    task, text = item
    index = options.index
    assert index is not None

    def analyse(source: str) -> tuple[Snapshot, list[Problem]]:
        snap = _analyse(options, task, source)
        own = snap.derived("findings", findings)
        return snap, [*own, *_cross_problems(task.path, _summary(snap), index)]

    result = fix_text(text, analyse, unsafe=options.unsafe)
    snap = result.snapshot
    checked = Checked(
        task.path,
        result.text,
        fixed=[a.fix.title for a in result.applied],
        notes=[f"not fixed: {w}" for w in result.refused],
        indexed=task.indexed,
    )
    if result.changed and options.diff:
        checked.diff = _diff(task.path, text, result.text)
    elif result.changed:
        try:
            write_text(task.path, result.text)
        except OSError as exc:
            checked.notes.append(f"cannot write the fixes: {exc}")
            checked.write_failed, checked.fixed, checked.text = True, [], text
            snap = _analyse(options, task, text)
    checked.records = records(task.path, snap, snap.derived("findings", findings), options.every_fix)
    checked.summary = _summary(snap)
    return checked


def _diff(path: Path, before: str, after: str) -> str:
    import difflib

    return "".join(
        difflib.unified_diff(
            before.splitlines(keepends=True), after.splitlines(keepends=True), f"{path}", f"{path} (fixed)"
        )
    )


def records(path: Path, snap: Snapshot, problems: list[Problem], every_fix: bool = True) -> list[Record]:
    """The problems as the command line reports them, with their fixes: 1-based lines, columns in
    code points, end exclusive — the same for a problem and for its fixes' edits. Without
    `every_fix`, a problem's only fix listed is its preferred one: all that the text output (which
    counts what `--fix` would fix) and `--fix` itself need — the other fixes are not computed."""
    if not problems:
        return []  # (a clean file never loads the fixes)
    from awl_lsp.features.fixes import fixes_for, preferred_fix

    def offered(p: Problem) -> list:
        if every_fix:
            return fixes_for(snap, p)
        fix = preferred_fix(snap, p)
        return [fix] if fix is not None else []

    lines = snap.doc.lines
    crlf = "\r\n" in snap.doc.text

    def at(row: int, col: int) -> tuple[int, int]:
        line, column = lines.point_to_position(row, col, Encoding.UTF32)
        return line + 1, column + 1

    def fix_record(fix) -> FixRecord:  # noqa: ANN001
        edits = tuple(
            EditRecord(*at(e.range[0], e.range[1]), *at(e.range[2], e.range[3]), _eol(e.text, crlf))
            for e in fix.plain_edits()
        )
        return FixRecord(fix.title, fix.preferred, fix.safe, edits)

    out = []
    for p in problems:
        severity = {Severity.ERROR: "error", Severity.WARNING: "warning"}.get(p.severity, "info")
        fixes = tuple(fix_record(f) for f in offered(p))
        out.append(
            Record(
                str(path),
                *at(p.range[0], p.range[1]),
                *at(p.range[2], p.range[3]),
                severity,
                p.code,
                p.message,
                fixes,
            )
        )
    return out


def _eol(text: str, crlf: bool) -> str:
    return text.replace("\r\n", "\n").replace("\n", "\r\n") if crlf else text


# ---- the set ----------------------------------------------------------------------------------


def _index(options: Options, tasks: list[Task], results: list[Checked]) -> WorkspaceIndex:
    index = WorkspaceIndex(options.roots)
    for task, r in zip(tasks, results, strict=True):
        if r.indexed and r.text is not None and r.summary is not None:
            index.put(task.key, r.text, r.summary)
    return index


def _join(options: Options, tasks: list[Task], results: list[Checked], index: WorkspaceIndex) -> None:
    """Each checked file's problems against the other documents of the set."""
    for task, r in zip(tasks, results, strict=True):
        if not task.check or r.text is None or r.summary is None or not r.summary.contracts:
            r.cross = []
            continue
        cross = _cross_problems(task.path, r.summary, index)
        r.cross = (
            records(task.path, _analyse(options, task, r.text), cross, options.every_fix) if cross else []
        )


def _wants_fix(r: Checked, unsafe: bool) -> bool:
    return any(f.preferred and (f.safe or unsafe) for rec in r.all_records for f in rec.fixes)


def _declaring(results: list[Checked]) -> bool:
    """Does some document of the set declare a contract? (Else none has a cross-document problem.)"""
    return any(r.summary is not None and r.summary.contracts for r in results)


def check_files(tasks: list[Task], options: Options, jobs: int | None = None) -> list[Checked]:
    """`awl check` (with --fix, --diff) on the planned files: one `Checked` per checked file, in order.
    When the files are checked in this process alone (one file, or a few) and `--jobs` allows more
    than one, a long file's first check uses a second core (`awl_lsp.checks.parallel`)."""
    parallel.enable(workers_for(len(tasks), jobs) == 1 and jobs != 1)
    try:
        return _check_files(tasks, options, jobs)
    finally:
        parallel.enable(False)


def _check_files(tasks: list[Task], options: Options, jobs: int | None) -> list[Checked]:
    results = run_jobs(check_one, tasks, options, jobs)
    fixing = options.fix or options.diff
    index = _index(options, tasks, results) if fixing or _declaring(results) else None
    if index is not None and _declaring(results):
        _join(options, tasks, results, index)
    if fixing:
        chosen = [
            i
            for i, (t, r) in enumerate(zip(tasks, results, strict=True))
            if t.check and _wants_fix(r, options.unsafe)
        ]
        if chosen:
            options.index = index
            items = [(tasks[i], results[i].text or "") for i in chosen]  # (each has a text: it has fixes)
            fixed = run_jobs(fix_one, items, options, jobs)
            options.index = None
            for i, r in zip(chosen, fixed, strict=True):
                results[i] = r
            _join(options, tasks, results, _index(options, tasks, results))  # the set as fixed
    return [r for t, r in zip(tasks, results, strict=True) if t.check]
