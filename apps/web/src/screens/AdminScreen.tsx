// /admin (issue 33): the admin console, for the admin role only (admin/AdminConsole.tsx).
import { AdminConsole } from '../admin/AdminConsole.tsx';

export function AdminScreen() {
  return <AdminConsole />;
}
