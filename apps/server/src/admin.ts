// The admin command: `npm run admin -- promote <email>` / `demote <email>` sets a profile's role
// (docs/product.md §6: admins may change plans without payment). It opens the same database as the server
// (same environment variables), applies pending migrations, updates the role and says so.
import { pathToFileURL } from 'node:url';
import { accountDeletionHooks } from './account-deletion.ts';
import { createAuth } from './auth/auth.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateAll } from './db/migrations.ts';
import { createLogger } from './logger.ts';
import { logMailer } from './mail/mailer.ts';
import { setRoleByEmail } from './profiles/profiles.repository.ts';
import { ADMIN_COMMAND_ACTOR } from '@sealvault/protocol';
import { recordAdminAction } from './admin/audit.repository.ts';

const USAGE = 'Usage: npm run admin -- promote <email> | demote <email>';

export interface AdminResult {
  code: 0 | 1;
  message: string;
}

export async function runAdmin(args: string[], config: Config): Promise<AdminResult> {
  const [command, email, ...rest] = args;
  if ((command !== 'promote' && command !== 'demote') || !email || rest.length > 0)
    return { code: 1, message: USAGE };
  const logger = createLogger('silent');
  const db = openDatabase(config.database);
  try {
    await migrateAll(
      db,
      createAuth({
        config,
        db,
        logger,
        mailer: logMailer(logger),
        userDeletion: accountDeletionHooks(),
      }),
    );
    const role = command === 'promote' ? 'admin' : 'user';
    const now = new Date();
    // The change and its audit row together, as the console writes them (issue 33).
    const found = await db.kysely.transaction().execute(async (trx) => {
      const profile = await trx
        .selectFrom('profiles')
        .select(['id', 'email', 'role'])
        .where('email', '=', email.trim().toLowerCase())
        .executeTakeFirst();
      if (!profile || !(await setRoleByEmail(trx, email, role, now))) return false;
      await recordAdminAction(
        trx,
        {
          actorId: ADMIN_COMMAND_ACTOR,
          action: 'user.role',
          target: profile.id,
          details: { email: profile.email, from: profile.role, to: role },
        },
        now,
      );
      return true;
    });
    if (!found) return { code: 1, message: `No user with the e-mail ${email}.` };
    return {
      code: 0,
      message:
        role === 'admin'
          ? `${email} is now an admin.`
          : `${email} is now a regular user (not admin).`,
    };
  } finally {
    await db.close();
  }
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const result = await runAdmin(process.argv.slice(2), config);
  (result.code === 0 ? console.log : console.error)(result.message);
  process.exit(result.code);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
