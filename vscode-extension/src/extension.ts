// VS Code client for awl-lsp: finds the server, runs it over stdio, restarts it when it crashes.

import * as path from "path";
import * as vscode from "vscode";
import {
  CloseAction,
  ErrorAction,
  ErrorHandler,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
} from "vscode-languageclient/node";
import { discoverServer, serverEnvironment } from "./discovery";
import { registerGraphView } from "./graph";

const CLIENT_ID = "awl"; // languageclient reads the `awl.trace.server` setting from this id
const CHANNEL_NAME = "AWL Language Server";
const MAX_CRASHES = 5;
const CRASH_WINDOW_MS = 3 * 60 * 1000;

let output: vscode.OutputChannel;
let client: LanguageClient | undefined;
let bundledLibs: string | undefined; // <extension>/bundled/libs: the server a platform-specific .vsix carries
let lifecycle: Promise<void> = Promise.resolve();

export function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel(CHANNEL_NAME);
  bundledLibs = context.asAbsolutePath(path.join("bundled", "libs"));
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand("awl.restartServer", () => restart("restart requested")),
    vscode.commands.registerCommand("awl.showServerLog", () => output.show(true)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("awl.server")) {
        void restart("awl.server settings changed");
      }
    }),
  );
  registerGraphView(context, () => client);
  return serialize(startClient);
}

export function deactivate(): Promise<void> {
  return serialize(stopClient);
}

/** Start/stop/restart never overlap: each waits for the previous one. */
function serialize(step: () => Promise<void>): Promise<void> {
  lifecycle = lifecycle.then(step, step);
  return lifecycle;
}

function restart(reason: string): Promise<void> {
  return serialize(async () => {
    output.appendLine(`[client] Restarting the AWL server: ${reason}.`);
    await stopClient();
    await startClient();
  });
}

async function stopClient(): Promise<void> {
  const old = client;
  client = undefined;
  if (!old) {
    return;
  }
  try {
    await old.dispose(3000);
  } catch (e) {
    output.appendLine(`[client] Stopping the server: ${String(e)}`);
  }
}

function workspaceFolderPath(): string | undefined {
  const active = vscode.window.activeTextEditor?.document.uri;
  const folder = (active && vscode.workspace.getWorkspaceFolder(active)) ?? vscode.workspace.workspaceFolders?.[0];
  return folder?.uri.scheme === "file" ? folder.uri.fsPath : undefined;
}

/** The Python extension's interpreter, if that extension is installed (it is optional). */
async function pythonFromExtension(): Promise<string | undefined> {
  const ext = vscode.extensions.getExtension("ms-python.python");
  if (!ext) {
    return undefined;
  }
  const ask = async (): Promise<string | undefined> => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const api: any = ext.isActive ? ext.exports : await ext.activate();
    const resource = vscode.workspace.workspaceFolders?.[0]?.uri;
    const envs = api?.environments;
    if (envs?.getActiveEnvironmentPath && envs?.resolveEnvironment) {
      const resolved = await envs.resolveEnvironment(envs.getActiveEnvironmentPath(resource));
      const exe: string | undefined = resolved?.executable?.uri?.fsPath;
      if (exe) {
        return exe;
      }
    }
    const exec: string[] | undefined = api?.settings?.getExecutionDetails?.(resource)?.execCommand;
    return exec && exec.length === 1 ? exec[0] : undefined;
  };
  const timeout = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 10000));
  return Promise.race([ask(), timeout]);
}

/** Opens the Settings editor on `setting` (window-scoped: the User tab holds it, in remote windows too). */
async function openSetting(setting: string): Promise<void> {
  await vscode.commands.executeCommand("workbench.action.openSettings", setting);
}

async function showSetupError(message: string, setting: string): Promise<void> {
  const open = "Open Setting";
  const log = "Show Log";
  const choice = await vscode.window.showErrorMessage(message, open, log);
  if (choice === open) {
    await openSetting(setting);
  } else if (choice === log) {
    output.show(true);
  }
}

/**
 * Restarts after every crash of a server that was running, unless it crashed MAX_CRASHES times within
 * CRASH_WINDOW_MS. A server that never came up is not restarted: startClient reports it instead.
 */
function crashRestartHandler(wasRunning: () => boolean): ErrorHandler {
  const crashes: number[] = [];
  return {
    error: () => ({ action: ErrorAction.Continue }),
    closed: () => {
      if (!wasRunning()) {
        return { action: CloseAction.DoNotRestart, handled: true };
      }
      const now = Date.now();
      crashes.push(now);
      while (crashes.length && now - crashes[0] > CRASH_WINDOW_MS) {
        crashes.shift();
      }
      if (crashes.length < MAX_CRASHES) {
        output.appendLine(`[client] The AWL server stopped unexpectedly; restarting it (${crashes.length}).`);
        return { action: CloseAction.Restart, handled: true };
      }
      return {
        action: CloseAction.DoNotRestart,
        message:
          `The AWL server crashed ${MAX_CRASHES} times in 3 minutes and will not be restarted. ` +
          'See the "AWL Language Server" output, then run "AWL: Restart AWL server".',
      };
    },
  };
}

async function startClient(): Promise<void> {
  const folder = workspaceFolderPath();
  const cfg = vscode.workspace.getConfiguration("awl");
  const found = await discoverServer({
    serverPath: cfg.get<string>("server.path", ""),
    serverPython: cfg.get<string>("server.python", ""),
    workspaceFolder: folder,
    pythonFromExtension,
    bundledLibs,
  });
  for (const note of found.notes) {
    output.appendLine(`[client] ${note}`);
  }
  if (!found.ok) {
    output.appendLine(`[client] ${found.message}`);
    void showSetupError(found.message, found.setting);
    return;
  }

  const { command, args, source, env } = found.server;
  output.appendLine(`[client] Starting ${command} ${args.join(" ")} (from ${source}).`);
  const serverOptions: ServerOptions = {
    command,
    args, // no `transport`: stdio is the default, and naming it would append `--stdio` to the arguments
    options: { cwd: folder, env: serverEnvironment(process.env, env) },
  };
  let running = false; // becomes true once the server has answered `initialize`
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "awl" },
      { scheme: "untitled", language: "awl" },
    ],
    outputChannel: output,
    traceOutputChannel: output,
    errorHandler: crashRestartHandler(() => running),
    // keyword hovers end in a command link to the full entry (the server's `awl.guide` command)
    markdown: { isTrusted: true },
  };

  const next = new LanguageClient(CLIENT_ID, CHANNEL_NAME, serverOptions, clientOptions);
  next.onDidChangeState((e) => {
    if (e.newState === State.Running) {
      running = true;
    }
  });
  client = next;
  try {
    await next.start();
    // start() can resolve without a running server when initialization failed and the client stopped.
    if (next.state !== State.Running) {
      throw new Error("the server stopped during initialization");
    }
    output.appendLine("[client] The AWL server is running.");
  } catch (e) {
    output.appendLine(`[client] The AWL server did not start: ${String(e)}`);
    client = undefined;
    try {
      await next.dispose(1000);
    } catch {
      // already stopped
    }
    const setting = source === "awl.server.python" ? "awl.server.python" : "awl.server.path";
    void showSetupError(`AWL: the language server (${command} ${args.join(" ")}) did not start.`, setting);
  }
}
