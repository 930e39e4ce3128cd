"""The `awl` command: `lsp` (the server on stdio), `check`, `fmt`, `parse`, `graph` and `guide`."""

from __future__ import annotations

import argparse
import gc
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from awl_lsp import __version__

_collecting = True  # was the cycle collector on when `main` began (see `_started`)


def _started() -> None:
    """A command has imported what it runs. Start-up (the imports: ~100 modules, tens of thousands
    of objects that live until the process exits) ran with the cycle collector off — it would have
    walked them again and again and freed nothing; from here it runs, but never walks them
    (`gc.freeze`), so collections cost only what the work leaves."""
    gc.freeze()
    if _collecting:
        gc.enable()


def _read(path: Path) -> str:
    from awl_lsp.cli.file_reads import read_source

    return read_source(path)


JOBS_HELP = "worker processes for many files (default 0: one per core; 1: this process only)"


def _jobs(value: str) -> int:
    """`--jobs N`: N worker processes at most (0: one per core)."""
    try:
        n = int(value)
    except ValueError:
        n = -1
    if n < 0:
        raise argparse.ArgumentTypeError(f"expected a number of processes (0: one per core), got {value!r}")
    return n


def cmd_check(args: argparse.Namespace) -> int:
    """Exit status: 0 no errors (warnings allowed), 1 errors found, 2 a path could not be read (or,
    with --fix, a fixed file could not be written). With --fix, the errors counted are those that
    remain; with --diff, 1 also when some file would change."""
    from awl_lsp.cli.check_report import github_io_error, render
    from awl_lsp.cli.check_run import Options, check_files, plan
    from awl_lsp.cli.file_reads import awl_paths

    _started()
    files, errors = awl_paths(args.paths)
    for e in errors:
        print(e, file=sys.stderr)
        if args.format == "github":
            print(github_io_error(None, e))
    workspace = Path(args.workspace).resolve() if args.workspace else None
    tasks, roots = plan(args.paths, files, workspace)
    # (only JSON and SARIF print every fix; the others need a problem's preferred fix, to count it)
    every_fix = args.format in ("json", "sarif")
    options = Options(workspace, roots, args.fix, args.diff, args.unsafe_fixes, every_fix)
    records: list = []
    unreadable = bool(errors)
    fixed_files = fixed_problems = 0
    for checked in check_files(tasks, options, args.jobs):
        path = checked.path
        if checked.unreadable is not None:
            print(f"awl: {path}: {checked.unreadable}", file=sys.stderr)
            if args.format == "github":
                print(github_io_error(str(path), f"awl cannot read this file: {checked.unreadable}"))
            unreadable = True
            continue
        for note in checked.notes:
            if checked.write_failed or not args.quiet:
                print(f"awl check: {path}: {note}", file=sys.stderr)
        unreadable |= checked.write_failed
        if checked.fixed:
            fixed_files += 1
            fixed_problems += len(checked.fixed)
            sys.stdout.write(checked.diff)
            if not args.quiet:
                how = "would fix" if args.diff else "fixed"
                print(
                    f"awl check: {path}: {how} {len(checked.fixed)}: {', '.join(checked.fixed)}",
                    file=sys.stderr,
                )
        records += checked.all_records
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
    from awl_lsp.cli.file_jobs import run_jobs
    from awl_lsp.cli.file_reads import awl_paths
    from awl_lsp.cli.fmt_run import format_one

    _started()
    files, errors = awl_paths(args.paths)
    for e in errors:
        print(e, file=sys.stderr)
    status = 2 if errors else 0
    mode = "diff" if args.diff else "check" if args.check else "write"
    changed = unformattable = False
    for done in run_jobs(format_one, files, mode, args.jobs):
        if done.unformattable:
            why = f"not formatted: the file has syntax errors (see `awl check {done.path}`)"
            print(f"awl fmt: {done.path}: {why}", file=sys.stderr)
            unformattable = True
        elif done.error is not None:
            print(f"awl: {done.path}: {done.error}", file=sys.stderr)
            status = 2
        elif done.changed:
            changed = True
            if mode == "diff":
                sys.stdout.write(done.diff)
            elif mode == "check":
                print(done.path)
    if status:
        return status
    if unformattable or (changed and mode != "write"):
        return 1
    return 0


def cmd_graph(args: argparse.Namespace) -> int:
    from awl_lsp.features.documents import analyse_text
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
    from awl_lsp.server.memory import no_full_collections

    no_full_collections()  # (before the imports: `memory`)
    from awl_lsp.server.language_server import run_stdio

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
    p.add_argument("-j", "--jobs", type=_jobs, default=0, help=JOBS_HELP)
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
    p.add_argument("-j", "--jobs", type=_jobs, default=0, help=JOBS_HELP)
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
    global _collecting
    words = list(sys.argv[1:] if argv is None else argv)
    if words[:1] == ["lsp"]:  # the server's allocator, before anything else is loaded (`memory`)
        from awl_lsp.server.memory import prefer_system_allocator

        prefer_system_allocator(words)
    args = build_parser().parse_args(argv)
    _collecting = gc.isenabled()
    if args.func is not cmd_lsp:  # (the server keeps its own rules: `memory`)
        gc.disable()  # until the command has imported what it runs: `_started`
    try:
        return int(args.func(args))
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130
    finally:
        if _collecting:
            gc.enable()
