// The load bench's operations (bench/load/run.ts): what each kind of operation of the mix sends,
// as an account's browser would, and the accounts they act for. Split from run.ts, which sets up
// the accounts, runs the loops and reports.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { ciphertextLength, UPLOAD_CHECKSUM_HEADER, UPLOADS_PATH } from '@sealvault/protocol';
import { contentHash } from '../../apps/server/src/testing/content-hash.ts';
import { cookieAfter } from '../../apps/server/src/testing/users.ts';
import { type client, countError, timed } from './measure.ts';

/** The kinds of operation of the mix. */
export type OpKind = 'vaults' | 'secrets' | 'createSecret' | 'upload' | 'download';

export interface Account {
  /** The Cookie header this account sends now (renewed by Set-Cookie answers). */
  cookie: string;
  secretsVault: string;
  filesVault: string;
  /** Secrets encrypted before the run, taken one by one to be created. */
  pool: { id: string; data: string }[];
  /** Secrets created (id to ciphertext) and files uploaded (id to bytes) during the run. */
  created: Map<string, string>;
  /** The secrets list's last ETag, sent back as If-None-Match as the browser's cache does. */
  secretsTag?: string;
  uploaded: Map<string, Buffer>;
}

const metadata = (meta: Record<string, string>) =>
  Object.entries(meta)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');

/**
 * The request function every operation uses (an account's cookies renewed by Set-Cookie answers)
 * and the operations themselves. `revalidate`: the secrets list is asked again with If-None-Match
 * (ADR 0015); `onNotModified` counts its 304 answers.
 */
export function operations(
  base: string,
  http: ReturnType<typeof client>,
  revalidate: boolean,
  onNotModified: () => void,
) {
  /** A request as the account's browser sends it; Set-Cookie answers renew its cookies. */
  const request = async (
    a: Account,
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: Buffer,
  ) => {
    const res = await http(base, method, path, headers, body);
    const set = res.headers['set-cookie'];
    if (set?.length) a.cookie = cookieAfter(a.cookie, set);
    return res;
  };
  const json = (a: Account) => ({
    cookie: a.cookie,
    origin: base,
    'content-type': 'application/json',
  });
  const tus = (a: Account) => ({ cookie: a.cookie, origin: base, 'tus-resumable': '1.0.0' });

  // `due`: when the operation was due (the open loop's schedule); its first request's latency
  // counts from then.
  const ops: Record<OpKind, (a: Account, due?: number) => Promise<void>> = {
    vaults: async (a, due) => {
      await timed(
        'GET vaults',
        [200],
        () => request(a, 'GET', '/api/vaults', { cookie: a.cookie }),
        due,
      );
    },
    // The app's list is kept by the browser's HTTP cache and asked again with If-None-Match
    // ([Note: conditional secrets list] in apps/server/src/secrets/secrets.routes.ts); this
    // account does the same unless BENCH_LOAD_REVALIDATE=0 (every list read whole, as before).
    secrets: async (a, due) => {
      const ask: Record<string, string> =
        revalidate && a.secretsTag ? { 'if-none-match': a.secretsTag } : {};
      const res = await timed(
        'GET secrets',
        ask['if-none-match'] ? [200, 304] : [200],
        () =>
          request(a, 'GET', `/api/vaults/${a.secretsVault}/secrets`, {
            cookie: a.cookie,
            ...ask,
          }),
        due,
      );
      if (res.status === 304) onNotModified();
      const tag = res.headers.etag;
      if (res.status === 200 && typeof tag === 'string') a.secretsTag = tag;
    },
    createSecret: async (a, due) => {
      const item = a.pool.pop();
      if (!item) return ops.secrets(a, due);
      const body = Buffer.from(
        JSON.stringify({ id: item.id, revision: 1, data: item.data, key_revision: 0 }),
      );
      const res = await timed(
        'POST secret',
        [201],
        () => request(a, 'POST', `/api/vaults/${a.secretsVault}/secrets`, json(a), body),
        due,
      );
      if (res.status === 201) a.created.set(item.id, item.data);
    },
    upload: async (a, due) => {
      // 4 to 64 KiB of plaintext: the size of a note or a small image, one PATCH.
      const bytes = randomBytes(ciphertextLength(4096 + Math.floor(Math.random() * 61_440)));
      const fileId = randomUUID();
      const meta = {
        vaultId: a.filesVault,
        fileId,
        checksum: contentHash(bytes),
        encMeta: randomBytes(140).toString('base64'),
        lookup: randomBytes(32).toString('hex'),
        wrappedKey: randomBytes(60).toString('base64'),
        keyRevision: '0',
      };
      const created = await timed(
        'tus POST',
        [201],
        () =>
          request(a, 'POST', UPLOADS_PATH, {
            ...tus(a),
            'upload-length': String(bytes.length),
            'upload-metadata': metadata(meta),
          }),
        due,
      );
      const location = created.headers.location;
      if (created.status !== 201 || !location) return;
      const sha = createHash('sha256').update(bytes).digest('base64');
      const patched = await timed('tus PATCH', [204], () =>
        request(
          a,
          'PATCH',
          location,
          {
            ...tus(a),
            'content-type': 'application/offset+octet-stream',
            'upload-offset': '0',
            [UPLOAD_CHECKSUM_HEADER]: `sha256 ${sha}`,
          },
          bytes,
        ),
      );
      if (patched.status === 204) a.uploaded.set(fileId, bytes);
    },
    download: async (a, due) => {
      const ids = [...a.uploaded.keys()];
      if (ids.length === 0) return ops.upload(a, due);
      const id = ids[Math.floor(Math.random() * ids.length)]!;
      const res = await timed(
        'GET file content',
        [200],
        () =>
          request(a, 'GET', `/api/vaults/${a.filesVault}/files/${id}/content`, {
            cookie: a.cookie,
          }),
        due,
      );
      if (res.status === 200 && !res.body.equals(a.uploaded.get(id)!)) {
        countError('GET file content', 'not the bytes uploaded');
      }
    },
  };
  return { request, ops };
}
