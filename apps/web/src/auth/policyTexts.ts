// The names and texts of the sign-up policy and of a disabled account (issue 33), loaded when a
// screen needs them: their protocol modules (instance.ts, admin.ts) build zod schemas, which /auth
// does not wait for ([Note: auth forms without zod at start-up] in lazyResolver.ts).
export {
  ACCOUNT_DISABLED_CODE,
  adminMessages,
  INVITE_HEADER,
  signupErrorText,
  signupMessages,
} from '@sealvault/protocol';
