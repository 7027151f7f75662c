// What deleting an account removes, in this order [Note: user deletion hooks in
// profiles/user-deletion.ts]: its share links (text links too; blobs queued for deletion), its
// vaults with their secrets and files (blobs queued for deletion),
// its subscription and payments (after keeping, if the account had a trial, the keyed hash of its
// e-mail: [Note: one trial per e-mail] in subscriptions/trial-emails.ts), its used TOTP steps, its passkeys,
// its id on the invitation it signed up with.
// Then the profile, and Better Auth's user, sessions and accounts. A feature that keeps user data
// adds its hook here.
import { deletePasskeysOfUser } from './auth/passkeys/passkeys.repository.ts';
import { deleteTotpStepsOfUser } from './auth/totp-replay.ts';
import type { UserDeletedHook } from './profiles/user-deletion.ts';
import { deleteSubscriptionsOfUser } from './subscriptions/subscriptions.service.ts';
import { rememberTrialEmail } from './subscriptions/trial-emails.ts';
import { deleteVaultsOfUser } from './vaults/vaults.service.ts';
import { deleteSharesOfUser } from './shares/shares.service.ts';
import { forgetInvitationUser } from './admin/invitations.repository.ts';

/** A new list each time: a test may add a hook of its own to its app's list. */
export const accountDeletionHooks = (): UserDeletedHook[] => [
  deleteSharesOfUser,
  deleteVaultsOfUser,
  rememberTrialEmail,
  deleteSubscriptionsOfUser,
  deleteTotpStepsOfUser,
  deletePasskeysOfUser,
  ({ db, userId }) => forgetInvitationUser(db.kysely, userId),
];
