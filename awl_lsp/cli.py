"""The `awl` command: `lsp` (the server on stdio), `check`, `fmt`, `parse`, `graph` and `guide`."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from awl_lsp import __version__


def _skipped_folder(name: str) -> bool:
    return name.startswith(".") or name == "node_modules"


def _awl_files(paths: Iterable[str]) -> tuple[list[Path], list[str]]:
    files: list[Path] = []
    errors: list[str] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            # Hidden folders (.git, .venv, …) and node_modules are not the user's documents.
            files.extend(
                f
                for f in sorted(p.rglob("*.awl"))
                if f.is_file() and not any(_skipped_folder(part) for part in f.relative_to(p).parts[:-1])
            )
        elif p.is_file():
            files.append(p)
        else:
            errors.append(f"awl: {raw}: no such file or directory")
    once: dict[Path, Path] = {}  # a document reached twice (a folder and a file in it) is checked once
    for f in files:
        once.setdefault(f.resolve(), f)
    return list(once.values()), errors


def _read(path: Path) -> str:
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from exc


def _workspace_index(paths: Iterable[str], workspace: Path | None):  # noqa: ANN202
    """The documents `awl check` sees together: every `*.awl` below the folders given (or below
    `--workspace`), and the files given by name."""
    from awl_lsp.workspace import WorkspaceIndex

    given = [Path(p) for p in paths if Path(p).exists()]
    folders = [p.resolve() for p in given if p.is_dir()]
    files = [p.resolve() for p in given if p.is_file()]
    roots = [workspace] if workspace else folders + sorted({f.parent for f in files})
    index = WorkspaceIndex(roots)
    if workspace:
        index.scan()
    else:
        for folder in folders:
            WorkspaceIndex.scan_into(index, folder)
        for f in files:
            index.load(f)
    return index


def _contract_findings(index, path: Path, snap) -> list:  # noqa: ANN001
    """Cross-document problems of one file (a contract against the workflow it names); the hint that a
    contract's workflow is not among the files checked is for editors, not for CI output."""
    from awl_lsp.checks import Severity
    from awl_lsp.workspace import contract_problems
    from awl_lsp.workspace.summary import summarize

    found = contract_problems(path, summarize(snap.model), index)
    return [c.problem for c in found if c.problem.severity is not Severity.HINT]


def _analyser(index, path: Path, workspace: Path | None):  # noqa: ANN001, ANN202
    """One analysis of a text of `path`: its snapshot and every problem `awl check` reports for it."""
    from awl_lsp.documents import analyse_text
    from awl_lsp.features.diagnostics import findings

    resolved = path.resolve()

    def analyse(text: str):  # noqa: ANN202
        snap = analyse_text(text, resolved, workspace or resolved.parent)
        return snap, [*findings(snap), *_contract_findings(index, path, snap)]

    return analyse


def _records(path: Path, snap, problems: list) -> list:  # noqa: ANN001
    """The problems as the command line reports them, with their fixes: 1-based lines, columns in
    code points, end exclusive — the same for a problem and for its fixes' edits."""
    from awl_lsp.check_report import EditRecord, FixRecord, Record
    from awl_lsp.checks import Severity
    from awl_lsp.features.fixes import fixes_for
    from awl_lsp.syntax import Encoding

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
        fixes = tuple(fix_record(f) for f in fixes_for(snap, p))
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


def _diff(path: Path, before: str, after: str) -> str:
    import difflib

    return "".join(
        difflib.unified_diff(
            before.splitlines(keepends=True), after.splitlines(keepends=True), f"{path}", f"{path} (fixed)"
        )
    )


@dataclass
class _Checked:
    """What checking (and with --fix, fixing) one file gave: what to report, what changed."""

    records: list
    fixed: list[str] = field(default_factory=list)  # titles of the fixes applied (--diff: to apply)
    diff: str = ""  # --diff: the fixes as a unified diff
    notes: list[str] = field(default_factory=list)  # for stderr: fixes given up, a failed write
    write_failed: bool = False


