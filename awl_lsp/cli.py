"""The `awl` command: `lsp` (the server on stdio), `check`, `parse` and `guide`."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from awl_lsp import __version__


def _awl_files(paths: Iterable[str]) -> tuple[list[Path], list[str]]:
    files: list[Path] = []
    errors: list[str] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            files.extend(sorted(p.rglob("*.awl")))
        elif p.is_file():
            files.append(p)
        else:
            errors.append(f"awl: {raw}: no such file or directory")
    return files, errors


def _read(path: Path) -> str:
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from exc


def cmd_check(args: argparse.Namespace) -> int:
    from awl_lsp.checks import Severity
    from awl_lsp.documents import analyse_text
    from awl_lsp.features.diagnostics import findings
    from awl_lsp.syntax import Encoding

    files, errors = _awl_files(args.paths)
    for e in errors:
        print(e, file=sys.stderr)
    records: list[dict] = []
    failed = bool(errors)
    workspace = Path(args.workspace).resolve() if args.workspace else None
    for path in files:
        try:
            text = _read(path)
        except (OSError, ValueError) as exc:
            print(f"awl: {path}: {exc}", file=sys.stderr)
            failed = True
            continue
        snap = analyse_text(text, path.resolve(), workspace or path.resolve().parent)
        lines = snap.doc.lines
        for f in findings(snap):
            sl, sc = lines.point_to_position(f.range[0], f.range[1], Encoding.UTF32)
            el, ec = lines.point_to_position(f.range[2], f.range[3], Encoding.UTF32)
            severity = {Severity.ERROR: "error", Severity.WARNING: "warning"}.get(f.severity, "info")
            failed = failed or f.severity is Severity.ERROR
            records.append(
                {
                    "file": str(path),
                    "line": sl + 1,
                    "column": sc + 1,
                    "end_line": el + 1,
                    "end_column": ec + 1,
                    "severity": severity,
                    "code": f.code,
                    "message": f.message,
                }
            )
    if args.format == "json":
        print(json.dumps(records, indent=2, ensure_ascii=False))
    else:
        for r in records:
            print(f"{r['file']}:{r['line']}:{r['column']}: {r['severity']}: {r['message']}")
        if not args.quiet:
            n_err = sum(r["severity"] == "error" for r in records)
            n_warn = sum(r["severity"] == "warning" for r in records)
            print(f"{len(files)} file(s) checked: {n_err} error(s), {n_warn} warning(s)", file=sys.stderr)
    return 1 if failed else 0


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
    p = sub.add_parser("check", help="report syntax and semantic problems")
    p.add_argument("paths", nargs="+", help="files or folders (folders are searched for *.awl)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument(
        "--workspace", help='folder schema("…") paths must stay inside (default: the file\'s folder)'
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no summary line")
    p.set_defaults(func=cmd_check)
    p = sub.add_parser("parse", help="print the syntax tree")
    p.add_argument("path")
    p.set_defaults(func=cmd_parse)
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
