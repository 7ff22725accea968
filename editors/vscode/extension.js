// The Star extension: the grammar and language configuration come from package.json; this
// file starts the language server, `star lsp`, over stdio (vscode-languageclient).
'use strict';

const os = require('os');
const path = require('path');
const vscode = require('vscode');

let client;    // the running LanguageClient, if any
let output;    // the output channel shared by successive clients

// star.path, with `~` and ${workspaceFolder} expanded; a bare name is left to PATH.
function starExecutable() {
  let exe = vscode.workspace.getConfiguration('star').get('path') || 'star';
  const folder = vscode.workspace.workspaceFolders && vscode.workspace.workspaceFolders[0];
  exe = exe.replace(/\$\{workspaceFolder\}/g, folder ? folder.uri.fsPath : '');
  if (exe === '~' || exe.startsWith('~/')) exe = path.join(os.homedir(), exe.slice(1));
  return exe;
}

async function startClient() {
  let lc;
  try {
    lc = require('vscode-languageclient/node');
  } catch (e) {
    vscode.window.showWarningMessage(
      'Star: vscode-languageclient is not installed (run `npm install` in the extension folder). ' +
      'Highlighting works; the language server is off.');
    return;
  }
  const command = starExecutable();
  const serverOptions = { command, args: ['lsp'], transport: lc.TransportKind.stdio };
  const clientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'star' },
      { scheme: 'untitled', language: 'star' },
    ],
    outputChannel: output,
  };
  client = new lc.LanguageClient('star', 'Star language server', serverOptions, clientOptions);
  try {
    await client.start();
  } catch (e) {
    client = undefined;
    vscode.window.showErrorMessage(
      `Star: could not start \`${command} lsp\`: ${e.message || e}. ` +
      'Set "star.path" to the star executable (for example build/bin/star).');
  }
}

async function stopClient() {
  if (!client) return;
  const c = client;
  client = undefined;
  try {
    await c.stop();
  } catch (e) {
    // The server may already be gone; nothing to do.
  }
}

async function restartClient() {
  await stopClient();
  await startClient();
}

function activate(context) {
  output = vscode.window.createOutputChannel('Star language server');
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('star.restartServer', restartClient),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('star.path')) restartClient();
    }),
  );
  return startClient();
}

function deactivate() {
  return stopClient();
}

module.exports = { activate, deactivate };