def _check_file(path: Path, text: str, analyse, args: argparse.Namespace) -> _Checked:  # noqa: ANN001
    """Check one file; with --fix apply its fixes (written atomically), with --diff only show them."""
    if not (args.fix or args.diff):
        return _Checked(_records(path, *analyse(text)))
    from awl_lsp.features.fixes import fix_text
    from awl_lsp.file_writes import write_text

    result = fix_text(text, analyse, unsafe=args.unsafe_fixes)
    checked = _Checked(
        [], [a.fix.title for a in result.applied], notes=[f"not fixed: {w}" for w in result.refused]
    )
    snap, problems = result.snapshot, result.problems
    if result.changed and args.diff:
        checked.diff = _diff(path, text, result.text)
    elif result.changed:
        try:
            write_text(path, result.text)
        except OSError as exc:
            checked.notes.append(f"cannot write the fixes: {exc}")
            checked.write_failed, checked.fixed = True, []
            snap, problems = analyse(text)
    checked.records = _records(path, snap, problems)
    return checked


def cmd_check(args: argparse.Namespace) -> int:
    """Exit status: 0 no errors (warnings allowed), 1 errors found, 2 a path could not be read (or,
    with --fix, a fixed file could not be written). With --fix, the errors counted are those that
    remain; with --diff, 1 also when some file would change."""
    from awl_lsp.check_report import github_io_error, render

    files, errors = _awl_files(args.paths)
    for e in errors:
        print(e, file=sys.stderr)
        if args.format == "github":
            print(github_io_error(None, e))
    records: list = []
    unreadable = bool(errors)
    fixed_files = fixed_problems = 0
    workspace = Path(args.workspace).resolve() if args.workspace else None
    index = _workspace_index(args.paths, workspace)
    for path in files:
        try:
            text = _read(path)
        except (OSError, ValueError) as exc:
            print(f"awl: {path}: {exc}", file=sys.stderr)
            if args.format == "github":
                print(github_io_error(str(path), f"awl cannot read this file: {exc}"))
            unreadable = True
            continue
        checked = _check_file(path, text, _analyser(index, path, workspace), args)
        for note in checked.notes:
            if checked.write_failed or not args.quiet:
                print(f"awl check: {path}: {note}", file=sys.stderr)
        unreadable |= checked.write_failed
        if checked.fixed:
            fixed_files += 1
            fixed_problems += len(checked.fixed)
            sys.stdout.write(checked.diff)
            if not args.diff:
                index.load(path)  # the files checked after this one see it as fixed
            if not args.quiet:
                how = "would fix" if args.diff else "fixed"
                print(
                    f"awl check: {path}: {how} {len(checked.fixed)}: {', '.join(checked.fixed)}",
                    file=sys.stderr,
                )
        records += checked.records
    if not args.diff:
        out = render(args.format, records)
        if out or args.format in ("json", "sarif"):
            print(out)
    n_err = sum(r.severity == "error" for r in records)
    if not args.quiet and (args.format == "text" or args.diff):
        print(_summary(args, len(files), records, fixed_problems, fixed_files), file=sys.stderr)
    if unreadable:
        return 2
    return 1 if n_err or (args.diff and fixed_files) else 0


def _summary(args: argparse.Namespace, files: int, records: list, fixed: int, fixed_files: int) -> str:
    n_err = sum(r.severity == "error" for r in records)
    n_warn = sum(r.severity == "warning" for r in records)
    preferred = [next((f for f in r.fixes if f.preferred), None) for r in records]
    safe = sum(f is not None and f.safe for f in preferred)
    unsafe = sum(f is not None and not f.safe for f in preferred)
    summary = f"{files} file(s) checked: {n_err} error(s), {n_warn} warning(s)"
    if args.fix or args.diff:
        how = "would be fixed (nothing written)" if args.diff else "fixed"
        summary += f" remain; {fixed} problem(s) in {fixed_files} file(s) {how}"
    elif safe:
        summary += f"; {safe} fixable with `awl check --fix`"
    if unsafe and not args.unsafe_fixes:
        summary += f" ({unsafe} more with `--unsafe-fixes`)"
    return summary


