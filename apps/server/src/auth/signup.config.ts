// The sign-up policy's environment variable (issue 33), validated with zod inside config.ts's
// schema: SIGNUP_MODE = open (default) | invite | closed ([Note: sign-up policy] in
// auth/signup-policy.ts).
import { signupModeSchema, type SignupMode } from '@sealvault/protocol';

export const signupEnv = {
  SIGNUP_MODE: signupModeSchema.default('open'),
};

export interface SignupConfig {
  mode: SignupMode;
}

export function signupConfigFrom(e: { SIGNUP_MODE: SignupMode }): SignupConfig {
  return { mode: e.SIGNUP_MODE };
}
