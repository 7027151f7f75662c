// A react-hook-form resolver whose validation code loads when it is first needed.
//
// [Note: auth forms without zod at start-up]
// /auth's heading is its largest paint, and it used to wait for the sign-in screen's chunks, zod
// (about 38 KiB brotli, with the protocol modules that build schemas) the largest of them. The
// forms draw their fields at once without it; the schemas (authSchemas.ts, through
// authResolvers.ts) load on the first submit, or earlier when a field gets the focus, and say
// the same as before: a resolver may answer asynchronously, so validation still runs on submit
// and re-runs on change after it, with the schemas' messages word for word. For the same reason
// the forms load the OPAQUE and passkey modules (their protocol schemas) when they use them, and
// the sign-up policy's texts come through policyTexts.ts.
import type { FieldValues, Resolver } from 'react-hook-form';

export interface LazyResolver<T extends FieldValues> extends Resolver<T> {
  /** Starts loading the validation, so that the first submit does not wait for it. */
  preload: () => void;
}

export function lazyResolver<T extends FieldValues>(
  load: () => Promise<Resolver<T>>,
): LazyResolver<T> {
  let loading: Promise<Resolver<T>> | undefined;
  const get = () => (loading ??= load());
  const resolver = async (...args: Parameters<Resolver<T>>) => (await get())(...args);
  return Object.assign(resolver, {
    preload: () => {
      // A failed load is retried by the next submit, which then reports it.
      get().catch(() => (loading = undefined));
    },
  });
}
