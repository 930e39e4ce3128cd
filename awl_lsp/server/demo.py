"""`make demo`: start the real server over stdio and drive a scripted editor session.

It opens every `examples/*.awl`, then prints what an editor would show: the problems of each
document, the hover of `tolerance`, the completion list on an empty workloop-header line, and
where go-to-definition lands for a `route` target.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

TIMEOUT = 20.0


def _position(text: str, needle: str, offset: int = 0) -> lsp.Position:
    index = text.index(needle) + offset
    return lsp.Position(text.count("\n", 0, index), index - (text.rfind("\n", 0, index) + 1))


def _rule(title: str) -> None:
    print(f"\n── {title} " + "─" * max(0, 72 - len(title)))


async def session(folder: Path) -> int:
    files = sorted(folder.glob("*.awl"))
    if not files:
        print(f"no .awl files in {folder}", file=sys.stderr)
        return 2
    client = LanguageClient("awl-demo", "0.1")
    diagnostics: dict[str, list[lsp.Diagnostic]] = {}
    arrived: dict[str, asyncio.Event] = {}

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def _diagnostics(params: lsp.PublishDiagnosticsParams) -> None:
        diagnostics[params.uri] = list(params.diagnostics)
        arrived.setdefault(params.uri, asyncio.Event()).set()

    await client.start_io(sys.executable, "-m", "awl_lsp", "lsp")
    await asyncio.wait_for(
        client.initialize_async(
            lsp.InitializeParams(
                capabilities=lsp.ClientCapabilities(
                    text_document=lsp.TextDocumentClientCapabilities(
                        hover=lsp.HoverClientCapabilities(content_format=[lsp.MarkupKind.PlainText])
                    )
                ),
                root_uri=folder.resolve().as_uri(),
            )
        ),
        TIMEOUT,
    )
    client.initialized(lsp.InitializedParams())
    texts: dict[str, str] = {}
    for path in files:
        uri = path.resolve().as_uri()
        texts[uri] = path.read_text(encoding="utf-8")
        arrived[uri] = asyncio.Event()
        client.text_document_did_open(
            lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "awl", 1, texts[uri]))
        )
        await asyncio.wait_for(arrived[uri].wait(), TIMEOUT)

    _rule("Problems")
    for path in files:
        uri = path.resolve().as_uri()
        items = diagnostics.get(uri, [])
        print(f"{path.name}: {len(items) or 'no'} problem(s)")
        for d in items:
            severity = "error" if d.severity == lsp.DiagnosticSeverity.Error else "warning"
            print(f"  {d.range.start.line + 1}:{d.range.start.character + 1} {severity}: {d.message}")

    loops = [u for u, t in texts.items() if "\nworkloop " in t and "tolerance" in t]
    workloop = next((u for u in loops if not diagnostics.get(u)), loops[0] if loops else None)
    if workloop is not None:
        text = texts[workloop]
        name = Path(workloop).name
        _rule(f"Hover on `tolerance` ({name})")
        hover = await asyncio.wait_for(
            client.text_document_hover_async(
                lsp.HoverParams(lsp.TextDocumentIdentifier(workloop), _position(text, "tolerance", 3))
            ),
            TIMEOUT,
        )
        contents = hover.contents if hover is not None else None
        print(contents.value if isinstance(contents, lsp.MarkupContent) else "(no hover)")

        _rule(f"Completion on a new line in the workloop header ({name})")
        header_end = text.index("\n", text.index("\n  ", text.index("workloop "))) + 1
        edited = text[:header_end] + "  \n" + text[header_end:]
        line = edited.count("\n", 0, header_end)
        client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(version=2, uri=workloop),
                [
                    lsp.TextDocumentContentChangePartial(
                        range=lsp.Range(lsp.Position(line, 0), lsp.Position(line, 0)), text="  \n"
                    )
                ],
            )
        )
        result = await asyncio.wait_for(
            client.text_document_completion_async(
                lsp.CompletionParams(lsp.TextDocumentIdentifier(workloop), lsp.Position(line, 2))
            ),
            TIMEOUT,
        )
        completions = result.items if isinstance(result, lsp.CompletionList) else (result or [])
        for item in completions:
            print(f"  {item.label:<12} {item.detail or ''}")

        _rule(f"Go to definition of a route target ({name})")
        text = edited  # the server has the completion line inserted
        route = text.index("route ", text.index("\nstep "))
        target = text[route + 6 :].split("\n", 1)[0].split("(", 1)[0].strip()
        if target == "start":
            route = text.index("route ", text.index(", route ", route) + 1)
            target = text[route + 6 :].split("\n", 1)[0].split("(", 1)[0].strip()
        location = await asyncio.wait_for(
            client.text_document_definition_async(
                lsp.DefinitionParams(
                    lsp.TextDocumentIdentifier(workloop), _position(text, f"route {target}", 7)
                )
            ),
            TIMEOUT,
        )
        loc = location[0] if isinstance(location, list) and location else location
        if not isinstance(loc, lsp.Location):
            print(f"`route {target}` → (no definition)")
        else:
            shown = text.splitlines()[loc.range.start.line]
            print(f"`route {target}` → {name}:{loc.range.start.line + 1}: {shown.strip()}")

    await asyncio.wait_for(client.shutdown_async(None), TIMEOUT)
    client.exit(None)
    await client.stop()
    return 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0] if args else "examples")
    return asyncio.run(session(folder))


if __name__ == "__main__":
    raise SystemExit(main())
