// The flow-graph webview's page (see graph.ts): a strict content-security policy, styles that follow
// the colour theme, and the small script that shows the server's SVG and reports clicks. Kept free of
// the `vscode` module so unit tests can load it.

export function nonce(): string {
  const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  let out = "";
  for (let i = 0; i < 32; i++) {
    out += chars.charAt(Math.floor(Math.random() * chars.length));
  }
  return out;
}

/** The webview's whole page: a strict CSP, theme-following styles, and the script that draws. */
export function graphHtml(cspSource: string, n: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${cspSource} data:; style-src 'nonce-${n}'; script-src 'nonce-${n}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>AWL flow graph</title>
<style nonce="${n}">
  body { color: var(--vscode-editor-foreground); background: var(--vscode-editor-background);
         font-family: var(--vscode-font-family); margin: 0; padding: 8px; }
  #status { font-size: 12px; opacity: 0.8; margin-bottom: 6px; }
  #graph svg { max-width: 100%; height: auto; }
  #graph text { fill: var(--vscode-editor-foreground); }
  #graph .node rect { fill: var(--vscode-editorWidget-background); stroke: var(--vscode-editorWidget-border, var(--vscode-contrastBorder, #888)); }
  #graph .node.outcome rect { stroke: var(--vscode-charts-green, #3a3); }
  #graph .node.start rect { stroke: var(--vscode-charts-orange, #d80); }
  #graph .node.detached rect, #graph .node.child rect, #graph .node.subflow rect { stroke: var(--vscode-charts-purple, #a3d); }
  #graph .node { cursor: pointer; }
  #graph .node.focus rect { stroke: var(--vscode-focusBorder); stroke-width: 3px; }
  #graph path.edge { stroke: var(--vscode-editor-foreground); opacity: 0.7; }
  #graph path.edge.failure { stroke: var(--vscode-errorForeground); opacity: 1; }
  #graph marker path { fill: var(--vscode-editor-foreground); }
  #graph .cluster { stroke: var(--vscode-editorIndentGuide-activeBackground, #888); }
</style></head>
<body><div id="status">Waiting for the AWL server…</div><div id="graph"></div>
<script nonce="${n}">
  const vscode = acquireVsCodeApi();
  const graph = document.getElementById("graph");
  const status = document.getElementById("status");
  function focus(id) {
    for (const g of graph.querySelectorAll(".node.focus")) g.classList.remove("focus");
    if (!id) return;
    for (const g of graph.querySelectorAll(".node")) {
      if (g.getAttribute("data-id") === id) g.classList.add("focus");
    }
  }
  window.addEventListener("message", (event) => {
    const m = event.data;
    if (m.type === "graph") {
      status.textContent = m.title;
      graph.innerHTML = m.svg;
      focus(m.focus);
      vscode.setState({ title: m.title });
    } else if (m.type === "focus") {
      focus(m.focus);
    } else if (m.type === "status") {
      status.textContent = m.text;
    }
  });
  graph.addEventListener("click", (event) => {
    const node = event.target.closest ? event.target.closest(".node") : null;
    if (node) vscode.postMessage({ type: "reveal", id: node.getAttribute("data-id"), line: Number(node.getAttribute("data-line")) });
  });
  vscode.postMessage({ type: "ready" });
</script></body></html>`;
}