def cmd_parse(args: argparse.Namespace) -> int:
    from awl_lsp.syntax import SyntaxDocument

    try:
        text = _read(Path(args.path))
    except (OSError, ValueError) as exc:
        print(f"awl: {args.path}: {exc}", file=sys.stderr)
        return 2
    doc = SyntaxDocument(text)
    _print_tree(doc.root, doc.source, 0, None)
    return 1 if doc.root.has_error else 0


def _print_tree(node, source: bytes, depth: int, field: str | None) -> None:  # noqa: ANN001
    if not node.is_named and not node.is_missing:
        return
    label = f"{field}: " if field else ""
    s, e = node.start_point, node.end_point
    kind = f"MISSING {node.type}" if node.is_missing else node.type
    leaf = ""
    if node.named_child_count == 0 and node.end_byte - node.start_byte <= 40:
        leaf = " " + json.dumps(source[node.start_byte : node.end_byte].decode("utf-8", "replace"))
    print(f"{'  ' * depth}{label}{kind} [{s.row + 1}:{s.column + 1}-{e.row + 1}:{e.column + 1}]{leaf}")
    for i, child in enumerate(node.children):
        _print_tree(child, source, depth + 1, node.field_name_for_child(i))


def cmd_fmt(args: argparse.Namespace) -> int:
    """Print files in canonical form: rewrite them (atomically, see `file_writes`), or with
    --check/--diff only report.

    Exit status: 0 all formatted (or rewritten), 1 with --check/--diff when a file would change,
    or when a file cannot be formatted (syntax errors), 2 for usage and I/O errors.
    """
    import difflib

    from awl_lsp.features.printer import canonical_text
    from awl_lsp.file_writes import write_text

    files, errors = _awl_files(args.paths)
    for e in errors:
        print(e, file=sys.stderr)
    status = 2 if errors else 0
    changed: list[Path] = []
    unformattable = False
    for path in files:
        try:
            text = _read(path)
        except (OSError, ValueError) as exc:
            print(f"awl: {path}: {exc}", file=sys.stderr)
            status = 2
            continue
        result = canonical_text(text)
        if result is None:
            print(
                f"awl fmt: {path}: not formatted: the file has syntax errors (see `awl check {path}`)",
                file=sys.stderr,
            )
            unformattable = True
            continue
        if result == text:
            continue
        changed.append(path)
        if args.diff:
            sys.stdout.writelines(
                difflib.unified_diff(
                    text.splitlines(keepends=True),
                    result.splitlines(keepends=True),
                    f"{path}",
                    f"{path} (formatted)",
                )
            )
        elif args.check:
            print(path)
        else:
            try:
                write_text(path, result)
            except OSError as exc:
                print(f"awl: {path}: {exc}", file=sys.stderr)
                status = 2
    if status:
        return status
    if unformattable or (changed and (args.check or args.diff)):
        return 1
    return 0


def cmd_graph(args: argparse.Namespace) -> int:
    from awl_lsp.documents import analyse_text
    from awl_lsp.features.graph import flow_graph
    from awl_lsp.features.graph_render import to_dot, to_mermaid, to_svg

    path = Path(args.path)
    try:
        text = _read(path)
    except (OSError, ValueError) as exc:
        print(f"awl: {args.path}: {exc}", file=sys.stderr)
        return 2
    graph = flow_graph(analyse_text(text, path.resolve(), path.resolve().parent))
    if not graph.flow:
        print(f"awl graph: {args.path}: no workflow or workloop declared", file=sys.stderr)
        return 1
    if args.format == "json":
        print(json.dumps(graph.to_json(), indent=2, ensure_ascii=False))
    elif args.format == "dot":
        sys.stdout.write(to_dot(graph))
    elif args.format == "mermaid":
        sys.stdout.write(to_mermaid(graph))
    else:
        svg, engine = to_svg(graph)
        sys.stdout.write(svg)
        if not args.quiet:
            how = "Graphviz dot" if engine == "graphviz" else "awl's own layout (no Graphviz `dot` on PATH)"
            print(f"awl graph: laid out by {how}", file=sys.stderr)
    return 0


