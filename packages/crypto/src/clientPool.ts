// The crypto client's pool of transports, one per crypto Worker ([Note: crypto pool] in
// client.ts): the primary that runs the KDF and the small records, the calls made in every
// Worker, and the hand-over of a session from the primary to the others.
import { CryptoError } from './errors.ts';
import type { JobId, SessionId, VaultId } from './ids.ts';
import type { Transport } from './rpc.ts';
import type { CryptoService } from './service.ts';

type Everywhere = 'lockVault' | 'lockAll' | 'closeSession' | 'endJob';

export interface Pool {
  /** Every transport; `all[0]` is the primary. */
  readonly all: readonly Transport[];
  readonly primary: Transport;
  /** The transports after the primary. */
  readonly others: readonly Transport[];
  /** Calls `m` in every Worker with the arguments `args(w)` gives Worker `w`. */
  everywhere: <M extends Everywhere>(
    m: M,
    args: (worker: number) => Parameters<CryptoService[M]>,
  ) => Promise<void>;
  /** Sends something from the primary to Worker `i + 1` over a fresh channel between the two. */
  handOver: <R>(
    i: number,
    send: (port: MessagePort) => Promise<void>,
    receive: (t: Transport, port: MessagePort) => Promise<R>,
  ) => Promise<R>;
  /** Ends job `jobs[w]` in Worker `w`, for each w. */
  endJobs: (jobs: readonly JobId[]) => Promise<void>;
  /**
   * Opens `session` in every other Worker too; on failure, locks `vaultId` everywhere, or with
   * no vault id (a rotation, whose old session stays open) closes just this session everywhere.
   */
  share: (vaultId: VaultId | null, session: SessionId) => Promise<SessionId>;
}

export function createPool(transports: Transport | readonly Transport[]): Pool {
  const all: readonly Transport[] = Array.isArray(transports) ? transports : [transports];
  const primary = all[0];
  if (!primary) throw new CryptoError('INVALID_INPUT', 'A crypto client needs a transport');
  const others = all.slice(1);

  const everywhere: Pool['everywhere'] = (m, args) =>
    Promise.all(all.map((t, i) => t.call(m, args(i)))).then(() => undefined);

  const handOver: Pool['handOver'] = async (i, send, receive) => {
    const { port1, port2 } = new MessageChannel();
    const [, received] = await Promise.all([send(port1), receive(others[i]!, port2)]);
    return received;
  };

  const endJobs: Pool['endJobs'] = (jobs) =>
    Promise.all(jobs.map((job, i) => all[i]!.call('endJob', [job]))).then(() => undefined);

  async function share(vaultId: VaultId | null, session: SessionId): Promise<SessionId> {
    try {
      await Promise.all(
        others.map((_, i) =>
          handOver(
            i,
            (port) => primary!.call('sendSession', [session, port], [port]),
            (t, port) => t.call('receiveSession', [port], [port]),
          ),
        ),
      );
      return session;
    } catch (err) {
      const undo =
        vaultId === null
          ? everywhere('closeSession', () => [session])
          : everywhere('lockVault', () => [vaultId]);
      await undo.catch(() => undefined);
      throw err;
    }
  }

  return { all, primary, others, everywhere, handOver, endJobs, share };
}
