// Finding the AWL language server: which program to run, and with which arguments.
//
// Order: `awl.server.path` (run `<path> lsp`), then `awl.server.python` (run `<python> -m awl_lsp lsp`),
// then the Python extension's interpreter when it has awl_lsp installed, then `awl` on PATH.
// This module knows nothing of VS Code so that its logic stays plain and testable.

import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

export interface ServerCommand {
  command: string;
  args: string[];
  /** Where the command came from, for the log: "awl.server.path", "PATH", … */
  source: string;
}

export interface DiscoveryInput {
  serverPath: string;
  serverPython: string;
  workspaceFolder?: string;
  /** Asks the Python extension for its interpreter; absent or undefined when there is none. */
  pythonFromExtension?: () => Promise<string | undefined>;
  env?: NodeJS.ProcessEnv;
}

export type DiscoveryResult =
  | { ok: true; server: ServerCommand; notes: string[] }
  | { ok: false; message: string; setting: string; notes: string[] };

/** Expands `~` and `${workspaceFolder}`; a relative path is taken from the workspace folder. */
export function expandPath(raw: string, workspaceFolder?: string): string {
  let p = raw.trim();
  if (p === "~" || p.startsWith("~/")) {
    p = path.join(os.homedir(), p.slice(1));
  }
  if (workspaceFolder) {
    p = p.split("${workspaceFolder}").join(workspaceFolder);
    if (!path.isAbsolute(p) && (p.includes("/") || p.includes("\\"))) {
      p = path.resolve(workspaceFolder, p);
    }
  }
  return p;
}

export function isExecutableFile(p: string): boolean {
  try {
    if (!fs.statSync(p).isFile()) {
      return false;
    }
    fs.accessSync(p, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Looks a bare command name up on PATH, as a shell would. */
export function whichSync(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (name.includes("/") || name.includes("\\")) {
    return isExecutableFile(name) ? name : undefined;
  }
  const exts = process.platform === "win32" ? (env.PATHEXT ?? ".EXE;.CMD;.BAT").split(";") : [""];
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (!dir) {
      continue;
    }
    for (const ext of exts) {
      const candidate = path.join(dir, name + ext);
      if (isExecutableFile(candidate)) {
        return candidate;
      }
    }
  }
  return undefined;
}

/** True when `python -c "import awl_lsp"` succeeds (bounded to 15 s). */
export function pythonHasAwlLsp(python: string): boolean {
  const r = spawnSync(python, ["-c", "import awl_lsp"], { timeout: 15000, stdio: "ignore" });
  return r.status === 0;
}

export async function discoverServer(input: DiscoveryInput): Promise<DiscoveryResult> {
  const env = input.env ?? process.env;
  const notes: string[] = [];

  // 1. An explicit executable wins; if it is wrong, say so rather than silently running something else.
  if (input.serverPath.trim()) {
    const resolved = whichSync(expandPath(input.serverPath, input.workspaceFolder), env);
    if (resolved) {
      return { ok: true, server: { command: resolved, args: ["lsp"], source: "awl.server.path" }, notes };
    }
    return {
      ok: false,
      setting: "awl.server.path",
      notes,
      message: `AWL: the setting awl.server.path is "${input.serverPath}", which is not an executable file.`,
    };
  }

  // 2. An explicit interpreter.
  if (input.serverPython.trim()) {
    const python = whichSync(expandPath(input.serverPython, input.workspaceFolder), env);
    if (python) {
      return {
        ok: true,
        server: { command: python, args: ["-m", "awl_lsp", "lsp"], source: "awl.server.python" },
        notes,
      };
    }
    return {
      ok: false,
      setting: "awl.server.python",
      notes,
      message: `AWL: the setting awl.server.python is "${input.serverPython}", which is not an executable file.`,
    };
  }

  // 3. The Python extension's interpreter, only when awl_lsp is importable there.
  if (input.pythonFromExtension) {
    try {
      const python = await input.pythonFromExtension();
      if (python && isExecutableFile(python)) {
        if (pythonHasAwlLsp(python)) {
          return {
            ok: true,
            server: { command: python, args: ["-m", "awl_lsp", "lsp"], source: "Python extension interpreter" },
            notes,
          };
        }
        notes.push(`The Python extension's interpreter ${python} cannot import awl_lsp; skipped.`);
      }
    } catch (e) {
      notes.push(`Asking the Python extension for its interpreter failed: ${String(e)}`);
    }
  }

  // 4. `awl` on PATH.
  const awl = whichSync("awl", env);
  if (awl) {
    return { ok: true, server: { command: awl, args: ["lsp"], source: "PATH" }, notes };
  }

  return {
    ok: false,
    setting: "awl.server",
    notes,
    message:
      "AWL: the language server was not found. Install awl-lsp (pip install awl-lsp) so that `awl` is on PATH, " +
      "or set awl.server.path (or awl.server.python).",
  };
}
