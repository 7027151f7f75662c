// User-facing texts from the product spec (shared/spec/docs/product.md, §2, §5 and §8), verbatim.
// Defined once here and imported by web and server, so a text never drifts between the two.

export const messages = {
  auth: {
    loginFailed: 'Login failed',
    googleLoginFailed: 'Google login failed',
    googleSignupFailed: 'Google signup failed',
    registrationFailed: 'Registration failed',
    notAuthenticated: 'User not authenticated',
    passwordsDoNotMatch: 'Passwords do not match',
    signupPasswordTooShort: 'Password must be at least 6 characters',
    accountCreated: 'Account created successfully! Please check your email to verify your account.',
    // Ours (the spec shows none for these): account settings and sign-in states.
    invalidPassword: 'Invalid password',
    passwordRequired: 'Please enter your password to confirm.',
    signInAgain: 'Please sign in again to confirm this change.',
    tooManyRequests: 'Too many attempts. Please wait a minute and try again.',
  },
  vaults: {
    limitReached:
      'You have reached your vault limit. Please upgrade your subscription to create more file and secrets vaults.',
    createFailed: 'Failed to create vault',
    notFound: 'Vault not found',
    outdated: 'Vault is in an outdated format and cannot be unlocked. Please recreate it.',
    invalidPassword: 'Invalid password',
    notUnlocked: 'Vault is not unlocked',
    deleteFailed: 'Failed to delete vault',
    visibilityFailed: 'Failed to update vault visibility',
    sessionExpired: 'Vault session expired. Please unlock the vault again.',
    sessionNotFound: 'Vault session not found or expired.',
    passwordTooShort: 'Password must be at least 8 characters',
    selectProvider: 'Please select a storage provider',
    // Ours (the spec shows none for it): a vault password change the server did not take.
    passwordChangeFailed: 'Failed to change vault password',
    // Ours (issue 25): the unlock dialog after a write found the keys rotated on another device.
    keysChangedElsewhere:
      "This vault's keys were changed on another device. Unlock it with its current password.",
    // Ours (issue 25): a second vault of the same name (vaultNames.ts) could not be told apart.
    duplicateName: 'You already have a vault with this name. Choose another name.',
  },
  plans: {
    adminRequired: 'Admin privileges required',
    upgradeFailed: 'Failed to upgrade subscription',
    unexpected: 'An unexpected error occurred',
    noPlans: 'No subscription plans are currently available. Please check back later.',
  },
  files: {
    notFound: 'File not found',
    dataNotFound: 'File data not found',
    uploadFailed: 'Failed to upload file',
    renameFailed: 'Failed to rename file',
    deleteFailed: 'Failed to delete file',
    deleteFailedRetry: 'Delete failed. Please try again.',
    downloadFailed: 'Download failed. Please try again.',
    // Ours (issue 28): several files saved as one ZIP (apps/web/src/files/transfer/zip.ts).
    zipTooLarge:
      'This browser can only save a ZIP under 50 MB. Select fewer files, or download them one by one.',
    zipSizeMismatch: 'A file did not match its recorded size, so the ZIP was not completed.',
  },
  secrets: {
    createFailed: 'Failed to create secret',
    updateFailed: 'Failed to update secret',
    deleteFailed: 'Failed to delete secret',
    notFound: 'Secret not found',
  },
  // Ours (issue 27): moving a vault to another provider. The counted and named texts are
  // moveNotVerifiedMessage and vaultMovedMessage in moves.ts.
  moves: {
    sameProvider: 'This vault is already kept there. Choose another storage provider.',
    noMove: 'This vault has no move in progress. Start the move again.',
    copyMismatch:
      'The copy of a file on the new provider does not match the original, so it was not used. The move copies it again.',
    notFilesVault: 'Only a files vault keeps files to move.',
    serverRecordsItsCopies:
      'Files moving to SealVault storage are recorded by their upload, not by the browser.',
    // Ours (issue 28, [Note: trash] in files.ts): records whose data the trash purge deleted
    // have nothing to copy; the browser deletes them when the vault is opened.
    purgedFiles:
      'Some files of this vault were deleted for good from its trash. Open the vault again so that it removes them, then move it.',
  },
  generic: {
    notFound: 'Not found',
    badRequest: 'The request is not valid.',
    internal: 'Something went wrong on our side. Please try again.',
    // Ours: a change the server could not save because its disk is full (503 'storage_full';
    // uploads say so with serverStorageFullMessage, 507).
    storageFull:
      'The server is out of storage space, so this could not be saved. Please try again later.',
  },
} as const;
