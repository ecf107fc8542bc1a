import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openInChromium, type ChromiumProcess } from "./headless-chromium.ts";

/**
 * One page of a real headless Chromium, driven over the Chrome DevTools Protocol: a few commands
 * on one WebSocket (Bun's own), no driver library, so nothing to download or to keep in step
 * with Debian's Chromium. Queries and clicks run as JavaScript in the page (`Runtime.evaluate`);
 * typing goes through `Input.insertText`, which fires the input events a user's typing fires.
 */
export interface DevToolsPage {
  /** The value of a JavaScript expression in the page (awaited when it is a promise). */
  evaluate<T>(expression: string): Promise<T>;
  /** Polls an expression until it is truthy and returns its value; fails with `what` and the page's errors. */
  waitFor<T>(expression: string, what: string, timeoutMs?: number): Promise<T>;
  /** Focuses the element a selector names, selects its text, and types `text` in its place. */
  typeInto(selector: string, text: string): Promise<void>;
  /** Presses one key (`Tab`, `Enter`) on the focused element. */
  press(key: "Tab" | "Enter"): Promise<void>;
  navigate(url: string): Promise<void>;
  setViewport(width: number, height: number): Promise<void>;
  /** Writes a PNG of the page (the whole page when `fullPage`). */
  screenshot(file: string, fullPage?: boolean): Promise<void>;
  /** Uncaught exceptions, console errors and refusals (Content-Security-Policy) reported so far. */
  readonly errors: string[];
  close(): Promise<void>;
}

interface Pending {
  resolve: (result: Record<string, unknown>) => void;
  reject: (error: Error) => void;
}

async function devToolsAddress(chromium: ChromiumProcess): Promise<string> {
  const file = join(chromium.profile, "DevToolsActivePort");
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (existsSync(file)) {
      const [port, path] = readFileSync(file, "utf8").split("\n");
      if (port && path) return `ws://127.0.0.1:${port}${path}`;
    }
    const exited = await Promise.race([chromium.exited.then((status) => status), Bun.sleep(50).then(() => undefined)]);
    if (exited !== undefined)
      throw new Error(`Chromium exited with ${exited} before it listened for DevTools:\n${chromium.output()}`);
    if (Date.now() > deadline)
      throw new Error(`Chromium wrote no DevToolsActivePort within 30 s:\n${chromium.output()}`);
  }
}

/** Starts Chromium (throws, never skips, when it cannot start) and opens a blank page of the given size. */
export async function openDevToolsPage(width = 1280, height = 900): Promise<DevToolsPage> {
  const chromium = openInChromium("about:blank", ["--remote-debugging-port=0", "--remote-allow-origins=*"]);
  let socket: WebSocket | undefined;
  try {
    const address = await devToolsAddress(chromium);
    socket = new WebSocket(address);
    const open = socket;
    await new Promise<void>((resolve, reject) => {
      open.addEventListener("open", () => resolve(), { once: true });
      open.addEventListener("error", () => reject(new Error(`no WebSocket to ${address}`)), { once: true });
    });
    return await attach(chromium, open, width, height);
  } catch (error) {
    socket?.close();
    await chromium.close();
    throw error;
  }
}

async function attach(
  chromium: ChromiumProcess,
  socket: WebSocket,
  width: number,
  height: number,
): Promise<DevToolsPage> {
  let lastId = 0;
  const pending = new Map<number, Pending>();
  const errors: string[] = [];
  let sessionId: string | undefined;
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as {
      id?: number;
      result?: Record<string, unknown>;
      error?: { message: string };
      method?: string;
      params?: Record<string, any>;
    };
    if (message.id !== undefined) {
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) waiting?.reject(new Error(message.error.message));
      else waiting?.resolve(message.result ?? {});
      return;
    }
    const params = message.params ?? {};
    if (message.method === "Runtime.exceptionThrown")
      errors.push(`exception: ${params.exceptionDetails?.exception?.description ?? params.exceptionDetails?.text}`);
    if (message.method === "Runtime.consoleAPICalled" && params.type === "error")
      errors.push(
        `console.error: ${params.args?.map((arg: { value?: unknown; description?: string }) => arg.value ?? arg.description).join(" ")}`,
      );
    if (message.method === "Log.entryAdded" && params.entry?.level === "error")
      errors.push(`${params.entry.source}: ${params.entry.text} ${params.entry.url ?? ""}`);
  });
  const send = (
    method: string,
    params: Record<string, unknown> = {},
    session = sessionId,
  ): Promise<Record<string, any>> => {
    const id = ++lastId;
    socket.send(JSON.stringify({ id, method, params, ...(session === undefined ? {} : { sessionId: session }) }));
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      setTimeout(() => {
        if (pending.delete(id))
          reject(new Error(`${method}: no answer from Chromium within 30 s\n${chromium.output()}`));
      }, 30_000);
    });
  };
  const { targetId } = await send("Target.createTarget", { url: "about:blank" });
  sessionId = (await send("Target.attachToTarget", { targetId, flatten: true })).sessionId as string;
  await Promise.all([send("Runtime.enable"), send("Page.enable"), send("Log.enable")]);

  const evaluate = async <T>(expression: string): Promise<T> => {
    const answer = await send("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true });
    if (answer.exceptionDetails)
      throw new Error(
        `${expression}\nthrew ${answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text}`,
      );
    return answer.result?.value as T;
  };
  const waitFor = async <T>(expression: string, what: string, timeoutMs = 15_000): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await evaluate<T>(expression);
      if (value) return value;
      if (Date.now() > deadline)
        throw new Error(`waited ${timeoutMs} ms for ${what}; the page reported: ${errors.join("\n") || "no error"}`);
      await Bun.sleep(50);
    }
  };
  const setViewport = async (w: number, h: number): Promise<void> => {
    await send("Emulation.setDeviceMetricsOverride", { width: w, height: h, deviceScaleFactor: 1, mobile: false });
  };
  await setViewport(width, height);
  return {
    evaluate,
    waitFor,
    errors,
    setViewport,
    async typeInto(selector, text) {
      await evaluate(
        `(() => { const element = document.querySelector(${JSON.stringify(selector)}); if (!element) throw new Error("no element " + ${JSON.stringify(selector)}); element.focus(); element.select(); })()`,
      );
      await send("Input.insertText", { text });
    },
    async press(key) {
      const code = { Tab: 9, Enter: 13 }[key];
      await send("Input.dispatchKeyEvent", {
        type: "keyDown",
        key,
        code: key,
        windowsVirtualKeyCode: code,
        ...(key === "Enter" ? { text: "\r" } : {}),
      });
      await send("Input.dispatchKeyEvent", { type: "keyUp", key, code: key, windowsVirtualKeyCode: code });
    },
    async navigate(url) {
      await send("Page.navigate", { url });
      await waitFor(`location.href !== "about:blank" && document.readyState === "complete"`, `${url} to load`);
    },
    async screenshot(file, fullPage = false) {
      const { data } = await send("Page.captureScreenshot", { format: "png", captureBeyondViewport: fullPage });
      writeFileSync(file, Buffer.from(data as string, "base64"));
    },
    async close() {
      socket.close();
      await chromium.close();
    },
  };
}
