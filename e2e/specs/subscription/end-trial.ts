// `node --import tsx end-trial.ts <email>`: ends that user's running trial now, as the server's
// subscription job does once a trial's 14 days are over: its end is moved to a second ago and one
// pass of the job (applyDueChanges) runs on the e2e server's database. Only that user's trial is
// due, so no other spec's account is touched.
import { loadConfig } from '../../../apps/server/src/config.ts';
import { openDatabase } from '../../../apps/server/src/db/database.ts';
import { createLogger } from '../../../apps/server/src/logger.ts';
import { applyDueChanges } from '../../../apps/server/src/subscriptions/subscriptions.service.ts';

const email = process.argv[2];
if (!email) throw new Error('usage: end-trial.ts <email>');
const db = openDatabase(loadConfig().database);
try {
  const user = await db.kysely
    .selectFrom('user')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  await db.kysely
    .updateTable('user_subscriptions')
    .set({ trial_ends_at: new Date(Date.now() - 1000).toISOString() })
    .where('user_id', '=', user.id)
    .where('trial_outcome', 'is', null)
    .execute();
  const result = await applyDueChanges({
    db,
    now: () => new Date(),
    logger: createLogger('silent'),
  });
  if (result.trialsEnded < 1) throw new Error(`no running trial of ${email} ended`);
} finally {
  await db.close();
}
