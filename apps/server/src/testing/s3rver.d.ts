// The few parts of s3rver (v3.7, untyped JavaScript: a Koa app) that testing/s3-server.ts uses,
// its filesystem store included.
declare module 's3rver' {
  import type { IncomingMessage, Server, ServerResponse } from 'node:http';
  import type { Readable } from 'node:stream';

  export interface S3rverOptions {
    address?: string;
    port?: number;
    directory?: string;
    silent?: boolean;
    resetOnClose?: boolean;
    configureBuckets?: { name: string; configs?: string[] }[];
  }

  export interface S3rverObject {
    key: string;
    size: number;
    lastModifiedDate: Date;
    metadata: Record<string, string | number>;
  }

  export interface S3rverStore {
    listObjects(
      bucket: string,
      options: { prefix?: string; delimiter?: string; startAfter?: string; maxKeys?: number },
    ): Promise<{ objects: S3rverObject[]; commonPrefixes: string[]; isTruncated: boolean }>;
    /** `<directory>/<bucket>/<key>._S3rver_<resource>`; with no key, `<bucket>/._S3rver_<resource>`. */
    getResourcePath(bucket: string, key: string | undefined, resource: string): string;
    /** The stored headers with etag (quoted), last-modified and content-length; ENOENT if none. */
    getMetadata(bucket: string, key: string): Promise<Record<string, string | number>>;
    putPart(
      bucket: string,
      uploadId: string,
      partNumber: number,
      content: Readable,
    ): Promise<{ size: number; md5: string }>;
  }

  export interface KoaContext {
    req: IncomingMessage;
    res: ServerResponse;
    /** false: the middleware wrote the response itself. */
    respond: boolean;
  }
  export type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;

  export default class S3rver {
    constructor(options?: S3rverOptions);
    readonly store: S3rverStore;
    /** Koa's middleware stack, composed when the server starts listening. */
    middleware: Middleware[];
    httpServer?: Server;
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
