// A bare DevTools connection to one page of a Chromium started with --remote-debugging-port: no
// domain enabled and no events, so nothing copies request bodies over the pipe as Playwright's
// Network instrumentation does (bench/upload/run.ts measures through it).
import { sleep } from './app.ts';

/**
 * A bare DevTools connection to one page (the first whose URL contains `pageUrlPart`, or whose
 * target id it is): no domain enabled, no events.
 */
export async function devtools(debugPort: number, pageUrlPart: string) {
  const list = (await (await fetch(`http://127.0.0.1:${debugPort}/json/list`)).json()) as {
    id: string;
    type: string;
    url: string;
    webSocketDebuggerUrl: string;
  }[];
  const target = list.find(
    (t) => t.type === 'page' && (t.id === pageUrlPart || t.url.includes(pageUrlPart)),
  );
  if (!target) throw new Error(`no page at ${pageUrlPart}`);
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  let next = 0;
  const waiting = new Map<number, (r: unknown) => void>();
  /** Sessions of the Workers the page started (after attachWorkers()). */
  const workers: string[] = [];
  ws.onmessage = (ev: MessageEvent<string>) => {
    const msg = JSON.parse(ev.data) as {
      id?: number;
      method?: string;
      params?: { sessionId?: string; targetInfo?: { type?: string } };
    };
    if (msg.id !== undefined) waiting.get(msg.id)?.(msg);
    if (msg.method === 'Target.attachedToTarget' && msg.params?.targetInfo?.type === 'worker') {
      workers.push(msg.params.sessionId!);
    }
  };
  interface Reply {
    result?: {
      result?: { value?: unknown; objectId?: string };
      exceptionDetails?: { exception?: { description?: string } };
    };
    error?: { message: string };
  }
  const send = async (method: string, params: object, sessionId?: string): Promise<Reply> => {
    const id = ++next;
    const reply = new Promise<unknown>((r) => waiting.set(id, r));
    ws.send(JSON.stringify({ id, method, params, sessionId }));
    const r = (await reply) as Reply;
    if (r.error) throw new Error(`${method}: ${r.error.message}`);
    if (r.result?.exceptionDetails)
      throw new Error(r.result.exceptionDetails.exception?.description ?? 'evaluation failed');
    return r;
  };
  const evaluate = async <T>(expression: string): Promise<T> =>
    (await send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true })).result
      ?.result?.value as T;
  /** Picks a file into the <input type=file> `selector` names, as a user's file dialog would. */
  const setFile = async (selector: string, file: string) => {
    const r = await send('Runtime.evaluate', {
      expression: `document.querySelector(${JSON.stringify(selector)})`,
    });
    await send('DOM.setFileInputFiles', { files: [file], objectId: r.result?.result?.objectId });
    await evaluate(
      `document.querySelector(${JSON.stringify(selector)}).dispatchEvent(new Event('change', { bubbles: true }))`,
    );
  };
  /** Polls `condition` (an expression) every 100 ms until it is true. */
  const until = async (condition: string, timeoutMs: number) => {
    const end = Date.now() + timeoutMs;
    while (!(await evaluate<boolean>(condition))) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${condition}`);
      await sleep(100);
    }
  };
  return { send, evaluate, until, setFile, workers, close: () => ws.close() };
}
