// Finding the AWL language server: which program to run, and with which arguments.
//
// Order: `awl.server.path` (run `<path> lsp`), then `awl.server.python` (run `<python> -m awl_lsp lsp`),
// then the server bundled in a platform-specific .vsix (bundled/libs: awl_lsp, pygls, lsprotocol,
// tree-sitter and the grammar binding), run by a Python >= 3.11 found as the Python extension's
// interpreter, else `python3` (`python` on Windows) on PATH; then, for a .vsix without a bundle, the
// Python extension's interpreter when it has awl_lsp installed, then `awl` on PATH.
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
  /** Extra environment for the server process (the bundle's PYTHONPATH). */
  env?: Record<string, string>;
}

export interface DiscoveryInput {
  serverPath: string;
  serverPython: string;
  workspaceFolder?: string;
  /** Asks the Python extension for its interpreter; absent or undefined when there is none. */
  pythonFromExtension?: () => Promise<string | undefined>;
  /** The extension's bundled/libs folder; absent when this .vsix carries no server. */
  bundledLibs?: string;
  env?: NodeJS.ProcessEnv;
}

export const MIN_PYTHON: [number, number] = [3, 11];

/**
 * The server process's environment: the editor's, the command's own additions, unbuffered output,
 * and the C allocator (`PYTHONMALLOC=malloc`, unless the environment names one already). The server
 * needs the C allocator to give memory back after documents close; set here, it does not re-execute
 * itself to get it, which would cost its start-up a second interpreter.
 */
export function serverEnvironment(base: NodeJS.ProcessEnv, extra?: Record<string, string>): NodeJS.ProcessEnv {
  return { PYTHONMALLOC: "malloc", ...base, ...(extra ?? {}), PYTHONUNBUFFERED: "1" };
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

/** The interpreter's (major, minor) version, or undefined when it does not run (bounded to 15 s). */
export function pythonVersion(python: string): [number, number] | undefined {
  const r = spawnSync(python, ["-c", "import sys; print(sys.version_info[0], sys.version_info[1])"], {
    timeout: 15000,
    encoding: "utf8",
  });
  const m = r.status === 0 ? /^(\d+) (\d+)/.exec(r.stdout ?? "") : null;
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

function versionOk(v: [number, number] | undefined): boolean {
  return v !== undefined && (v[0] > MIN_PYTHON[0] || (v[0] === MIN_PYTHON[0] && v[1] >= MIN_PYTHON[1]));
}

/** True when the folder holds the bundled server (awl_lsp and its grammar binding). */
export function hasBundle(libs: string | undefined): libs is string {
  return !!libs && fs.existsSync(path.join(libs, "awl_lsp", "__init__.py")) && fs.existsSync(path.join(libs, "tree_sitter_awl"));
}

async function bundledServer(
  input: DiscoveryInput,
  libs: string,
  env: NodeJS.ProcessEnv,
  notes: string[],
): Promise<ServerCommand | undefined> {
  const candidates: { python: string; source: string }[] = [];
  if (input.pythonFromExtension) {
    try {
      const python = await input.pythonFromExtension();
      if (python && isExecutableFile(python)) {
        candidates.push({ python, source: "the Python extension's interpreter" });
      }
    } catch (e) {
      notes.push(`Asking the Python extension for its interpreter failed: ${String(e)}`);
    }
  }
  for (const name of process.platform === "win32" ? ["python", "py"] : ["python3", "python"]) {
    const python = whichSync(name, env);
    if (python) {
      candidates.push({ python, source: `${name} on PATH` });
    }
  }
  for (const { python, source } of candidates) {
    const v = pythonVersion(python);
    if (versionOk(v)) {
      return {
        command: python,
        // -I would also drop PYTHONPATH; -s alone keeps the user's site-packages out.
        args: ["-s", "-m", "awl_lsp", "lsp"],
        source: `bundled server, ${source} (Python ${v![0]}.${v![1]})`,
        env: { PYTHONPATH: libs, PYTHONNOUSERSITE: "1" },
      };
    }
    notes.push(
      `${source} ${python} is ${v ? `Python ${v[0]}.${v[1]}` : "not a working Python"}; ` +
        `the bundled server needs Python >= ${MIN_PYTHON.join(".")}.`,
    );
  }
  return undefined;
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

  // 3. The server bundled in this .vsix, with a Python >= 3.11.
  const bundled = hasBundle(input.bundledLibs);
  if (bundled) {
    const server = await bundledServer(input, input.bundledLibs as string, env, notes);
    if (server) {
      return { ok: true, server, notes };
    }
  }

  // 4. (A .vsix without a bundle) the Python extension's interpreter, when awl_lsp is importable there.
  if (!bundled && input.pythonFromExtension) {
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

  // 5. `awl` on PATH.
  const awl = whichSync("awl", env);
  if (awl) {
    return { ok: true, server: { command: awl, args: ["lsp"], source: "PATH" }, notes };
  }

  if (bundled) {
    return {
      ok: false,
      setting: "awl.server.path",
      notes,
      message:
        `AWL: the bundled language server needs Python >= ${MIN_PYTHON.join(".")}, and none was found ` +
        "(python3 on PATH, or the interpreter selected in the Python extension). Install one, " +
        "or set awl.server.path to an `awl` executable.",
    };
  }
  return {
    ok: false,
    setting: "awl.server.path",
    notes,
    message:
      "AWL: no language server found. This .vsix carries none (the platform-specific ones do), and there is " +
      "no `awl` on PATH: install awl-lsp (`pipx install <awl-lsp clone or wheel>`), or set awl.server.path.",
  };
}
