// Transports between the crypto client and the service (docs/conventions.md, "Crypto"). In-process:
// direct calls. Worker: request/response messages over a Worker or MessagePort; Uint8Array
// arguments and results are transferred, not copied (and MessagePorts for peers.ts); errors travel as `{ code, message }` and
// are rebuilt as CryptoError. Many calls may be in flight at once (one id each).
import { CryptoError, fromWireError, toWireError, type WireError } from './errors.ts';
import { createCryptoService, type CryptoService } from './service.ts';

export type Method = keyof CryptoService;
type Fn = (...args: unknown[]) => Promise<unknown>;

/** How the client reaches the service. */
export interface Transport {
  /** Calls `method`; buffers listed in `transfer` are moved to the other side. */
  call<M extends Method>(
    method: M,
    args: Parameters<CryptoService[M]>,
    transfer?: Transferable[],
  ): ReturnType<CryptoService[M]>;
}

/** What a Worker, a DedicatedWorkerGlobalScope and a MessagePort have in common. */
export interface Endpoint {
  postMessage(message: unknown, transfer: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  start?(): void;
}

interface Request {
  id: number;
  method: Method;
  args: unknown[];
}
type Response =
  { id: number; ok: true; value: unknown } | { id: number; ok: false; error: WireError };

/** The buffers of a value (top level and one level down) that can be moved without a copy. */
export function transferablesOf(value: unknown): ArrayBuffer[] {
  const owned = (v: unknown): v is Uint8Array<ArrayBuffer> =>
    v instanceof Uint8Array &&
    v.buffer instanceof ArrayBuffer &&
    v.byteOffset === 0 &&
    v.byteLength === v.buffer.byteLength;
  if (owned(value)) return [value.buffer];
  if (typeof value !== 'object' || value === null) return [];
  return Object.values(value)
    .filter(owned)
    .map((v) => v.buffer);
}

function methodOf(service: CryptoService, method: unknown): Fn {
  if (typeof method !== 'string' || !Object.hasOwn(service, method)) {
    throw new CryptoError('INVALID_INPUT');
  }
  return (service[method as Method] as Fn).bind(service);
}

/** Calls the service directly, with the same error behaviour as across a Worker. */
export function inProcessTransport(service: CryptoService = createCryptoService()): Transport {
  return {
    call(method, args) {
      const run = async () => {
        try {
          return await methodOf(service, method)(...args);
        } catch (err) {
          throw fromWireError(toWireError(err));
        }
      };
      return run() as ReturnType<CryptoService[typeof method]>;
    },
  };
}

/** Answers requests arriving on `endpoint` (the Worker side; worker.ts calls this). */
export function serve(endpoint: Endpoint, service: CryptoService = createCryptoService()): void {
  endpoint.addEventListener('message', (event) => {
    const req = event.data as Request;
    void (async () => {
      let res: Response;
      try {
        const value = await methodOf(service, req.method)(...req.args);
        res = { id: req.id, ok: true, value };
      } catch (err) {
        res = { id: req.id, ok: false, error: toWireError(err) };
        // An unexpected failure crosses as a bare INTERNAL; keep its kind visible for diagnosis.
        // Only the error's name: a message could carry something it should not.
        if (res.error.code === 'INTERNAL' && err instanceof Error) {
          console.error(`crypto worker: ${req.method} failed with ${err.name}`);
        }
      }
      endpoint.postMessage(res, res.ok ? transferablesOf(res.value) : []);
    })();
  });
  endpoint.start?.();
}

/** The client side of `serve`: posts requests to a Worker (or a MessagePort). */
export function workerTransport(endpoint: Endpoint): Transport {
  let nextId = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  endpoint.addEventListener('message', (event) => {
    const res = event.data as Response;
    const p = pending.get(res.id);
    if (!p) return;
    pending.delete(res.id);
    if (res.ok) p.resolve(res.value);
    else p.reject(fromWireError(res.error));
  });
  endpoint.start?.();
  return {
    call(method, args, transfer = []) {
      const id = nextId++;
      const result = new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
      const req: Request = { id, method, args };
      endpoint.postMessage(req, transfer);
      return result as ReturnType<CryptoService[typeof method]>;
    },
  };
}
