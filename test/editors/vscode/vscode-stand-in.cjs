/**
 * Runs the bundled extension (dist/extension.js from the .vsix) in Node.js, as VS Code's extension
 * host would, with a stand-in for the `vscode` module that records what the extension shows.
 * Usage: node vscode-stand-in.cjs <extension.js> <scenario JSON>; prints the recorded events as
 * JSON. The scenario: `settings` ("ruleServer.path": ...), `rulesetInWorkspace`, `openDocuments`
 * (file names), `answer` (the button to press on a notification), `notifications` (how many to
 * wait for), and `changedSettings` (applied after the first notification, announced as a change).
 *
 * Only the API the extension itself uses is modelled; the language client touches more when it
 * starts a process, so any other member is an inert object that records its calls.
 */
const Module = require("node:module");

const [bundle, scenarioText] = process.argv.slice(2);
const scenario = JSON.parse(scenarioText);
let settings = scenario.settings ?? {};
const events = [];
const configurationListeners = [];

const disposable = { dispose() {} };

/** Any member the stand-in does not model: callable, constructible, extensible, never a thenable. */
function inert(path) {
  const members = new Map();
  return new Proxy(function () {}, {
    get(target, key) {
      if (key === "prototype") return target.prototype;
      if (key === "then" || typeof key === "symbol") return undefined;
      if (!members.has(key)) members.set(key, inert(`${path}.${String(key)}`));
      return members.get(key);
    },
    apply() {
      return inert(`${path}()`);
    },
    construct(target, _args, newTarget) {
      return Reflect.construct(target, [], newTarget);
    },
  });
}

function withFallback(name, modelled) {
  return new Proxy(modelled, { get: (target, key) => (key in target ? target[key] : inert(`${name}.${String(key)}`)) });
}

class EventEmitter {
  constructor() {
    this.listeners = [];
    this.event = (listener) => {
      this.listeners.push(listener);
      return disposable;
    };
  }
  fire(value) {
    for (const listener of this.listeners) listener(value);
  }
  dispose() {}
}

const file = (fsPath) => ({ scheme: "file", fsPath, toString: () => `file://${fsPath}` });

const outputChannel = (name) =>
  withFallback("outputChannel", {
    name,
    logLevel: 2,
    onDidChangeLogLevel: () => disposable,
    show() {},
    dispose() {},
    append: (text) => events.push({ kind: "output", text: String(text) }),
    appendLine: (text) => events.push({ kind: "output", text: String(text) }),
    trace: (text) => events.push({ kind: "output", text: String(text) }),
    debug: (text) => events.push({ kind: "output", text: String(text) }),
    info: (text) => events.push({ kind: "output", text: String(text) }),
    warn: (text) => events.push({ kind: "output", text: String(text) }),
    error: (text) => events.push({ kind: "output", text: String(text) }),
  });

const vscode = withFallback("vscode", {
  version: "1.91.0",
  EventEmitter,
  Disposable: class {
    constructor(callOnDispose) {
      this.callOnDispose = callOnDispose;
    }
    static from(...disposables) {
      return { dispose: () => disposables.forEach((each) => each.dispose()) };
    }
    dispose() {
      this.callOnDispose?.();
    }
  },
  workspace: withFallback("workspace", {
    workspaceFolders: [{ uri: file(process.cwd()), name: "workspace", index: 0 }],
    textDocuments: (scenario.openDocuments ?? []).map((name) => ({ uri: file(name), fileName: name, languageId: "yaml" })),
    onDidOpenTextDocument: () => disposable,
    onDidChangeConfiguration: (listener) => {
      configurationListeners.push(listener);
      return disposable;
    },
    getConfiguration: (section) => ({ get: (key, fallback) => settings[section === undefined ? key : `${section}.${key}`] ?? fallback, has: () => false }),
    findFiles: async () => (scenario.rulesetInWorkspace ? [file(`${process.cwd()}/rules/a.ruleset.yaml`)] : []),
    createFileSystemWatcher: () => ({ dispose() {}, onDidCreate: () => disposable, onDidChange: () => disposable, onDidDelete: () => disposable }),
  }),
  window: withFallback("window", {
    showErrorMessage: async (message, ...items) => {
      events.push({ kind: "notification", message, items });
      return scenario.answer;
    },
    createOutputChannel: outputChannel,
  }),
  commands: {
    registerCommand: (command) => {
      events.push({ kind: "command registered", command });
      return disposable;
    },
    executeCommand: async (command, ...args) => {
      events.push({ kind: "command executed", command, args });
    },
  },
});

const load = Module._load;
Module._load = function (request, ...rest) {
  return request === "vscode" ? vscode : load.call(this, request, ...rest);
};

const notifications = () => events.filter((event) => event.kind === "notification").length;

async function waitFor(count, milliseconds) {
  for (let waited = 0; notifications() < count && waited < milliseconds; waited += 20) await new Promise((done) => setTimeout(done, 20));
}

(async () => {
  const extension = require(bundle);
  events.push({ kind: "exports", names: Object.keys(extension).sort() });
  await extension.activate({ subscriptions: [] });
  const expected = scenario.notifications ?? 0;
  await waitFor(expected, 8000);
  if (scenario.changedSettings) {
    settings = { ...settings, ...scenario.changedSettings };
    const changed = Object.keys(scenario.changedSettings);
    for (const listener of configurationListeners) listener({ affectsConfiguration: (section) => changed.some((key) => key === section || key.startsWith(`${section}.`)) });
    await waitFor(expected + 1, 8000);
  }
  // Whatever else would come (a restart, a second notification) has time to show.
  await new Promise((done) => setTimeout(done, 300));
  await extension.deactivate();
  process.stdout.write(JSON.stringify(events));
  process.exit(0);
})().catch((error) => {
  process.stderr.write(String(error && error.stack ? error.stack : error));
  process.exit(1);
});