def cmd_guide(args: argparse.Namespace) -> int:
    from awl_lsp.reference import UnknownKeywordError, render_guide

    try:
        print(render_guide(args.word))
    except UnknownKeywordError as exc:
        print(f"awl guide: {exc}", file=sys.stderr)
        return 2
    return 0


def cmd_lsp(_: argparse.Namespace) -> int:
    from awl_lsp.memory import prefer_system_allocator

    prefer_system_allocator(["lsp"])
    from awl_lsp.server import run_stdio

    return run_stdio()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="awl", description="Editor tooling for AWL workflows and workloops."
    )
    parser.add_argument("--version", action="version", version=f"awl-lsp {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("lsp", help="run the language server on stdio")
    p.add_argument("--stdio", action="store_true", help="(default) talk LSP over stdin/stdout")
    p.set_defaults(func=cmd_lsp)
    p = sub.add_parser(
        "check",
        help="report syntax and semantic problems",
        description="Exit status: 0 when no file has errors (warnings allowed), 1 when some file has "
        "errors, 2 on a usage error or a path that cannot be read (or, with --fix, a file that cannot "
        "be written). With --fix the errors counted are those that remain after fixing; with --diff, "
        "1 also when some file would change.",
    )
    p.add_argument("paths", nargs="+", help="files or folders (folders are searched for *.awl)")
    p.add_argument(
        "--format",
        choices=("text", "json", "github", "sarif"),
        default="text",
        help="text (file:line:col: severity: message), json, github (workflow-command annotations) "
        "or sarif (SARIF 2.1.0 for code scanning)",
    )
    p.add_argument(
        "--workspace", help='folder schema("…") paths must stay inside (default: the file\'s folder)'
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no summary line")
    p.add_argument(
        "--fix",
        action="store_true",
        help="apply the safe, preferred fix of each problem (in place, atomically), then report what remains",
    )
    p.add_argument(
        "--diff",
        action="store_true",
        help="like --fix, but change nothing: print the fixes as a unified diff",
    )
    p.add_argument(
        "--unsafe-fixes",
        action="store_true",
        help="with --fix/--diff, also apply preferred fixes that guess (a close name, a placeholder value)",
    )
    p.set_defaults(func=cmd_check)
    p = sub.add_parser("fmt", help="print files in the engine's canonical form (in place by default)")
    p.add_argument("paths", nargs="+", help="files or folders (folders are searched for *.awl)")
    p.add_argument("--check", action="store_true", help="change nothing; list files that would change")
    p.add_argument("--diff", action="store_true", help="change nothing; print a unified diff")
    p.set_defaults(func=cmd_fmt)
    p = sub.add_parser("parse", help="print the syntax tree")
    p.add_argument("path")
    p.set_defaults(func=cmd_parse)
    p = sub.add_parser("graph", help="the flow graph: steps, routes, outcomes, calls")
    p.add_argument("path")
    p.add_argument("--format", choices=("json", "dot", "mermaid", "svg"), default="json")
    p.add_argument("-q", "--quiet", action="store_true", help="svg: do not say which layout engine ran")
    p.set_defaults(func=cmd_graph)
    p = sub.add_parser("guide", help="the keyword reference in the terminal")
    p.add_argument("word", nargs="?")
    p.set_defaults(func=cmd_guide)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130
