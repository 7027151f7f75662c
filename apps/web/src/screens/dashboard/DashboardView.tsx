// The dashboard view (spec §2 "Dashboard view"): the user's vaults (vaults/VaultDashboard.tsx).
export { VaultDashboard as DashboardView } from '../../vaults/VaultDashboard.tsx';
