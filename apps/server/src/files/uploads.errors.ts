// How the upload pipeline answers a refusal: the error its tus hooks and stores throw, which
// @tus/server turns into the answer, and the texts of those answers (some shared with files
// records and the file routes).
import { uploadChecksumTexts, type ErrorCode } from '@sealvault/protocol';
import { errorBody } from '../http/errors.ts';

export const CHECKSUM_MISMATCH_STATUS = 460; // the tus checksum extension's "Checksum Mismatch"
export const texts = {
  checksumMismatch: uploadChecksumTexts.fileMismatch,
  pieceCorrupted: uploadChecksumTexts.blockCorrupted,
  duplicateName: 'A file with this name already exists in this vault.',
  duplicateId: 'A file with this id already exists.',
  uploadNotFound: 'Upload not found',
  uploadExpired: 'This upload has expired. Please upload the file again.',
  busy: 'This upload is being completed.',
  uploadLost: 'This upload could not be completed. Please upload the file again.',
  offsetMismatch: 'Upload-Offset does not match: this upload is complete.',
};

/** An error a tus hook throws: @tus/server answers with its status_code and body. */
export class TusHttpError extends Error {
  readonly status_code: number;
  readonly body: string;
  constructor(status: number, code: ErrorCode, message: string) {
    super(message);
    this.name = 'TusHttpError';
    this.status_code = status;
    this.body = JSON.stringify(errorBody(code, message));
  }
}
