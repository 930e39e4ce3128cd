// "AWL: Show Flow Graph": a webview beside the editor that draws the document's flow graph.
//
// The server draws the graph (the `awl/graph` request returns the newest snapshot's graph with an SVG
// laid out by awl-lsp itself), so the webview loads nothing: no scripts or styles but its own inline
// ones (allowed by nonce under a strict content-security policy), no network. It redraws as you type,
// follows the colour theme through VS Code's CSS variables, highlights the step under the cursor and
// reveals a step in the editor when its node is clicked.

import * as vscode from "vscode";
import type { LanguageClient } from "vscode-languageclient/node";
import { graphHtml, nonce } from "./graphPage";

export const SHOW_GRAPH_COMMAND = "awl.showFlowGraph";
const VIEW_TYPE = "awl.flowGraph";
const REDRAW_DELAY_MS = 150;

interface GraphAnswer {
  flow: string;
  kind: string;
  svg: string;
  focus?: string | null;
  nodes: { id: string; kind: string; line: number }[];
}

class GraphPanel {
  private timer: NodeJS.Timeout | undefined;
  private disposables: vscode.Disposable[] = [];

  constructor(
    private readonly panel: vscode.WebviewPanel,
    private document: vscode.TextDocument,
    private readonly client: () => LanguageClient | undefined,
  ) {
    const n = nonce();
    panel.webview.html = graphHtml(panel.webview.cspSource, n);
    this.disposables.push(
      panel.webview.onDidReceiveMessage((m) => this.onMessage(m)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document === this.document) {
          this.schedule();
        }
      }),
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        if (editor && editor.document.languageId === "awl" && editor.document !== this.document) {
          this.document = editor.document;
          this.schedule();
        }
      }),
      vscode.window.onDidChangeTextEditorSelection((e) => {
        if (e.textEditor.document === this.document) {
          this.schedule();
        }
      }),
    );
    panel.onDidDispose(() => this.dispose());
  }

  show(document: vscode.TextDocument): void {
    this.document = document;
    this.panel.reveal(vscode.ViewColumn.Beside, true);
    this.schedule();
  }

  private schedule(): void {
    if (this.timer) {
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => void this.redraw(), REDRAW_DELAY_MS);
  }

  private cursorLine(): number | undefined {
    const editor = vscode.window.visibleTextEditors.find((e) => e.document === this.document);
    return editor?.selection.active.line;
  }

  async redraw(): Promise<void> {
    const c = this.client();
    if (!c) {
      void this.panel.webview.postMessage({ type: "status", text: "The AWL server is not running." });
      return;
    }
    const line = this.cursorLine();
    const params: Record<string, unknown> = { textDocument: { uri: this.document.uri.toString() } };
    if (line !== undefined) {
      params.position = { line, character: 0 };
    }
    try {
      const answer = await c.sendRequest<GraphAnswer | null>("awl/graph", params);
      if (!answer) {
        void this.panel.webview.postMessage({ type: "status", text: "No graph: the server has not seen this document." });
        return;
      }
      const title = answer.flow ? `${answer.kind} ${answer.flow}` : "No workflow or workloop declared.";
      this.panel.title = answer.flow ? `Flow: ${answer.flow}` : "AWL flow graph";
      void this.panel.webview.postMessage({ type: "graph", svg: answer.svg, focus: answer.focus, title });
    } catch (e) {
      void this.panel.webview.postMessage({ type: "status", text: `The graph could not be drawn: ${String(e)}` });
    }
  }

  private async onMessage(m: { type: string; line?: number }): Promise<void> {
    if (m.type === "ready") {
      await this.redraw();
    } else if (m.type === "reveal" && typeof m.line === "number" && m.line > 0) {
      const editor = await vscode.window.showTextDocument(this.document, {
        viewColumn: vscode.ViewColumn.One,
        preserveFocus: false,
      });
      const position = new vscode.Position(m.line - 1, 0);
      editor.selection = new vscode.Selection(position, position);
      editor.revealRange(new vscode.Range(position, position), vscode.TextEditorRevealType.InCenter);
    }
  }

  dispose(): void {
    if (this.timer) {
      clearTimeout(this.timer);
    }
    for (const d of this.disposables) {
      d.dispose();
    }
    this.disposables = [];
    current = undefined;
  }
}

let current: GraphPanel | undefined;

/** Registers "AWL: Show Flow Graph"; `client` gives the running language client, if any. */
export function registerGraphView(
  context: vscode.ExtensionContext,
  client: () => LanguageClient | undefined,
): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(SHOW_GRAPH_COMMAND, () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor || editor.document.languageId !== "awl") {
        void vscode.window.showInformationMessage("AWL: open an .awl document to see its flow graph.");
        return;
      }
      if (current) {
        current.show(editor.document);
        return;
      }
      const panel = vscode.window.createWebviewPanel(
        VIEW_TYPE,
        "AWL flow graph",
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        { enableScripts: true, localResourceRoots: [], retainContextWhenHidden: false },
      );
      current = new GraphPanel(panel, editor.document, client);
    }),
  );
}
